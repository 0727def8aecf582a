import { status } from '@grpc/grpc-js';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { runAdmin } from '../src';
import { ADMIN_TOKEN, startService, type RunningService } from '@accord/testkit';

let svc: RunningService<'oauth'>;
beforeAll(async () => {
  svc = await startService('oauth', 'oauthsessions');
});
afterAll(async () => svc?.stop());

const session = { subject: 'user-1', issuer: 'shop', groupId: 'g1', targets: [], ttlSeconds: 0 };

describe('allowed origins of an application', () => {
  it('set-origins stores canonical origins, shown by apps, and CheckOrigin answers per application and for any', async () => {
    const app = await svc.client.bootstrap({ accountName: 'origins', appName: 'web', scopes: [] }, { metadata: svc.admin });
    let stdout = '';
    const code = await runAdmin(['set-origins', '--app', app.appId, '--origins', 'https://Shop.Example:443,http://127.0.0.1:5173', '--json'], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: () => true },
      env: { ACCORD_OAUTH_ADDR: svc.addr, ACCORD_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ appId: app.appId, allowedOrigins: ['https://shop.example', 'http://127.0.0.1:5173'] });
    const { applications } = await svc.client.listApplications({ accountId: app.accountId }, { metadata: svc.admin });
    expect(applications[0]!.allowedOrigins).toEqual(['https://shop.example', 'http://127.0.0.1:5173']);

    expect((await svc.client.checkOrigin({ origin: 'https://shop.example', appId: app.appId })).allowed).toBe(true);
    expect((await svc.client.checkOrigin({ origin: 'https://shop.example', appId: '' })).allowed).toBe(true);
    expect((await svc.client.checkOrigin({ origin: 'https://evil.example', appId: '' })).allowed).toBe(false);
    const other = await svc.client.bootstrap({ accountName: 'origins', appName: 'other', scopes: [] }, { metadata: svc.admin });
    expect((await svc.client.checkOrigin({ origin: 'https://shop.example', appId: other.appId })).allowed).toBe(false);
  });

  it('SetAllowedOrigins needs the admin token and refuses a wildcard with the index at fault', async () => {
    const app = await svc.client.bootstrap({ accountName: 'origins2', appName: 'web', scopes: [] }, { metadata: svc.admin });
    await expect(svc.clientAs('none').setAllowedOrigins({ appId: app.appId, origins: ['https://a.example'] })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    await expect(
      svc.client.setAllowedOrigins({ appId: app.appId, origins: ['https://a.example', 'https://*.example'] }, { metadata: svc.admin }),
    ).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringContaining('/origins/1'),
    });
    await expect(svc.client.setAllowedOrigins({ appId: 'nope', origins: [] }, { metadata: svc.admin })).rejects.toMatchObject({ code: status.NOT_FOUND });
  });
});

describe('consent sessions', () => {
  it('are signed with the access-token keys, typed accord-session+jwt and bound to account, app, subject, issuer and group', async () => {
    const app = await svc.client.bootstrap({ accountName: 'sessions', appName: 'web', scopes: [] }, { metadata: svc.admin });
    const s = await svc.client.createConsentSession({ ...session, accountId: app.accountId, appId: app.appId, ttlSeconds: 60 });
    expect(decodeProtectedHeader(s.sessionToken).typ).toBe('accord-session+jwt');
    const { jwks } = await svc.client.getJwks({});
    const { payload } = await jwtVerify(s.sessionToken, createLocalJWKSet(jwks as never), { issuer: 'http://accord.test/oauth/v0', audience: 'accord' });
    expect(payload).toMatchObject({ sub: 'user-1', cis: 'shop', grp: 'g1', acc: app.accountId, app: app.appId });
    expect(s.expiresAt!.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(s.expiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(61_000);
  });

  it('are refused for an application of another account', async () => {
    const a = await svc.client.bootstrap({ accountName: 'sessions-a', appName: 'web', scopes: [] }, { metadata: svc.admin });
    const b = await svc.client.bootstrap({ accountName: 'sessions-b', appName: 'web', scopes: [] }, { metadata: svc.admin });
    await expect(svc.client.createConsentSession({ ...session, accountId: a.accountId, appId: b.appId })).rejects.toMatchObject({ code: status.NOT_FOUND });
  });
});
