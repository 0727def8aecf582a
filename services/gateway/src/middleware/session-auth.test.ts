import type { NextFunction, Request, Response } from 'express';
import { PERMISSIONS } from '../routes/permissions';
import { declaredPermission, declaredPermissions } from './permissions';
import { checkSessionRight, OriginCache, SESSION_TOKEN_TYPE, sessionOr, type ConsentSession } from './session-auth';

const BASE = 'http://accord.test';
const group: ConsentSession = { accountId: 'a', appId: 'p', subject: 'u1', issuer: 'shop', groupId: 'g1', expiresAt: new Date() };
const resolve = declaredPermissions(PERMISSIONS);
/** The session's right on this request, its route's declaration found as the gateway finds it. */
const check =
  (s: ConsentSession, method: string, path: string, query: Record<string, unknown> = {}, body?: unknown) =>
  () => {
    const res = { locals: {} } as Response;
    void resolve({ method, path } as Request, res, () => undefined);
    checkSessionRight(s, declaredPermission(res), { method, query, body }, BASE);
  };

describe('consent session rights', () => {
  it('allow the group consent request and its own dashboard', () => {
    expect(check(group, 'GET', '/dataprocessing/v0/dpgroups/g1/consent-request')).not.toThrow();
    expect(check(group, 'GET', '/dataprocessing/v0/dpgroups/g1/dashboard', { subject: 'u1', issuer: 'shop' })).not.toThrow();
  });
  it("refuse another group and another subject's dashboard with 403", () => {
    expect(check(group, 'GET', '/dataprocessing/v0/dpgroups/g2/consent-request')).toThrow(expect.objectContaining({ status: 403 }));
    expect(check(group, 'GET', '/dataprocessing/v0/dpgroups/g1/dashboard', { subject: 'u2', issuer: 'shop' })).toThrow(
      expect.objectContaining({ status: 403 }),
    );
  });
  it('refuse a batch in which one event names another subject', () => {
    const body = [
      { subject: 'u1', issuer: 'shop', target: 't' },
      { subject: 'u2', issuer: 'shop', target: 't' },
    ];
    expect(check(group, 'POST', '/consent/v0/consents', {}, body)).toThrow(expect.objectContaining({ status: 403 }));
  });
  it('refuse every endpoint not listed, including writes to groups', () => {
    for (const [m, p] of [
      ['GET', '/consent/v0/consents/statistics'],
      ['POST', '/dataprocessing/v0/dpgroups'],
      ['PATCH', '/dataprocessing/v0/dpgroups/g1'],
      ['POST', '/consent/v0/sessions'],
      ['HEAD', '/dataprocessing/v0/dpgroups/g1/consent-request'],
      ['GET', '/dataprocessing/v0/dpgroups/g1/consent-request/'],
      ['GET', '/consent/v0/no-such-route'],
    ]) {
      expect(check(group, m!, p!)).toThrow(expect.objectContaining({ status: 403 }));
    }
  });
  it('answer a malformed percent-escape in a group or specification id with a 400 naming it, not an exception', () => {
    const s: ConsentSession = { ...group, targets: [`${BASE}/dataprocessing/v0/dpspecs/s1`] };
    expect(check(s, 'GET', '/dataprocessing/v0/dpgroups/%E0%A4%A/consent-request')).toThrow(
      expect.objectContaining({ status: 400, errors: [expect.objectContaining({ field: 'group_id' })] }),
    );
    expect(check(s, 'GET', '/dataprocessing/v0/dpspecs/%zz')).toThrow(
      expect.objectContaining({ status: 400, errors: [expect.objectContaining({ field: 'spec_id' })] }),
    );
  });
  it('allow a targets session to read only its specification URLs', () => {
    const s: ConsentSession = { ...group, groupId: undefined, targets: [`${BASE}/dataprocessing/v0/dpspecs/s1`] };
    expect(check(s, 'GET', '/dataprocessing/v0/dpspecs/s1')).not.toThrow();
    expect(check(s, 'GET', '/dataprocessing/v0/dpspecs/s2')).toThrow(expect.objectContaining({ status: 403 }));
  });
});

describe('the origin cache', () => {
  // A fake oauth client whose answers the test changes, counting the calls that reach it.
  const fake = (allowed: Record<string, string[]>) => {
    const calls: string[] = [];
    const client = {
      checkOrigin: async ({ origin, appId }: { origin: string; appId: string }) => {
        calls.push(`${appId}|${origin}`);
        return { allowed: appId ? (allowed[appId] ?? []).includes(origin) : Object.values(allowed).some((o) => o.includes(origin)) };
      },
    };
    return { calls, client: client as unknown as ConstructorParameters<typeof OriginCache>[0] };
  };

  it("remembers answers for its TTL, and forgetting an application drops its answers and the any-application ones at once, not other applications'", async () => {
    const allowed: Record<string, string[]> = { a: [], b: ['https://b.example'] };
    const { calls, client } = fake(allowed);
    const cache = new OriginCache(client, 60_000);
    expect(await cache.allowed('https://shop.example')).toBe(false);
    expect(await cache.allowed('https://shop.example', 'a')).toBe(false);
    expect(await cache.allowed('https://b.example', 'b')).toBe(true);
    allowed.a = ['https://shop.example'];
    expect(await cache.allowed('https://shop.example', 'a')).toBe(false); // still the remembered answer
    expect(calls).toHaveLength(3);

    cache.forgetApplication('a');
    expect(await cache.allowed('https://shop.example')).toBe(true);
    expect(await cache.allowed('https://shop.example', 'a')).toBe(true);
    expect(await cache.allowed('https://b.example', 'b')).toBe(true);
    expect(calls).toEqual(['|https://shop.example', 'a|https://shop.example', 'b|https://b.example', '|https://shop.example', 'a|https://shop.example']);
  });
});

describe('a session token or an access token', () => {
  it('hands a token this gateway already verified as an access token straight to the access-token check', async () => {
    // the header says session token: were it decoded, the session check (and its keys) would run
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: SESSION_TOKEN_TYPE })).toString('base64url');
    const token = `${header}.e30.c2ln`;
    const seen: string[] = [];
    const regular = (_req: Request, _res: Response, next: NextFunction) => {
      seen.push('access-token check');
      next();
    };
    const keys = { key: async () => Promise.reject(new Error('the session check ran')) };
    const opts = { issuer: 'x', baseUrl: BASE, origins: {}, dataprocessing: {}, keys } as unknown as Parameters<typeof sessionOr>[1];
    const req = { get: (h: string) => (h === 'authorization' ? `Bearer ${token}` : undefined) } as unknown as Request;
    await sessionOr(regular, { ...opts, verified: { known: (t) => t === token } })(req, {} as Response, () => seen.push('next'));
    expect(seen).toEqual(['access-token check', 'next']);
    // a token it has not verified is decoded, and this one goes to the session check
    await expect(sessionOr(regular, { ...opts, verified: { known: () => false } })(req, {} as Response, () => undefined)).rejects.toThrow(
      'the session check ran',
    );
  });
});
