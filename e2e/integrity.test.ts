/**
 * Integrity through the gateway (issue 33), as a careful attacker would try it:
 * - every date-time the document accepts is answered (a leap second is the next second), never a 500.
 */
import { startStack, type Credentials, type HttpResult, type Stack } from './harness';

jest.setTimeout(90_000);

let stack: Stack;
let shop: Credentials;
let consentToken: string;

beforeAll(async () => {
  stack = await startStack('integrity');
  shop = await stack.bootstrap({ account: 'shop', app: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] });
  consentToken = await stack.token(shop, 'consent');
}, 120_000);
afterAll(async () => stack?.stop());

const ISSUER = 'https://i.example';
const TARGET = 'https://t.example';
const ev = (over: Record<string, unknown> = {}) => ({ subject: 'u-1', issuer: ISSUER, target: TARGET, action: true, ...over });
const consent = (method: string, path: string, opts: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}) =>
  stack.request(method, `/consent/v0${path}`, { token: consentToken, apiKey: shop.apiKey, ...opts });
/** The fields a 400 problem names. */
function namedFields(r: HttpResult): string[] {
  expect([r.status, r.headers.get('content-type')]).toEqual([400, expect.stringMatching(/^application\/problem\+json/)]);
  return (r.body.errors as Array<{ field: string }>).map((e) => e.field);
}

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
