import { contracts } from '@accord/proto';
import { InvalidArgumentError, mapLimit, UnavailableError, type FieldError } from '@accord/common';
import { DEFAULT_SCOPE, holdsReplacement, IDENTIFIER_MESSAGE, LIMITS, stateKey } from '../domain/consent';
import { decide, decidedEvent, type DecidedEvent, type Decision, type DecisionSpec } from '../domain/decision';
import { idFloor } from '../domain/event-id';
import { specIdOfTarget, type SpecDetails } from '../domain/receipt';
import { decideVendor, type Gvl, type TcDecodeCache } from '../domain/tcf-vendor';
import { decideAtp, type AcDecodeCache } from '../domain/addtl-consent';
import type { EventReads, SpecSource, StateReads, StateRef } from './ports';
import { groupKey, type LinkGroup } from './links';

/** Items in one decisions call. */
export const MAX_DECISIONS = contracts.consent.DECISIONS_MAX;
/** Specifications looked up at once (each once per call, and remembered by the spec source). */
const SPEC_LOOKUPS_IN_FLIGHT = 8;

/** One question: may this be processed for this subject, issuer, target and scope? */
export interface DecisionItem {
  subject: string;
  issuer: string;
  target: string;
  scope?: string | undefined;
  /** Where the subject is, when its current event does not say. */
  jurisdiction?: string | undefined;
  /** A Global Privacy Control signal is on now. */
  gpc?: boolean | undefined;
  /** A TCF vendor (GVL id) and purpose, both or neither: answered from the event's TC string (domain/tcf-vendor.ts). */
  vendor?: number | undefined;
  purpose?: number | undefined;
  /** A Google Ad Tech Provider (ATP id), not with vendor or purpose: answered from the event's AC string (domain/addtl-consent.ts). */
  atpVendor?: number | undefined;
}

export interface DecisionAnswer extends Omit<Decision, 'basis'> {
  basis: Decision['basis'] | ReturnType<typeof decideVendor>['basis'] | ReturnType<typeof decideAtp>['basis'];
  /** Items that asked for a TCF vendor: what was asked, and the GVL version used. */
  vendor?: number;
  purpose?: number;
  gvlVersion?: number;
  /** Items that asked for a Google ATP: the ATP id asked. */
  atpVendor?: number;
  subject: string;
  issuer: string;
  target: string;
  scope: string;
  /** The state's newest event as of `at`, when it has one (what the decision read of it): the evidence. */
  event?: DecidedEvent;
  /** Subjects with linked identities: the identity whose event decided. */
  identity?: string;
}

/**
 * Decides a batch of items at `at` (now when absent; never the future): the newest event of each
 * state as of then, judged by the one rule (domain/decision.ts) with the specification of the
 * target (legal basis, material changes, regimes). Costs a bounded number of database commands,
 * not one per item: at now one lookup of the current states by key (what a decision reads of
 * them); in the past that one, and one aggregation for the states whose current event is newer
 * than `at`. The specifications are the
 * write path's remembered lookups (ACCORD_CONSENT_SPEC_CACHE_MS), one call per distinct
 * specification when not remembered; when the data processing service cannot answer, the call
 * fails (UNAVAILABLE) rather than guess.
 */
export async function decideBatch(
  store: { current: Pick<StateReads, 'forDecisions'>; events: Pick<EventReads, 'newestBefore'> },
  specs: Pick<SpecSource, 'current' | 'asOf'>,
  baseUrl: string,
  accountId: string,
  items: DecisionItem[],
  at?: Date,
  now: number = Date.now(),
  /** The operator's Global Vendor List (ACCORD_TCF_GVL), for items that ask a TCF vendor. */
  gvlOf: () => Gvl | undefined = () => undefined,
  /** Linked identities: the groups of these (issuer, subject) names as the links stood before the id bound (app/links.ts). */
  groupsOf?: (asked: Array<{ issuer: string; name: string }>, before: string | undefined) => Promise<Map<string, LinkGroup>>,
): Promise<{ at: Date; decisions: DecisionAnswer[] }> {
  const { norm, when } = validate(items, at, now);
  const asksVendors = norm.some((i) => i.vendor !== undefined);
  const gvl = asksVendors ? gvlOf() : undefined;
  if (asksVendors && !gvl) {
    const i = norm.findIndex((n) => n.vendor !== undefined);
    throw invalid([{ field: `/items/${i}/vendor`, message: 'needs a TCF Global Vendor List, and this deployment has none (ACCORD_TCF_GVL)' }]);
  }
  // linked identities: each item reads the states of every identity of its subject's group (as of `at`)
  const groups = groupsOf
    ? await groupsOf(
        norm.map((i) => ({ issuer: i.issuer, name: i.subject })),
        when === now ? undefined : idFloor(when + 1),
      )
    : undefined;
  const namesOf = (i: NormalizedItem) => groups?.get(groupKey(i.issuer, i.subject))?.names ?? [i.subject];
  const refOf = new Map<string, StateRef>();
  const keysOf = norm.map((item) =>
    namesOf(item).map((subject) => {
      const k = stateKey(accountId, subject, item.issuer, item.target, item.scope);
      refOf.set(k, { subject, issuer: item.issuer, target: item.target, scope: item.scope });
      return k;
    }),
  );
  const unique = [...refOf.keys()];
  const asksAtps = norm.some((i) => i.atpVendor !== undefined);
  const strings = asksVendors || asksAtps ? { ...(asksVendors ? { tcString: true } : {}), ...(asksAtps ? { addtlConsent: true } : {}) } : undefined;
  const current = await store.current.forDecisions(accountId, unique, strings);
  const asOf = new Map<string, DecidedEvent>();
  if (when === now) for (const [k, e] of current) asOf.set(k, e);
  else {
    // events created at or before `at`: ids below the floor of the next millisecond
    const bound = idFloor(when + 1);
    const older: string[] = [];
    for (const k of unique) {
      const e = current.get(k);
      if (!e) continue; // no state at all: no event before `at` either
      if (e.id < bound) asOf.set(k, e);
      else older.push(k);
    }
    if (older.length) {
      const refs = older.map((k) => refOf.get(k)!);
      for (const [k, e] of await store.events.newestBefore(accountId, refs, bound)) asOf.set(k, decidedEvent(e));
    }
  }
  const decodedTc: TcDecodeCache = new Map();
  const parsedAc: AcDecodeCache = new Map();
  const specOf = await specsOf(specs, baseUrl, accountId, norm, when === now ? undefined : new Date(when));
  const decisions = norm.map((item, i): DecisionAnswer => {
    // the newest event of any identity of the group decides (one key without links)
    let event: DecidedEvent | undefined;
    let identity: string | undefined;
    for (const k of keysOf[i]!) {
      const e = asOf.get(k);
      // by id: what a decision reads carries no createdAt, and ids begin with it (imported events' too)
      if (e && (!event || e.id > event.id)) {
        event = e;
        identity = refOf.get(k)!.subject;
      }
    }
    const linked = keysOf[i]!.length > 1 && identity !== undefined ? { identity } : {};
    if (item.vendor !== undefined && item.purpose !== undefined && gvl) {
      const v = decideVendor(event?.tcString, item.vendor, item.purpose, gvl, decodedTc);
      const answer: DecisionAnswer = { subject: item.subject, issuer: item.issuer, target: item.target, scope: item.scope, ...v };
      Object.assign(answer, { vendor: item.vendor, purpose: item.purpose, gvlVersion: gvl.version });
      if (event) answer.event = event;
      return Object.assign(answer, linked);
    }
    if (item.atpVendor !== undefined) {
      const answer: DecisionAnswer = {
        subject: item.subject,
        issuer: item.issuer,
        target: item.target,
        scope: item.scope,
        ...decideAtp(event?.addtlConsent, item.atpVendor, parsedAc),
      };
      answer.atpVendor = item.atpVendor;
      if (event) answer.event = event;
      return Object.assign(answer, linked);
    }
    const specId = specIdOfTarget(item.target, baseUrl);
    const spec = specId === undefined ? undefined : specOf.get(specId);
    const d = decide(event, { at: when, spec, jurisdiction: item.jurisdiction, gpc: item.gpc });
    const out: DecisionAnswer = { subject: item.subject, issuer: item.issuer, target: item.target, scope: item.scope, ...d };
    if (event) out.event = event;
    return Object.assign(out, linked);
  });
  return { at: new Date(when), decisions };
}

interface NormalizedItem {
  subject: string;
  issuer: string;
  target: string;
  scope: string;
  jurisdiction?: string;
  gpc?: boolean;
  vendor?: number;
  purpose?: number;
  atpVendor?: number;
}

const TCF = contracts.consent.TCF_LIMITS;
const AC = contracts.consent.AC_LIMITS;

/** Every problem of every item at once, named `/items/N/field` (and `/at`, `/items`). */
function validate(items: DecisionItem[], at: Date | undefined, now: number): { norm: NormalizedItem[]; when: number } {
  const errors: FieldError[] = [];
  if (!Array.isArray(items) || items.length === 0) errors.push({ field: '/items', message: 'must hold at least one item' });
  else if (items.length > MAX_DECISIONS) errors.push({ field: '/items', message: `must hold at most ${MAX_DECISIONS} items` });
  let when = now;
  if (at !== undefined) {
    if (!(at instanceof Date) || Number.isNaN(at.getTime())) errors.push({ field: '/at', message: 'must be a date-time' });
    else if (at.getTime() > now) errors.push({ field: '/at', message: 'must not be in the future' });
    else when = at.getTime();
  }
  if (errors.length) throw invalid(errors);
  const norm = items.map((item, i): NormalizedItem => {
    for (const f of ['subject', 'issuer', 'target'] as const) {
      const v = item[f];
      if (typeof v !== 'string' || v.trim() === '') errors.push({ field: `/items/${i}/${f}`, message: 'is required' });
      else if (contracts.longerThan(v, LIMITS[f])) errors.push({ field: `/items/${i}/${f}`, message: `must be at most ${LIMITS[f]} characters` });
      else if (holdsReplacement(v)) errors.push({ field: `/items/${i}/${f}`, message: IDENTIFIER_MESSAGE });
    }
    const out: NormalizedItem = { subject: item.subject, issuer: item.issuer, target: item.target, scope: DEFAULT_SCOPE };
    const { scope, jurisdiction, gpc } = item;
    if (scope !== undefined && scope !== null && scope !== '') {
      if (typeof scope !== 'string' || scope.trim() === '' || contracts.longerThan(scope, LIMITS.scope))
        errors.push({ field: `/items/${i}/scope`, message: `must be a non-blank string of at most ${LIMITS.scope} characters` });
      else if (holdsReplacement(scope)) errors.push({ field: `/items/${i}/scope`, message: IDENTIFIER_MESSAGE });
      else out.scope = scope;
    }
    if (jurisdiction !== undefined && jurisdiction !== null && jurisdiction !== '') {
      const code = typeof jurisdiction === 'string' ? contracts.regimes.normalizeJurisdiction(jurisdiction) : undefined;
      if (!code) errors.push({ field: `/items/${i}/jurisdiction`, message: contracts.regimes.JURISDICTION_MESSAGE });
      else out.jurisdiction = code;
    }
    if (gpc !== undefined && gpc !== null) {
      if (typeof gpc !== 'boolean') errors.push({ field: `/items/${i}/gpc`, message: 'must be a boolean' });
      else out.gpc = gpc;
    }
    const { vendor, purpose } = item;
    const has = (v: unknown) => v !== undefined && v !== null;
    if (has(vendor) || has(purpose)) {
      if (!has(vendor)) errors.push({ field: `/items/${i}/vendor`, message: 'is required with purpose' });
      else if (!Number.isInteger(vendor) || vendor! < 1 || vendor! > TCF.vendorMax)
        errors.push({ field: `/items/${i}/vendor`, message: `must be a TCF vendor id from 1 to ${TCF.vendorMax}` });
      else out.vendor = vendor!;
      if (!has(purpose)) errors.push({ field: `/items/${i}/purpose`, message: 'is required with vendor' });
      else if (!Number.isInteger(purpose) || purpose! < 1 || purpose! > TCF.purposeMax)
        errors.push({ field: `/items/${i}/purpose`, message: `must be a TCF purpose id from 1 to ${TCF.purposeMax}` });
      else out.purpose = purpose!;
    }
    const { atpVendor } = item;
    if (has(atpVendor)) {
      if (has(vendor) || has(purpose))
        errors.push({ field: `/items/${i}/atpVendor`, message: 'is a Google ATP id: an item asks it, or a TCF vendor and purpose, not both' });
      else if (!Number.isInteger(atpVendor) || atpVendor! < 1 || atpVendor! > AC.atpVendorMax)
        errors.push({ field: `/items/${i}/atpVendor`, message: `must be a Google ATP id from 1 to ${AC.atpVendorMax}` });
      else out.atpVendor = atpVendor!;
    }
    return out;
  });
  if (errors.length) throw invalid(errors);
  return { norm, when };
}

function invalid(errors: FieldError[]): InvalidArgumentError {
  return new InvalidArgumentError(errors.length === 1 ? `${errors[0]!.field}: ${errors[0]!.message}` : `${errors.length} invalid fields`, errors);
}

/**
 * The specifications the items' targets name, each looked up once — as they were at `past` when
 * given (the version current then: its legal basis, regimes and material changes) — unknown ones
 * (or not yet made then) are absent: their targets decide as plain ones.
 */
async function specsOf(
  specs: Pick<SpecSource, 'current' | 'asOf'>,
  baseUrl: string,
  accountId: string,
  items: NormalizedItem[],
  past: Date | undefined,
): Promise<Map<string, DecisionSpec>> {
  const ids = new Set<string>();
  for (const i of items) {
    const id = specIdOfTarget(i.target, baseUrl);
    if (id !== undefined) ids.add(id);
  }
  const out = new Map<string, DecisionSpec>();
  await mapLimit([...ids], SPEC_LOOKUPS_IN_FLIGHT, async (id) => {
    let spec: SpecDetails | undefined;
    try {
      spec = past ? await specs.asOf(accountId, id, past) : await specs.current(accountId, id);
    } catch (err) {
      if (err instanceof UnavailableError) throw new UnavailableError(`decisions need the specifications of their targets: ${err.message}`);
      throw err;
    }
    if (!spec) return;
    const d: DecisionSpec = { legalBasis: spec.legalBasis };
    if (spec.reconsentSince !== undefined) d.reconsentSince = spec.reconsentSince;
    if (spec.regimes) d.regimes = spec.regimes;
    out.set(id, d);
  });
  return out;
}
