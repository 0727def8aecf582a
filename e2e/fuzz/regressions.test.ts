/**
 * Every case schemathesis found, kept: the answer the stack gives now, and that the OpenAPI
 * document agrees with it (what the document calls valid is accepted, what it calls invalid is
 * refused), so the document and the code cannot drift apart again on these inputs.
 */
import { validatorFor } from '../../services/gateway/src/openapi/validate';
import { startStack, type Credentials, type Stack } from '../harness';

/** Whether a component schema of the document accepts a value. */
const documentAccepts = (schema: string, value: unknown, kind: 'body' | 'query' = 'body') => validatorFor(schema, kind)(structuredClone(value));

describe('cases found by fuzzing', () => {
  let stack: Stack;
  let creds: Credentials;
  let token: string;
  const call = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
    stack.request(method, path, { token, apiKey: creds.apiKey, json, headers });

  beforeAll(async () => {
    stack = await startStack('fuzzregress');
    creds = await stack.bootstrap({ account: 'regress', app: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] });
    token = await stack.token(creds, 'consent dataprocessing webhooks');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('a webhook with a non-ASCII event type is refused at once with the field, not after 10 s with 504', async () => {
    // the fault made the gateway wait for its deadline: the answer was a 504, so a 400 proves it gone (no timing needed)
    const r = await call('POST', '/webhooks/v0', { url: 'https://hooks.example.com/x', events: ['ü,', ''], headers: { 'x-a': 'b' } });
    expect(r.status).toBe(400);
    expect(documentAccepts('WebhookCreateRequest', { url: 'https://hooks.example.com/x', events: ['ü,'] })).toBe(false);
  });

  it('a consent with non-ASCII, control and astral characters is stored (no 500), its lengths counted in characters', async () => {
    const event = { subject: '\u0006Ö\ud83d\ude0d'.repeat(200), issuer: '\u00a5', target: '\ud80e\udfc4\u0016%', action: true }; // 600 characters, 800 UTF-16 units
    expect(documentAccepts('ConsentInput', event)).toBe(true);
    const r = await call('POST', '/consent/v0/consents', [event, { ...event, subject: '😍'.repeat(1024) }]);
    expect(r.status).toBe(201);
    expect(r.body.map((e: { subject: string }) => e.subject)).toEqual([event.subject, '😍'.repeat(1024)]);
  });

  it('a blank optional consent field is refused, and the document says so', async () => {
    const event = { subject: 's', issuer: 'i', target: 't', delegate: '\u000b' };
    expect(documentAccepts('ConsentInput', event)).toBe(false);
    expect((await call('POST', '/consent/v0/consents', [event])).status).toBe(400);
    expect(documentAccepts('ConsentInput', { ...event, delegate: '' })).toBe(true);
    expect((await call('POST', '/consent/v0/consents', [{ ...event, delegate: '' }])).status).toBe(201);
  });

  it('an empty subject in a form is refused, and the document says so', async () => {
    expect(documentAccepts('ConsentFormRequest', { subject: '', issuer: 'i', target: 't' })).toBe(false);
    const r = await stack.request('POST', '/consent/v0/consents', { token, apiKey: creds.apiKey, form: { subject: '', issuer: 'i', target: 't' } });
    expect(r.status).toBe(400);
  });

  it('an empty targetVersion or expiresAt in a form counts as absent, and the document says so', async () => {
    const form = { subject: 'form-empty', issuer: 'i', target: 't', targetVersion: '', expiresAt: '' };
    expect(documentAccepts('ConsentFormRequest', form)).toBe(true);
    expect(documentAccepts('ConsentFormRequest', { ...form, targetVersion: '0' })).toBe(false);
    expect(documentAccepts('ConsentFormRequest', { ...form, expiresAt: 'soon' })).toBe(false);
    const r = await stack.request('POST', '/consent/v0/consents', { token, apiKey: creds.apiKey, form });
    expect(r.status).toBe(201);
    expect(r.body).not.toHaveProperty('targetVersion');
    expect(r.body).not.toHaveProperty('expiresAt');
    const zero = await stack.request('POST', '/consent/v0/consents', { token, apiKey: creds.apiKey, form: { ...form, targetVersion: '0' } });
    expect(zero.status).toBe(400);
  });

  it('a language code outside ISO 639-1 is refused by the document and the service alike', async () => {
    expect(documentAccepts('DpViewQuery', { lang: 'bz' }, 'query')).toBe(false);
    expect(documentAccepts('DpViewQuery', { lang: 'FO' }, 'query')).toBe(true);
    expect(documentAccepts('DpTextCreateRequest', { value: 'x', language: 'VM' })).toBe(false);
    const g = await call('POST', '/dataprocessing/v0/dpgroups', { name: 'G', description: 'd', purpose: 'p' });
    expect(g.status).toBe(201);
    expect((await call('GET', `/dataprocessing/v0/dpgroups/${g.body.id}/policy?lang=bz`)).status).toBe(400);
    expect((await call('GET', `/dataprocessing/v0/dpgroups/${g.body.id}/policy?lang=FO`)).status).toBe(200);
  });

  it('a text of only a no-break space is refused, and the document says so', () => {
    expect(documentAccepts('DpTextCreateRequest', { value: '\u00a0', language: 'en' })).toBe(false);
  });

  it('a malformed If-Match is a stale precondition (412), not a 400', async () => {
    const g = await call('POST', '/dataprocessing/v0/dpgroups', { name: 'G2', description: 'd', purpose: 'p' });
    const s = await call('POST', `/dataprocessing/v0/dpgroups/${g.body.id}/specs`, { data: 'e-mail', purpose: 'newsletter', action: 'use' });
    expect(s.status).toBe(201);
    const r = await call('PUT', `/dataprocessing/v0/dpspecs/${s.body.id}`, { data: 'e-mail', purpose: 'weekly', action: 'use' }, { 'if-match': '0' });
    expect(r.status).toBe(412);
    expect(
      (await call('PUT', `/dataprocessing/v0/dpspecs/${s.body.id}`, { data: 'e-mail', purpose: 'weekly', action: 'use' }, { 'if-match': '"1"' })).status,
    ).toBe(200);
  });

  it('the 101st text of a specification is a conflict (409), not a 400', async () => {
    const g = await call('POST', '/dataprocessing/v0/dpgroups', { name: 'G3', description: 'd', purpose: 'p' });
    const languages = [
      'en',
      'de',
      'fr',
      'it',
      'es',
      'nl',
      'pl',
      'pt',
      'sv',
      'da',
      'fi',
      'no',
      'cs',
      'sk',
      'hu',
      'ro',
      'bg',
      'el',
      'hr',
      'sl',
      'et',
      'lv',
      'lt',
      'ga',
      'mt',
    ];
    const types = ['default', 'short', 'children', 'legal'];
    const texts = languages.flatMap((language) => types.map((type) => ({ value: 'x', language, type })));
    expect(texts).toHaveLength(100);
    const s = await call('POST', `/dataprocessing/v0/dpgroups/${g.body.id}/specs`, { data: 'e-mail', purpose: 'newsletter', action: 'use', texts });
    expect(s.status).toBe(201);
    const r = await call('POST', `/dataprocessing/v0/dpspecs/${s.body.id}/texts`, { value: 'x', language: 'ja' });
    expect(r.status).toBe(409);
  });

  it('webhook ids beyond the documented range and odd delivery ids are refused by the document and the gateway alike', async () => {
    expect((await call('POST', '/webhooks/v0/14075119546113493341044736/secret/rotate')).status).toBe(400);
    expect((await call('POST', '/webhooks/v0/1/deliveries/%C3%B1%02/redeliver')).status).toBe(400);
    expect((await call('POST', '/webhooks/v0/1/deliveries/dlv_1/redeliver')).status).toBe(404);
  });

  it('webhook header values that are not visible ASCII are refused, and the document says so', async () => {
    const body = { url: 'https://hooks.example.com/x', events: ['consent'], headers: { 'x-a': 'ü' } };
    expect(documentAccepts('WebhookCreateRequest', body)).toBe(false);
    expect((await call('POST', '/webhooks/v0', body)).status).toBe(400);
  });

  it('a cursor the API never handed out is refused with 400 naming the cursor', async () => {
    const r = await call('GET', `/consent/v0/consents/search?subject=0&issuer=0&target=0&cursor=${'0'.repeat(64)}`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe('cursor');
    expect(documentAccepts('ConsentSearchQuery', { subject: '0', issuer: '0', target: '0', cursor: '0'.repeat(64) }, 'query')).toBe(false);
  });

  it('a cursor of the form the document states is a position to continue from, never a 400 (issue 33: the fuzzer sent such cursors)', async () => {
    const group = (await call('POST', '/dataprocessing/v0/dpgroups', { name: 'cursors' })).body as { id: string };
    const hook = (await call('POST', '/webhooks/v0', { url: 'https://hooks.example.com/cursors', events: ['consent'] })).body as { id: number };
    const search = { subject: '0', issuer: '0', target: '0' };
    const lists: Array<[string, string, Record<string, string>]> = [
      ['ConsentSearchQuery', '/consent/v0/consents/search', { ...search, cursor: '0'.repeat(32) }],
      ['DpListQuery', '/dataprocessing/v0/dpgroups', { cursor: '0'.repeat(24) }],
      ['DpListQuery', `/dataprocessing/v0/dpgroups/${group.id}/specs`, { cursor: 'f'.repeat(24) }],
      ['WebhookDeliveriesQuery', `/webhooks/v0/${hook.id}/deliveries`, { cursor: `0.dlv_${'A'.repeat(24)}` }],
    ];
    for (const [schema, path, query] of lists) {
      expect([schema, documentAccepts(schema, query, 'query')]).toEqual([schema, true]);
      const r = await call('GET', `${path}?${new URLSearchParams(query).toString()}`);
      expect([path, r.status]).toEqual([path, 200]);
    }
  });

  it('the longest query the document allows is answered, not refused with 431', async () => {
    const long = (n: number) => encodeURIComponent('😍'.repeat(n)); // 12 bytes a character, percent-encoded
    const r = await call('GET', `/consent/v0/consents/search?subject=${long(1024)}&issuer=${long(1024)}&target=${long(2048)}`); // 48 KiB
    expect(r.status).toBe(200);
  });
  it('a specification with null flags and legal basis and a one-character location is valid, and stored (schemathesis called it invalid: its false positive, see findings.ts)', async () => {
    const g = await call('POST', '/dataprocessing/v0/dpgroups', { name: 'G', description: 'd', purpose: 'p' });
    const body = {
      action: 'collect',
      consentTarget: null,
      consentValidityDays: 1,
      data: 'e-mail',
      duration: 1,
      externalHref: 'https://0.com',
      legalBasis: null,
      location: '0',
      purpose: 'marketing',
      sensitive: null,
      texts: [],
    };
    expect(documentAccepts('DpSpecCreateRequest', body)).toBe(true);
    const r = await call('POST', `/dataprocessing/v0/dpgroups/${g.body.id}/specs`, body);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ location: '0', legalBasis: null, sensitive: false, consentTarget: true });
    expect(documentAccepts('DpSpecCreateRequest', { ...body, location: '' })).toBe(false);
  });
});
