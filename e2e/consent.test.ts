import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { createClient } from '@accord/common';
import { dataprocessingv1 } from '@accord/proto';
import { startStack, type Credentials, type Stack } from './harness';

let stack: Stack;
let acme: Credentials;
let acmeToken: string;
let globex: Credentials;
let globexToken: string;

beforeAll(async () => {
  stack = await startStack('consent');
  acme = await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent', 'dataprocessing'] });
  acmeToken = await stack.token(acme, 'consent');
  globex = await stack.bootstrap({ account: 'globex', app: 'api', scopes: ['consent'] });
  globexToken = await stack.token(globex, 'consent');
}, 120_000);
afterAll(async () => stack?.stop());

const asAcme = (method: string, path: string, body?: { json?: unknown; form?: Record<string, string> }) =>
  stack.request(method, path, { token: acmeToken, apiKey: acme.apiKey, ...body });
const asGlobex = (method: string, path: string, body?: { json?: unknown }) =>
  stack.request(method, path, { token: globexToken, apiKey: globex.apiKey, ...body });
const ev = (over: Record<string, unknown> = {}) => ({ subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', ...over });
const search = (q: Record<string, string>) => `/consent/v0/consents/search?${new URLSearchParams(q).toString()}`;

describe('POST /consent/v0/consents', () => {
  test('one JSON object answers 201 with the stored event, defaults filled in, and a Location', async () => {
    const res = await asAcme('POST', '/consent/v0/consents', { json: ev({ action: true }) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      subject: 'user-1',
      issuer: 'https://shop.example',
      target: 'https://shop.example/privacy',
      scope: 'default',
      action: true,
      token: expect.stringMatching(/^[A-Z0-9]{6}$/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      appId: acme.appId,
    });
    expect(res.headers.get('location')).toMatch(new RegExp(`/consent/v0/consents/${res.body.id}$`));
  });

  test('an array answers the stored events in request order', async () => {
    const res = await asAcme('POST', '/consent/v0/consents', {
      json: [ev({ scope: 'a', action: true }), ev({ scope: 'b', action: false }), ev({ scope: 'c' })],
    });
    expect(res.status).toBe(201);
    expect(res.body.map((e: { scope: string; action: unknown }) => [e.scope, e.action])).toEqual([
      ['a', true],
      ['b', false],
      ['c', null],
    ]);
  });

  test('form fields map action true/false/null/absent and refuse any other value naming the field', async () => {
    const form = (action?: string) =>
      asAcme('POST', '/consent/v0/consents', {
        form: { ...ev({ subject: 'form-user', source: 'phone' }), ...(action !== undefined ? { action } : {}) } as Record<string, string>,
      });
    expect((await form('true')).body.action).toBe(true);
    expect((await form('false')).body.action).toBe(false);
    expect((await form('null')).body.action).toBe(null);
    const absent = await form();
    expect(absent.status).toBe(201);
    expect(absent.body).toMatchObject({ action: null, source: 'phone', scope: 'default' });
    const bad = await form('yes');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(bad.body.errors).toEqual([{ field: '/action', message: 'must be one of: true, false, null' }]);
  });

  test('refuses missing required fields, unknown and service fields, wrong types and over-long values, naming each', async () => {
    const res = await asAcme('POST', '/consent/v0/consents', {
      json: { subject: 'x', target: 'y'.repeat(2049), action: 'true', token: 'ABCDEF', color: 'red' },
    });
    expect(res.status).toBe(400);
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['/action', '/color', '/issuer', '/target', '/token']);
    const blank = await asAcme('POST', '/consent/v0/consents', { json: ev({ subject: '   ' }) });
    expect(blank.status).toBe(400);
    expect(blank.body.errors[0].field).toBe('/subject');
  });

  test('an array with one bad event stores nothing and names the index', async () => {
    const res = await asAcme('POST', '/consent/v0/consents', { json: [ev({ subject: 'atomic' }), ev({ subject: 'atomic', issuer: undefined })] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: '/1/issuer', message: 'is required' }]);
    const found = await asAcme('GET', search({ subject: 'atomic', issuer: 'https://shop.example', target: 'https://shop.example/privacy' }));
    expect(found.body).toEqual([]);
  });

  test('an empty array is a 400 and more than 1000 events a 413', async () => {
    expect((await asAcme('POST', '/consent/v0/consents', { json: [] })).status).toBe(400);
    const big = await asAcme('POST', '/consent/v0/consents', { json: Array.from({ length: 1001 }, () => ev({ subject: 'b' })) });
    expect(big.status).toBe(413);
  });

  test('a body that is not JSON, an array of strings or a scalar is a 400', async () => {
    expect((await asAcme('POST', '/consent/v0/consents', { json: '{"subject":' })).status).toBe(400);
    const scalar = await asAcme('POST', '/consent/v0/consents', { json: ['x'] });
    expect(scalar.status).toBe(400);
    expect(scalar.body.errors[0].field).toBe('/0');
  });

  test('events cannot be changed: PUT, PATCH and DELETE answer 405 with Allow', async () => {
    const created = await asAcme('POST', '/consent/v0/consents', { json: ev() });
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await asAcme(method, `/consent/v0/consents/${created.body.id}`, { json: ev() });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
    const onCollection = await asAcme('DELETE', '/consent/v0/consents');
    expect(onCollection.status).toBe(405);
    expect(onCollection.headers.get('allow')).toBe('POST');
  });

  test('needs the x-api-key of the token account', async () => {
    expect((await stack.request('POST', '/consent/v0/consents', { token: acmeToken, json: ev() })).status).toBe(401);
    expect((await stack.request('POST', '/consent/v0/consents', { token: acmeToken, apiKey: globex.apiKey, json: ev() })).status).toBe(403);
  });
});

describe('reading', () => {
  test('an event by id, and 404 for another account and for a malformed id', async () => {
    const created = await asAcme('POST', '/consent/v0/consents', { json: ev({ subject: 'reader' }) });
    const got = await asAcme('GET', `/consent/v0/consents/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    expect((await asGlobex('GET', `/consent/v0/consents/${created.body.id}`)).status).toBe(404);
    expect((await asAcme('GET', '/consent/v0/consents/nope')).status).toBe(404);
  });

  test('by token: the newest event with that token, case-insensitive; 404 in another account; 400 for a malformed token', async () => {
    const created = await asAcme('POST', '/consent/v0/consents', { json: ev({ subject: 'tok' }) });
    const got = await asAcme('GET', `/consent/v0/consents/token/${created.body.token.toLowerCase()}`);
    expect(got.status).toBe(200);
    expect(got.body.token).toBe(created.body.token);
    expect((await asGlobex('GET', `/consent/v0/consents/token/${created.body.token}`)).status).toBe(404);
    const bad = await asAcme('GET', '/consent/v0/consents/token/ABC');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('token');
  });

  test('search takes percent-encoded URLs, answers newest first, and names each missing required parameter', async () => {
    const who = {
      subject: 'https://shop.example/users/7?x=1&y=2',
      issuer: 'https://shop.example',
      target: 'https://accord.example/dataprocessing/v0/dpspecs/abc',
    };
    const a = await asAcme('POST', '/consent/v0/consents', { json: { ...who, action: true } });
    const b = await asAcme('POST', '/consent/v0/consents', { json: { ...who, action: false } });
    const res = await asAcme('GET', search(who));
    expect(res.status).toBe(200);
    expect(res.body.map((e: { id: string }) => e.id)).toEqual([b.body.id, a.body.id]);
    expect((await asGlobex('GET', search(who))).body).toEqual([]);

    const missing = await asAcme('GET', '/consent/v0/consents/search?issuer=i');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['subject', 'target']);
    expect((await asAcme('GET', `${search(who)}&current=maybe`)).status).toBe(400);
  });

  test('current=true: with scope at most one event, without scope the newest of each scope', async () => {
    const who = { subject: 'cur', issuer: 'https://shop.example', target: 'https://shop.example/terms' };
    await asAcme('POST', '/consent/v0/consents', {
      json: [
        { ...who, scope: 'email', action: true },
        { ...who, scope: 'sms', action: true },
      ],
    });
    const withdrawn = await asAcme('POST', '/consent/v0/consents', { json: { ...who, scope: 'email', action: false } });
    const one = await asAcme('GET', search({ ...who, scope: 'email', current: 'true' }));
    expect(one.body.map((e: { id: string }) => e.id)).toEqual([withdrawn.body.id]);
    const each = await asAcme('GET', search({ ...who, current: 'true' }));
    expect(each.body.map((e: { scope: string; action: boolean }) => [e.scope, e.action])).toEqual([
      ['email', false],
      ['sms', true],
    ]);
    expect((await asAcme('GET', search({ ...who, scope: 'post', current: 'true' }))).body).toEqual([]);
  });

  test('long histories page with limit and Link rel="next"; the body stays an array', async () => {
    const who = { subject: 'pages', issuer: 'https://shop.example', target: 'https://shop.example/terms' };
    const created = await asAcme('POST', '/consent/v0/consents', { json: Array.from({ length: 7 }, () => ({ ...who, action: true })) });
    const ids: string[] = [];
    let url: string | undefined = search({ ...who, limit: '3' });
    let pages = 0;
    while (url) {
      const res = await asAcme('GET', url);
      expect(Array.isArray(res.body)).toBe(true);
      ids.push(...res.body.map((e: { id: string }) => e.id));
      pages++;
      const link = res.headers.get('link');
      url = link ? new URL(/<([^>]+)>; rel="next"/.exec(link)![1]!).pathname + new URL(/<([^>]+)>/.exec(link)![1]!).search : undefined;
    }
    expect(pages).toBe(3);
    expect(ids).toEqual(created.body.map((e: { id: string }) => e.id).reverse());
    expect((await asAcme('GET', search({ ...who, limit: '5000' }))).status).toBe(400);
  });
});

describe('receipts', () => {
  test('a receipt is a JWS verifiable with the gateway JWKS, with Kantara v1.1.0 fields from the event', async () => {
    const created = await asAcme('POST', '/consent/v0/consents', { json: ev({ subject: 'receipt-user', action: true }) });
    const res = await asAcme('GET', `/consent/v0/consents/${created.body.id}/receipt`);
    expect(res.status).toBe(200);
    const { receipt } = res.body as { receipt: string };
    expect(['ES256', 'RS256']).toContain(decodeProtectedHeader(receipt).alg);
    const jwks = createRemoteJWKSet(new URL(`${stack.baseUrl}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(receipt, jwks);
    expect(payload).toMatchObject({
      version: 'KI-CR-v1.1.0',
      consentReceiptID: created.body.id,
      consentTimestamp: Math.floor(Date.parse(created.body.createdAt) / 1000),
      piiPrincipalId: 'receipt-user',
      policyUrl: 'https://shop.example/privacy',
      services: [{ service: 'https://shop.example/privacy', purposes: [expect.objectContaining({ purpose: 'default' })] }],
      accord: expect.objectContaining({ action: true, token: created.body.token }),
    });
    expect((await asGlobex('GET', `/consent/v0/consents/${created.body.id}/receipt`)).status).toBe(404);
  });

  test('a receipt for a data processing specification target carries its purpose, data, legal basis and sensitivity', async () => {
    const dp = createClient(dataprocessingv1.DataProcessingServiceService, stack.env.ACCORD_DATAPROCESSING_ADDR!);
    try {
      const group = await dp.createGroup({
        accountId: acme.accountId,
        appId: acme.appId,
        fields: { name: 'Newsletter', description: 'News', purpose: 'marketing' },
      });
      const spec = await dp.createSpec({
        accountId: acme.accountId,
        appId: acme.appId,
        groupId: group.id,
        fields: { data: 'e-mail', purpose: 'newsletter', action: 'collect', sensitive: true, legalBasis: 'CONSENT' },
        texts: [],
      });
      const target = `${stack.env.ACCORD_BASE_URL!.replace(/\/$/, '')}/dataprocessing/v0/dpspecs/${spec.id}`;
      const created = await asAcme('POST', '/consent/v0/consents', { json: ev({ target, action: true }) });
      const { receipt } = (await asAcme('GET', `/consent/v0/consents/${created.body.id}/receipt`)).body as { receipt: string };
      const { payload } = await jwtVerify(receipt, createRemoteJWKSet(new URL(`${stack.baseUrl}/.well-known/jwks.json`)));
      expect(payload).toMatchObject({
        sensitive: true,
        spiCat: ['e-mail'],
        services: [{ purposes: [expect.objectContaining({ purpose: 'newsletter', piiCategory: ['e-mail'], legalBasis: 'CONSENT' })] }],
      });
    } finally {
      dp.close();
    }
  });
});

describe('statistics', () => {
  test('per application: totals by action, distinct subjects, per-target counts and current states, latest event time', async () => {
    const app2 = await stack.bootstrap({ account: 'acme', app: 'stats-app', scopes: ['consent'] });
    const token = await stack.token(app2, 'consent');
    const post = (json: unknown) => stack.request('POST', '/consent/v0/consents', { token, apiKey: app2.apiKey, json });
    await post([ev({ subject: 's1', action: true }), ev({ subject: 's2', action: true }), ev({ subject: 's1', action: false })]);
    const last = await post(ev({ subject: 's3', target: 'https://shop.example/other' }));
    const res = await stack.request('GET', '/consent/v0/consents/statistics', { token, apiKey: app2.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      appId: app2.appId,
      total: 4,
      accepted: 2,
      declined: 1,
      noAction: 1,
      distinctSubjects: 3,
      latestEventAt: last.body.createdAt,
      targets: [
        { target: 'https://shop.example/privacy', events: 3, currentAccepted: 1, currentDeclined: 1, currentNoAction: 0 },
        { target: 'https://shop.example/other', events: 1, currentAccepted: 0, currentDeclined: 0, currentNoAction: 1 },
      ],
    });
  });
});
