import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { status } from '@grpc/grpc-js';
import { consentv1 } from '@accord/proto';
import { createClient, type PromiseClient } from '@accord/common';
import { bearer, startStack, type Credentials, type Stack } from './harness';
import { proofOf, verifyFiles, writeIn } from './log-proofs';

/**
 * Google's Additional Consent string through the whole stack (docs/consent.md, Standards): an
 * event keeps `addtlConsent` exactly as sent beside its TC string (in its answer, its receipt and
 * its log leaf), a string that is not one is a 400 naming the field, and decision items that name
 * a Google ATP (`atpVendor`) are answered from the AC string of the state's current event —
 * through REST and gRPC, with no Global Vendor List configured (none is needed).
 */
jest.setTimeout(90_000);

const ISSUER = 'https://news.example';
const TARGET = 'https://news.example/ac';
/** Made with the IAB encoders (e2e/signals.test.ts): a TCF 2.3 TC string. */
const TC = 'CQuMEMAQuMEMAAKACAENCWFoALAAAEIAAAYgAAoAAAAA.IAAA.YAAAAAAAAAAA';
/** Google's own example: ATPs 1, 35, 41, 101 consented; 9, 21, 81 disclosed without consent. */
const AC = '2~1.35.41.101~dv.9.21.81';

let stack: Stack;
let acme: Credentials;
let token: string;
let consent: PromiseClient<typeof consentv1.ConsentServiceService>;
let dir: string;

beforeAll(async () => {
  stack = await startStack('decisionsac');
  acme = await stack.bootstrap({ account: 'acme-ac', app: 'web', scopes: ['consent'] });
  token = await stack.token(acme, 'consent');
  consent = createClient(consentv1.ConsentServiceService, stack.env.ACCORD_CONSENT_ADDR!, { retries: 0 });
  dir = mkdtempSync(path.join(tmpdir(), 'accord-e2e-ac-'));
}, 120_000);
afterAll(async () => {
  consent?.close();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const api = (method: string, p: string, o: { json?: unknown; form?: Record<string, string> } = {}) =>
  stack.request(method, `/consent/v0${p}`, { token, apiKey: acme.apiKey, ...o });
const ev = (subject: string, over: Record<string, unknown> = {}) => ({ subject, issuer: ISSUER, target: TARGET, action: true, ...over });
const decide = (json: unknown) => api('POST', '/decisions', { json });
const item = (subject: string, atpVendor: number) => ({ subject, issuer: ISSUER, target: TARGET, atpVendor });

describe("Google's Additional Consent string on events", () => {
  test('kept exactly as sent beside the TC string: the answer, GET, the gRPC event, the receipt claims and the log leaf carry it', async () => {
    const posted = await api('POST', '/consents', { json: ev('kept', { tcString: TC, addtlConsent: AC }) });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ tcString: TC, addtlConsent: AC });
    const id = posted.body.id as string;
    expect((await api('GET', `/consents/${id}`)).body).toEqual(posted.body);
    const viaGrpc = await consent.getConsent({ accountId: acme.accountId, id }, { metadata: bearer(token) });
    expect(viaGrpc.addtlConsent).toBe(AC);
    // version 1 (legacy, consented only), empty lists, and an empty string (absent)
    const more = await api('POST', '/consents', {
      json: [ev('kept-v1', { addtlConsent: '1~7.8' }), ev('kept-empty', { addtlConsent: '2~~dv.' }), ev('kept-none', { addtlConsent: '' })],
    });
    expect(more.status).toBe(201);
    expect(more.body.map((e: { addtlConsent?: string }) => e.addtlConsent)).toEqual(['1~7.8', '2~~dv.', undefined]);
    // a form carries it too
    const form = await api('POST', '/consents', { form: { subject: 'kept-form', issuer: ISSUER, target: TARGET, action: 'true', addtlConsent: '2~5~dv.6' } });
    expect(form.status).toBe(201);
    expect(form.body.addtlConsent).toBe('2~5~dv.6');

    const receipt = (await api('GET', `/consents/${id}/receipt`)).body.receipt as string;
    const claims = JSON.parse(Buffer.from(receipt.split('.')[1]!, 'base64url').toString('utf8')) as { accord: Record<string, unknown> };
    expect(claims.accord).toMatchObject({ tcString: TC, addtlConsent: AC });

    // the event is the evidence: its leaf is the event as answered, AC string included
    await proofOf((m, p) => api(m, p.replace(/^\/consent\/v0/, '')), id);
    const head = await api('GET', '/log/tree-head');
    const proof = await api('GET', `/consents/${id}/proof?treeSize=${head.body.treeSize}`);
    const write = writeIn(dir);
    const files = {
      receipt: write('r.jwt', (await api('GET', `/consents/${id}/receipt`)).body.receipt),
      proof: write('p.json', proof.body),
      head: write('h.json', head.body),
      jwks: write('jwks.json', (await stack.request('GET', '/.well-known/jwks.json')).body),
      event: write('e.json', posted.body),
    };
    const verified = await verifyFiles(files);
    expect(verified.out).toMatch(/its RFC 8785 leaf is the proven leaf/);
    expect(verified.code).toBe(0);
    const { addtlConsent: _dropped, ...without } = posted.body as Record<string, unknown>;
    expect((await verifyFiles({ ...files, event: write('e2.json', without) })).code).not.toBe(0);
  });

  test.each([
    ['no disclosed part', '2~1.35', /without its disclosed part/],
    ['an unknown version', '3~1~dv.2', /version 3/],
    ['an id with a leading zero', '2~01~dv.', /"01"/],
    ['an empty id', '2~1..2~dv.', /""/],
    ['a disclosed id that is no number', '2~1~dv.x', /"x"/],
    ['no AC string at all', 'CQuMEMAQuMEMAAKACAENCWFoALAAAEIAAAYgAAoAAAAA', /not an Additional Consent string/],
    ['over 10,000 characters', `2~${'1.'.repeat(5_000)}1~dv.`, /10000/],
  ])('%s is a 400 problem naming /addtlConsent', async (_, bad, message) => {
    const res = await api('POST', '/consents', { json: ev('bad', { addtlConsent: bad }) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.errors).toEqual([{ field: '/addtlConsent', message: expect.stringMatching(message) }]);
  });

  test('in an array the path names the event and nothing is stored; gRPC refuses it the same way', async () => {
    const res = await api('POST', '/consents', { json: [ev('bad-batch'), ev('bad-batch', { addtlConsent: '2~1' })] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: '/1/addtlConsent', message: expect.stringMatching(/disclosed part/) }]);
    expect((await api('GET', `/consents/search?${new URLSearchParams({ subject: 'bad-batch', issuer: ISSUER, target: TARGET })}`)).body).toEqual([]);
    await expect(
      consent.createConsents(
        { accountId: acme.accountId, appId: acme.appId, events: [{ subject: 'bad-grpc', issuer: ISSUER, target: TARGET, addtlConsent: '2~1~dv.0' }] },
        { metadata: bearer(token) },
      ),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: expect.stringContaining('/0/addtlConsent') });
  });
});

describe('Google ATP decisions', () => {
  test('every basis from the current AC string, with the event as evidence; no GVL needed', async () => {
    const reader = await api('POST', '/consents', { json: ev('reader', { tcString: TC, addtlConsent: AC }) });
    await api('POST', '/consents', { json: ev('legacy', { addtlConsent: '1~1.35' }) });
    await api('POST', '/consents', { json: ev('no-string', { tcString: TC }) });
    const res = await decide({
      items: [
        item('reader', 35), // consented
        item('reader', 21), // disclosed, not consented
        item('reader', 2), // not disclosed
        item('legacy', 35), // version 1, consented
        item('legacy', 21), // version 1 does not say what was disclosed
        item('no-string', 35),
        item('nobody', 35),
        { subject: 'reader', issuer: ISSUER, target: TARGET }, // a plain item beside them keeps its own rule
      ],
    });
    expect(res.status).toBe(200);
    expect((res.body.decisions as Array<{ allowed: boolean; basis: string }>).map((d) => [d.allowed, d.basis])).toEqual([
      [true, 'ac-consent'],
      [false, 'ac-refused'],
      [false, 'ac-not-disclosed'],
      [true, 'ac-consent'],
      [false, 'ac-refused'],
      [false, 'no-ac-string'],
      [false, 'no-ac-string'],
      [true, 'consent'],
    ]);
    expect(res.body.decisions[0]).toMatchObject({ atpVendor: 35, eventId: reader.body.id, evidence: { receipt: expect.stringContaining(reader.body.id) } });
    expect(res.body.decisions[0]).not.toHaveProperty('gvlVersion');
    expect(res.body.decisions[6]).not.toHaveProperty('eventId');
    expect(res.body.decisions[7]).not.toHaveProperty('atpVendor');

    // the current event decides: a newer choice without an AC string has none
    await api('POST', '/consents', { json: ev('reader', { action: false }) });
    expect((await decide({ items: [item('reader', 35)] })).body.decisions[0]).toMatchObject({ allowed: false, basis: 'no-ac-string' });
    await api('POST', '/consents', { json: ev('reader', { addtlConsent: '2~2~dv.35' }) });
    expect((await decide({ items: [item('reader', 35), item('reader', 2)] })).body.decisions.map((d: { basis: string }) => d.basis)).toEqual([
      'ac-refused',
      'ac-consent',
    ]);

    const one = await api('GET', `/decisions?${new URLSearchParams({ subject: 'reader', issuer: ISSUER, target: TARGET, atpVendor: '2' })}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ allowed: true, basis: 'ac-consent', atpVendor: 2 });
  });

  test('through gRPC Decide the same answers', async () => {
    const out = await consent.decide(
      { accountId: acme.accountId, items: [item('legacy', 35), item('legacy', 9), { subject: 'legacy', issuer: ISSUER, target: TARGET }] },
      { metadata: bearer(token) },
    );
    expect(out.decisions[0]).toMatchObject({ allowed: true, basis: 'ac-consent', atpVendor: 35 });
    expect(out.decisions[1]).toMatchObject({ allowed: false, basis: 'ac-refused', atpVendor: 9 });
    expect(out.decisions[2]).toMatchObject({ allowed: true, basis: 'consent' });
    expect(out.decisions[2]!.atpVendor).toBeUndefined();
  });

  test('an ATP id out of range, or beside a TCF vendor or purpose, is a 400 naming the field (REST and gRPC)', async () => {
    const res = await decide({ items: [item('s', 0), item('s', 2 ** 31), { ...item('s', 5), vendor: 755, purpose: 1 }] });
    expect(res.status).toBe(400);
    expect((res.body.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(expect.arrayContaining(['/items/0/atpVendor', '/items/1/atpVendor']));
    const both = await decide({ items: [{ ...item('s', 5), purpose: 1 }] });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body.errors)).toContain('/items/0/atpVendor');
    await expect(
      consent.decide({ accountId: acme.accountId, items: [{ ...item('s', 5), vendor: 755, purpose: 1 }] }, { metadata: bearer(token) }),
    ).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringContaining('/items/0/atpVendor'),
    });
    await expect(consent.decide({ accountId: acme.accountId, items: [item('s', -3)] }, { metadata: bearer(token) })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringContaining('/items/0/atpVendor'),
    });
  });
});
