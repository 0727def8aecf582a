import { hashKey, stateKey, type ConsentEvent } from '../domain/consent';
import type { CurrentDoc, EventDoc, Models, OutboxDoc, TargetStatsDoc } from './models';
import { Coalescer, moveDocument } from './versioned';

/** A counter document (AppStatsDoc or TargetStatsDoc), handled by field name. */
type CounterDoc = { _id: string; v?: number } & Record<string, unknown>;

/** A change to a counter document of one application (`app`) or one application and target: fields of a new document, and amounts to add. */
interface CounterChange {
  of: 'app' | 'target';
  id: string;
  init: Record<string, string>;
  inc: Record<string, number>;
}

const mergeCounterChanges = (a: CounterChange, b: CounterChange): CounterChange => {
  const inc = { ...a.inc };
  for (const [f, n] of Object.entries(b.inc)) inc[f] = (inc[f] ?? 0) + n;
  return { ...a, inc };
};

/** Runs fn over items with at most `limit` in flight. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Moves are kept this long, far beyond any writer's read-to-write time. */
export const MOVE_RETENTION_MS = 60 * 60_000;

export function toDoc(ev: ConsentEvent): EventDoc {
  const doc: EventDoc = {
    _id: ev.id,
    accountId: ev.accountId,
    appId: ev.appId,
    subject: ev.subject,
    issuer: ev.issuer,
    target: ev.target,
    scope: ev.scope,
    action: ev.action,
    token: ev.token,
    createdAt: ev.createdAt,
  };
  if (ev.source !== undefined) doc.source = ev.source;
  if (ev.delegate !== undefined) doc.delegate = ev.delegate;
  return doc;
}

export function fromDoc(doc: Omit<EventDoc, 'accountId'> & { accountId?: string }, accountId?: string): ConsentEvent {
  const ev: ConsentEvent = {
    id: doc._id,
    accountId: doc.accountId ?? accountId ?? '',
    appId: doc.appId,
    subject: doc.subject,
    issuer: doc.issuer,
    target: doc.target,
    scope: doc.scope,
    action: doc.action ?? null,
    token: doc.token,
    createdAt: new Date(doc.createdAt),
  };
  if (doc.source != null) ev.source = doc.source;
  if (doc.delegate != null) ev.delegate = doc.delegate;
  return ev;
}

export interface SearchQuery {
  accountId: string;
  subject: string;
  issuer: string;
  target: string;
  source?: string;
  scope?: string;
  current: boolean;
  limit: number;
  /** Id of the last event of the previous page (results continue with older events). */
  cursor?: string;
}

export interface Statistics {
  appId: string;
  total: number;
  accepted: number;
  declined: number;
  noAction: number;
  distinctSubjects: number;
  targets: Array<Pick<TargetStatsDoc, 'target' | 'events' | 'currentAccepted' | 'currentDeclined' | 'currentNoAction'>>;
  latestEventAt?: Date;
}

/** Most states (scopes) of one subject, issuer and target read by a current search. */
const MAX_STATES = 10_000;

/** Maximum number of targets in statistics (those with the most events). */
export const STATISTICS_MAX_TARGETS = 1000;

type ActionCounter = 'currentAccepted' | 'currentDeclined' | 'currentNoAction';
const counterOf = (action: boolean | null): ActionCounter => (action === true ? 'currentAccepted' : action === false ? 'currentDeclined' : 'currentNoAction');

/**
 * The consent store. Deliberately no update or delete of events: events are inserted once and
 * only read afterwards. Derived collections (current states, counters, outbox) are maintained
 * here.
 */
export class ConsentRepository {
  /** Counter changes of concurrent writes in this process, applied together (one writer per document). */
  private readonly counters = new Coalescer<CounterChange>(mergeCounterChanges, (_key, change) => this.applyCounters(change));

  constructor(private readonly m: Models) {}

  // --- writing ------------------------------------------------------------------------------

  /** Step 1 of a write: outbox records, already leased by the writer (owner). */
  async insertOutbox(events: ConsentEvent[], owner: string, leaseMs: number): Promise<void> {
    const now = new Date();
    const docs: OutboxDoc[] = events.map((e) => ({
      _id: e.id,
      accountId: e.accountId,
      appId: e.appId,
      createdAt: now,
      leaseUntil: new Date(now.getTime() + leaseMs),
      owner,
      attempts: 0,
      projected: false,
    }));
    await this.m.outbox.collection.insertMany(docs as never[], { ordered: true });
  }

  /**
   * Step 2: the events. If the insert fails part-way, the events of this failed call that did
   * get in are withdrawn again so that the call is all or nothing (they were never answered to
   * anybody; this is the only removal in the store, and only of a failed call's own inserts).
   */
  async insertEvents(events: ConsentEvent[]): Promise<void> {
    const ids = events.map((e) => e.id);
    try {
      await this.m.events.collection.insertMany(events.map(toDoc) as never[], { ordered: true });
    } catch (err) {
      await this.m.events.collection.deleteMany({ _id: { $in: ids } } as never).catch(() => undefined);
      await this.m.outbox.collection.deleteMany({ _id: { $in: ids } } as never).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Moves the current state of (subject, issuer, target, scope) to this event unless a newer
   * event is already current. Idempotent. Returns the replaced current (appId, action), `null`
   * when the state was new, or `undefined` when nothing changed (a newer event is current).
   * Exact under concurrent writers and replicas on MongoDB and FerretDB (store/versioned.ts):
   * the state only moves forward, and every move knows the one it replaced (for the statistics).
   */
  async applyCurrent(ev: ConsentEvent): Promise<{ appId: string; action: boolean | null } | null | undefined> {
    const key = stateKey(ev.accountId, ev.subject, ev.issuer, ev.target, ev.scope);
    const doc = this.currentDoc(key, ev);
    const moved = await moveDocument<CurrentDoc>(this.m.current.collection as never, this.m.moves.collection as never, key, 'eventId', (cur) =>
      cur && cur.eventId >= ev.id ? undefined : doc,
    );
    if (!moved) return undefined;
    return moved.replaced && { appId: moved.replaced.appId, action: moved.replaced.action ?? null };
  }

  /** Forgets finished moves: a move id is needed only while some writer may still hold its `from` state. */
  async sweepMoves(olderThanMs = MOVE_RETENTION_MS): Promise<number> {
    const res = await this.m.moves.collection.deleteMany({ at: { $lt: new Date(Date.now() - olderThanMs) } } as never);
    return res.deletedCount;
  }

  /**
   * Step 3: current states and statistics counters, both exact under concurrent writers and
   * replicas on MongoDB and FerretDB (claimed moves, store/versioned.ts). Counters are not
   * re-applied when a process dies between step 2 and the end of this step (docs/consent.md).
   */
  async project(events: ConsentEvent[]): Promise<void> {
    const transitions = await this.applyCurrentMany(events);

    const apps = new Map<string, { accountId: string; appId: string; total: number; accepted: number; declined: number; noAction: number }>();
    const targets = new Map<string, { accountId: string; appId: string; target: string; inc: Record<string, number> }>();
    const target = (accountId: string, appId: string, t: string) => {
      const id = hashKey([accountId, appId, t]);
      let e = targets.get(id);
      if (!e) targets.set(id, (e = { accountId, appId, target: t, inc: { events: 0, currentAccepted: 0, currentDeclined: 0, currentNoAction: 0 } }));
      return e;
    };
    for (const ev of events) {
      const appKey = hashKey([ev.accountId, ev.appId]);
      let a = apps.get(appKey);
      if (!a) apps.set(appKey, (a = { accountId: ev.accountId, appId: ev.appId, total: 0, accepted: 0, declined: 0, noAction: 0 }));
      a.total++;
      if (ev.action === true) a.accepted++;
      else if (ev.action === false) a.declined++;
      else a.noAction++;
      target(ev.accountId, ev.appId, ev.target).inc.events!++;
    }
    for (const { ev, prev } of transitions) {
      if (prev === undefined) continue;
      target(ev.accountId, ev.appId, ev.target).inc[counterOf(ev.action)]!++;
      if (prev) target(ev.accountId, prev.appId, ev.target).inc[counterOf(prev.action)]!--;
    }

    // distinct subjects: a marker per (account, app, subject), inserted once (unique _id); the
    // markers this call inserted are the new subjects
    const markers = [...new Map(events.map((e) => [hashKey([e.accountId, e.appId, e.subject]), hashKey([e.accountId, e.appId])])).entries()];
    const failed = await this.insertIgnoringDuplicates(
      this.m.subjects.collection,
      markers.map(([id]) => ({ _id: id })),
    );
    const newSubjects = new Map<string, number>();
    markers.forEach(([, appKey], i) => {
      if (!failed.has(i)) newSubjects.set(appKey, (newSubjects.get(appKey) ?? 0) + 1);
    });

    await Promise.all([
      ...[...apps.entries()].map(([id, a]) =>
        this.counters.add(`app:${id}`, {
          of: 'app',
          id,
          init: { accountId: a.accountId, appId: a.appId },
          inc: { total: a.total, accepted: a.accepted, declined: a.declined, noAction: a.noAction, distinctSubjects: newSubjects.get(id) ?? 0 },
        }),
      ),
      ...[...targets.entries()].map(([id, t]) =>
        this.counters.add(`target:${id}`, { of: 'target', id, init: { accountId: t.accountId, appId: t.appId, target: t.target }, inc: t.inc }),
      ),
    ]);
  }

  /** Adds a change to a counter document (one per application, one per application and target). */
  private async applyCounters(change: CounterChange): Promise<void> {
    const { id } = change;
    const coll = change.of === 'app' ? this.m.appStats.collection : this.m.targetStats.collection;
    await moveDocument<CounterDoc>(coll as never, this.m.moves.collection as never, id, 'v', (cur) => {
      const next: CounterDoc = { ...(cur ?? { _id: id, ...change.init }), v: ((cur?.v as number | undefined) ?? 0) + 1 };
      for (const [f, n] of Object.entries(change.inc)) next[f] = ((next[f] as number | undefined) ?? 0) + n;
      return next;
    });
  }

  /**
   * Current states of a batch. Only the newest event of each state in the batch matters (the
   * net transition). States seen for the first time are created with one insertMany (unique
   * _id: atomic everywhere, and cheap); existing states go through applyCurrent.
   */
  private async applyCurrentMany(
    events: ConsentEvent[],
  ): Promise<Array<{ ev: ConsentEvent; prev: { appId: string; action: boolean | null } | null | undefined }>> {
    const newest = new Map<string, ConsentEvent>();
    for (const ev of events) {
      const key = stateKey(ev.accountId, ev.subject, ev.issuer, ev.target, ev.scope);
      const cur = newest.get(key);
      if (!cur || cur.id < ev.id) newest.set(key, ev);
    }
    const entries = [...newest.entries()];
    const failed = await this.insertIgnoringDuplicates(
      this.m.current.collection,
      entries.map(([key, ev]) => this.currentDoc(key, ev)),
    );
    const out: Array<{ ev: ConsentEvent; prev: { appId: string; action: boolean | null } | null | undefined }> = [];
    const existing: ConsentEvent[] = [];
    entries.forEach(([, ev], i) => (failed.has(i) ? existing.push(ev) : out.push({ ev, prev: null })));
    out.push(...(await mapLimit(existing, 16, async (ev) => ({ ev, prev: await this.applyCurrent(ev) }))));
    return out;
  }

  private currentDoc(key: string, ev: ConsentEvent): CurrentDoc {
    const doc: CurrentDoc = {
      _id: key,
      accountId: ev.accountId,
      subject: ev.subject,
      issuer: ev.issuer,
      target: ev.target,
      scope: ev.scope,
      eventId: ev.id,
      appId: ev.appId,
      action: ev.action,
      token: ev.token,
      createdAt: ev.createdAt,
    };
    if (ev.source !== undefined) doc.source = ev.source;
    if (ev.delegate !== undefined) doc.delegate = ev.delegate;
    return doc;
  }

  /** The events that current documents hold (older documents without the copy: read from consent_events). */
  private async eventsOfCurrent(docs: CurrentDoc[]): Promise<ConsentEvent[]> {
    const out: ConsentEvent[] = [];
    const missing: string[] = [];
    for (const d of docs) {
      if (d.token !== undefined && d.createdAt !== undefined) {
        const { _id, eventId, ...rest } = d;
        void _id;
        out.push(fromDoc({ ...rest, _id: eventId, token: d.token, createdAt: d.createdAt }));
      } else missing.push(d.eventId);
    }
    if (missing.length) out.push(...(await mapLimit(missing, 8, (id) => this.findById(docs[0]!.accountId, id))).filter((e): e is ConsentEvent => !!e));
    return out;
  }

  /** insertMany (unordered) that tolerates duplicate keys; returns the indexes that were duplicates. */
  private async insertIgnoringDuplicates(coll: { insertMany(docs: never[], o: object): Promise<unknown> }, docs: object[]): Promise<Set<number>> {
    if (!docs.length) return new Set();
    try {
      await coll.insertMany(docs as never[], { ordered: false });
      return new Set();
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as Array<{ index: number; code: number }>;
      if (!list.length || list.some((w) => w.code !== 11000)) throw err;
      return new Set(list.map((w) => w.index));
    }
  }

  // --- outbox -------------------------------------------------------------------------------

  /**
   * Claims due outbox records (lease expired) for `owner`; safe with several replicas.
   *
   * The claim is the insert of `<record id>#<attempts>` into consent_outbox_claims (unique _id):
   * exactly one replica wins it, on MongoDB and on FerretDB alike (FerretDB 1.x on SQLite does
   * not apply a conditional update or findOneAndUpdate atomically, so a conditional update
   * alone could hand one record to two replicas). The winner then takes the lease and bumps
   * `attempts`, so the next claim after this lease expires has a new claim id.
   */
  async claimDue(owner: string, leaseMs: number, limit: number): Promise<OutboxDoc[]> {
    const now = new Date();
    const due = (await this.m.outbox.collection
      .find({ leaseUntil: { $lte: now } } as never)
      .sort({ leaseUntil: 1, _id: 1 })
      .limit(limit)
      .toArray()) as unknown as OutboxDoc[];
    if (!due.length) return [];
    const claims = due.map((d) => ({ _id: `${d._id}#${d.attempts ?? 0}`, recordId: d._id, owner, at: now }));
    let won = new Set(claims.map((c) => c.recordId));
    try {
      await this.m.claims.collection.insertMany(claims as never[], { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as Array<{ index: number; code: number }>;
      if (!list.length || list.some((w) => w.code !== 11000)) throw err;
      const lost = new Set(list.map((w) => claims[w.index]!.recordId));
      won = new Set([...won].filter((id) => !lost.has(id)));
    }
    const mine = due.filter((d) => won.has(d._id));
    if (!mine.length) return [];
    const lease = new Date(now.getTime() + leaseMs);
    await this.m.outbox.collection.updateMany(
      { _id: { $in: mine.map((d) => d._id) } } as never,
      { $set: { leaseUntil: lease, owner }, $inc: { attempts: 1 } } as never,
    );
    return mine.map((d) => ({ ...d, leaseUntil: lease, owner, attempts: (d.attempts ?? 0) + 1 }));
  }

  /** Published: the record is done. */
  async completeOutbox(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.m.outbox.collection.deleteMany({ _id: { $in: ids } } as never);
    await this.m.claims.collection.deleteMany({ recordId: { $in: ids } } as never);
  }

  /** Not published: let any replica retry after `retryAt`. */
  async releaseOutbox(ids: string[], owner: string, retryAt: Date): Promise<void> {
    if (!ids.length) return;
    await this.m.outbox.collection.updateMany({ _id: { $in: ids }, owner } as never, { $set: { leaseUntil: retryAt, owner: '', projected: true } } as never);
  }

  async countOutbox(): Promise<number> {
    return this.m.outbox.collection.countDocuments({});
  }

  async eventsByIds(ids: string[]): Promise<ConsentEvent[]> {
    if (!ids.length) return [];
    const docs = (await this.m.events.collection.find({ _id: { $in: ids } } as never).toArray()) as unknown as EventDoc[];
    return docs.map((d) => fromDoc(d)).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  // --- reading ------------------------------------------------------------------------------

  async findById(accountId: string, id: string): Promise<ConsentEvent | undefined> {
    // By _id alone, the account checked here: FerretDB on SQLite serves only a filter of exactly
    // {_id} from its index (and scans for {_id, accountId}); on MongoDB both are one lookup.
    const doc = (await this.m.events.collection.findOne({ _id: id } as never)) as unknown as EventDoc | null;
    return doc && doc.accountId === accountId ? fromDoc(doc) : undefined;
  }

  /** Events sharing a token, newest first. */
  async findByToken(accountId: string, token: string, limit: number): Promise<ConsentEvent[]> {
    const docs = (await this.m.events.collection
      .find({ token, accountId } as never)
      .sort({ _id: -1 })
      .limit(limit)
      .toArray()) as unknown as EventDoc[];
    return docs.map((d) => fromDoc(d));
  }

  /** One page, newest first; `next` is the cursor of the following page, if any. */
  async search(q: SearchQuery): Promise<{ events: ConsentEvent[]; next?: string }> {
    let events: ConsentEvent[];
    if (q.current) {
      // The current documents hold the newest event of each state: with a scope, one lookup by
      // _id (the state key); without, the states of this subject, issuer and target.
      const docs =
        q.scope !== undefined
          ? [
              (await this.m.current.collection.findOne({
                _id: stateKey(q.accountId, q.subject, q.issuer, q.target, q.scope),
              } as never)) as unknown as CurrentDoc | null,
            ].filter((d): d is CurrentDoc => !!d)
          : await this.currentDocs(q.accountId, q.subject, q.issuer, [q.target], MAX_STATES);
      events = (await this.eventsOfCurrent(docs))
        .filter((e) => q.source === undefined || e.source === q.source)
        .filter((e) => !q.cursor || e.id < q.cursor)
        .sort((x, y) => (x.id < y.id ? 1 : -1))
        .slice(0, q.limit + 1);
    } else {
      // Most selective field first: FerretDB on PostgreSQL tests the fields in this order on
      // every row (measured: 35 ms instead of 49 ms per query over 100,000 events); MongoDB's
      // index choice does not depend on it.
      const filter: Record<string, unknown> = { subject: q.subject, target: q.target, issuer: q.issuer, accountId: q.accountId };
      if (q.scope !== undefined) filter.scope = q.scope;
      if (q.source !== undefined) filter.source = q.source;
      if (q.cursor) filter._id = { $lt: q.cursor };
      const docs = (await this.m.events.collection
        .find(filter as never)
        .sort({ _id: -1 })
        .limit(q.limit + 1)
        .toArray()) as unknown as EventDoc[];
      events = docs.map((d) => fromDoc(d));
    }
    if (events.length > q.limit) {
      events = events.slice(0, q.limit);
      return { events, next: events[events.length - 1]!.id };
    }
    return { events };
  }

  private async currentDocs(accountId: string, subject: string, issuer: string, targets: string[], limit: number): Promise<CurrentDoc[]> {
    // most selective first (see search)
    const filter: Record<string, unknown> = { subject };
    if (targets.length === 1) filter.target = targets[0];
    Object.assign(filter, { issuer, accountId });
    if (targets.length > 1) filter.target = { $in: targets };
    return (await this.m.current.collection
      .find(filter as never)
      .limit(limit)
      .toArray()) as unknown as CurrentDoc[];
  }

  /** The current event of each (target, scope) of one subject and issuer, newest first. */
  async currentStates(accountId: string, subject: string, issuer: string, targets: string[], limit: number): Promise<ConsentEvent[]> {
    const docs = await this.currentDocs(accountId, subject, issuer, targets, limit);
    return (await this.eventsOfCurrent(docs)).sort((x, y) => (x.id < y.id ? 1 : -1));
  }

  async statistics(accountId: string, appId: string): Promise<Statistics> {
    const [app, targets, latest] = await Promise.all([
      this.m.appStats.collection.findOne({ _id: hashKey([accountId, appId]) } as never),
      this.m.targetStats.collection
        .find({ accountId, appId } as never, { projection: { _id: 0, target: 1, events: 1, currentAccepted: 1, currentDeclined: 1, currentNoAction: 1 } })
        .sort({ events: -1 })
        .limit(STATISTICS_MAX_TARGETS)
        .toArray(),
      this.m.events.collection
        .find({ accountId, appId } as never, { projection: { createdAt: 1 } })
        .sort({ _id: -1 })
        .limit(1)
        .toArray(),
    ]);
    const a = app as unknown as Partial<Statistics> | null;
    const out: Statistics = {
      appId,
      total: a?.total ?? 0,
      accepted: a?.accepted ?? 0,
      declined: a?.declined ?? 0,
      noAction: a?.noAction ?? 0,
      distinctSubjects: a?.distinctSubjects ?? 0,
      targets: (targets as unknown as Statistics['targets'])
        .map((t) => ({
          target: t.target,
          events: t.events ?? 0,
          currentAccepted: t.currentAccepted ?? 0,
          currentDeclined: t.currentDeclined ?? 0,
          currentNoAction: t.currentNoAction ?? 0,
        }))
        .sort((x, y) => y.events - x.events || (x.target < y.target ? -1 : 1)),
    };
    const l = latest[0] as unknown as { createdAt?: Date } | undefined;
    if (l?.createdAt) out.latestEventAt = new Date(l.createdAt);
    return out;
  }
}
