import { contracts } from '@accord/proto';
import { hasExpired, needsRenewal, type ConsentEvent } from './consent';

/**
 * "May I process this?" (docs/consent.md, *Decisions*): what a consent state allows at a moment,
 * and why. One rule, one place: the decisions API answers with `decide`, and every current-state
 * answer (search `current=true`, the current states of a dashboard) flags its states with
 * `markLifecycle`, the part of the rule that judges expiry and renewal.
 */

/** Why a decision is what it is (a contract: these names are the API's). */
export const BASES = ['consent', 'declined', 'no-consent', 'expired', 'renewal-required', 'opt-out', 'gpc', 'not-required'] as const;
export type Basis = (typeof BASES)[number];

/** What a decision reads of a state's event (and answers of it: its id, targetVersion and expiresAt). */
export type DecidedEvent = Pick<ConsentEvent, 'id' | 'action' | 'targetVersion' | 'expiresAt' | 'gpc' | 'jurisdiction' | 'tcString' | 'addtlConsent'>;

/** The fields of an event, or of a current state's copy of one, that a decision reads (DecidedEvent), and nothing else. */
export function decidedEvent(e: {
  id: string;
  action?: boolean | null;
  targetVersion?: number | null;
  expiresAt?: Date | null;
  gpc?: boolean | null;
  jurisdiction?: string | null;
  tcString?: string | null;
  addtlConsent?: string | null;
}): DecidedEvent {
  const out: DecidedEvent = { id: e.id, action: e.action ?? null };
  if (e.targetVersion != null) out.targetVersion = e.targetVersion;
  if (e.expiresAt != null) out.expiresAt = e.expiresAt;
  if (e.gpc != null) out.gpc = e.gpc;
  if (e.jurisdiction != null) out.jurisdiction = e.jurisdiction;
  if (e.tcString != null) out.tcString = e.tcString; // TCF vendor decisions (domain/tcf-vendor.ts)
  if (e.addtlConsent != null) out.addtlConsent = e.addtlConsent; // Google ATP decisions (domain/addtl-consent.ts)
  return out;
}

/** Which consent strings a decisions call reads (the TC string for TCF vendors, the AC string for Google ATPs): only those. */
export interface DecisionStrings {
  tcString?: boolean;
  addtlConsent?: boolean;
}

/** `e` without the strings the call does not ask. */
export function withAskedStrings(e: DecidedEvent, asked: DecisionStrings | undefined): DecidedEvent {
  const { tcString, addtlConsent, ...rest } = e;
  const out: DecidedEvent = rest;
  if (asked?.tcString && tcString !== undefined) out.tcString = tcString;
  if (asked?.addtlConsent && addtlConsent !== undefined) out.addtlConsent = addtlConsent;
  return out;
}

/** What the decision reads of a specification target (absent: the target is no specification, or an unknown one). */
export interface DecisionSpec {
  /** `CONSENT` (or empty, the default) needs a choice; any other legal basis does not. */
  legalBasis?: string;
  /** The latest version made by a material change: accepts of older versions need renewal. */
  reconsentSince?: number;
  regimes?: contracts.regimes.Regimes;
}

/** What one decision is asked about beyond the state's event. */
export interface DecisionContext {
  /** The moment judged (ms since epoch): expiry is judged then. */
  at: number;
  /** The target names a specification of the account (then `spec` is what it says; undefined: unknown). */
  spec?: DecisionSpec | undefined;
  /** Where the subject is, when the current event does not say (or there is none). */
  jurisdiction?: string | undefined;
  /** A Global Privacy Control signal is on now (the caller saw `Sec-GPC: 1`): a signal newer than any event. */
  gpc?: boolean | undefined;
}

export interface Decision {
  allowed: boolean;
  basis: Basis;
  /** The regime applied (specification targets only). */
  regime?: contracts.regimes.AppliedRegime;
}

/** How a state's event stands at a moment: lapsed (`expiresAt` passed), or of a specification version older than its latest material change. */
export interface Lifecycle {
  expired: boolean;
  renewalRequired: boolean;
}

/**
 * Expiry and renewal, judged at `at`: an event whose `expiresAt` is not later than `at` has
 * expired; an event of a specification version older than `reconsentSince` needs renewal
 * (whatever its action: a dashboard asks again; a decision lets a decline stand).
 */
export function lifecycle(e: Pick<ConsentEvent, 'expiresAt' | 'targetVersion'>, at: number, reconsentSince: number | undefined): Lifecycle {
  return { expired: hasExpired(e.expiresAt, at), renewalRequired: needsRenewal(e.targetVersion, reconsentSince) };
}

/**
 * Current states as every current-state answer shows them (search `current=true`, dashboards):
 * `expired: true` and `renewalRequired: true` where `lifecycle` says so at `at`.
 */
export function markLifecycle(events: ConsentEvent[], at: number, reconsentSince: (target: string) => number | undefined): ConsentEvent[] {
  return events.map((e) => {
    const l = lifecycle(e, at, e.targetVersion === undefined ? undefined : reconsentSince(e.target));
    if (!l.expired && !l.renewalRequired) return e;
    const out = { ...e };
    if (l.expired) out.expired = true;
    if (l.renewalRequired) out.renewalRequired = true;
    return out;
  });
}

/**
 * The decision for one (subject, issuer, target, scope) whose newest event as of `ctx.at` is
 * `current` (none: never asked, or another account's only):
 *
 * | target | current event | allowed | basis |
 * |---|---|---|---|
 * | specification with a legal basis other than CONSENT | any or none | yes | not-required |
 * | regime `notice` | any or none | yes | not-required |
 * | (any other) | an accept that expired / is of a version before a material change | under opt-out: yes; else no | opt-out / expired / renewal-required |
 * | | an accept or a decline | the choice | consent / declined |
 * | regime honours GPC | a GPC signal, or `gpc` asked on and the choice was made without it | no | gpc |
 * | opt-in (every target that is no specification) | none, no action, a lapsed event | no | no-consent (expired, renewal-required for those) |
 * | opt-out | none, no action, a lapsed event | yes | opt-out |
 *
 * The regime is the specification's for the jurisdiction recorded on the current event, else
 * the one asked (`ctx.jurisdiction`), else `*`. Targets that are no specification, and unknown
 * specifications, are opt-in with GPC ignored (Accord's rule before regimes).
 */
export function decide(current: DecidedEvent | undefined, ctx: DecisionContext): Decision {
  const spec = ctx.spec;
  if (spec && spec.legalBasis && spec.legalBasis.toUpperCase() !== 'CONSENT') return { allowed: true, basis: 'not-required' };
  const regime = contracts.regimes.regimeFor(spec?.regimes, current?.jurisdiction ?? ctx.jurisdiction);
  const withRegime = (d: Omit<Decision, 'regime'>): Decision => (spec ? { ...d, regime } : d);
  if (regime.model === 'notice') return withRegime({ allowed: true, basis: 'not-required' });
  const l = current ? lifecycle(current, ctx.at, spec?.reconsentSince) : undefined;
  // an expired event, or an accept outdated by a material change, is no choice: the model's default
  const lapsed: Basis | undefined = !l ? undefined : l.expired ? 'expired' : l.renewalRequired && current!.action === true ? 'renewal-required' : undefined;
  const live = lapsed ? undefined : current;
  // a signal on now is newer than any event: it declines unless the current choice was made with it
  const liveSignal = ctx.gpc === true && !(live && contracts.regimes.eventKind(live) === 'choice' && live.gpc === true);
  const effective = liveSignal && contracts.regimes.honoursGpc(regime) ? { action: null, gpc: true } : live;
  const out = contracts.regimes.stateUnderRegime(regime, effective);
  if (out.basis === 'no-consent' && lapsed) return withRegime({ allowed: false, basis: lapsed });
  return withRegime(out);
}
