import * as http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from '@accord/oauth';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { createClient } from '@accord/common';
import { dataprocessingv1 } from '@accord/proto';
import { bearer, startStack, type Credentials, type Stack } from './harness';

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

  test('concurrent searches (which the gateway sends together) each answer their own account’s current state, a bad one its own 400', async () => {
    const who = (n: number) => ({ subject: `many-${n}`, issuer: 'https://shop.example', target: 'https://shop.example/many', scope: 'email' });
    const mine = await asAcme('POST', '/consent/v0/consents', { json: Array.from({ length: 12 }, (_, n) => ({ ...who(n), action: n % 2 === 0 })) });
    const theirs = await asGlobex('POST', '/consent/v0/consents', { json: { ...who(0), action: false } });
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, (_, n) => asAcme('GET', search({ ...who(n), current: 'true' }))),
      asGlobex('GET', search({ ...who(0), current: 'true' })),
      asGlobex('GET', search({ ...who(1), current: 'true' })),
      asAcme('GET', search({ ...who(0), current: 'true', cursor: 'not-a-cursor' })),
    ]);
    expect(answers.slice(0, 12).map((r) => r.body.map((e: { id: string }) => e.id))).toEqual(mine.body.map((e: { id: string }) => [e.id]));
    expect(answers[12]!.body.map((e: { id: string }) => e.id)).toEqual([theirs.body.id]);
    expect(answers[13]!.body).toEqual([]);
    expect(answers[14]!.status).toBe(400);
    expect(answers[14]!.body.errors.map((e: { field?: string; pointer?: string }) => e.field ?? e.pointer)).toEqual(['cursor']);
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
    // a platform caller over gRPC: the application's own access token, in its own account
    const dp = createClient(dataprocessingv1.DataProcessingServiceService, stack.env.ACCORD_DATAPROCESSING_ADDR!);
    const metadata = bearer(await stack.token(acme, 'dataprocessing'));
    try {
      const group = await dp.createGroup(
        {
          accountId: acme.accountId,
          appId: acme.appId,
          fields: { name: 'Newsletter', description: 'News', purpose: 'marketing' },
        },
        { metadata },
      );
      const spec = await dp.createSpec(
        {
          accountId: acme.accountId,
          appId: acme.appId,
          groupId: group.id,
          fields: { data: 'e-mail', purpose: 'newsletter', action: 'collect', sensitive: true, legalBasis: 'CONSENT' },
          texts: [],
        },
        { metadata },
      );
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

describe('lifecycle: version-bound consent and expiry', () => {
  test('a consent to a specification records its version; the receipt keeps describing that version after the specification changes', async () => {
    // a platform caller over gRPC: the application's own access token, in its own account
    const dp = createClient(dataprocessingv1.DataProcessingServiceService, stack.env.ACCORD_DATAPROCESSING_ADDR!);
    const metadata = bearer(await stack.token(acme, 'dataprocessing'));
    try {
      const group = await dp.createGroup({ accountId: acme.accountId, appId: acme.appId, fields: { name: 'Analytics', purpose: 'statistics' } }, { metadata });
      const spec = await dp.createSpec(
        {
          accountId: acme.accountId,
          appId: acme.appId,
          groupId: group.id,
          fields: { data: 'page views', purpose: 'measure reach', action: 'collect' },
          texts: [],
        },
        { metadata },
      );
      const target = `urn:accord:dpspec:${spec.id}`;
      const created = await asAcme('POST', '/consent/v0/consents', { json: ev({ subject: 'versioned', target, action: true }) });
      expect(created.status).toBe(201);
      expect(created.body.targetVersion).toBe(1);
      await dp.updateSpec(
        { accountId: acme.accountId, appId: acme.appId, id: spec.id, fields: { purpose: 'sell to partners' }, updateMask: ['purpose'] },
        { metadata },
      );

      const { receipt } = (await asAcme('GET', `/consent/v0/consents/${created.body.id}/receipt`)).body as { receipt: string };
      const { payload } = await jwtVerify(receipt, createRemoteJWKSet(new URL(`${stack.baseUrl}/.well-known/jwks.json`)));
      expect(payload).toMatchObject({
        services: [{ purposes: [expect.objectContaining({ purpose: 'measure reach' })] }],
        accord: { targetVersion: 1, spec: { id: spec.id, version: 1 } },
      });
      // the client may name the version it showed; a version the specification does not have yet is a 400 naming the field
      const shown = await asAcme('POST', '/consent/v0/consents', { json: ev({ subject: 'versioned-2', target, action: true, targetVersion: 1 }) });
      expect(shown.body.targetVersion).toBe(1);
      const future = await asAcme('POST', '/consent/v0/consents', { json: ev({ subject: 'versioned-3', target, targetVersion: 3 }) });
      expect(future.status).toBe(400);
      expect(future.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(future.body.errors).toEqual([{ field: '/targetVersion', message: "is later than the specification's current version 2" }]);
    } finally {
      dp.close();
    }
  });

  test('a specification with consentValidityDays gives its consents an expiresAt that many days on', async () => {
    const dpToken = await stack.token(acme, 'dataprocessing');
    const asDp = (method: string, path: string, json?: unknown) =>
      stack.request(method, path, { token: dpToken, apiKey: acme.apiKey, ...(json ? { json } : {}) });
    const group = await asDp('POST', '/dataprocessing/v0/dpgroups', { name: 'Yearly', purpose: 'marketing' });
    const spec = await asDp('POST', `/dataprocessing/v0/dpgroups/${group.body.id}/specs`, {
      data: 'e-mail',
      purpose: 'newsletter',
      action: 'collect',
      consentValidityDays: 365,
    });
    expect(spec.status).toBe(201);
    expect(spec.body.consentValidityDays).toBe(365);
    const bad = await asDp('POST', `/dataprocessing/v0/dpgroups/${group.body.id}/specs`, {
      data: 'x',
      purpose: 'y',
      action: 'collect',
      consentValidityDays: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('/consentValidityDays');

    const before = Date.now();
    const created = await asAcme('POST', '/consent/v0/consents', { json: ev({ subject: 'yearly', target: spec.body.target, action: true }) });
    expect(created.status).toBe(201);
    const expires = Date.parse(created.body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 365 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 365 * 86_400_000);
  });

  test('a consent past its expiresAt shows expired: true in current=true results and counts apart in statistics', async () => {
    const app = await stack.bootstrap({ account: 'acme', app: 'expiry-app', scopes: ['consent'] });
    const token = await stack.token(app, 'consent');
    const target = 'https://shop.example/expiring';
    // far enough ahead that the POST surely arrives before it, also on a loaded machine
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const post = await stack.request('POST', '/consent/v0/consents', {
      token,
      apiKey: app.apiKey,
      json: ev({ subject: 'lapse', target, action: true, expiresAt }),
    });
    expect(post.status).toBe(201);
    expect(post.body.expiresAt).toBe(expiresAt);
    const past = await stack.request('POST', '/consent/v0/consents', { token, apiKey: app.apiKey, json: ev({ target, expiresAt: '2020-01-01T00:00:00Z' }) });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([{ field: '/expiresAt', message: 'must be in the future' }]);

    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiresAt) - Date.now() + 50)));
    const current = await stack.request('GET', search({ subject: 'lapse', issuer: 'https://shop.example', target, current: 'true' }), {
      token,
      apiKey: app.apiKey,
    });
    expect(current.body).toEqual([expect.objectContaining({ id: post.body.id, expiresAt, expired: true })]);
    const history = await stack.request('GET', search({ subject: 'lapse', issuer: 'https://shop.example', target }), { token, apiKey: app.apiKey });
    expect(history.body[0]).not.toHaveProperty('expired');
    const stats = await stack.request('GET', '/consent/v0/consents/statistics', { token, apiKey: app.apiKey });
    expect(stats.body.targets).toEqual([
      { target, events: 1, currentAccepted: 0, currentDeclined: 0, currentNoAction: 0, currentExpired: 1, currentRenewalRequired: 0, currentGpcDeclines: 0 },
    ]);
  });
});

describe('export', () => {
  test('streams the account’s events as NDJSON oldest first, filtered, and resumes from the id of the last line', async () => {
    const app = await stack.bootstrap({ account: 'acme', app: 'export-app', scopes: ['consent'] });
    const token = await stack.token(app, 'consent');
    const posted = await stack.request('POST', '/consent/v0/consents', {
      token,
      apiKey: app.apiKey,
      json: Array.from({ length: 5 }, (_, i) => ev({ subject: `export-${i % 2}`, target: `https://shop.example/export/${i}`, action: i % 2 === 0 })),
    });
    expect(posted.status).toBe(201);
    const ids = (posted.body as Array<{ id: string }>).map((e) => e.id);
    const exportOf = async (q: Record<string, string>) => {
      const res = await fetch(`${stack.baseUrl}/consent/v0/consents/export?${new URLSearchParams(q).toString()}`, {
        headers: { authorization: `Bearer ${token}`, 'x-api-key': app.apiKey },
      });
      return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
    };
    const lines = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; appId: string });

    const all = await exportOf({ appId: app.appId });
    expect(all.status).toBe(200);
    expect(all.type).toMatch(/^application\/x-ndjson/);
    expect(all.text.endsWith('\n')).toBe(true);
    expect(lines(all.text).map((e) => e.id)).toEqual(ids);
    expect(lines(all.text)[0]).toEqual(posted.body[0]);

    // resume after the second line
    expect(lines((await exportOf({ appId: app.appId, cursor: ids[1]! })).text).map((e) => e.id)).toEqual(ids.slice(2));
    // one subject's complete history across targets (access request)
    expect(lines((await exportOf({ subject: 'export-1' })).text).map((e) => e.id)).toEqual([ids[1], ids[3]]);
    expect(lines((await exportOf({ appId: app.appId, target: 'https://shop.example/export/4' })).text).map((e) => e.id)).toEqual([ids[4]]);

    const bad = await exportOf({ cursor: 'not-a-cursor', since: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.type).toMatch(/^application\/problem\+json/);
    expect((JSON.parse(bad.text) as { errors: Array<{ field: string }> }).errors.map((e) => e.field).sort()).toEqual(['cursor', 'since']);
  });

  test('gzip when asked (flushed, Vary), an X-Total-Count estimate from the cursor on, and one subject as a JSON document', async () => {
    const app = await stack.bootstrap({ account: 'export-gz', app: 'export-gz-app', scopes: ['consent'] });
    const token = await stack.token(app, 'consent');
    const target = (i: number) => `https://shop.example/gz/${i}`;
    const posted = await stack.request('POST', '/consent/v0/consents', {
      token,
      apiKey: app.apiKey,
      json: [
        ev({ subject: 'gz-a', target: target(1), action: true }),
        ev({ subject: 'gz-b', target: target(1), action: true }),
        ev({ subject: 'gz-a', target: target(2), action: true }),
        ev({ subject: 'gz-a', target: target(1), action: false }),
      ],
    });
    expect(posted.status).toBe(201);
    const ids = (posted.body as Array<{ id: string }>).map((e) => e.id);
    const raw = (query: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(
            `${stack.baseUrl}/consent/v0/consents/export?${query}`,
            { headers: { authorization: `Bearer ${token}`, 'x-api-key': app.apiKey, ...headers } },
            (res) => {
              const parts: Buffer[] = [];
              res
                .on('data', (d: Buffer) => parts.push(d))
                .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
            },
          )
          .on('error', reject);
      });
    const idsOf = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id: string }).id);

    const gz = await raw('', { 'accept-encoding': 'gzip, deflate' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/Accept-Encoding/);
    expect(gz.headers['x-total-count']).toBe('4');
    expect(idsOf(gunzipSync(gz.body).toString('utf8'))).toEqual(ids);
    const plain = await raw('', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(idsOf(plain.body.toString('utf8'))).toEqual(ids);
    // gzip;q=0 refuses it
    expect((await raw('', { 'accept-encoding': 'gzip;q=0' })).headers['content-encoding']).toBeUndefined();
    // from the cursor on, with a filter: one count with the same filter
    expect((await raw(`cursor=${ids[0]}`, {})).headers['x-total-count']).toBe('3');
    expect((await raw('subject=gz-a', {})).headers['x-total-count']).toBe('3');

    // one subject as JSON: complete history and the current state of each (issuer, target, scope)
    const json = await stack.request('GET', '/consent/v0/consents/export?subject=gz-a', { token, apiKey: app.apiKey, headers: { accept: 'application/json' } });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.body.subject).toBe('gz-a');
    expect(json.body.events.map((e: { id: string }) => e.id)).toEqual([ids[0], ids[2], ids[3]]);
    expect(json.body.current.map((e: { id: string }) => e.id)).toEqual([ids[3], ids[2]]);
    expect(json.body.events[0]).toEqual(posted.body[0]);
    // gzip applies to the JSON form too
    const jsonGz = await raw('subject=gz-b', { accept: 'application/json', 'accept-encoding': 'gzip' });
    expect(jsonGz.headers['content-encoding']).toBe('gzip');
    expect((JSON.parse(gunzipSync(jsonGz.body).toString('utf8')) as { current: unknown[] }).current).toHaveLength(1);
    // NDJSON stays the default
    expect((await raw('subject=gz-a', { accept: '*/*' })).headers['content-type']).toMatch(/^application\/x-ndjson/);

    // the JSON form is one subject's document: no subject or a cursor is a 400 naming the field
    const noSubject = await stack.request('GET', '/consent/v0/consents/export', { token, apiKey: app.apiKey, headers: { accept: 'application/json' } });
    expect(noSubject.status).toBe(400);
    expect(noSubject.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(noSubject.body.errors.map((e: { field: string }) => e.field)).toEqual(['subject']);
    const withCursor = await stack.request('GET', `/consent/v0/consents/export?subject=gz-a&cursor=${ids[0]}`, {
      token,
      apiKey: app.apiKey,
      headers: { accept: 'application/json' },
    });
    expect(withCursor.status).toBe(400);
    expect(withCursor.body.errors.map((e: { field: string }) => e.field)).toEqual(['cursor']);
  });
});

describe('admin export', () => {
  test('writes the account’s events (with --links, its link events too) as the export’s NDJSON lines to a file, gzip on request, with progress on stderr, and resumes a cut file', async () => {
    const app = await stack.bootstrap({ account: 'export-admin', app: 'export-admin-app', scopes: ['consent'] });
    const token = await stack.token(app, 'consent');
    const posted = await stack.request('POST', '/consent/v0/consents', {
      token,
      apiKey: app.apiKey,
      json: Array.from({ length: 5 }, (_, i) => ev({ subject: `adm-${i}`, target: `https://shop.example/adm/${i % 2}` })),
    });
    expect(posted.status).toBe(201);
    const http1 = await fetch(`${stack.baseUrl}/consent/v0/consents/export`, { headers: { authorization: `Bearer ${token}`, 'x-api-key': app.apiKey } });
    const expected = await http1.text();
    const dir = mkdtempSync(join(tmpdir(), 'accord-export-'));
    const admin = async (...argv: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await runAdmin(argv, {
        stdout: { write: (s: string) => (stdout += s) },
        stderr: { write: (s: string) => (stderr += s) },
        env: { ACCORD_CONSENT_ADDR: stack.env.ACCORD_CONSENT_ADDR, ACCORD_ADMIN_SERVICE_KEY: stack.secrets.serviceKeys.admin },
      });
      return { code, stdout, stderr };
    };
    const file = join(dir, 'events.ndjson');
    const plain = await admin('export', '--account', app.accountId, '--output', file);
    expect(plain.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(expected);
    expect(plain.stderr).toMatch(/100% 5\/~5 events/);

    const gz = join(dir, 'events.ndjson.gz');
    expect((await admin('export', '--account', app.accountId, '--output', gz, '--gzip', '--quiet')).code).toBe(0);
    expect(gunzipSync(readFileSync(gz)).toString('utf8')).toBe(expected);

    // stdout and a filter
    const one = await admin('export', '--account', app.accountId, '--subject', 'adm-3', '--quiet');
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(`${expected.split('\n')[3]}\n`);

    // an interrupted file: two complete lines and half of the third; --resume completes it
    const lines = expected.split('\n');
    writeFileSync(file, `${lines[0]}\n${lines[1]}\n${lines[2]!.slice(0, 20)}`);
    expect((await admin('export', '--account', app.accountId, '--output', file, '--resume', '--quiet')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(expected);

    // --links: the account's link events among the events, the same lines as links=true; resumable on a link line
    const linked = await stack.request('POST', '/consent/v0/subjects/links', {
      token,
      apiKey: app.apiKey,
      json: { issuer: 'https://shop.example', identity: 'adm-1', subject: 'adm-0' },
    });
    expect(linked.status).toBe(201);
    await stack.request('POST', '/consent/v0/consents', { token, apiKey: app.apiKey, json: ev({ subject: 'adm-9' }) });
    const http2 = await fetch(`${stack.baseUrl}/consent/v0/consents/export?links=true`, {
      headers: { authorization: `Bearer ${token}`, 'x-api-key': app.apiKey },
    });
    const withLinks = await http2.text();
    expect(withLinks.split('\n')[5]).toContain('"type":"subject.linked"');
    const both = await admin('export', '--account', app.accountId, '--links', '--output', file);
    expect(both.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(withLinks);
    expect(both.stderr).toMatch(/6\/~6 events, 1 links/);
    const cut = withLinks.split('\n');
    writeFileSync(file, `${cut.slice(0, 6).join('\n')}\n${cut[6]!.slice(0, 10)}`);
    expect((await admin('export', '--account', app.accountId, '--links', '--output', file, '--resume', '--quiet')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(withLinks);
    // without --links, link lines stay out
    expect((await admin('export', '--account', app.accountId, '--quiet')).stdout).not.toContain('subject.linked');

    // bad options are named, before connecting
    const bad = await admin('export', '--since', 'yesterday', '--cursor', 'x', '--links', '--target', 'https://shop.example/adm/0');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--account is required/);
    expect(bad.stderr).toMatch(/--since must be/);
    expect(bad.stderr).toMatch(/--cursor must be/);
    expect(bad.stderr).toMatch(/--links exports link events, which name no target/);
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
      gpcDeclines: 0,
      jurisdictions: [],
      latestEventAt: last.body.createdAt,
      targets: [
        {
          target: 'https://shop.example/privacy',
          events: 3,
          currentAccepted: 1,
          currentDeclined: 1,
          currentNoAction: 0,
          currentExpired: 0,
          currentRenewalRequired: 0,
          currentGpcDeclines: 0,
        },
        {
          target: 'https://shop.example/other',
          events: 1,
          currentAccepted: 0,
          currentDeclined: 0,
          currentNoAction: 1,
          currentExpired: 0,
          currentRenewalRequired: 0,
          currentGpcDeclines: 0,
        },
      ],
    });
  });
});
