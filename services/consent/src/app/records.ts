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

/** Search pages walked to find the event before one (then its past counts as unknown), as the gateway's REST view does. */
const PRIOR_PAGES = 5;

/**
 * An event's ISO/IEC TS 27560 record, or its receipt, in W3C DPV JSON-LD (docs/consent.md,
 * Standards) for gRPC callers: the mapping is the REST contracts' (contracts/dpv.ts); what it needs
 * besides the event is read here — the specification at the version shown, and the state before
 * the event (given, not given, or unknown past PRIOR_PAGES pages of its history), which tells a
 * withdrawal from a refusal.
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
    throw new FailedPreconditionError(`This consent event has no W3C DPV mapping for ${err.fields.map((f) => `${f.field} (${f.message})`).join(', ')}.`);
  }
}

async function priorState(consents: Pick<RecordReads, 'search'>, accountId: string, ev: ConsentEvent): Promise<contracts.dpv.PriorState> {
  if (ev.erasedAt) return 'unknown'; // the subject is redacted: its history cannot be named any more
  let cursor: string | undefined;
  let seen = false;
  for (let page = 0; page < PRIOR_PAGES; page++) {
    const out = await consents.search({
      accountId,
      subject: ev.subject,
      issuer: ev.issuer,
      target: ev.target,
      scope: ev.scope,
      current: false,
      limit: contracts.consent.LIMITS.searchPageMax,
      ...(cursor ? { cursor } : {}),
    });
    for (const e of out.events) {
      if (seen) return e.action === true ? 'given' : 'not-given';
      if (e.id === ev.id) seen = true;
    }
    if (!out.next) return seen ? 'not-given' : 'unknown';
    cursor = out.next;
  }
  return 'unknown';
}

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
