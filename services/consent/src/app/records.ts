import { FailedPreconditionError } from '@accord/common';
import { consentEventJson, contracts } from '@accord/proto';
import type { ConsentEvent } from '../domain/consent';
import type { SpecDetails } from '../domain/receipt';
import { eventMessage } from '../domain/wire';

const { dpv } = contracts;

/** What a record reads of the consent registry (Consents). */
export interface RecordReads {
  get(accountId: string, id: string): Promise<ConsentEvent>;
  search(p: {
    accountId: string;
    subject: string;
    issuer: string;
    target: string;
    scope: string;
    current: boolean;
    limit: number;
    cursor?: string;
  }): Promise<{ events: ConsentEvent[]; next?: string }>;
  receiptFor(accountId: string, id: string): Promise<string>;
}

/** The specification lookup of receipts (SpecSource.lookup). */
type SpecLookup = { lookup(accountId: string, specId: string, version?: number): Promise<SpecDetails | undefined> };

/**
 * An event's ISO/IEC TS 27560 record, or its receipt, in W3C DPV JSON-LD (docs/consent.md,
 * Standards), the document REST answers with `format=jsonld` and gRPC's GetConsentRecord: the
 * mapping is the REST contracts' (contracts/dpv.ts); what it needs besides the event is read here —
 * the specification at the version shown, and the state before the event (contracts'
 * priorStateOf over this service's search), which tells a withdrawal from a refusal.
 * FailedPrecondition names the fields DPV cannot say (`fields`: REST's 406 lists them).
 */
export async function consentRecordJsonLd(
  consents: RecordReads,
  specs: SpecLookup,
  baseUrl: string,
  accountId: string,
  id: string,
  receipt: boolean,
): Promise<string> {
  const ev = await consents.get(accountId, id);
  const [prior, spec, jws] = await Promise.all([
    priorState(consents, accountId, ev),
    specOf(specs, baseUrl, accountId, ev),
    receipt ? consents.receiptFor(accountId, id) : Promise.resolve(''),
  ]);
  const json = consentEventJson(eventMessage(ev));
  const options = { baseUrl, prior, ...(spec ? { spec } : {}) };
  try {
    return JSON.stringify(receipt ? dpv.consentReceipt(json, jws, options) : dpv.consentRecord(json, options));
  } catch (err) {
    if (!(err instanceof dpv.DpvMappingError)) throw err;
    throw new FailedPreconditionError(
      `This consent event has no W3C DPV mapping for ${err.fields.map((f) => `${f.field} (${f.message})`).join(', ')}.`,
      err.fields,
    );
  }
}

function priorState(consents: Pick<RecordReads, 'search'>, accountId: string, ev: ConsentEvent): Promise<contracts.dpv.PriorState> {
  const { subject, issuer, target, scope } = ev;
  return dpv.priorStateOf({ id: ev.id, erased: !!ev.erasedAt }, (cursor) =>
    consents.search({
      accountId,
      subject,
      issuer,
      target,
      scope,
      current: false,
      limit: contracts.consent.LIMITS.searchPageMax,
      ...(cursor ? { cursor } : {}),
    }),
  );
}

/**
 * The specification an event's target names, as of the version shown (the current one when the
 * event names none), in the fields DPV reads; undefined when the target is no specification of
 * this account or it cannot be read (the record then comes from the event alone, as the receipt does).
 */
async function specOf(specs: SpecLookup, baseUrl: string, accountId: string, ev: ConsentEvent): Promise<contracts.dpv.DpvSpec | undefined> {
  const specId = contracts.dataprocessing.specIdOfTarget(ev.target, baseUrl);
  const s = specId ? await specs.lookup(accountId, specId, ev.targetVersion) : undefined;
  if (!s) return undefined;
  return {
    id: s.id,
    data: s.data,
    purpose: s.purpose,
    action: s.action,
    sensitive: s.sensitive,
    location: s.location,
    duration: s.duration ?? null,
    legalBasis: s.legalBasis || null,
    version: s.version,
    target: contracts.dataprocessing.specTargetOf(baseUrl, s.id),
    externalHref: s.externalHref || null,
    archived: s.archived,
  };
}

/** Keys of (subject, issuer, target, scope) an export remembers the last action of; past it, their past is unknown. */
export const EXPORT_KEYS_MAX = 100_000;
/** Specification versions an export keeps read. */
export const EXPORT_SPECS_MAX = 1000;

/** What an export reads (ExportConsents' filters, cursor, page size and total; Consents.exportPage). */
export interface ExportQuery {
  accountId: string;
  appId?: string;
  target?: string;
  subject?: string;
  since?: Date;
  until?: Date;
  cursor?: string;
  limit?: number;
  /** Also estimate the export's size from the cursor on (`total`). */
  withTotal?: boolean;
}

/** The export's pages (Consents.exportPage). */
type ExportPages = {
  exportPage(f: ExportQuery): Promise<{ events: ConsentEvent[]; next?: string; total?: { total: number; exact: boolean } }>;
};

/**
 * The records of an export's events, one page at a time (REST's export in DPV, gRPC's
 * ExportConsentRecords): the state before each event from the events the export has carried —
 * known when it starts at the account's first event and holds every application's (no since,
 * appId or cursor) — and each specification read once. A specification DPV cannot say (a CUSTOM
 * legal basis, a location outside the lists) gives the record from the event alone: a stream
 * cannot answer 406 after its first line. The next page is read while the caller sends this one.
 */
export async function* exportRecords(
  consents: ExportPages,
  specs: SpecLookup,
  baseUrl: string,
  f: ExportQuery,
): AsyncGenerator<{ records: string[]; total?: { total: number; exact: boolean } }> {
  const records = new ExportRecords(specs, baseUrl, f.accountId, !f.since && !f.appId && !f.cursor);
  let page = await consents.exportPage(f);
  for (;;) {
    const next = page.next ? consents.exportPage({ ...f, withTotal: false, cursor: page.next }) : undefined;
    next?.catch(() => undefined); // awaited below, unless the caller stopped
    yield { records: await records.page(page.events), ...(page.total ? { total: page.total } : {}) };
    if (!next) return;
    page = await next;
  }
}

/** The state an export carries from page to page: the last action of each key, the specifications read. */
export class ExportRecords {
  private readonly last = new Map<string, boolean | null>();
  private readonly specs = new Map<string, Promise<contracts.dpv.DpvSpec | undefined>>();

  constructor(
    private readonly lookup: SpecLookup,
    private readonly baseUrl: string,
    private readonly accountId: string,
    /** Whether the export holds every earlier event of each key (then a first one had none before it). */
    private complete: boolean,
  ) {}

  /** One JSON-LD document per event, in order. */
  async page(events: ConsentEvent[]): Promise<string[]> {
    const specs = await Promise.all(events.map((e) => this.spec(e)));
    return events.map((e, i) => {
      const json = consentEventJson(eventMessage(e));
      const key = JSON.stringify([e.subject, e.issuer, e.target, e.scope]);
      const before = this.last.get(key);
      const prior: contracts.dpv.PriorState =
        before !== undefined ? (before === true ? 'given' : 'not-given') : this.complete && !e.erasedAt ? 'not-given' : 'unknown';
      if (this.last.has(key) || this.last.size < EXPORT_KEYS_MAX) this.last.set(key, e.action ?? null);
      else if (this.complete) this.complete = false; // forgotten keys: their past is unknown from here on
      const options = { baseUrl: this.baseUrl, prior };
      let doc: Record<string, unknown>;
      try {
        doc = dpv.consentRecord(json, specs[i] ? { ...options, spec: specs[i] } : options);
      } catch (err) {
        if (!(err instanceof dpv.DpvMappingError)) throw err;
        doc = dpv.consentRecord(json, options);
      }
      return JSON.stringify(doc);
    });
  }

  private spec(e: ConsentEvent): Promise<contracts.dpv.DpvSpec | undefined> {
    const specId = contracts.dataprocessing.specIdOfTarget(e.target, this.baseUrl);
    if (!specId) return Promise.resolve(undefined);
    const key = `${specId}@${e.targetVersion ?? ''}`;
    let p = this.specs.get(key);
    if (!p) {
      p = specOf(this.lookup, this.baseUrl, this.accountId, e);
      if (this.specs.size < EXPORT_SPECS_MAX) this.specs.set(key, p);
    }
    return p;
  }
}
