import { dpvProblems, expandDpv } from '../../../testkit/src/dpv';
import type { ConsentEventJson } from './consent';
import {
  consentReceipt,
  consentRecord,
  consentState,
  DpvMappingError,
  locationTerm,
  priorStateOf,
  PRIOR_PAGES,
  specDocument,
  wantsJsonLd,
  type DpvSpec,
} from './dpv';
import { specIdOfTarget } from './dataprocessing';

const BASE = 'https://accord.example';
const SPEC: DpvSpec = {
  id: 'spec1',
  data: 'e-mail',
  purpose: 'newsletter',
  action: 'store',
  sensitive: false,
  location: 'EU',
  duration: 30,
  legalBasis: 'CONSENT',
  version: 3,
  target: `${BASE}/dataprocessing/v0/dpspecs/spec1`,
  externalHref: 'https://shop.example/privacy',
};
const EVENT: ConsentEventJson = {
  id: '0123456789abcdef0123456789abcdef',
  subject: 'user-1',
  issuer: 'https://shop.example',
  target: SPEC.target,
  scope: 'default',
  action: true,
  token: 'ABC123',
  createdAt: '2026-01-02T03:04:05.678Z',
  appId: 'app1',
  targetVersion: 3,
};

const DPV = 'https://w3id.org/dpv#';
const GDPR = 'https://w3id.org/dpv/legal/eu/gdpr#';

describe('DPV JSON-LD (ISO/IEC TS 27560)', () => {
  it('a record carries its context first and every 27560 field Accord has, each expanding to a DPV or named vocabulary IRI', async () => {
    const doc = consentRecord(
      {
        ...EVENT,
        delegate: 'agent-7',
        expiresAt: '2027-01-01T00:00:00.000Z',
        gpc: true,
        jurisdiction: 'DE',
        tcString: 'CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA',
        source: 'web',
      },
      { baseUrl: BASE, prior: 'not-given', spec: SPEC },
    );
    expect(Object.keys(doc)[0]).toBe('@context');
    expect(await dpvProblems(doc)).toEqual([]);
    const [node] = await expandDpv(doc);
    expect(node!['@type']).toEqual([`${DPV}ConsentRecord`]);
    expect(node!['@id']).toBe(`${BASE}/consent/v0/consents/${EVENT.id}`);
    const status = (node![`${DPV}hasConsentStatus`] as Array<Record<string, unknown>>)[0]!;
    expect(status['@type']).toEqual([`${DPV}ConsentGiven`]);
    expect(status[`${DPV}isIndicatedAtTime`]).toEqual([{ '@value': EVENT.createdAt, '@type': 'http://www.w3.org/2001/XMLSchema#dateTime' }]);
    expect(JSON.stringify(status[`${DPV}isIndicatedBy`])).toContain('agent-7');
    expect(JSON.stringify(status[`${DPV}hasIndicationMethod`])).toContain('Global Privacy Control');
    expect(JSON.stringify(status[`${DPV}hasDuration`])).toContain(`${DPV}UntilTimeDuration`);
    expect(node![`${DPV}hasJurisdiction`]).toEqual([{ '@id': 'https://w3id.org/dpv/loc#DE' }]);
    const process = (node![`${DPV}hasProcess`] as Array<Record<string, unknown>>)[0]!;
    expect(process[`${DPV}hasLegalBasis`]).toEqual([{ '@id': `${GDPR}A6-1-a` }]);
    expect(process[`${DPV}hasProcessing`]).toEqual([{ '@id': `${DPV}Store` }]);
    expect(process[`${DPV}hasLocation`]).toEqual([{ '@id': 'https://w3id.org/dpv/loc#EU' }]);
    expect(JSON.stringify(process[`${DPV}hasStorageCondition`])).toContain('P30D');
    expect(JSON.stringify(node![`${DPV}hasNotice`])).toContain('"3"');
  });

  it('maps the event states: given, withdrawn after a given consent, refused, not valid when the past is unknown, deferred without action, refused by a GPC signal alone', () => {
    expect(consentState({ action: true }, 'not-given')).toBe('dpv:ConsentGiven');
    expect(consentState({ action: false }, 'given')).toBe('dpv:ConsentWithdrawn');
    expect(consentState({ action: false }, 'not-given')).toBe('dpv:ConsentRefused');
    expect(consentState({ action: false }, 'unknown')).toBe('dpv:ConsentStatusInvalidForProcessing');
    expect(consentState({ action: null }, 'given')).toBe('dpv:ConsentRequestDeferred');
    expect(consentState({ action: null, gpc: true }, 'given')).toBe('dpv:ConsentRefused');
  });

  it('every state, with and without a specification, expands cleanly', async () => {
    for (const action of [true, false, null]) {
      for (const prior of ['given', 'not-given', 'unknown'] as const) {
        for (const spec of [undefined, SPEC, { ...SPEC, sensitive: true, duration: null, legalBasis: null, action: 'profile', location: 'US-CA' }]) {
          const doc = consentRecord(
            { ...EVENT, action, target: spec ? EVENT.target : 'terms of service' },
            { baseUrl: BASE, prior, ...(spec ? { spec } : {}) },
          );
          expect(await dpvProblems(doc)).toEqual([]);
        }
      }
    }
  });

  it('the legal bases map to the GDPR Art. 6(1) terms of DPV', async () => {
    const expected: Record<string, string> = {
      CONSENT: 'A6-1-a',
      CONTRACT: 'A6-1-b',
      LEGAL_OBLIGATION: 'A6-1-c',
      VITAL_INTEREST: 'A6-1-d',
      PUBLIC_INTEREST: 'A6-1-e-public-interest',
      OFFICIAL_AUTHORITY: 'A6-1-e-official-authority',
      LEGITIMATE_INTEREST: 'A6-1-f',
      LEGITIMATE_INTEREST_3RDPARTY: 'A6-1-f',
    };
    for (const [basis, term] of Object.entries(expected)) {
      const doc = specDocument({ ...SPEC, legalBasis: basis });
      expect(await dpvProblems(doc)).toEqual([]);
      const [node] = await expandDpv(doc);
      expect(node![`${DPV}hasLegalBasis`]).toEqual([{ '@id': `${GDPR}${term}` }]);
    }
  });

  it('a specification view: purpose, data category, action, legal basis, location, duration', async () => {
    const doc = specDocument({ ...SPEC, sensitive: true });
    expect(Object.keys(doc)[0]).toBe('@context');
    expect(await dpvProblems(doc)).toEqual([]);
    const [node] = await expandDpv(doc);
    expect(node!['@id']).toBe(`${SPEC.target}/versions/3`);
    expect(node!['@type']).toEqual([`${DPV}Process`]);
    expect(JSON.stringify(node![`${DPV}hasPurpose`])).toContain('newsletter');
    expect(JSON.stringify(node![`${DPV}hasPersonalData`])).toContain(`${DPV}SpecialCategoryPersonalData`);
  });

  it('what DPV cannot say is a mapping error naming every field', () => {
    let err: unknown;
    try {
      specDocument({ ...SPEC, legalBasis: 'CUSTOM', location: 'Mars' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DpvMappingError);
    expect((err as DpvMappingError).fields.map((f) => f.field)).toEqual(['legalBasis', 'location']);
    expect(() => consentRecord(EVENT, { baseUrl: BASE, prior: 'unknown', spec: { ...SPEC, legalBasis: 'CUSTOM' } })).toThrow(DpvMappingError);
  });

  it('a receipt holds the record and the signed receipt', async () => {
    const doc = consentReceipt(EVENT, 'a.b.c', { baseUrl: BASE, prior: 'not-given', spec: SPEC });
    expect(await dpvProblems(doc)).toEqual([]);
    const [node] = await expandDpv(doc);
    expect(node!['@type']).toEqual([`${DPV}ConsentReceipt`]);
    expect((node![`${DPV}hasRecordOfActivity`] as Array<Record<string, unknown>>)[0]!['@type']).toEqual([`${DPV}ConsentRecord`]);
  });

  it('the checker fails a term outside the vocabularies, and one that would be dropped', async () => {
    const doc = consentRecord(EVENT, { baseUrl: BASE, prior: 'not-given' });
    expect(await dpvProblems({ ...doc, 'dpv:hasConsentStatusTypo': 'x' })).toEqual([expect.stringContaining('hasConsentStatusTypo')]);
    await expect(dpvProblems({ ...doc, subject: 'x' })).rejects.toThrow(/[Ss]afe mode/);
  });

  it('small rules: locations, spec targets, negotiation', () => {
    expect(locationTerm('eea')).toBe('loc:EEA');
    expect(locationTerm('us-ca')).toBe('loc:US-CA');
    expect(locationTerm('Europe')).toBeUndefined();
    expect(specIdOfTarget(`${BASE}/dataprocessing/v0/dpspecs/abc`, BASE)).toBe('abc');
    expect(specIdOfTarget('urn:accord:dpspec:abc', BASE)).toBe('abc');
    expect(specIdOfTarget('https://other.example/x', BASE)).toBeUndefined();
    expect(wantsJsonLd('jsonld', 'application/json')).toBe(true);
    expect(wantsJsonLd(undefined, 'application/ld+json')).toBe(true);
    expect(wantsJsonLd(undefined, 'application/json')).toBe(false);
  });

  it('the state before an event: the next older event of its history, across pages; unknown past the pages or once erased', async () => {
    // history newest first: e4 (false), e3 (true), e2 (false), e1 (true), two per page
    const history = [
      { id: 'e4', action: false },
      { id: 'e3', action: true },
      { id: 'e2', action: false },
      { id: 'e1', action: true },
    ];
    const pages: Array<string | undefined> = [];
    const page = async (cursor: string | undefined) => {
      pages.push(cursor);
      const from = cursor ? Number(cursor) : 0;
      return { events: history.slice(from, from + 2), ...(from + 2 < history.length ? { next: String(from + 2) } : {}) };
    };
    expect(await priorStateOf({ id: 'e4', erased: false }, page)).toBe('given');
    expect(await priorStateOf({ id: 'e3', erased: false }, page)).toBe('not-given'); // the older one is on the next page
    expect(await priorStateOf({ id: 'e1', erased: false }, page)).toBe('not-given'); // the first event
    expect(await priorStateOf({ id: 'gone', erased: false }, page)).toBe('unknown');
    pages.length = 0;
    expect(await priorStateOf({ id: 'e4', erased: true }, page)).toBe('unknown');
    expect(pages).toEqual([]);
    const endless = async (cursor: string | undefined) => ({ events: [{ id: `x${cursor ?? 0}`, action: true }], next: String(Number(cursor ?? 0) + 1) });
    expect(await priorStateOf({ id: 'never', erased: false }, endless)).toBe('unknown');
    expect(PRIOR_PAGES).toBe(5);
  });
});
