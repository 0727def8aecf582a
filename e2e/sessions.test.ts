import { startStack, type Credentials, type Stack } from './harness';

let stack: Stack;
let shop: Credentials;
let consentToken: string;
let dpToken: string;
let groupId: string;
let targets: string[];
let otherGroupId: string;
const SHOP_ORIGIN = 'https://shop.example';

beforeAll(async () => {
  stack = await startStack('sessions');
  shop = await stack.bootstrap({ account: 'shop', app: 'web', scopes: ['consent', 'dataprocessing'] });
  consentToken = await stack.token(shop, 'consent');
  dpToken = await stack.token(shop, 'dataprocessing');
  const dp = (path: string, json: unknown) => stack.request('POST', `/dataprocessing/v0${path}`, { token: dpToken, json });
  groupId = (await dp('/dpgroups', { name: 'Newsletter', description: 'News from us' })).body.id;
  targets = [];
  for (const purpose of ['newsletter', 'profiling']) {
    const spec = (await dp(`/dpgroups/${groupId}/specs`, { data: 'e-mail', purpose, action: 'collect', consentTarget: true })).body;
    targets.push(`${stack.baseUrl}/dataprocessing/v0/dpspecs/${spec.id}`);
  }
  otherGroupId = (await dp('/dpgroups', { name: 'Other' })).body.id;
  await stack.setAllowedOrigins(shop.appId, [SHOP_ORIGIN]);
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

async function mint(body: Record<string, unknown> = { subject: 'user-1', issuer: 'shop', groupId }) {
  const res = await stack.request('POST', '/consent/v0/sessions', { token: consentToken, apiKey: shop.apiKey, json: body });
  expect(res.status).toBe(201);
  return res.body.sessionToken as string;
}
const asBrowser = (token: string, method: string, path: string, json?: unknown, origin = SHOP_ORIGIN) =>
  stack.request(method, path, { token, json, headers: { origin } });

describe('minting consent sessions', () => {
  test('a backend with the consent scope and API key gets a token that expires in 15 minutes by default', async () => {
    const res = await stack.request('POST', '/consent/v0/sessions', {
      token: consentToken,
      apiKey: shop.apiKey,
      json: { subject: 'user-1', issuer: 'shop', groupId },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const ms = Date.parse(res.body.expiresAt) - Date.now();
    expect(ms).toBeGreaterThan(14 * 60_000);
    expect(ms).toBeLessThanOrEqual(15 * 60_000);
  });

  test('without the API key it is 401; without group or targets, or with an unknown field, it is 400 naming the field', async () => {
    expect((await stack.request('POST', '/consent/v0/sessions', { token: consentToken, json: { subject: 's', issuer: 'i', groupId } })).status).toBe(401);
    const none = await stack.request('POST', '/consent/v0/sessions', { token: consentToken, apiKey: shop.apiKey, json: { subject: 's', issuer: 'i' } });
    expect(none.status).toBe(400);
    expect(none.headers.get('content-type')).toContain('application/problem+json');
    const extra = await stack.request('POST', '/consent/v0/sessions', {
      token: consentToken,
      apiKey: shop.apiKey,
      json: { subject: 's', issuer: 'i', groupId, ttl: 5 },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.errors.map((e: { path?: string; field?: string }) => e.path ?? e.field).join()).toContain('ttl');
  });

  test('a session token cannot mint another session', async () => {
    const s = await mint();
    expect((await asBrowser(s, 'POST', '/consent/v0/sessions', { subject: 'user-2', issuer: 'shop', groupId })).status).toBe(403);
  });
});

describe('what a session token may do', () => {
  test('reads the consent request and the dashboard of its group, for its subject', async () => {
    const s = await mint();
    const cr = await asBrowser(s, 'GET', `/dataprocessing/v0/dpgroups/${groupId}/consent-request`);
    expect(cr.status).toBe(200);
    expect(cr.body.items.map((i: { target: string }) => i.target).sort()).toEqual([...targets].sort());
    expect((await asBrowser(s, 'GET', `/dataprocessing/v0/dpgroups/${groupId}/dashboard?subject=user-1&issuer=shop`)).status).toBe(200);
  });

  test('records consent for its subject and issuer, which the backend then sees', async () => {
    const s = await mint();
    const res = await asBrowser(s, 'POST', '/consent/v0/consents', [
      { subject: 'user-1', issuer: 'shop', target: targets[0], action: true },
      { subject: 'user-1', issuer: 'shop', target: targets[1], action: false },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(2);
    const q = new URLSearchParams({ subject: 'user-1', issuer: 'shop', target: targets[0]!, current: 'true' });
    const back = await stack.request('GET', `/consent/v0/consents/search?${q.toString()}`, { token: consentToken, apiKey: shop.apiKey });
    expect(back.body.map((e: { action: boolean }) => e.action)).toEqual([true]);
    expect(back.body[0].appId).toBe(shop.appId);
  });

  test('another subject, issuer, group or target is 403', async () => {
    const s = await mint();
    expect((await asBrowser(s, 'POST', '/consent/v0/consents', { subject: 'user-2', issuer: 'shop', target: targets[0], action: true })).status).toBe(403);
    expect((await asBrowser(s, 'POST', '/consent/v0/consents', { subject: 'user-1', issuer: 'other', target: targets[0], action: true })).status).toBe(403);
    expect(
      (await asBrowser(s, 'POST', '/consent/v0/consents', { subject: 'user-1', issuer: 'shop', target: 'https://elsewhere.example', action: true })).status,
    ).toBe(403);
    expect((await asBrowser(s, 'GET', `/dataprocessing/v0/dpgroups/${otherGroupId}/consent-request`)).status).toBe(403);
    expect((await asBrowser(s, 'GET', `/dataprocessing/v0/dpgroups/${groupId}/dashboard?subject=user-2&issuer=shop`)).status).toBe(403);
  });

  test('any other endpoint is 403, and the session is never taken for an access token', async () => {
    const s = await mint();
    for (const [method, path] of [
      ['GET', '/consent/v0/consents/statistics'],
      ['GET', '/dataprocessing/v0/dpgroups'],
      ['GET', `/dataprocessing/v0/dpgroups/${groupId}`],
      ['POST', '/dataprocessing/v0/dpgroups'],
    ] as const) {
      const res = await asBrowser(s, method, path, method === 'POST' ? { name: 'x' } : undefined);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
    expect((await stack.request('GET', '/webhooks/v0', { token: s })).status).toBe(401);
  });

  test('a malformed percent-escape in a path a session may read is a 400 problem naming the parameter, never a 500', async () => {
    const s = await mint();
    for (const [path, field] of [
      ['/dataprocessing/v0/dpgroups/%E0%A4%A/consent-request', 'group_id'],
      ['/dataprocessing/v0/dpgroups/%zz/dashboard?subject=user-1&issuer=shop', 'group_id'],
      ['/dataprocessing/v0/dpspecs/%E0%A4%A', 'spec_id'],
    ] as const) {
      const res = await asBrowser(s, 'GET', path);
      expect({ path, status: res.status, type: res.headers.get('content-type')?.split(';')[0] }).toEqual({
        path,
        status: 400,
        type: 'application/problem+json',
      });
      expect(res.body.errors).toEqual([{ field, message: expect.stringMatching(/percent-encoded UTF-8/) }]);
    }
  });

  test('sending the API key with a session token is refused, so keys never need to reach a browser', async () => {
    const s = await mint();
    const res = await stack.request('GET', `/dataprocessing/v0/dpgroups/${groupId}/consent-request`, { token: s, apiKey: shop.apiKey });
    expect(res.status).toBe(400);
  });

  test('a targets session reads and records only its targets', async () => {
    const s = await mint({ subject: 'user-3', issuer: 'shop', targets: [targets[0]] });
    expect((await asBrowser(s, 'GET', targets[0]!.replace(stack.baseUrl, ''))).status).toBe(200);
    expect((await asBrowser(s, 'GET', targets[1]!.replace(stack.baseUrl, ''))).status).toBe(403);
    expect((await asBrowser(s, 'GET', `/dataprocessing/v0/dpgroups/${groupId}/consent-request`)).status).toBe(403);
    expect((await asBrowser(s, 'POST', '/consent/v0/consents', { subject: 'user-3', issuer: 'shop', target: targets[1], action: true })).status).toBe(403);
    expect((await asBrowser(s, 'POST', '/consent/v0/consents', { subject: 'user-3', issuer: 'shop', target: targets[0], action: true })).status).toBe(201);
  });

  test('an expired session is 401', async () => {
    const s = await mint({ subject: 'user-1', issuer: 'shop', groupId, ttlSeconds: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    const res = await asBrowser(s, 'GET', `/dataprocessing/v0/dpgroups/${groupId}/consent-request`);
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/expired/);
  });
});

describe('CORS for allowed origins', () => {
  test('a preflight from an allowed origin is answered 204 with the methods and headers a session needs', async () => {
    const res = await stack.request('OPTIONS', '/consent/v0/consents', {
      headers: { origin: SHOP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  test('a preflight from an unknown origin is 403 without CORS headers', async () => {
    const res = await stack.request('OPTIONS', '/consent/v0/consents', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('a session used from an origin its application does not allow is 403, even when another application allows it', async () => {
    const other = await stack.bootstrap({ account: 'shop', app: 'other', scopes: ['consent'] });
    await stack.setAllowedOrigins(other.appId, ['https://other.example']);
    const s = await mint();
    const res = await asBrowser(s, 'GET', `/dataprocessing/v0/dpgroups/${groupId}/consent-request`, undefined, 'https://other.example');
    expect(res.status).toBe(403);
    expect(res.body.type).toContain('origin-not-allowed');
    const ok = await asBrowser(s, 'GET', `/dataprocessing/v0/dpgroups/${groupId}/consent-request`);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(ok.headers.get('access-control-expose-headers')).toContain('link');
  });
});
