import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';
import { loadSigningKeys } from '@accord/common';
import { startStack, type Credentials, type Stack } from './harness';

let stack: Stack;
let acme: Credentials;
let other: Credentials;

beforeAll(async () => {
  stack = await startStack('auth');
  acme = await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] });
  other = await stack.bootstrap({ account: 'globex', app: 'web', scopes: ['consent'] });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const SEARCH = '/consent/v0/consents/search?subject=s&issuer=i&target=t';

describe('bootstrap', () => {
  test('gives credentials with every contract field, and the same account name again adds an application', async () => {
    expect(Object.keys(acme).sort()).toEqual(['accountId', 'apiKey', 'appId', 'clientId', 'clientSecret', 'scopes']);
    const second = await stack.bootstrap({ account: 'acme', app: 'mobile', scopes: ['consent'] });
    expect(second.accountId).toBe(acme.accountId);
    expect(second.apiKey).toBe(acme.apiKey);
    expect(second.appId).not.toBe(acme.appId);
    expect(second.clientId).not.toBe(acme.clientId);
  });
});

describe('token endpoint', () => {
  test('client_credentials with a JSON body answers exactly the interface fields, no-store', async () => {
    const res = await stack.request('POST', '/oauth/v0/token', {
      json: { grant_type: 'client_credentials', scope: 'consent', client_id: acme.clientId, client_secret: acme.clientSecret },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(res.body).toMatchObject({ token_type: 'Bearer', scope: 'consent', expires_in: expect.any(Number) });
  });

  test('client_credentials with Basic and a form body grants several scopes; the JWT verifies with the published JWKS', async () => {
    const res = await stack.request('POST', '/oauth/v0/token', {
      headers: { authorization: basic(acme.clientId, acme.clientSecret) },
      form: { grant_type: 'client_credentials', scope: 'consent dataprocessing' },
    });
    expect(res.status).toBe(200);
    expect(res.body.scope.split(' ').sort()).toEqual(['consent', 'dataprocessing']);
    const jwks = (await stack.request('GET', '/.well-known/jwks.json')).body;
    const { payload, protectedHeader } = await jwtVerify(res.body.access_token, createLocalJWKSet(jwks), { issuer: `${stack.baseUrl}/oauth/v0` });
    expect(protectedHeader.alg).toBe('ES256');
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload).toMatchObject({ sub: acme.clientId, acc: acme.accountId, app: acme.appId, scope: 'consent dataprocessing' });
    expect(payload.jti).toBeTruthy();
    expect(payload.exp! - payload.iat!).toBe(res.body.expires_in);
  });

  test('a refresh token is rotated on use, and reusing a spent one revokes the whole family', async () => {
    const first = await stack.request('POST', '/oauth/v0/token', {
      json: { grant_type: 'client_credentials', scope: 'consent', client_id: acme.clientId, client_secret: acme.clientSecret },
    });
    const auth = { authorization: basic(acme.clientId, acme.clientSecret) };
    const second = await stack.request('POST', '/oauth/v0/token', {
      headers: auth,
      form: { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
    });
    expect(second.status).toBe(200);
    expect(second.body.scope).toBe('consent');
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);

    const reuse = await stack.request('POST', '/oauth/v0/token', {
      headers: auth,
      form: { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    const revoked = await stack.request('POST', '/oauth/v0/token', {
      headers: auth,
      form: { grant_type: 'refresh_token', refresh_token: second.body.refresh_token },
    });
    expect(revoked.status).toBe(400);
    expect(revoked.body.error).toBe('invalid_grant');
  });

  test('another client cannot use a refresh token', async () => {
    const first = await stack.request('POST', '/oauth/v0/token', {
      json: { grant_type: 'client_credentials', client_id: acme.clientId, client_secret: acme.clientSecret },
    });
    const res = await stack.request('POST', '/oauth/v0/token', {
      headers: { authorization: basic(other.clientId, other.clientSecret) },
      form: { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  test.each([
    ['a missing grant_type', { client_id: 'x', client_secret: 'y' }, 400, 'invalid_request'],
    ['an unsupported grant type', { grant_type: 'password', client_id: 'x', client_secret: 'y' }, 400, 'unsupported_grant_type'],
  ])('%s is answered in the RFC 6749 form', async (_name, body, status, error) => {
    const res = await stack.request('POST', '/oauth/v0/token', { json: body });
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(error);
    expect(typeof res.body.error_description).toBe('string');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  test('a wrong secret in the body is invalid_client (401)', async () => {
    const res = await stack.request('POST', '/oauth/v0/token', {
      json: { grant_type: 'client_credentials', client_id: acme.clientId, client_secret: 'cs_wrong' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  test('a wrong secret with Basic is invalid_client with WWW-Authenticate: Basic', async () => {
    const res = await stack.request('POST', '/oauth/v0/token', {
      headers: { authorization: basic(acme.clientId, 'cs_wrong') },
      form: { grant_type: 'client_credentials' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  test('an unknown client is invalid_client', async () => {
    const res = await stack.request('POST', '/oauth/v0/token', { json: { grant_type: 'client_credentials', client_id: 'cl_nobody', client_secret: 'cs_x' } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  test('a scope the application was not granted is invalid_scope', async () => {
    const res = await stack.request('POST', '/oauth/v0/token', {
      json: { grant_type: 'client_credentials', scope: 'webhooks', client_id: other.clientId, client_secret: other.clientSecret },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_scope');
  });

  test('an unknown refresh token is invalid_grant', async () => {
    const res = await stack.request('POST', '/oauth/v0/token', {
      headers: { authorization: basic(acme.clientId, acme.clientSecret) },
      form: { grant_type: 'refresh_token', refresh_token: 'rt_forged' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  test('credentials in both the Basic header and the body are invalid_request', async () => {
    const res = await stack.request('POST', '/oauth/v0/token', {
      headers: { authorization: basic(acme.clientId, acme.clientSecret) },
      form: { grant_type: 'client_credentials', client_id: acme.clientId, client_secret: acme.clientSecret },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  test('a repeated parameter is invalid_request', async () => {
    const res = await stack.request('POST', '/oauth/v0/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      json: `grant_type=client_credentials&scope=consent&scope=webhooks&client_id=${acme.clientId}&client_secret=${acme.clientSecret}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });
});

describe('bearer tokens on the APIs', () => {
  const signed = async (claims: Record<string, unknown>, opts: { pem?: string; expiresIn?: string | number; kid?: string; audience?: string } = {}) => {
    const { keys } = await loadSigningKeys(opts.pem ?? stack.env.ACCORD_TOKEN_SIGNING_KEYS);
    const key = keys[0]!;
    return new SignJWT({ acc: acme.accountId, app: acme.appId, scope: 'consent', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: opts.kid ?? key.kid, typ: 'at+jwt' })
      .setIssuer(`${stack.baseUrl}/oauth/v0`)
      .setAudience(opts.audience ?? 'accord')
      .setSubject(acme.clientId)
      .setIssuedAt()
      .setExpirationTime(opts.expiresIn ?? '5m')
      .sign(createPrivateKey(key.privateKey.export({ type: 'pkcs8', format: 'pem' })));
  };

  test("a valid token with the scope and the account's x-api-key passes", async () => {
    const token = await stack.token(acme, 'consent');
    const res = await stack.request('GET', SEARCH, { token, apiKey: acme.apiKey });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
  });

  test('no token is a 401 problem with WWW-Authenticate: Bearer', async () => {
    const res = await stack.request('GET', SEARCH, { apiKey: acme.apiKey });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ status: 401, title: expect.any(String), type: expect.any(String) });
  });

  test('a garbage token is a 401', async () => {
    const res = await stack.request('GET', SEARCH, { token: 'not.a.jwt', apiKey: acme.apiKey });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/invalid_token/);
  });

  test('an expired token is a 401 that says so', async () => {
    const token = await signed({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const res = await stack.request('GET', SEARCH, { token, apiKey: acme.apiKey });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/expired/);
  });

  test('a token with alg "none" is a 401', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: `${stack.baseUrl}/oauth/v0`, sub: acme.clientId, acc: acme.accountId, app: acme.appId, scope: 'consent', iat: now, exp: now + 300 })}.`;
    const res = await stack.request('GET', SEARCH, { token, apiKey: acme.apiKey });
    expect(res.status).toBe(401);
  });

  test('a token signed by another key under a published kid is a 401', async () => {
    const { keys } = await loadSigningKeys(stack.env.ACCORD_TOKEN_SIGNING_KEYS);
    const foreignPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const token = await signed({}, { pem: foreignPem, kid: keys[0]!.kid });
    const res = await stack.request('GET', SEARCH, { token, apiKey: acme.apiKey });
    expect(res.status).toBe(401);
  });

  test('a well-signed token of our own making is accepted (the test above fails for the key, not the shape)', async () => {
    const res = await stack.request('GET', SEARCH, { token: await signed({}), apiKey: acme.apiKey });
    expect(res.status).toBe(200);
  });

  test('a token meant for another audience is a 401', async () => {
    const res = await stack.request('GET', SEARCH, { token: await signed({}, { audience: 'someone-else' }), apiKey: acme.apiKey });
    expect(res.status).toBe(401);
  });

  test('a token without the scope of the API is a 403 naming the scope', async () => {
    const token = await stack.token(acme, 'dataprocessing');
    const res = await stack.request('GET', SEARCH, { token, apiKey: acme.apiKey });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    expect(res.body.detail).toMatch(/consent/);
  });
});

describe('x-api-key', () => {
  test('is required on the consent API', async () => {
    const res = await stack.request('GET', SEARCH, { token: await stack.token(acme, 'consent') });
    expect(res.status).toBe(401);
    expect(res.body.type).toBe('urn:accord:problem:api-key-required');
  });

  test('an unknown key is a 401', async () => {
    const res = await stack.request('GET', SEARCH, { token: await stack.token(acme, 'consent'), apiKey: 'ak_unknown' });
    expect(res.status).toBe(401);
  });

  test("another account's key is a 403", async () => {
    const res = await stack.request('GET', SEARCH, { token: await stack.token(acme, 'consent'), apiKey: other.apiKey });
    expect(res.status).toBe(403);
    expect(res.body.type).toBe('urn:accord:problem:api-key-mismatch');
  });

  test('is optional on the webhook API, but must match when sent', async () => {
    const token = await stack.token(acme, 'webhooks');
    const without = await stack.request('GET', '/webhooks/v0/', { token });
    expect(without.status).toBe(200);
    const foreign = await stack.request('GET', '/webhooks/v0/', { token, apiKey: other.apiKey });
    expect(foreign.status).toBe(403);
  });
});

describe('the gateway itself', () => {
  test('healthz is alive and readyz reports every service serving', async () => {
    expect((await stack.request('GET', '/healthz')).status).toBe(200);
    const ready = await stack.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.services).toEqual({ oauth: 'SERVING', consent: 'SERVING', dataprocessing: 'SERVING', webhook: 'SERVING' });
  });

  test('readyz answers 503 naming the service that is down', async () => {
    await stack.stopService('dataprocessing');
    try {
      const res = await stack.request('GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body.services.dataprocessing).toBe('NOT_SERVING');
    } finally {
      await stack.startService('dataprocessing');
    }
  });

  test('the JWKS publishes token and receipt keys, each with a kid', async () => {
    const res = await stack.request('GET', '/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.body.keys.length).toBeGreaterThanOrEqual(2);
    for (const k of res.body.keys) {
      expect(k.kid).toBeTruthy();
      expect(k.d).toBeUndefined();
    }
  });

  test('the OpenAPI document is served', async () => {
    const res = await stack.request('GET', '/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/oauth/v0/token']).toBeDefined();
  });

  test("x-request-id is returned: the caller's when sane, a fresh one otherwise", async () => {
    const mine = await stack.request('GET', '/healthz', { headers: { 'x-request-id': 'req-123' } });
    expect(mine.headers.get('x-request-id')).toBe('req-123');
    const fresh = await stack.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('an oversized body is a 413 problem', async () => {
    const res = await stack.request('POST', '/consent/v0/consents', { json: { subject: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  });

  test('malformed JSON is a 400 problem', async () => {
    const res = await stack.request('POST', '/consent/v0/consents', { json: '{"subject":', token: await stack.token(acme, 'consent'), apiKey: acme.apiKey });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  });

  test('an unknown path is a 404 problem', async () => {
    const res = await stack.request('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body.status).toBe(404);
  });
});
