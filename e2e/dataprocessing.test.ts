import { startStack, type Credentials, type Stack } from './harness';

let stack: Stack;
let acme: Credentials;
let globex: Credentials;
let token: string;
let globexToken: string;

beforeAll(async () => {
  stack = await startStack('dataprocessing');
  acme = await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent', 'dataprocessing'] });
  globex = await stack.bootstrap({ account: 'globex', app: 'web', scopes: ['dataprocessing'] });
  token = await stack.token(acme, 'dataprocessing');
  globexToken = await stack.token(globex, 'dataprocessing');
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const BASE = '/dataprocessing/v0';
const dp = (method: string, path: string, json?: unknown, headers?: Record<string, string>, t = token) =>
  stack.request(method, BASE + path, { token: t, json, headers });

async function group(json: unknown = { name: 'Newsletter', description: 'News from us', purpose: 'marketing' }) {
  const res = await dp('POST', '/dpgroups', json);
  expect(res.status).toBe(201);
  return res.body;
}
async function spec(groupId: string, json: Record<string, unknown> = {}) {
  const res = await dp('POST', `/dpgroups/${groupId}/specs`, { data: 'e-mail', purpose: 'newsletter', action: 'collect', ...json });
  expect(res.status).toBe(201);
  return res.body;
}

describe('groups', () => {
  test('create answers 201 with id, fields, the owning application and timestamps', async () => {
    const res = await dp('POST', '/dpgroups', { description: 'Only a description' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: '',
      description: 'Only a description',
      purpose: '',
      appId: acme.appId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.headers.get('location')).toBe(`${stack.baseUrl}${BASE}/dpgroups/${res.body.id}`);
    expect((await dp('GET', `/dpgroups/${res.body.id}`)).body).toEqual(res.body);
  });

  test('list pages with limit and a Link rel="next" header', async () => {
    const t = await stack.token(await stack.bootstrap({ account: 'paging', app: 'web', scopes: ['dataprocessing'] }), 'dataprocessing');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await dp('POST', '/dpgroups', { name: `g${i}` }, undefined, t)).body.id);
    const p1 = await dp('GET', '/dpgroups?limit=2', undefined, undefined, t);
    expect(p1.body.map((g: { id: string }) => g.id)).toEqual(ids.slice(0, 2));
    const next = /^<([^>]+)>; rel="next"$/.exec(p1.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const p2 = await stack.request('GET', next!.replace(stack.baseUrl, ''), { token: t });
    expect(p2.body.map((g: { id: string }) => g.id)).toEqual(ids.slice(2));
    expect(p2.headers.get('link')).toBeNull();
    const bad = await dp('GET', '/dpgroups?limit=0', undefined, undefined, t);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['limit']);
  });

  test('PATCH changes the fields sent, PUT replaces them all, DELETE removes the group', async () => {
    const g = await group();
    const patched = await dp('PATCH', `/dpgroups/${g.id}`, { name: 'Weekly news', purpose: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Weekly news', description: 'News from us', purpose: '' });
    const put = await dp('PUT', `/dpgroups/${g.id}`, { description: 'Replaced' });
    expect(put.body).toMatchObject({ name: '', description: 'Replaced', purpose: '' });
    expect((await dp('DELETE', `/dpgroups/${g.id}`)).status).toBe(204);
    expect((await dp('GET', `/dpgroups/${g.id}`)).status).toBe(404);
    expect((await dp('DELETE', `/dpgroups/${g.id}`)).status).toBe(404);
  });

  test('bad input is a 400 problem naming the field', async () => {
    const res = await dp('POST', '/dpgroups', { name: 42, colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['/colour', '/name']);
  });
});

describe('specifications', () => {
  test('create applies the defaults and answers the consent target URL', async () => {
    const g = await group();
    const res = await dp('POST', `/dpgroups/${g.id}/specs`, { data: 'e-mail', purpose: 'newsletter', action: 'collect' });
    expect(res.status).toBe(201);
    const target = `${stack.baseUrl}${BASE}/dpspecs/${res.body.id}`;
    expect(res.body).toMatchObject({
      groupId: g.id,
      data: 'e-mail',
      purpose: 'newsletter',
      action: 'collect',
      sensitive: false,
      consentTarget: true,
      location: 'EU',
      duration: null,
      legalBasis: null,
      externalHref: null,
      texts: [],
      version: 1,
      target,
      archived: false,
    });
    expect(res.headers.get('location')).toBe(target);
    expect(res.headers.get('etag')).toBe('"1"');
    const got = await dp('GET', `/dpspecs/${res.body.id}`);
    expect(got.body).toEqual(res.body);
  });

  test('every bad field is named in one 400 problem', async () => {
    const g = await group();
    const res = await dp('POST', `/dpgroups/${g.id}/specs`, { data: '', action: 'sell', duration: 0, legalBasis: 'consent', externalHref: 'not a url' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      '/action',
      '/data',
      '/duration',
      '/externalHref',
      '/legalBasis',
      '/purpose',
    ]);
    const lang = await dp('POST', `/dpgroups/${g.id}/specs`, { data: 'd', purpose: 'p', action: 'use', texts: [{ value: 'x', language: 'qq' }] });
    expect(lang.status).toBe(400);
    expect(lang.body.errors).toEqual([{ field: '/texts/0/language', message: 'must be an ISO 639-1 two-letter language code' }]);
  });

  test('unknown group or spec is 404', async () => {
    expect((await dp('POST', `/dpgroups/${'f'.repeat(24)}/specs`, { data: 'd', purpose: 'p', action: 'use' })).status).toBe(404);
    expect((await dp('GET', `/dpspecs/${'f'.repeat(24)}`)).status).toBe(404);
    expect((await dp('GET', '/dpspecs/nope')).status).toBe(404);
  });

  test('PATCH and PUT change the spec, each keeping the previous state as a version; If-Match guards against lost updates', async () => {
    const g = await group();
    const s = await spec(g.id, { duration: 30, action: 'store' });
    const patched = await dp('PATCH', `/dpspecs/${s.id}`, { purpose: 'weekly newsletter', duration: null }, { 'if-match': '"1"' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ purpose: 'weekly newsletter', duration: null, action: 'store', version: 2 });
    expect(patched.headers.get('etag')).toBe('"2"');
    const stale = await dp('PATCH', `/dpspecs/${s.id}`, { purpose: 'lost' }, { 'if-match': '"1"' });
    expect(stale.status).toBe(412);
    const put = await dp('PUT', `/dpspecs/${s.id}`, { data: 'phone', purpose: 'calls', action: 'use', sensitive: true });
    expect(put.body).toMatchObject({ data: 'phone', purpose: 'calls', action: 'use', sensitive: true, consentTarget: true, location: 'EU', version: 3 });
    const putMissing = await dp('PUT', `/dpspecs/${s.id}`, { data: 'phone' });
    expect(putMissing.status).toBe(400);
    const versions = await dp('GET', `/dpspecs/${s.id}/versions`);
    expect(versions.body.map((v: { version: number; appId: string; spec: { purpose: string } }) => [v.version, v.spec.purpose, v.appId])).toEqual([
      [2, 'weekly newsletter', acme.appId],
      [1, 'newsletter', acme.appId],
    ]);
    const v1 = await dp('GET', `/dpspecs/${s.id}/versions/1`);
    expect(v1.body).toMatchObject({ specId: s.id, version: 1, current: false, spec: { duration: 30, purpose: 'newsletter' } });
    expect((await dp('GET', `/dpspecs/${s.id}/versions/3`)).body.current).toBe(true);
    expect((await dp('GET', `/dpspecs/${s.id}/versions/9`)).status).toBe(404);
    expect((await dp('GET', `/dpspecs/${s.id}/versions/x`)).status).toBe(404);
  });

  test('101 updates keep exactly 100 previous versions, newest first', async () => {
    const g = await group();
    const s = await spec(g.id, { purpose: 'p0' });
    for (let i = 1; i <= 101; i++) expect((await dp('PATCH', `/dpspecs/${s.id}`, { purpose: `p${i}` })).status).toBe(200);
    const versions = (await dp('GET', `/dpspecs/${s.id}/versions`)).body as { version: number; spec: { purpose: string } }[];
    expect(versions).toHaveLength(100);
    expect([versions[0]!.version, versions[0]!.spec.purpose]).toEqual([101, 'p100']);
    expect([versions[99]!.version, versions[99]!.spec.purpose]).toEqual([2, 'p1']);
    expect((await dp('GET', `/dpspecs/${s.id}/versions/1`)).status).toBe(404);
  }, 120_000);

  test('a deleted spec leaves its group list but stays readable, archived, with its versions', async () => {
    const g = await group();
    const s = await spec(g.id);
    await dp('PATCH', `/dpspecs/${s.id}`, { purpose: 'changed' });
    expect((await dp('DELETE', `/dpspecs/${s.id}`)).status).toBe(204);
    expect((await dp('GET', `/dpgroups/${g.id}/specs`)).body).toEqual([]);
    const got = await dp('GET', `/dpspecs/${s.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ archived: true, purpose: 'changed', deletedAt: expect.any(String) });
    expect((await dp('GET', `/dpspecs/${s.id}/versions/1`)).body.spec.purpose).toBe('newsletter');
    expect((await dp('PATCH', `/dpspecs/${s.id}`, { purpose: 'again' })).status).toBe(404);
    expect((await dp('DELETE', `/dpspecs/${s.id}`)).status).toBe(404);
  });
});

describe('texts', () => {
  test('create, list, read, update and delete texts with integer ids; each change is a spec version', async () => {
    const g = await group();
    const s = await spec(g.id);
    const en = await dp('POST', `/dpspecs/${s.id}/texts`, { value: 'We send news.', language: 'en' });
    expect(en.status).toBe(201);
    expect(en.body).toMatchObject({ id: 1, value: 'We send news.', language: 'en', type: 'default' });
    const de = await dp('POST', `/dpspecs/${s.id}/texts`, { value: 'Kinder-Text', language: 'DE', type: 'children' });
    expect(de.body).toMatchObject({ id: 2, language: 'de', type: 'children' });
    expect((await dp('POST', `/dpspecs/${s.id}/texts`, { value: 'again', language: 'en' })).status).toBe(409);
    const bad = await dp('POST', `/dpspecs/${s.id}/texts`, { value: 'x', language: 'english', type: 'poem' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['/language', '/type']);
    expect((await dp('GET', `/dpspecs/${s.id}/texts`)).body.map((t: { id: number }) => t.id)).toEqual([1, 2]);
    expect((await dp('GET', `/dpspecs/${s.id}/texts/2`)).body.value).toBe('Kinder-Text');
    expect((await dp('PATCH', `/dpspecs/${s.id}/texts/2`, { value: 'Für Kinder' })).body).toMatchObject({ id: 2, value: 'Für Kinder', type: 'children' });
    expect((await dp('PUT', `/dpspecs/${s.id}/texts/1`, { value: 'News.', language: 'en' })).body).toMatchObject({ id: 1, value: 'News.' });
    expect((await dp('DELETE', `/dpspecs/${s.id}/texts/1`)).status).toBe(204);
    expect((await dp('GET', `/dpspecs/${s.id}/texts/1`)).status).toBe(404);
    const current = await dp('GET', `/dpspecs/${s.id}`);
    expect(current.body.version).toBe(6);
    expect(current.body.texts.map((t: { id: number }) => t.id)).toEqual([2]);
  });
});

describe('policy section, consent request and dashboard', () => {
  test('policy is HTML with URNs in data-ref, the requested language with fallback, and a <script> in a text inert', async () => {
    const g = await group({ name: 'News <b>letter</b>', description: 'd', purpose: 'marketing' });
    const s1 = await spec(g.id, {
      texts: [
        { value: '<script>alert("pwned")</script>Wir senden News.', language: 'de' },
        { value: 'We send news.', language: 'en' },
      ],
    });
    const s2 = await spec(g.id, { data: 'clicks', texts: [{ value: 'Only English.', language: 'en' }] });
    const res = await dp('GET', `/dpgroups/${g.id}/policy?lang=de`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = res.body as string;
    expect(html).toContain(`data-ref="urn:accord:dpgroup:${g.id}"`);
    expect(html).toContain(`data-ref="urn:accord:dpspec:${s1.id}"`);
    expect(html).toContain(`data-ref="urn:accord:dpspec:${s2.id}"`);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;Wir senden News.');
    expect(html).toContain('News &lt;b&gt;letter&lt;/b&gt;');
    expect(html).toContain('Only English.');
    expect((await dp('GET', `/dpgroups/${g.id}/policy?lang=xx`)).status).toBe(400);
  });

  test('consent request: title, caption and one item per consent-target spec with its target and text', async () => {
    const g = await group({ name: 'Shop', description: 'Please agree' });
    const s1 = await spec(g.id, { texts: [{ value: 'Hallo', language: 'de' }] });
    await spec(g.id, { consentTarget: false, legalBasis: 'CONTRACT' });
    const res = await dp('GET', `/dpgroups/${g.id}/consent-request?lang=fr`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ groupId: g.id, title: 'Shop', caption: 'Please agree', language: 'fr' });
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({ specId: s1.id, target: s1.target, text: { value: 'Hallo', language: 'de' }, version: 1 });
  });

  test('dashboard shows the subject’s current consent per item, from the consent registry', async () => {
    const g = await group({ name: 'Prefs', description: 'Your choices' });
    const s1 = await spec(g.id);
    const s2 = await spec(g.id, { data: 'location' });
    const consentToken = await stack.token(acme, 'consent');
    const post = (json: unknown) => stack.request('POST', '/consent/v0/consents', { token: consentToken, apiKey: acme.apiKey, json });
    expect((await post({ subject: 'alice', issuer: 'shop', target: s1.target, action: true })).status).toBe(201);
    expect((await post({ subject: 'alice', issuer: 'shop', target: s1.target, action: false, scope: 'ads' })).status).toBe(201);
    expect((await post({ subject: 'bob', issuer: 'shop', target: s2.target, action: true })).status).toBe(201);
    const res = await dp('GET', `/dpgroups/${g.id}/dashboard?subject=alice&issuer=shop`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ groupId: g.id, title: 'Prefs', subject: 'alice', issuer: 'shop' });
    const items = res.body.items as { specId: string; state: string; scopes: { scope: string; state: string }[] }[];
    expect(items.map((i) => [i.specId, i.state, i.scopes.map((s) => `${s.scope}:${s.state}`)])).toEqual([
      [s1.id, 'accepted', ['default:accepted', 'ads:declined']],
      [s2.id, 'none', []],
    ]);
    const missing = await dp('GET', `/dpgroups/${g.id}/dashboard?issuer=shop`);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(['subject']);
  });
});

describe('accounts are isolated', () => {
  test('another account gets 404 for every resource of this one and never sees it listed', async () => {
    const g = await group();
    const s = await spec(g.id, { texts: [{ value: 'Hi', language: 'en' }] });
    const as = (method: string, path: string, json?: unknown) => dp(method, path, json, undefined, globexToken);
    for (const [method, path, json] of [
      ['GET', `/dpgroups/${g.id}`],
      ['PATCH', `/dpgroups/${g.id}`, { name: 'x' }],
      ['DELETE', `/dpgroups/${g.id}`],
      ['POST', `/dpgroups/${g.id}/specs`, { data: 'd', purpose: 'p', action: 'use' }],
      ['GET', `/dpgroups/${g.id}/specs`],
      ['GET', `/dpgroups/${g.id}/policy`],
      ['GET', `/dpgroups/${g.id}/consent-request`],
      ['GET', `/dpgroups/${g.id}/dashboard?subject=a&issuer=b`],
      ['GET', `/dpspecs/${s.id}`],
      ['PATCH', `/dpspecs/${s.id}`, { purpose: 'x' }],
      ['DELETE', `/dpspecs/${s.id}`],
      ['GET', `/dpspecs/${s.id}/versions`],
      ['GET', `/dpspecs/${s.id}/versions/1`],
      ['GET', `/dpspecs/${s.id}/texts`],
      ['POST', `/dpspecs/${s.id}/texts`, { value: 'x', language: 'fr' }],
      ['GET', `/dpspecs/${s.id}/texts/1`],
      ['DELETE', `/dpspecs/${s.id}/texts/1`],
    ] as [string, string, unknown?][])
      expect([method, path, (await as(method, path, json)).status]).toEqual([method, path, 404]);
    expect((await as('GET', '/dpgroups')).body.map((x: { id: string }) => x.id)).not.toContain(g.id);
    expect((await dp('GET', `/dpspecs/${s.id}`)).body.texts).toHaveLength(1);
  });

  test('a token without the dataprocessing scope is refused', async () => {
    const consentOnly = await stack.token(acme, 'consent');
    expect((await dp('GET', '/dpgroups', undefined, undefined, consentOnly)).status).toBe(403);
  });
});

describe('the REST surface', () => {
  // Every answer of every e2e test is checked against the OpenAPI document by the harness.
  test('a method a path does not declare is 405', async () => {
    const res = await dp('POST', `/dpspecs/${'f'.repeat(24)}/versions`, {});
    expect(res.status).toBe(405);
  });

  test('the dashboard answers 503 while the consent registry is down', async () => {
    const g = await group();
    await spec(g.id);
    await stack.stopService('consent');
    try {
      const res = await dp('GET', `/dpgroups/${g.id}/dashboard?subject=alice&issuer=shop`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await dp('GET', `/dpgroups/${g.id}/consent-request`)).status).toBe(200);
    } finally {
      await stack.startService('consent');
    }
  }, 60_000);
});
