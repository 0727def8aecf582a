/**
 * Every limited route under every other spelling of its path: a trailing slash, another case,
 * a doubled slash, an encoded slash, a `;` parameter, an encoded letter, a dot segment. Each
 * spelling must either be refused (404: no route has that path) or be counted by the very
 * limit of the route — never served past an exhausted limit. Requests are sent raw (node:http),
 * so the path reaches the gateway exactly as written (fetch would normalize some of them).
 */
import * as http from 'node:http';
import { runAdmin } from '@accord/oauth';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(120_000);

// Buckets that practically never refill during the test (one token per 1000 s).
const SLOW = '0.001';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('limits-spellings', {
    env: {
      ACCORD_LIMIT_ACCOUNT_RPS: SLOW,
      ACCORD_LIMIT_ACCOUNT_BURST: '1000',
      ACCORD_LIMIT_APP_RPS: SLOW,
      ACCORD_LIMIT_APP_BURST: '1000',
      ACCORD_LIMIT_TOKEN_RPS: SLOW,
      ACCORD_LIMIT_TOKEN_BURST: '3',
      ACCORD_LIMIT_AUTH_FAILURES_CLIENT_RPS: SLOW,
      ACCORD_LIMIT_AUTH_FAILURES_CLIENT_BURST: '2',
      ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_RPS: SLOW,
      ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_BURST: '2',
      ACCORD_LIMIT_CACHE_MS: '0',
      // one proxy hop: each test below comes from its own X-Forwarded-For address, so the
      // failed-authentication bucket of one address is not spent by another test
      ACCORD_TRUST_PROXY: '1',
    },
  });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

/** Other spellings of a path `/<base>/v0/<rest>`, by name. */
function spellings(path: string): Array<[string, string]> {
  const [, base, rest] = /^\/([a-z]+)\/v0\/(.+)$/.exec(path)!;
  const last = rest.lastIndexOf('/');
  const head = last < 0 ? '' : `/${rest.slice(0, last)}`;
  const tail = rest.slice(last + 1);
  return [
    ['a trailing slash', `${path}/`],
    ['two trailing slashes', `${path}//`],
    ['the last segment in upper case', `/${base}/v0${head}/${tail.toUpperCase()}`],
    ['the last segment capitalized', `/${base}/v0${head}/${tail[0]!.toUpperCase()}${tail.slice(1)}`],
    ['the base in upper case', `/${base.toUpperCase()}/v0/${rest}`],
    ['a doubled slash before the last segment', `/${base}/v0${head}//${tail}`],
    ['a doubled leading slash', `/${path}`],
    ['an encoded slash before the last segment', `/${base}/v0${head}%2F${tail}`],
    ['an encoded slash, lower case', `/${base}/v0${head}%2f${tail}`],
    ['a ; parameter on the last segment', `${path};x=1`],
    ['a ; parameter on the version', `/${base}/v0;x=1/${rest}`],
    ['an encoded first letter', `/${base}/v0${head}/%${tail.charCodeAt(0).toString(16)}${tail.slice(1)}`],
    ['a dot segment', `/${base}/v0/.${head}/${tail}`],
    ['a parent segment', `/${base}/v0/x/..${head}/${tail}`],
  ];
}

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with the path exactly as given. */
function send(method: string, path: string, o: { token?: string; apiKey?: string; json?: unknown; from?: string } = {}): Promise<Raw> {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.apiKey) headers['x-api-key'] = o.apiKey;
  if (o.from) headers['x-forwarded-for'] = o.from;
  const body = o.json === undefined ? undefined : JSON.stringify(o.json);
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(`${stack.baseUrl}/`, { method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The answers of every spelling, by name, for a report that names the spelling at fault. */
async function everySpelling(path: string, request: (p: string) => Promise<Raw>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, p] of spellings(path)) out[`${name}: ${p}`] = (await request(p)).status;
  return out;
}

/** Each spelling answered 404 (no such path) or `limited` (counted by the route's limit, now exhausted). */
function expectRefusedOrCounted(answers: Record<string, number>, limited: number): void {
  const wrong = Object.entries(answers).filter(([, status]) => status !== 404 && status !== limited);
  expect(wrong).toEqual([]);
}

async function admin(...argv: string[]): Promise<void> {
  let stderr = '';
  const code = await runAdmin([...argv, '--json'], {
    stdout: { write: () => undefined },
    stderr: { write: (s: string) => (stderr += s) },
    env: { ACCORD_OAUTH_ADDR: stack.env.ACCORD_OAUTH_ADDR, ACCORD_ADMIN_TOKEN: stack.env.ACCORD_ADMIN_TOKEN },
  });
  if (code !== 0) throw new Error(`admin ${argv.join(' ')} failed: ${stderr}`);
}

const TOKEN = '/oauth/v0/token';
const tokenBody = (c: Pick<Credentials, 'clientId'>, secret: string) => ({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: secret });

describe('the token endpoint under other spellings of its path', () => {
  test("the client's token bucket: once it is empty, no spelling issues a token", async () => {
    const c = await stack.bootstrap({ account: 'tokens', app: 'web', scopes: ['consent'] });
    const from = '198.51.100.1';
    const spent = [];
    for (let i = 0; i < 4; i++) spent.push((await send('POST', TOKEN, { json: tokenBody(c, c.clientSecret), from })).status);
    expect(spent).toEqual([200, 200, 200, 429]);
    expectRefusedOrCounted(await everySpelling(TOKEN, (p) => send('POST', p, { json: tokenBody(c, c.clientSecret), from })), 429);
  });

  test("the client's failed-authentication bucket: once it is empty, no spelling tries another secret", async () => {
    const c = await stack.bootstrap({ account: 'guessed', app: 'web', scopes: ['consent'] });
    const spent = [];
    // two addresses, so that the address bucket (burst 2) is not what refuses
    for (const from of ['198.51.100.2', '198.51.100.3']) spent.push((await send('POST', TOKEN, { json: tokenBody(c, 'wrong'), from })).status);
    expect(spent).toEqual([401, 401]);
    let n = 10;
    const answers = await everySpelling(TOKEN, (p) => send('POST', p, { json: tokenBody(c, 'wrong'), from: `198.51.100.${n++}` }));
    expectRefusedOrCounted(answers, 429);
  });

  test("the address's failed-authentication bucket: once it is empty, no spelling tries another client", async () => {
    const from = '198.51.100.200';
    const spent = [];
    for (let i = 0; i < 2; i++) spent.push((await send('POST', TOKEN, { json: tokenBody({ clientId: `cl_unknown_${i}` }, 'wrong'), from })).status);
    expect(spent).toEqual([401, 401]);
    let n = 0;
    const answers = await everySpelling(TOKEN, (p) => send('POST', p, { json: tokenBody({ clientId: `cl_other_${n++}` }, 'wrong'), from }));
    expectRefusedOrCounted(answers, 429);
  });
});

describe('the consent API under other spellings of its paths', () => {
  const CONSENTS = '/consent/v0/consents';
  const events = (n: number, subject = 'spelled') =>
    Array.from({ length: n }, (_, i) => ({ subject: `${subject}-${i}`, issuer: 'https://shop.example', target: 'https://shop.example/p', action: true }));

  test('events per request: no spelling stores more events than the maximum in one request', async () => {
    const c = await stack.bootstrap({ account: 'batches', app: 'web', scopes: ['consent'] });
    await admin('limits', '--account', c.accountId, '--events-per-request', '2');
    const token = await stack.token(c, 'consent');
    expect((await send('POST', CONSENTS, { token, apiKey: c.apiKey, json: events(3) })).status).toBe(413);
    expectRefusedOrCounted(await everySpelling(CONSENTS, (p) => send('POST', p, { token, apiKey: c.apiKey, json: events(3) })), 413);
  });

  test('events per day: once the day is spent, no spelling stores another event', async () => {
    const c = await stack.bootstrap({ account: 'daily', app: 'web', scopes: ['consent'] });
    await admin('limits', '--account', c.accountId, '--events-per-day', '2');
    const token = await stack.token(c, 'consent');
    expect((await send('POST', CONSENTS, { token, apiKey: c.apiKey, json: events(2) })).status).toBe(201);
    expect((await send('POST', CONSENTS, { token, apiKey: c.apiKey, json: events(1) })).status).toBe(429);
    expectRefusedOrCounted(await everySpelling(CONSENTS, (p) => send('POST', p, { token, apiKey: c.apiKey, json: events(1, p) })), 429);
  });
});

describe('account and application buckets under other spellings of every REST base', () => {
  const routes: Array<{ scope: string; method: string; path: string; json?: unknown }> = [
    { scope: 'consent', method: 'GET', path: '/consent/v0/consents/search?subject=s&issuer=i&target=t' },
    { scope: 'consent', method: 'POST', path: '/consent/v0/consents', json: { subject: 's', issuer: 'i', target: 't', action: true } },
    { scope: 'dataprocessing', method: 'GET', path: '/dataprocessing/v0/dpgroups' },
    { scope: 'webhooks', method: 'GET', path: '/webhooks/v0/x' },
  ];
  const pathOnly = (p: string) => p.split('?')[0]!;
  const query = (p: string) => (p.includes('?') ? p.slice(p.indexOf('?')) : '');

  test.each(['app', 'account'] as const)('once the %s bucket is empty, every spelling is refused or counted', async (bucket) => {
    for (const r of routes) {
      const c = await stack.bootstrap({ account: `buckets-${bucket}-${r.scope}-${r.method}`, app: 'web', scopes: [r.scope] });
      await admin('limits', '--account', c.accountId, ...(bucket === 'app' ? ['--burst', '0', '--app-burst', '1'] : ['--burst', '1', '--app-burst', '0']));
      const token = await stack.token(c, r.scope);
      const o = { token, apiKey: c.apiKey, json: r.json };
      expect((await send(r.method, r.path, o)).status).not.toBe(429);
      expect((await send(r.method, r.path, o)).status).toBe(429);
      const answers = await everySpelling(pathOnly(r.path), (p) => send(r.method, p + query(r.path), o));
      expectRefusedOrCounted(answers, 429);
    }
  });
});
