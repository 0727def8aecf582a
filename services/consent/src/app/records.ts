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
 * Standards) for gRPC callers: the mapping is the REST contracts' (contracts/dpv.ts); what it needs
 * besides the event is read here — the specification at the version shown, and the state before
 * the event (contracts' priorStateOf over this service's search), which tells a
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
