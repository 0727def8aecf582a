import { status } from '@grpc/grpc-js';
import { consentv1 } from '@accord/proto';
import { createClient, type PromiseClient } from '@accord/common';
import { dpvProblems, expandDpv } from '../testkit/src/dpv';
import { bearer, startStack, type Credentials, type Stack } from './harness';

/**
 * ISO/IEC TS 27560 records in W3C DPV JSON-LD through the whole stack (docs/consent.md,
 * *ISO/IEC TS 27560 in DPV*): an event, its receipt, the export and a specification answer JSON-LD
 * when asked (Accept or format=jsonld), each expanded offline by a JSON-LD processor into DPV and
 * the vocabularies its context names; what DPV cannot say is a 406 naming the field. Over gRPC,
 * ConsentService/GetConsentRecord answers the same documents.
 */
jest.setTimeout(90_000);

const DPV = 'https://w3id.org/dpv#';
const GDPR = 'https://w3id.org/dpv/legal/eu/gdpr#';
const ISSUER = 'https://shop.example';

let stack: Stack;
let acme: Credentials;
let token: string;
let dpToken: string;
let consent: PromiseClient<typeof consentv1.ConsentServiceService>;

beforeAll(async () => {
  stack = await startStack('dpvjsonld');
  acme = await stack.bootstrap({ account: 'acme-dpv', app: 'web', scopes: ['consent', 'dataprocessing'] });
  token = await stack.token(acme, 'consent');
  dpToken = await stack.token(acme, 'dataprocessing');
  consent = createClient(consentv1.ConsentServiceService, stack.env.ACCORD_CONSENT_ADDR!, { retries: 0 });
}, 120_000);
afterAll(async () => {
  consent?.close();
  await stack?.stop();
});

const get = (path: string, headers: Record<string, string> = {}, t = token) => stack.request('GET', path, { token: t, apiKey: acme.apiKey, headers });
const post = (subject: string, target: string, action: boolean | null, extra: Record<string, unknown> = {}) =>
  stack.request('POST', '/consent/v0/consents', { token, apiKey: acme.apiKey, json: { subject, issuer: ISSUER, target, action, ...extra } });

async function spec(fields: Record<string, unknown>): Promise<{ id: string; target: string }> {
  const group = await stack.request('POST', '/dataprocessing/v0/dpgroups', { token: dpToken, apiKey: acme.apiKey, json: { name: `g-${Math.random()}` } });
  const res = await stack.request('POST', `/dataprocessing/v0/dpgroups/${(group.body as { id: string }).id}/specs`, {
    token: dpToken,
    apiKey: acme.apiKey,
    json: { data: 'e-mail', purpose: 'newsletter', action: 'store', duration: 30, legalBasis: 'CONSENT', ...fields },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; target: string };
}

type Node = Record<string, unknown>;
const first = (node: Node, key: string) => (node[key] as Node[])[0]!;

describe('DPV JSON-LD', () => {
  let newsletter: { id: string; target: string };
  let given: string;
  let withdrawn: string;

  beforeAll(async () => {
    newsletter = await spec({ location: 'DE' });
    given = (await post('jane', newsletter.target, true, { targetVersion: 1, jurisdiction: 'DE', delegate: 'agent-7', expiresAt: '2099-01-01T00:00:00Z' })).body
      .id;
    withdrawn = (await post('jane', newsletter.target, false, { targetVersion: 1, gpc: true })).body.id;
  });

  test('an event as a 27560 record: Accept or format=jsonld, @context first, every term a DPV (or named vocabulary) IRI', async () => {
    const plain = await get(`/consent/v0/consents/${given}`);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    const asks: Array<{ path: string; headers: Record<string, string> }> = [
      { path: `/consent/v0/consents/${given}`, headers: { accept: 'application/ld+json' } },
      { path: `/consent/v0/consents/${given}?format=jsonld`, headers: {} },
    ];
    for (const ask of asks) {
      const res = await get(ask.path, ask.headers);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/ld\+json/);
      const doc = res.body as Node;
      expect(await dpvProblems(doc)).toEqual([]);
      const [node] = await expandDpv(doc);
      expect(node!['@type']).toEqual([`${DPV}ConsentRecord`]);
      const status = first(node!, `${DPV}hasConsentStatus`);
      expect(status['@type']).toEqual([`${DPV}ConsentGiven`]);
      expect(JSON.stringify(status[`${DPV}isIndicatedBy`])).toContain('agent-7');
      expect(JSON.stringify(status[`${DPV}hasDuration`])).toContain('2099-01-01');
      expect(node![`${DPV}hasJurisdiction`]).toEqual([{ '@id': 'https://w3id.org/dpv/loc#DE' }]);
      expect(JSON.stringify(first(node!, `${DPV}hasDataSubject`))).toContain('jane');
      expect(JSON.stringify(first(node!, `${DPV}hasDataController`))).toContain(ISSUER);
      const process = first(node!, `${DPV}hasProcess`);
      expect(process[`${DPV}hasLegalBasis`]).toEqual([{ '@id': `${GDPR}A6-1-a` }]);
      expect(JSON.stringify(process[`${DPV}hasPurpose`])).toContain('newsletter');
      expect(JSON.stringify(process[`${DPV}hasPersonalData`])).toContain('e-mail');
    }
  });

  test('a withdrawal after a given consent is dpv:ConsentWithdrawn, a first refusal dpv:ConsentRefused, no action deferred', async () => {
    const withdrawal = await get(`/consent/v0/consents/${withdrawn}?format=jsonld`);
    const [w] = await expandDpv(withdrawal.body);
    expect(first(w!, `${DPV}hasConsentStatus`)['@type']).toEqual([`${DPV}ConsentWithdrawn`]);
    expect(JSON.stringify(first(w!, `${DPV}hasConsentStatus`)[`${DPV}hasIndicationMethod`])).toContain('Global Privacy Control');
    const refused = (await post('john', newsletter.target, false)).body.id;
    const [r] = await expandDpv((await get(`/consent/v0/consents/${refused}?format=jsonld`)).body);
    expect(first(r!, `${DPV}hasConsentStatus`)['@type']).toEqual([`${DPV}ConsentRefused`]);
    const none = (await post('john', 'https://shop.example/terms', null)).body.id;
    const res = await get(`/consent/v0/consents/${none}?format=jsonld`);
    expect(await dpvProblems(res.body as Node)).toEqual([]);
    const [n] = await expandDpv(res.body);
    expect(first(n!, `${DPV}hasConsentStatus`)['@type']).toEqual([`${DPV}ConsentRequestDeferred`]);
  });

  test('the receipt as a dpv:ConsentReceipt holding the record and the signed receipt', async () => {
    const jws = ((await get(`/consent/v0/consents/${given}/receipt`)).body as { receipt: string }).receipt;
    const res = await get(`/consent/v0/consents/${given}/receipt`, { accept: 'application/ld+json' });
    expect(res.status).toBe(200);
    expect(await dpvProblems(res.body as Node)).toEqual([]);
    const [node] = await expandDpv(res.body);
    expect(node!['@type']).toEqual([`${DPV}ConsentReceipt`]);
    expect(first(node!, `${DPV}hasRecordOfActivity`)['@type']).toEqual([`${DPV}ConsentRecord`]);
    expect((first(node!, 'http://purl.org/dc/terms/hasFormat')['@value'] as string).split('.')[0]).toBe(jws.split('.')[0]);
  });

  test('the export: one JSON-LD record per line, withdrawals told from refusals by the stream', async () => {
    const res = await fetch(`${stack.baseUrl}/consent/v0/consents/export?format=jsonld`, {
      headers: { authorization: `Bearer ${token}`, 'x-api-key': acme.apiKey },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Node);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const states: Record<string, unknown> = {};
    for (const doc of lines) {
      expect(await dpvProblems(doc)).toEqual([]);
      const [node] = await expandDpv(doc);
      states[String(node!['@id']).split('/').pop()!] = first(node!, `${DPV}hasConsentStatus`)['@type'];
    }
    expect(states[given]).toEqual([`${DPV}ConsentGiven`]);
    expect(states[withdrawn]).toEqual([`${DPV}ConsentWithdrawn`]);
    const accept = await fetch(`${stack.baseUrl}/consent/v0/consents/export`, {
      headers: { authorization: `Bearer ${token}`, 'x-api-key': acme.apiKey, accept: 'application/ld+json' },
    });
    expect(JSON.parse((await accept.text()).split('\n')[0]!)['@context']).toBeDefined();
  });

  test('a specification: purpose, data, processing, GDPR legal basis, location, duration', async () => {
    const contract = await spec({ legalBasis: 'CONTRACT', location: 'EEA', action: 'share', sensitive: true });
    const res = await get(`/dataprocessing/v0/dpspecs/${contract.id}`, { accept: 'application/ld+json' }, dpToken);
    expect(res.status).toBe(200);
    expect(await dpvProblems(res.body as Node)).toEqual([]);
    const [node] = await expandDpv(res.body);
    expect(node!['@type']).toEqual([`${DPV}Process`]);
    expect(node![`${DPV}hasLegalBasis`]).toEqual([{ '@id': `${GDPR}A6-1-b` }]);
    expect(node![`${DPV}hasProcessing`]).toEqual([{ '@id': `${DPV}Share` }]);
    expect(node![`${DPV}hasLocation`]).toEqual([{ '@id': 'https://w3id.org/dpv/loc#EEA' }]);
    expect(JSON.stringify(node![`${DPV}hasStorageCondition`])).toContain('P30D');
    expect(JSON.stringify(node![`${DPV}hasPersonalData`])).toContain(`${DPV}SpecialCategoryPersonalData`);
    expect((await get(`/dataprocessing/v0/dpspecs/${contract.id}`, {}, dpToken)).headers.get('content-type')).toMatch(/^application\/json/);
  });

  test('no mapping: a 406 naming the field; an unknown format a 400 naming it', async () => {
    const custom = await spec({ legalBasis: 'CUSTOM', location: 'Mars' });
    const res = await get(`/dataprocessing/v0/dpspecs/${custom.id}?format=jsonld`, {}, dpToken);
    expect(res.status).toBe(406);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((res.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual(['legalBasis', 'location']);
    const event = (await post('jane', custom.target, true)).body.id;
    const eventRes = await get(`/consent/v0/consents/${event}`, { accept: 'application/ld+json' });
    expect(eventRes.status).toBe(406);
    expect((eventRes.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual(['legalBasis', 'location']);
    const bad = await get(`/consent/v0/consents/${given}?format=turtle`);
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: Array<{ field: string }> }).errors).toEqual([{ field: 'format', message: expect.any(String) }]);
  });

  test('over gRPC: GetConsentRecord answers the record and the receipt REST answers; DPV gaps FAILED_PRECONDITION; only the own account', async () => {
    const grpcDoc = async (id: string, receipt = false) =>
      JSON.parse((await consent.getConsentRecord({ accountId: acme.accountId, id, receipt }, { metadata: bearer(token) })).jsonld) as Node;
    for (const id of [given, withdrawn]) {
      const doc = await grpcDoc(id);
      expect(Object.keys(doc)[0]).toBe('@context');
      expect(await dpvProblems(doc)).toEqual([]);
      expect(doc).toEqual((await get(`/consent/v0/consents/${id}?format=jsonld`)).body);
    }
    const [w] = await expandDpv(await grpcDoc(withdrawn));
    expect(first(w!, `${DPV}hasConsentStatus`)['@type']).toEqual([`${DPV}ConsentWithdrawn`]);
    const receipt = await grpcDoc(given, true);
    expect(await dpvProblems(receipt)).toEqual([]);
    const restReceipt = (await get(`/consent/v0/consents/${given}/receipt?format=jsonld`)).body as Node;
    const [g, r] = [(await expandDpv(receipt))[0]!, (await expandDpv(restReceipt))[0]!];
    expect(g['@type']).toEqual([`${DPV}ConsentReceipt`]);
    expect(first(g, `${DPV}hasRecordOfActivity`)).toEqual(first(r, `${DPV}hasRecordOfActivity`));

    const custom = await spec({ legalBasis: 'CUSTOM', location: 'Mars' });
    const event = (await post('jane', custom.target, true)).body.id;
    await expect(consent.getConsentRecord({ accountId: acme.accountId, id: event, receipt: false }, { metadata: bearer(token) })).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: expect.stringMatching(/legalBasis.*location/),
    });
    // another account's token may not name this account, nor find this event in its own
    const other = await stack.bootstrap({ account: 'other-dpv', app: 'web', scopes: ['consent'] });
    const otherToken = await stack.token(other, 'consent');
    await expect(consent.getConsentRecord({ accountId: acme.accountId, id: given, receipt: false }, { metadata: bearer(otherToken) })).rejects.toMatchObject({
      code: status.PERMISSION_DENIED,
    });
    await expect(consent.getConsentRecord({ accountId: other.accountId, id: given, receipt: false }, { metadata: bearer(otherToken) })).rejects.toMatchObject({
      code: status.NOT_FOUND,
    });
    await expect(consent.getConsentRecord({ accountId: acme.accountId, id: given, receipt: false })).rejects.toMatchObject({ code: status.UNAUTHENTICATED });
  });
});
