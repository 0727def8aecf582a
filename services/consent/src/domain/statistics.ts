import { hasExpired, needsRenewal, type ConsentEvent } from './consent';

/**
 * A condition on an event (or a current state's copy of one), as data, so that every store
 * evaluates the domain's rule in its own query language instead of spelling it again: each field
 * equals its value (an absent field counts as null), or, for `{ notAfter }`, holds a moment not
 * later than that one (an absent field never is). `meets` is the reference evaluation.
 */
export type EventCondition = Readonly<Record<string, boolean | null | { notAfter: Date }>>;

/** A GPC signal with no explicit choice: the signal alone declines. */
export const GPC_DECLINE: EventCondition = Object.freeze({ gpc: true, action: null });

/** Lapsed at `at`: an event whose expiresAt is not later than `at` has expired. */
export const expiredAt = (at: Date): EventCondition => ({ expiresAt: { notAfter: at } });

/** Whether `e` meets `cond` (see EventCondition). */
export function meets(e: object, cond: EventCondition): boolean {
  const rec = e as Record<string, unknown>;
  for (const [field, want] of Object.entries(cond)) {
    const have = rec[field] ?? null;
    if (want !== null && typeof want === 'object') {
      if (!(have instanceof Date) || !hasExpired(have, want.notAfter.getTime())) return false;
    } else if (have !== want) return false;
  }
  return true;
}

/** The application counters an event adds one to: its total, its action's, and gpcDeclines for a GPC decline. */
export type AppCounter = keyof StatisticsCounts['app'];
export function appCountersOf(ev: Pick<ConsentEvent, 'action' | 'gpc'>): AppCounter[] {
  const out: AppCounter[] = ['total', ev.action === true ? 'accepted' : ev.action === false ? 'declined' : 'noAction'];
  if (meets(ev, GPC_DECLINE)) out.push('gpcDeclines');
  return out;
}

export interface Statistics {
  appId: string;
  total: number;
  accepted: number;
  declined: number;
  noAction: number;
  distinctSubjects: number;
  targets: Array<{ target: string; events: number } & CurrentCounts>;
  latestEventAt?: Date;
  /** Events recording a GPC signal with no explicit choice (gpc true, action null). */
  gpcDeclines: number;
  /** Events by jurisdiction, most first. */
  jurisdictions: Array<{ jurisdiction: string; events: number }>;
}

type ActionCounter = 'currentAccepted' | 'currentDeclined' | 'currentNoAction';
/** Current states of one target by action; lapsed ones (expiresAt passed) apart, whatever their action. */
export type CurrentCounts = Record<ActionCounter | 'currentExpired' | 'currentRenewalRequired' | 'currentGpcDeclines', number>;
const noCurrent = (): CurrentCounts => ({
  currentAccepted: 0,
  currentDeclined: 0,
  currentNoAction: 0,
  currentExpired: 0,
  currentRenewalRequired: 0,
  currentGpcDeclines: 0,
});
const counterOf = (action: boolean | null): ActionCounter => (action === true ? 'currentAccepted' : action === false ? 'currentDeclined' : 'currentNoAction');

/** What the store counts for one application (store/statistics-repository.ts). */
export interface StatisticsCounts {
  /** Events of the application by action, and those recording a GPC signal with no explicit choice. */
  app: { total: number; accepted: number; declined: number; noAction: number; gpcDeclines: number };
  /** Events per jurisdiction, most first (at most STATISTICS_MAX_TARGETS). */
  jurisdictions: Array<{ jurisdiction: string; events: number }>;
  /** Events per target, most first (at most STATISTICS_MAX_TARGETS). */
  targets: Array<{ target: string; events: number }>;
  distinctSubjects: number;
  /** Current states the application holds (it wrote their newest event), grouped. */
  /** `gpcDecline`: the current event is a GPC signal with no explicit choice. */
  states: Array<{ target: string; action: boolean | null; expired: boolean; version?: number; gpcDecline?: boolean; count: number }>;
  latestEventAt?: Date;
}

/** Targets whose states are bound to a specification version: their latest material version is needed. */
export function versionedTargets(counts: StatisticsCounts): string[] {
  return [...new Set(counts.states.filter((s) => s.version !== undefined).map((s) => s.target))];
}

/**
 * An application's statistics from its counters. `reconsentSince` gives the latest material
 * version of the specification a target names: states consented to an older version count in
 * `currentRenewalRequired` (lapsed ones in `currentExpired` whatever their action).
 */
export function statisticsOf(appId: string, counts: StatisticsCounts, reconsentSince?: (target: string) => number | undefined): Statistics {
  const byTarget = new Map<string, CurrentCounts>();
  for (const s of counts.states) {
    let row = byTarget.get(s.target);
    if (!row) byTarget.set(s.target, (row = noCurrent()));
    row[s.expired ? 'currentExpired' : counterOf(s.action)] += s.count;
    if (s.gpcDecline) row.currentGpcDeclines += s.count;
  }
  if (reconsentSince)
    for (const s of counts.states)
      if (s.version !== undefined && needsRenewal(s.version, reconsentSince(s.target))) byTarget.get(s.target)!.currentRenewalRequired += s.count;
  const out: Statistics = {
    appId,
    ...counts.app,
    distinctSubjects: counts.distinctSubjects,
    jurisdictions: counts.jurisdictions,
    targets: counts.targets
      .map((t) => ({ ...t, ...(byTarget.get(t.target) ?? noCurrent()) }))
      .sort((x, y) => y.events - x.events || (x.target < y.target ? -1 : 1)),
  };
  if (counts.latestEventAt) out.latestEventAt = counts.latestEventAt;
  return out;
}

/** How many targets a report names as its top (the console's). */
export const TOP_TARGETS = 10;

/** The targets with the most events, ties by name, at most TOP_TARGETS. */
export function topTargets<T extends { target: string; events: number }>(targets: readonly T[]): T[] {
  return [...targets].sort((a, b) => b.events - a.events || a.target.localeCompare(b.target)).slice(0, TOP_TARGETS);
}
