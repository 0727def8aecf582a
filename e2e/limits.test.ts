import { metricsRegistry } from '@accord/common';
import { runAdmin } from '@accord/oauth';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(90_000);

// Buckets that practically never refill during the test (one token per 1000 s), so that every
// count below is exact: the Nth request past the burst is the first 429.
const SLOW = '0.001';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('limits', {
    env: {
      ACCORD_LIMIT_ACCOUNT_RPS: SLOW,
      ACCORD_LIMIT_ACCOUNT_BURST: '6',
      ACCORD_LIMIT_APP_RPS: SLOW,
      ACCORD_LIMIT_APP_BURST: '4',
      ACCORD_LIMIT_TOKEN_RPS: SLOW,
      ACCORD_LIMIT_TOKEN_BURST: '8',
      ACCORD_LIMIT_AUTH_FAILURES_CLIENT_RPS: SLOW,
      ACCORD_LIMIT_AUTH_FAILURES_CLIENT_BURST: '3',
      ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_RPS: SLOW,
      ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_BURST: '5',
      ACCORD_LIMIT_CACHE_MS: '0',
    },
  });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

/** The admin CLI against this stack; resolves to its JSON output. */
async function admin(...argv: string[]): Promise<unknown> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin([...argv, '--json'], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: { ACCORD_OAUTH_ADDR: stack.env.ACCORD_OAUTH_ADDR, ACCORD_ADMIN_TOKEN: stack.env.ACCORD_ADMIN_TOKEN },
  });
  if (code !== 0) throw new Error(`admin ${argv.join(' ')} failed: ${stderr}`);
  return JSON.parse(stdout);
}

const search = (c: Credentials, token: string) => stack.request('GET', '/consent/v0/consents/search?subject=s&issuer=i&target=t', { token, apiKey: c.apiKey });
const post = (c: Credentials, token: string, n: number) =>
  stack.request('POST', '/consent/v0/consents', {
    token,
    apiKey: c.apiKey,
    json: Array.from({ length: n }, (_, i) => ({ subject: `limited-${i}`, issuer: 'https://shop.example', target: 'https://shop.example/p', action: true })),
  });

describe('account and application request limits', () => {
  test('the application gets 429 exactly past its burst, then the account exactly past its own; every answer carries RateLimit headers', async () => {
    const web = await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent'] });
    const mobile = await stack.bootstrap({ account: 'acme', app: 'mobile', scopes: ['consent'] });
    const webToken = await stack.token(web, 'consent');
    const mobileToken = await stack.token(mobile, 'consent');

    const webStatuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await search(web, webToken);
      webStatuses.push(res.status);
      expect(res.headers.get('ratelimit-policy')).toBe('"account";q=6;w=6000, "app";q=4;w=4000');
      if (i < 4) expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"account";r=${5 - i};t=\\d+, "app";r=${3 - i};t=\\d+$`));
    }
    expect(webStatuses).toEqual([200, 200, 200, 200, 429]);

    // The refused request took nothing from the account: 2 of its 6 are left, for the other app.
    const mobileStatuses: number[] = [];
    let last;
    for (let i = 0; i < 3; i++) {
      last = await search(mobile, mobileToken);
      mobileStatuses.push(last.status);
    }
    expect(mobileStatuses).toEqual([200, 200, 429]);
    expect(last!.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(last!.body).toMatchObject({ status: 429, title: 'Too many requests' });
    expect(last!.body.detail).toMatch(/account's request limit/);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('ratelimit')).toMatch(/^"account";r=0;/);
  });

  test('a per-account override set with the admin CLI replaces the defaults, and --clear restores them', async () => {
    const c = await stack.bootstrap({ account: 'globex', app: 'web', scopes: ['consent'] });
    expect(await admin('limits', '--account', c.accountId, '--burst', '2', '--app-burst', '0')).toEqual({
      accountId: c.accountId,
      limits: { burst: 2, appBurst: 0 },
    });
    const token = await stack.token(c, 'consent');
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await search(c, token)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect(await admin('limits', '--account', c.accountId)).toEqual({ accountId: c.accountId, limits: { burst: 2, appBurst: 0 } });
    expect(await admin('limits', '--account', c.accountId, '--clear')).toEqual({ accountId: c.accountId, limits: {} });
    // Back on the defaults (burst 6): the bucket keeps its tokens across the change, so it is still empty.
    const res = await search(c, token);
    expect(res.status).toBe(429);
    expect(res.headers.get('ratelimit-policy')).toBe('"account";q=6;w=6000, "app";q=4;w=4000');
    expect(res.headers.get('ratelimit')).toMatch(/^"account";r=0;t=\d+, "app";r=4;t=0$/);
  });
});

describe('event limits', () => {
  test('an array POST with more events than the maximum per request is a 413 problem naming the body', async () => {
    const c = await stack.bootstrap({ account: 'initech', app: 'web', scopes: ['consent'] });
    await admin('limits', '--account', c.accountId, '--burst', '0', '--app-burst', '0', '--events-per-request', '3');
    const token = await stack.token(c, 'consent');
    const tooMany = await post(c, token, 4);
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.errors).toEqual([{ field: '', message: 'must have at most 3 items' }]);
    expect((await post(c, token, 3)).status).toBe(201);
  });

  test('events per day are admitted exactly up to the maximum, counted across requests', async () => {
    const c = await stack.bootstrap({ account: 'umbrella', app: 'web', scopes: ['consent'] });
    await admin('limits', '--account', c.accountId, '--burst', '0', '--app-burst', '0', '--events-per-day', '5');
    const token = await stack.token(c, 'consent');
    expect((await post(c, token, 3)).status).toBe(201);
    const refused = await post(c, token, 3);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toMatch(/^"events-per-day";r=2;t=\d+$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await post(c, token, 2)).status).toBe(201);
    expect((await post(c, token, 1)).status).toBe(429);
  });
});

describe('token endpoint limits', () => {
  const tokenRequest = (clientId: string, secret: string) =>
    stack.request('POST', '/oauth/v0/token', { json: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret } });

  test('token requests of one client id get 429 exactly past the burst, in the RFC 6749 error form', async () => {
    const c = await stack.bootstrap({ account: 'hooli', app: 'web', scopes: ['consent'] });
    const statuses = [];
    let last;
    for (let i = 0; i < 9; i++) {
      last = await tokenRequest(c.clientId, c.clientSecret);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(8).fill(200), 429]);
    expect(last!.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/token request limit/) });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('ratelimit-policy')).toBe('"client";q=8;w=8000');
  });

  // Runs last: it exhausts the failure bucket of 127.0.0.1, where every test request comes from.
  test('failed client authentications are limited per client id and then per source address', async () => {
    const c = await stack.bootstrap({ account: 'pied-piper', app: 'web', scopes: ['consent'] });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await tokenRequest(c.clientId, 'wrong')).status);
    // The right secret is refused too once the client's failure budget is spent.
    statuses.push((await tokenRequest(c.clientId, c.clientSecret)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);

    // 3 of the address's 5 failures are spent: two more from another client id, then the address is refused.
    const other: number[] = [];
    for (let i = 0; i < 3; i++) other.push((await tokenRequest('cl_unknown', 'wrong')).status);
    expect(other).toEqual([401, 401, 429]);
    const fresh = await stack.bootstrap({ account: 'pied-piper', app: 'mobile', scopes: ['consent'] });
    const refused = await tokenRequest(fresh.clientId, fresh.clientSecret);
    expect(refused.status).toBe(429);
    expect(refused.body.error_description).toMatch(/from this address/);
  });
});

describe('refusals in metrics', () => {
  test('every 429 above is counted in accord_gateway_rate_limited_total under its limit', async () => {
    const metric = await metricsRegistry.getSingleMetric('accord_gateway_rate_limited_total')!.get();
    const counts = Object.fromEntries(metric.values.map((v) => [v.labels.limit, v.value]));
    expect(counts).toEqual({ app: 1, account: 3, 'events-per-day': 2, client: 1, 'auth-failures-client': 1, 'auth-failures-address': 2 });
  });
});
