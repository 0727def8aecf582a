import { status } from '@grpc/grpc-js';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { jwkToJson } from '@accord/common';
import type { oauthv1 } from '@accord/proto';
import { startService, tokenRequest, type RunningService } from '@accord/testkit';

let svc: RunningService<'oauth'>;
let app: oauthv1.BootstrapResponse;
let other: oauthv1.BootstrapResponse;

beforeAll(async () => {
  svc = await startService('oauth', 'oauthtoken');
  app = await svc.client.bootstrap({ accountName: 'acme', appName: 'web', scopes: ['consent', 'dataprocessing'] }, { metadata: svc.admin });
  other = await svc.client.bootstrap({ accountName: 'globex', appName: 'api', scopes: ['consent', 'dataprocessing', 'webhooks'] }, { metadata: svc.admin });
});
afterAll(async () => svc?.stop());

const cc = (over: Partial<oauthv1.IssueTokenRequest> = {}) =>
  svc.client.issueToken(tokenRequest({ grantType: 'client_credentials', clientId: app.clientId, clientSecret: app.clientSecret, ...over }));
const refresh = (refreshToken: string, over: Partial<oauthv1.IssueTokenRequest> = {}) =>
  svc.client.issueToken(tokenRequest({ grantType: 'refresh_token', clientId: app.clientId, clientSecret: app.clientSecret, refreshToken, ...over }));

describe('client_credentials grant', () => {
  it('issues a Bearer access token, a refresh token and expires_in in seconds for a requested scope', async () => {
    const res = await cc({ scope: 'consent' });
    expect(res.error).toBeUndefined();
    expect(res.token).toEqual({
      accessToken: expect.any(String),
      expiresIn: 3600,
      scope: 'consent',
      refreshToken: expect.stringMatching(/^rt_[0-9a-f-]{36}\.0\.[\w-]{43}$/),
      tokenType: 'Bearer',
    });
  });

  it('grants several space-separated scopes, and all of the application scopes when none is requested', async () => {
    expect((await cc({ scope: 'dataprocessing consent' })).token?.scope).toBe('consent dataprocessing');
    expect((await cc({ scope: '' })).token?.scope).toBe('consent dataprocessing');
  });

  it('answers invalid_client for a wrong secret and for an unknown client, with the same description', async () => {
    const wrong = await cc({ clientSecret: 'cs_' + 'x'.repeat(43) });
    const unknown = await cc({ clientId: 'cl_doesnotexist' });
    expect(wrong.error?.error).toBe('invalid_client');
    expect(unknown.error?.error).toBe('invalid_client');
    expect(unknown.error?.errorDescription).toBe(wrong.error?.errorDescription);
    expect(wrong.token).toBeUndefined();
  });

  it('gives each of 30 concurrent grants (stored together by group commit) its own working refresh token', async () => {
    const grants = await Promise.all(Array.from({ length: 30 }, () => cc({ scope: 'consent' })));
    const tokens = grants.map((g) => g.token!.refreshToken);
    expect(new Set(tokens.map((t) => t.split('.')[0])).size).toBe(30);
    const refreshed = await Promise.all(tokens.map((t) => refresh(t)));
    expect(refreshed.map((r) => r.error)).toEqual(tokens.map(() => undefined));
    expect(refreshed.every((r) => /\.1\./.test(r.token!.refreshToken))).toBe(true);
  });

  it('answers invalid_client when the secret of another application is presented', async () => {
    expect((await cc({ clientSecret: other.clientSecret })).error?.error).toBe('invalid_client');
  });

  it('answers invalid_client when no credentials are given', async () => {
    expect((await cc({ clientId: '', clientSecret: '' })).error?.error).toBe('invalid_client');
  });

  it('answers invalid_scope for a scope the application was not given, and for an unknown scope', async () => {
    expect((await cc({ scope: 'consent webhooks' })).error).toEqual({ error: 'invalid_scope', errorDescription: expect.stringContaining('webhooks') });
    expect((await cc({ scope: 'admin' })).error?.error).toBe('invalid_scope');
  });

  it('answers unsupported_grant_type for password and invalid_request without grant_type', async () => {
    expect((await cc({ grantType: 'password' })).error?.error).toBe('unsupported_grant_type');
    expect((await cc({ grantType: '' })).error?.error).toBe('invalid_request');
  });
});

describe('access token', () => {
  it('is an ES256 at+jwt that verifies with the GetJwks keys and carries the account, application and scope', async () => {
    const res = await cc({ scope: 'consent' });
    const { jwks } = await svc.client.getJwks({});
    const keySet = createLocalJWKSet({ keys: (jwks?.keys ?? []).map(jwkToJson) as unknown as JWK[] });
    const { payload, protectedHeader } = await jwtVerify(res.token!.accessToken, keySet, {
      issuer: 'http://accord.test/oauth/v0',
      audience: 'accord',
      typ: 'at+jwt',
      algorithms: ['ES256'],
    });
    expect(protectedHeader.kid).toBe(jwks?.keys[0]?.kid);
    expect(payload).toMatchObject({ sub: app.clientId, client_id: app.clientId, acc: app.accountId, app: app.appId, scope: 'consent' });
    expect(typeof payload.jti).toBe('string');
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it('is signed by the first configured key while every configured key is published', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const pem = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const rotated = await startService('oauth', 'oauthkeys', { ACCORD_TOKEN_SIGNING_KEYS: pem() + '\n' + pem(), ACCORD_ACCESS_TOKEN_TTL_MS: '120000' });
    try {
      const b = await rotated.client.bootstrap({ accountName: 'a', appName: 'b', scopes: [] }, { metadata: rotated.admin });
      const { jwks } = await rotated.client.getJwks({});
      expect(jwks?.keys).toHaveLength(2);
      const res = await rotated.client.issueToken(tokenRequest({ grantType: 'client_credentials', clientId: b.clientId, clientSecret: b.clientSecret }));
      expect(res.token?.expiresIn).toBe(120);
      expect(decodeProtectedHeader(res.token!.accessToken).kid).toBe(jwks?.keys[0]?.kid);
      expect(res.token?.scope).toBe('consent dataprocessing webhooks');
    } finally {
      await rotated.stop();
    }
  });
});

describe('refresh_token grant', () => {
  it('rotates the refresh token: the new one works and the old one is spent', async () => {
    const first = (await cc({ scope: 'consent' })).token!;
    const second = await refresh(first.refreshToken);
    expect(second.token).toMatchObject({ scope: 'consent', tokenType: 'Bearer', expiresIn: 3600 });
    expect(second.token!.refreshToken).not.toBe(first.refreshToken);
    const third = await refresh(second.token!.refreshToken);
    expect(third.token?.accessToken).toEqual(expect.any(String));
    // The first token was spent by the first refresh.
    expect((await refresh(first.refreshToken)).error).toEqual({ error: 'invalid_grant', errorDescription: expect.stringContaining('already used') });
  });

  it('revokes the whole token family when a spent refresh token is presented again', async () => {
    const first = (await cc()).token!;
    const second = (await refresh(first.refreshToken)).token!;
    const reuse = await refresh(first.refreshToken);
    expect(reuse.error?.error).toBe('invalid_grant');
    // The newer token of the family, never used, is revoked too.
    expect((await refresh(second.refreshToken)).error?.error).toBe('invalid_grant');
  });

  it('treats concurrent refreshes with one token as reuse: at most one gets tokens and the family ends revoked', async () => {
    const first = (await cc()).token!;
    const results = await Promise.all(Array.from({ length: 5 }, () => refresh(first.refreshToken)));
    expect(results.filter((r) => r.token).length).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r.error?.error === 'invalid_grant').length).toBeGreaterThanOrEqual(4);
    for (const r of results.filter((x) => x.token)) expect((await refresh(r.token!.refreshToken)).error?.error).toBe('invalid_grant');
  });

  it("answers invalid_grant for another client's refresh token and leaves that token usable by its owner", async () => {
    const theirs = (await svc.client.issueToken(tokenRequest({ grantType: 'client_credentials', clientId: other.clientId, clientSecret: other.clientSecret })))
      .token!;
    expect((await refresh(theirs.refreshToken)).error?.error).toBe('invalid_grant');
    const owner = await svc.client.issueToken(
      tokenRequest({ grantType: 'refresh_token', clientId: other.clientId, clientSecret: other.clientSecret, refreshToken: theirs.refreshToken }),
    );
    expect(owner.token).toBeDefined();
  });

  it('answers invalid_grant for an unknown refresh token and invalid_request without one', async () => {
    expect((await refresh('rt_unknown')).error?.error).toBe('invalid_grant');
    expect((await refresh('')).error?.error).toBe('invalid_request');
  });

  it('requires client authentication', async () => {
    const first = (await cc()).token!;
    expect((await refresh(first.refreshToken, { clientSecret: 'cs_wrong' })).error?.error).toBe('invalid_client');
    // A failed client authentication does not spend the token.
    expect((await refresh(first.refreshToken)).token).toBeDefined();
  });

  it('may narrow the scope but not widen it, and the successor keeps the original grant', async () => {
    const first = (await cc({ scope: 'consent dataprocessing' })).token!;
    const narrowed = (await refresh(first.refreshToken, { scope: 'consent' })).token!;
    expect(narrowed.scope).toBe('consent');
    const back = (await refresh(narrowed.refreshToken, { scope: 'consent dataprocessing' })).token!;
    expect(back.scope).toBe('consent dataprocessing');

    const single = (await cc({ scope: 'consent' })).token!;
    const widened = await refresh(single.refreshToken, { scope: 'consent dataprocessing' });
    expect(widened.error?.error).toBe('invalid_scope');
    // A rejected scope does not spend the token.
    expect((await refresh(single.refreshToken)).token?.scope).toBe('consent');
  });

  it('answers invalid_grant after the client secret is rotated', async () => {
    const b = await svc.client.bootstrap({ accountName: 'acme', appName: 'rotating', scopes: ['consent'] }, { metadata: svc.admin });
    const t = (await svc.client.issueToken(tokenRequest({ grantType: 'client_credentials', clientId: b.clientId, clientSecret: b.clientSecret }))).token!;
    const { clientSecret } = await svc.client.rotateClientSecret({ clientId: b.clientId }, { metadata: svc.admin });
    const withOld = await svc.client.issueToken(tokenRequest({ grantType: 'client_credentials', clientId: b.clientId, clientSecret: b.clientSecret }));
    expect(withOld.error?.error).toBe('invalid_client');
    const r = await svc.client.issueToken(tokenRequest({ grantType: 'refresh_token', clientId: b.clientId, clientSecret, refreshToken: t.refreshToken }));
    expect(r.error?.error).toBe('invalid_grant');
    const fresh = await svc.client.issueToken(tokenRequest({ grantType: 'client_credentials', clientId: b.clientId, clientSecret }));
    expect(fresh.token).toBeDefined();
  });
});

describe('ValidateApiKey', () => {
  it('resolves an API key to its account and answers NOT_FOUND for an unknown key', async () => {
    expect(await svc.client.validateApiKey({ apiKey: app.apiKey })).toEqual({ accountId: app.accountId });
    await expect(svc.client.validateApiKey({ apiKey: 'ak_unknown' })).rejects.toMatchObject({ code: status.NOT_FOUND });
    await expect(svc.client.validateApiKey({ apiKey: '' })).rejects.toMatchObject({ code: status.NOT_FOUND });
  });
});
