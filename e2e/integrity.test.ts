/**
 * Integrity through the gateway (issue 33), as a careful attacker would try it:
 * - an identifier that cannot be stored exactly as sent (a lone UTF-16 surrogate, bytes that are
 *   not UTF-8, U+FFFD) is refused with a 400 naming the field, for every principal field, in
 *   single events, arrays, forms, decision items and every lookup — two subjects never become one;
 * - every date-time the document accepts is answered (a leap second is the next second), never a 500;
 * - a user's key that is also a JavaScript property name (`__proto__`) is kept or refused, never dropped.
 */
import { startReceiver } from '@accord/testkit';
import { startStack, type Credentials, type HttpResult, type Stack } from './harness';

jest.setTimeout(90_000);

let stack: Stack;
let shop: Credentials;
let consentToken: string;
let dpToken: string;
let hooksToken: string;

beforeAll(async () => {
  stack = await startStack('integrity');
  shop = await stack.bootstrap({ account: 'shop', app: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] });
  consentToken = await stack.token(shop, 'consent');
  dpToken = await stack.token(shop, 'dataprocessing');
  hooksToken = await stack.token(shop, 'webhooks');
}, 120_000);
afterAll(async () => stack?.stop());

const ISSUER = 'https://i.example';
const TARGET = 'https://t.example';
const ev = (over: Record<string, unknown> = {}) => ({ subject: 'u-1', issuer: ISSUER, target: TARGET, action: true, ...over });
const consent = (method: string, path: string, opts: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}) =>
  stack.request(method, `/consent/v0${path}`, { token: consentToken, apiKey: shop.apiKey, ...opts });
/** A form body written by hand: percent-escapes a browser would never send (bytes that are not UTF-8). */
const rawForm = (body: string) =>
  stack.request('POST', '/consent/v0/consents', {
    token: consentToken,
    apiKey: shop.apiKey,
    json: body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
const query = (q: Record<string, string>) =>
  Object.entries(q)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
const dp = (method: string, path: string, json?: unknown) => stack.request(method, `/dataprocessing/v0${path}`, { token: dpToken, apiKey: shop.apiKey, json });
const hooks = (method: string, path: string, json?: unknown) => stack.request(method, `/webhooks/v0${path}`, { token: hooksToken, json });

/** The fields a 400 problem names. */
function namedFields(r: HttpResult): string[] {
  expect([r.status, r.headers.get('content-type')]).toEqual([400, expect.stringMatching(/^application\/problem\+json/)]);
  return (r.body.errors as Array<{ field: string }>).map((e) => e.field);
}

const LONE = 'u-\ud800';
/** `u-` then the bytes ED A0 80 (a surrogate in CESU-8, not UTF-8), percent-escaped. */
const NOT_UTF8 = 'u-%ED%A0%80';
const EVENT_FIELDS = ['subject', 'issuer', 'target', 'source', 'scope', 'delegate', 'jurisdiction'] as const;

describe('an identifier that cannot be stored exactly as sent is refused, naming the field', () => {
  test.each(EVENT_FIELDS)('%s with a lone surrogate, in a single event', async (field) => {
    expect(namedFields(await consent('POST', '/consents', { json: ev({ [field]: LONE }) }))).toEqual([`/${field}`]);
  });

  test.each(EVENT_FIELDS)('%s with a lone surrogate, in an array (nothing of it stored)', async (field) => {
    const subject = `array-${field}`;
    const r = await consent('POST', '/consents', { json: [ev({ subject }), ev({ subject, [field]: LONE })] });
    expect(namedFields(r)).toEqual([`/1/${field}`]);
    const stored = await consent('GET', `/consents/search?${new URLSearchParams({ subject, issuer: ISSUER, target: TARGET })}`);
    expect(stored.body).toEqual([]);
  });

  test.each(EVENT_FIELDS)('%s holding U+FFFD, in a single event and an array', async (field) => {
    expect(namedFields(await consent('POST', '/consents', { json: ev({ [field]: 'u-\uFFFD' }) }))).toEqual([`/${field}`]);
    expect(namedFields(await consent('POST', '/consents', { json: [ev(), ev({ [field]: 'u-\uFFFD' })] }))).toEqual([`/1/${field}`]);
  });

  test.each(EVENT_FIELDS)('%s as percent-escaped bytes that are not UTF-8, in a form', async (field) => {
    const fields = { subject: 'u-1', issuer: ISSUER, target: TARGET, action: 'true' } as Record<string, string>;
    const body = Object.entries({ ...fields, [field]: '' })
      .map(([k, v]) => `${k}=${k === field ? NOT_UTF8 : encodeURIComponent(v)}`)
      .join('&');
    expect(namedFields(await rawForm(body))).toEqual([`/${field}`]);
  });

  test.each(['subject', 'issuer', 'target', 'scope', 'jurisdiction'])('%s in a decision item (POST), and as a query parameter (GET)', async (field) => {
    const item = { subject: 'u-1', issuer: ISSUER, target: TARGET };
    expect(namedFields(await consent('POST', '/decisions', { json: { items: [item, { ...item, [field]: LONE }] } }))).toEqual([`/items/1/${field}`]);
    expect(namedFields(await consent('POST', '/decisions', { json: { items: [{ ...item, [field]: 'u-\uFFFD' }] } }))).toEqual([`/items/0/${field}`]);
    const q = { ...Object.fromEntries(Object.entries(item).map(([k, v]) => [k, encodeURIComponent(v)])), [field]: NOT_UTF8 };
    expect(namedFields(await consent('GET', `/decisions?${query(q)}`))).toEqual([field]);
  });

  test.each(['subject', 'issuer', 'target', 'source', 'scope', 'jurisdiction'])('%s in a search', async (field) => {
    const q = { subject: 'u-1', issuer: encodeURIComponent(ISSUER), target: encodeURIComponent(TARGET), [field]: NOT_UTF8 };
    expect(namedFields(await consent('GET', `/consents/search?${query(q)}`))).toEqual([field]);
    expect(namedFields(await consent('GET', `/consents/search?${query({ ...q, [field]: '%EF%BF%BD' })}`))).toEqual([field]);
  });

  test.each(['subject', 'target', 'appId'])('%s in an export', async (field) => {
    expect(namedFields(await consent('GET', `/consents/export?${query({ [field]: NOT_UTF8 })}`))).toEqual([field]);
  });

  test.each(['subject', 'issuer'])('%s of an erasure', async (field) => {
    expect(namedFields(await consent('POST', '/subjects/erase', { json: { subject: 'u-1', [field]: LONE } }))).toEqual([`/${field}`]);
    expect(namedFields(await consent('POST', '/subjects/erase', { json: { subject: 'u-1', [field]: 'u-\uFFFD' } }))).toEqual([`/${field}`]);
  });

  test('a token of a lookup that is not letters and digits', async () => {
    expect(namedFields(await consent('GET', '/consents/token/%ED%A0%80AAA'))).toEqual(['token']);
  });

  test.each(['subject', 'issuer', 'targets/0'])('%s of a consent session', async (field) => {
    const body = { subject: 'u-1', issuer: ISSUER, targets: [TARGET] };
    const bad = (v: string) => (field === 'targets/0' ? { ...body, targets: [v] } : { ...body, [field]: v });
    expect(namedFields(await consent('POST', '/sessions', { json: bad(LONE) }))).toEqual([`/${field}`]);
    expect(namedFields(await consent('POST', '/sessions', { json: bad('u-\uFFFD') }))).toEqual([`/${field}`]);
  });

  test('a webhook header (name or value) and a text, which no UTF-8 can carry either', async () => {
    const url = 'https://hooks.example.com/integrity';
    expect(namedFields(await hooks('POST', '', { url, events: ['consent'], headers: { 'x-a': `v-\udc00` } }))).toEqual(['/headers/x-a']);
    expect(namedFields(await hooks('POST', '', { url, events: ['consent'], headers: { 'x-\ud800': 'v' } }))).toEqual(['/headers/x-\ud800']);
    const g = await dp('POST', '/dpgroups', { name: 'integrity', purpose: 'p' });
    const spec = {
      data: 'd',
      purpose: 'p',
      action: 'use',
      texts: [
        { value: 'ok', language: 'en' },
        { value: `Wir \ud83d senden`, language: 'de' },
      ],
    };
    expect(namedFields(await dp('POST', `/dpgroups/${g.body.id}/specs`, spec))).toEqual(['/texts/1/value']);
  });

  test('so two subjects never become one: u-\\ud800 is refused, and u-\\udbff is neither allowed nor answered from it', async () => {
    const one = ev({ subject: 'u-\ud800' });
    expect(namedFields(await consent('POST', '/consents', { json: one }))).toEqual(['/subject']);
    const other = { subject: 'u-\udbff', issuer: ISSUER, target: TARGET };
    expect(namedFields(await consent('POST', '/decisions', { json: { items: [other] } }))).toEqual(['/items/0/subject']);
    // what both would have been stored as names no event either
    expect(namedFields(await consent('POST', '/decisions', { json: { items: [{ ...other, subject: 'u-\uFFFD' }] } }))).toEqual(['/items/0/subject']);
  });
});

describe('every date-time the document accepts is answered, never a 500', () => {
  const LEAP = '2099-12-31T23:59:60Z';
  const NEXT = '2100-01-01T00:00:00.000Z';

  test('expiresAt at a leap second is the next second: JSON, arrays and forms', async () => {
    const single = await consent('POST', '/consents', { json: ev({ subject: 'leap-1', expiresAt: LEAP }) });
    expect([single.status, single.body.expiresAt]).toEqual([201, NEXT]);
    const many = await consent('POST', '/consents', {
      json: [ev({ subject: 'leap-2', expiresAt: LEAP }), ev({ subject: 'leap-3', expiresAt: '2099-12-31T15:59:60-08:00' })],
    });
    expect([many.status, many.body.map((e: { expiresAt: string }) => e.expiresAt)]).toEqual([201, [NEXT, NEXT]]);
    const form = await consent('POST', '/consents', { form: { subject: 'leap-4', issuer: ISSUER, target: TARGET, action: 'true', expiresAt: LEAP } });
    expect([form.status, form.body.expiresAt]).toEqual([201, NEXT]);
    // offsets of hours alone and lower-case letters, which the document's format accepts too
    const loose = await consent('POST', '/consents', { json: ev({ subject: 'leap-5', expiresAt: '2099-06-30t23:59:59+05' }) });
    expect([loose.status, loose.body.expiresAt]).toEqual([201, '2099-06-30T18:59:59.000Z']);
  });

  test('`at` of decisions at a leap second: POST and GET; a future one is a 400 naming it', async () => {
    const item = { subject: 'leap-1', issuer: ISSUER, target: TARGET };
    const post = await consent('POST', '/decisions', { json: { at: '2016-12-31T23:59:60Z', items: [item] } });
    expect([post.status, post.body.at]).toEqual([200, '2017-01-01T00:00:00.000Z']);
    const get = await consent('GET', `/decisions?${new URLSearchParams({ ...item, at: '2016-12-31T23:59:60Z' })}`);
    expect(get.status).toBe(200);
    expect(namedFields(await consent('POST', '/decisions', { json: { at: LEAP, items: [item] } }))).toEqual(['/at']);
    expect(namedFields(await consent('GET', `/decisions?${new URLSearchParams({ ...item, at: LEAP })}`))).toEqual(['at']);
  });

  test('`since` and `until` of an export at leap seconds', async () => {
    const r = await consent('GET', `/consents/export?${new URLSearchParams({ since: '2016-12-31T23:59:60Z', until: LEAP, subject: 'leap-1' })}`, {
      headers: { accept: 'application/json' },
    });
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: { subject: string }) => e.subject)).toEqual(['leap-1']);
  });
});

describe('a key that is also a JavaScript property name is kept or refused, never dropped', () => {
  test('webhook headers named __proto__, constructor and toString are kept, on create, read, change and delivery', async () => {
    const rx = await startReceiver();
    try {
      const headers = JSON.parse('{"__proto__":"v","constructor":"c","toString":"t","x-ok":"1"}') as Record<string, string>;
      const created = await hooks('POST', '', { url: rx.url, events: ['consent'], headers });
      expect(created.status).toBe(201);
      expect(Object.entries(created.body.headers)).toEqual(Object.entries(headers));
      expect(Object.entries((await hooks('GET', `/${created.body.id}`)).body.headers)).toEqual(Object.entries(headers));
      const changed = await hooks('PATCH', `/${created.body.id}`, { headers: JSON.parse('{"__proto__":"w"}') });
      expect(Object.entries(changed.body.headers)).toEqual([['__proto__', 'w']]);
      expect((await hooks('POST', `/${created.body.id}/test`)).status).toBe(202);
      const [got] = await rx.waitFor(1);
      const raw = got!.rawHeaders;
      expect(raw[raw.findIndex((h) => h.toLowerCase() === '__proto__') + 1]).toBe('w');
    } finally {
      await rx.close();
    }
  });

  test('a form field named __proto__ is a field like any other: unknown, so refused', async () => {
    const form = Object.fromEntries([...Object.entries({ subject: 'u-1', issuer: ISSUER, target: TARGET }), ['__proto__', 'x']]) as Record<string, string>;
    const r = await consent('POST', '/consents', { form });
    expect(namedFields(r)).toEqual(['/__proto__']);
  });

  test('a regime keyed __proto__ is refused, naming the key', async () => {
    const g = await dp('POST', '/dpgroups', { name: 'regimes', purpose: 'p' });
    const regimes = JSON.parse('{"*":{"model":"opt-in"},"__proto__":{"model":"opt-out"}}') as unknown;
    const r = await dp('POST', `/dpgroups/${g.body.id}/specs`, { data: 'd', purpose: 'p', action: 'use', regimes });
    expect(namedFields(r)).toEqual(['/regimes/__proto__']);
    expect((await dp('GET', `/dpgroups/${g.body.id}/specs`)).body).toEqual([]);
  });
});
