import { supersedes, type ConsentEvent } from '../../domain/consent';

/** A stored event (consent_events), with the marks the outbox, the log's queue and erasure keep on it. */
export interface EventRec {
  event: ConsentEvent;
  /** Due for the relay from then on (absent: published). */
  pub?: Date;
  claim?: string;
  /** Waiting for its log leaf. */
  logq?: boolean;
  /** The id of its request's last event, until the request is known to be stored whole. */
  part?: string;
  /** The leaf hash fixed by an erasure while it waited for its leaf. */
  logh?: Buffer;
}

/** A current state (consent_current): the copy of its newest event, and the expiry queue. */
export interface StateRec {
  accountId: string;
  subject: string;
  issuer: string;
  target: string;
  scope: string;
  cur: ConsentEvent;
  /** The expiry queue: due then (absent: no expiry; past any time once announced). */
  xq?: Date;
  xc?: string;
}

/** A statistics counter (consent_stats): of an application, or of one of its targets or jurisdictions. */
export interface CounterRec {
  accountId: string;
  appId: string;
  target?: string;
  jurisdiction?: string;
  n: Record<string, number>;
}

/**
 * What the sub-stores of the memory adapter share: the events, the current states, the counters
 * and the import keys, with the few reads more than one of them makes. What only one sub-store
 * reads (renewal jobs, the log's tree, erasure records, import jobs, links) is kept in its file.
 */
export interface MemoryState {
  events: Map<string, EventRec>;
  /** Ids fenced off for good (events.fence). */
  tombstones: Set<string>;
  states: Map<string, StateRec>;
  counters: Map<string, CounterRec>;
  /** Distinct-subject markers: hash of (account, application, subject) → its application. */
  markers: Map<string, string>;
  /** Imported events' keys (the account's, domain/import.ts importKey) → event id. */
  importKeys: Map<string, string>;
  /** Event id → its import key (what erasure rewrites). */
  importKeyOf: Map<string, string>;
  /** Whether an event's request is stored whole (its last event is stored). */
  settled: (r: EventRec) => boolean;
  /** The account's events a reader may see (their request stored whole). */
  visible: (accountId: string) => (r: EventRec) => boolean;
  /** The events that pass `filter`, by id (newest first when `desc`). */
  sorted: (filter: (r: EventRec) => boolean, desc?: boolean) => EventRec[];
  /** Holds `ev` as the state under `key` unless a newer (or the same) event is held; `xq`: its expiry due. */
  upsertState: (key: string, ev: ConsentEvent, xq?: Date) => void;
}

export const copy = (ev: ConsentEvent): ConsentEvent => {
  const out: ConsentEvent = { ...ev, createdAt: new Date(ev.createdAt) };
  if (ev.expiresAt) out.expiresAt = new Date(ev.expiresAt);
  if (ev.erasedAt) out.erasedAt = new Date(ev.erasedAt);
  if (ev.importedAt) out.importedAt = new Date(ev.importedAt);
  delete (out as { importKey?: string }).importKey;
  if (ev.tcf) out.tcf = structuredClone(ev.tcf);
  if (ev.gpp) out.gpp = structuredClone(ev.gpp);
  delete out.expired;
  delete out.renewalRequired;
  return out;
};

/** A state's event as read: the copy of its newest event, under the state's own names. */
export const eventOfState = (s: StateRec): ConsentEvent => ({ ...copy(s.cur), subject: s.subject, issuer: s.issuer, target: s.target, scope: s.scope });

const byId = (x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/**
 * A claim's round (the outbox's and the expiry queue's): one update `take`s each item that is
 * `due`, then the claim's items are read (`claimed`), or none when nothing was due.
 */
export function claimDue<T, R>(items: Iterable<T>, due: (item: T) => boolean, take: (item: T) => void, claimed: () => R[]): R[] {
  let n = 0;
  for (const item of items)
    if (due(item)) {
      take(item);
      n++;
    }
  return n ? claimed() : [];
}

export function memoryState(): MemoryState {
  const events = new Map<string, EventRec>();
  const states = new Map<string, StateRec>();
  const settled = (r: EventRec) => r.part === undefined || events.has(r.part);
  return {
    events,
    tombstones: new Set(),
    states,
    counters: new Map(),
    markers: new Map(),
    importKeys: new Map(),
    importKeyOf: new Map(),
    settled,
    visible: (accountId) => (r) => r.event.accountId === accountId && settled(r),
    sorted: (filter, desc = false) => {
      const out = [...events.values()].filter(filter).sort((x, y) => byId(x.event, y.event));
      return desc ? out.reverse() : out;
    },
    upsertState: (key, ev, xq = ev.expiresAt) => {
      const s = states.get(key);
      if (s && !supersedes(ev, s.cur)) return; // a newer (or the same) event stays
      const cur = copy(ev);
      delete cur.erasedAt; // a state holds the event as written
      const rec: StateRec = { accountId: ev.accountId, subject: ev.subject, issuer: ev.issuer, target: ev.target, scope: ev.scope, cur };
      if (xq) rec.xq = new Date(xq);
      states.set(key, s ? { ...rec, accountId: s.accountId, subject: s.subject, issuer: s.issuer, target: s.target, scope: s.scope } : rec);
    },
  };
}
