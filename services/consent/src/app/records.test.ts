import { status } from '@grpc/grpc-js';
import { contracts } from '@accord/proto';
import type { ConsentEvent } from '../domain/consent';
import type { SpecDetails } from '../domain/receipt';
import { consentRecordJsonLd, exportRecords, type ExportQuery, type RecordReads } from './records';

const BASE = 'https://accord.example';
const target = (specId: string) => contracts.dataprocessing.specTargetOf(BASE, specId);
const SPEC_A = 'a'.repeat(24);
const SPEC_B = 'b'.repeat(24);

const ev = (n: number, o: Partial<ConsentEvent> = {}): ConsentEvent =>
  ({
    id: n.toString(16).padStart(32, '0'),
    accountId: 'acc',
    subject: 'jane',
    issuer: 'https://shop.example',
    target: target(SPEC_A),
    scope: 'default',
    token: 'ABCDEF',
    appId: 'web',
    action: true,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
    ...o,
  }) as ConsentEvent;

const spec = (id: string, o: Partial<SpecDetails> = {}): SpecDetails => ({
  id,
  version: 1,
  data: 'e-mail',
  purpose: 'newsletter',
  action: 'store',
  sensitive: false,
  legalBasis: 'CONSENT',
  externalHref: '',
  location: 'DE',
  duration: 30,
  groupName: 'g',
  groupPurpose: '',
  archived: false,
  ...o,
});

/** The specification source: SPEC_A maps, SPEC_B's legal basis has no DPV term; each lookup recorded. */
function specSource() {
  const lookups: string[] = [];
  return {
    lookups,
    async lookup(_accountId: string, specId: string, version?: number) {
      lookups.push(`${specId}@${version ?? ''}`);
      return specId === SPEC_A ? spec(SPEC_A) : specId === SPEC_B ? spec(SPEC_B, { legalBasis: 'CUSTOM' }) : undefined;
    },
  };
}

/** An export of `events`, `limit` to a page; records the filters of each page asked. */
function pagesOf(events: ConsentEvent[]) {
  const asked: ExportQuery[] = [];
  return {
    asked,
    async exportPage(f: ExportQuery) {
      asked.push(f);
      const from = f.cursor ? events.findIndex((e) => e.id === f.cursor) + 1 : 0;
      const page = events.slice(from, from + (f.limit ?? 1000));
      const next = from + page.length < events.length ? page[page.length - 1]!.id : undefined;
      return { events: page, ...(next ? { next } : {}), ...(f.withTotal ? { total: { total: events.length - from, exact: true } } : {}) };
    },
  };
}

const stateOf = (json: string) => ((JSON.parse(json) as Record<string, unknown>)['dpv:hasConsentStatus'] as { '@type': string })['@type'];

async function collect(it: AsyncIterable<{ records: string[]; total?: { total: number; exact: boolean } }>) {
  const pages: Array<{ records: string[]; total?: { total: number; exact: boolean } }> = [];
  for await (const p of it) pages.push(p);
  return pages;
}

describe('an export in DPV records (exportRecords)', () => {
  // jane gives, then (a page later) withdraws; john's first event is a refusal; a CUSTOM basis spec
  const events = [
    ev(1),
    ev(2, { subject: 'john', action: false }),
    ev(3, { target: target(SPEC_B) }),
    ev(4, { action: false }),
    ev(5, { subject: 'john', action: false, targetVersion: 1 }),
  ];

  test('carries the state before each event across pages, reads each specification version once, and the total on the first page', async () => {
    const specs = specSource();
    const source = pagesOf(events);
    const pages = await collect(exportRecords(source, specs, BASE, { accountId: 'acc', limit: 2, withTotal: true }));
    expect(pages.map((p) => p.records.length)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.total)).toEqual([{ total: 5, exact: true }, undefined, undefined]);
    expect(source.asked.map((f) => [f.cursor, !!f.withTotal])).toEqual([
      [undefined, true],
      [events[1]!.id, false],
      [events[3]!.id, false],
    ]);
    const states = pages.flatMap((p) => p.records).map(stateOf);
    const { given, withdrawn, refused } = contracts.dpv.CONSENT_STATES;
    // 4: jane withdraws what she gave on page 1; 2 and 5: john refuses (no consent given before)
    expect(states).toEqual([given, refused, given, withdrawn, refused]);
    // SPEC_A once per version shown (none, 1), SPEC_B once
    expect(specs.lookups.sort()).toEqual([`${SPEC_A}@`, `${SPEC_A}@1`, `${SPEC_B}@`]);
  });

  test('a specification DPV cannot say gives the record from the event alone; the documents are those of GetConsentRecord', async () => {
    const specs = specSource();
    const [page] = await collect(exportRecords(pagesOf(events), specs, BASE, { accountId: 'acc' }));
    const custom = JSON.parse(page!.records[2]!) as Record<string, Record<string, unknown>>;
    expect(custom['dpv:hasProcess']!['dpv:hasLegalBasis']).toEqual({ '@id': 'dpv:Consent' });
    const reads: RecordReads = {
      get: async (_a, id) => events.find((e) => e.id === id)!,
      // the whole history of jane's key, newest first
      search: async (p) => ({ events: events.filter((e) => e.subject === p.subject && e.target === p.target).reverse() }),
      receiptFor: async () => 'jws',
    };
    for (const i of [0, 3]) expect(page!.records[i]).toBe(await consentRecordJsonLd(reads, specs, BASE, 'acc', events[i]!.id, false));
  });

  test('from a cursor (or since, or one application) the state before a key’s first event is unknown', async () => {
    const pages = await collect(exportRecords(pagesOf(events), specSource(), BASE, { accountId: 'acc', cursor: events[0]!.id }));
    const { refused, notGiven, given } = contracts.dpv.CONSENT_STATES;
    // john's and jane's first refusals here: what came before the cursor is not known
    expect(pages.flatMap((p) => p.records).map(stateOf)).toEqual([notGiven, given, notGiven, refused]);
  });

  test('an event DPV cannot say alone is FAILED_PRECONDITION naming the fields (REST’s 406 lists them)', async () => {
    const reads: RecordReads = { get: async () => events[2]!, search: async () => ({ events: [events[2]!] }), receiptFor: async () => 'jws' };
    await expect(consentRecordJsonLd(reads, specSource(), BASE, 'acc', events[2]!.id, false)).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
      fields: [{ field: 'legalBasis', message: expect.stringContaining('CUSTOM') }],
    });
  });
});
