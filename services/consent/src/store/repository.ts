import { hashKey, stateKey, type ConsentEvent } from '../domain/consent';
import type { CurrentDoc, EventDoc, Models, StatsDoc } from './models';

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
  targets: Array<{ target: string; events: number; currentAccepted: number; currentDeclined: number; currentNoAction: number }>;
  latestEventAt?: Date;
}

/** Most states (scopes) of one subject, issuer and target read by a current search. */
const MAX_STATES = 10_000;

/** Maximum number of targets in statistics (those with the most events). */
export const STATISTICS_MAX_TARGETS = 1000;

type ActionCounter = 'currentAccepted' | 'currentDeclined' | 'currentNoAction';
const counterOf = (action: boolean | null): ActionCounter => (action === true ? 'currentAccepted' : action === false ? 'currentDeclined' : 'currentNoAction');

/** What a current state held before an event replaced it: `null` for a new state. */
export type Replaced = { appId: string; action: boolean | null } | null;

/** The newest event of a state in a batch, and what it replaced (`undefined`: a newer event was already current). */
export interface Transition {
  ev: ConsentEvent;
  replaced: Replaced | undefined;
}

/** Attempts of one state move that keep meeting a concurrent first insert (each attempt is one round trip). */
const MOVE_ATTEMPTS = 8;
/** State moves of one batch in flight at once. */
const MOVE_CONCURRENCY = 32;

const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

/**
 * The consent store, MongoDB-first: every write is one round trip that MongoDB applies
 * atomically to one document, so it is exact with any number of writers and replicas, with no
 * transaction. Events are inserted once and never changed (their `pub`/`claim` bookkeeping
 * aside); current states and statistics are derived on write:
 *
 * 1. `insertEvents`: one insertMany per batch (the events are their own outbox records);
 * 2. `applyCurrent`: one guarded upsert per state that returns what it replaced;
 * 3. `count`: one bulkWrite of `$inc`s for the batch's statistics.
 */
export class ConsentRepository {
  constructor(private readonly m: Models) {}

  // --- writing ------------------------------------------------------------------------------

  /**
   * Step 1: the events, each due for publishing by the relay from `pubAt` unless the writer's
   * own publish acknowledges it first. All or nothing: if the insert fails part-way, the events
   * of this call that did get in are withdrawn again (they were never answered to anybody; this
   * is the only removal in the store).
   */
  async insertEvents(events: ConsentEvent[], pubAt: Date): Promise<void> {
    try {
      await this.m.events.collection.insertMany(events.map((e) => ({ ...toDoc(e), pub: pubAt })) as never[], { ordered: true });
    } catch (err) {
      await this.m.events.collection.deleteMany({ _id: { $in: events.map((e) => e.id) } } as never).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Step 2: moves each state the batch touches to its newest event in the batch, unless a newer
   * event is already current. Idempotent. Returns, per state, what the move replaced.
   */
  async applyCurrent(events: ConsentEvent[]): Promise<Transition[]> {
    const newest = new Map<string, ConsentEvent>();
    for (const ev of events) {
      const key = stateKey(ev.accountId, ev.subject, ev.issuer, ev.target, ev.scope);
      const cur = newest.get(key);
      if (!cur || cur.id < ev.id) newest.set(key, ev);
    }
    return mapLimit([...newest.entries()], MOVE_CONCURRENCY, async ([key, ev]) => ({ ev, replaced: await this.moveState(key, ev) }));
  }

  /**
   * One state move: an upsert guarded by `eventId < ev.id`, returning the document it replaced.
   * MongoDB applies it atomically, so of racing writers only newer events win, and each winner
   * knows exactly what it replaced (the statistics follow these transitions). A guarded upsert
   * that finds a newer event current fails with E11000 (it tries to insert a second document
   * with the same _id); so does one that loses the race to create the state. A read tells which.
   */
  async moveState(key: string, ev: ConsentEvent): Promise<Replaced | undefined> {
    const { _id, ...fields } = this.currentDoc(key, ev);
    for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
      try {
        const before = (await this.m.current.collection.findOneAndUpdate({ _id, eventId: { $lt: ev.id } } as never, { $set: fields } as never, {
          upsert: true,
          returnDocument: 'before',
          projection: { appId: 1, action: 1 },
        })) as unknown as Pick<CurrentDoc, 'appId' | 'action'> | null;
        return before ? { appId: before.appId, action: before.action ?? null } : null;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const cur = (await this.m.current.collection.findOne({ _id } as never, { projection: { eventId: 1 } })) as unknown as CurrentDoc | null;
        if (cur && cur.eventId >= ev.id) return undefined;
      }
    }
    throw new Error(`current state ${key}: still contended after ${MOVE_ATTEMPTS} attempts`);
  }

  /**
   * Step 3: the statistics of a batch, one bulkWrite of `$inc` upserts: events per application
   * by action, events per application and target, current states per target by action (from
   * the transitions), and a marker per new (application, subject). Applied once per batch by
   * its writer; a process that dies between step 1 and this step leaves the counters short by
   * that batch (docs/consent.md), while current states and publication recover.
   */
  async count(events: ConsentEvent[], transitions: Transition[]): Promise<void> {
    const incs = new Map<string, { set: Partial<StatsDoc>; inc: Record<string, number> }>();
    const bump = (id: string, set: Partial<StatsDoc>, field: string, n: number) => {
      let e = incs.get(id);
      if (!e) incs.set(id, (e = { set, inc: {} }));
      e.inc[field] = (e.inc[field] ?? 0) + n;
    };
    const app = (accountId: string, appId: string) => [`app:${hashKey([accountId, appId])}`, { kind: 'app' as const, accountId, appId }] as const;
    const target = (accountId: string, appId: string, t: string) =>
      [`target:${hashKey([accountId, appId, t])}`, { kind: 'target' as const, accountId, appId, target: t }] as const;
    const subjects = new Map<string, Partial<StatsDoc>>();
    for (const ev of events) {
      const [aid, aset] = app(ev.accountId, ev.appId);
      bump(aid, aset, 'total', 1);
      bump(aid, aset, ev.action === true ? 'accepted' : ev.action === false ? 'declined' : 'noAction', 1);
      const [tid, tset] = target(ev.accountId, ev.appId, ev.target);
      bump(tid, tset, 'events', 1);
      subjects.set(`subject:${hashKey([ev.accountId, ev.appId, ev.subject])}`, { kind: 'subject', accountId: ev.accountId, appId: ev.appId });
    }
    for (const { ev, replaced } of transitions) {
      if (replaced === undefined) continue;
      const [tid, tset] = target(ev.accountId, ev.appId, ev.target);
      bump(tid, tset, counterOf(ev.action), 1);
      if (replaced) {
        const [pid, pset] = target(ev.accountId, replaced.appId, ev.target);
        bump(pid, pset, counterOf(replaced.action), -1);
      }
    }
    const ops = [
      ...[...incs.entries()].map(([_id, { set, inc }]) => ({
        updateOne: { filter: { _id }, update: { $inc: inc, $setOnInsert: set }, upsert: true },
      })),
      ...[...subjects.entries()].map(([_id, set]) => ({ updateOne: { filter: { _id }, update: { $setOnInsert: set }, upsert: true } })),
    ];
    await this.bulkUpserts(ops);
  }

  /**
   * bulkWrite of upserts by _id (unordered). Two replicas creating the same document at once
   * may see E11000 on the upsert that lost (MongoDB retries most such upserts itself); an op
   * that failed so was not applied, so it is sent again.
   */
  private async bulkUpserts(ops: object[]): Promise<void> {
    let pending = ops;
    for (let attempt = 0; pending.length; attempt++) {
      try {
        await this.m.stats.collection.bulkWrite(pending as never[], { ordered: false });
        return;
      } catch (err) {
        const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
        const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as Array<{ index: number; code: number }>;
        if (attempt >= 3 || !list.length || list.some((w) => w.code !== 11000)) throw err;
        pending = list.map((w) => pending[w.index]!);
      }
    }
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

  // --- publication (the relay) --------------------------------------------------------------

  /** Published: the events leave the relay's view. One update for any number of events. */
  async markPublished(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.m.events.collection.updateMany({ _id: { $in: ids } } as never, { $unset: { pub: '', claim: '' } } as never);
  }

  /** Not published: any replica's relay may retry from `retryAt`. */
  async deferPublication(ids: string[], retryAt: Date): Promise<void> {
    if (!ids.length) return;
    await this.m.events.collection.updateMany({ _id: { $in: ids }, pub: { $exists: true } } as never, { $set: { pub: retryAt } } as never);
  }

  /**
   * Claims every event due for publishing (its writer did not publish it in time): one update
   * that moves their due time by the lease and tags them with this round's `claim`, then one
   * read of the tagged events. Each event's update is atomic, so of several replicas exactly one
   * claims it per lease. An idle round is the one update, matching nothing.
   */
  async claimDue(claim: string, leaseMs: number, limit: number): Promise<ConsentEvent[]> {
    const now = new Date();
    const res = await this.m.events.collection.updateMany(
      { pub: { $lte: now } } as never,
      { $set: { pub: new Date(now.getTime() + leaseMs), claim } } as never,
    );
    return res.modifiedCount ? this.claimed(claim, limit) : [];
  }

  /** Events of a claim not yet published, oldest first (a relay round reads its claim in chunks). */
  async claimed(claim: string, limit: number): Promise<ConsentEvent[]> {
    const docs = (await this.m.events.collection
      .find({ claim } as never)
      .sort({ _id: 1 })
      .limit(limit)
      .toArray()) as unknown as EventDoc[];
    return docs.map((d) => fromDoc(d));
  }

  /** Events not yet on NATS (for tests and metrics). */
  async countUnpublished(): Promise<number> {
    return this.m.events.collection.countDocuments({ pub: { $exists: true } } as never);
  }

  // --- reading ------------------------------------------------------------------------------

  async findById(accountId: string, id: string): Promise<ConsentEvent | undefined> {
    // By _id alone (the account checked here): one primary-key lookup on every server.
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
      // Served by the `search` / `search_scope` indexes on MongoDB.
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
    const [app, targets, distinctSubjects, latest] = await Promise.all([
      this.m.stats.collection.findOne({ _id: `app:${hashKey([accountId, appId])}` } as never),
      this.m.stats.collection
        .find({ kind: 'target', accountId, appId } as never, {
          projection: { _id: 0, target: 1, events: 1, currentAccepted: 1, currentDeclined: 1, currentNoAction: 1 },
        })
        .sort({ events: -1 })
        .limit(STATISTICS_MAX_TARGETS)
        .toArray(),
      this.m.stats.collection.countDocuments({ kind: 'subject', accountId, appId } as never),
      this.m.events.collection
        .find({ accountId, appId } as never, { projection: { createdAt: 1 } })
        .sort({ _id: -1 })
        .limit(1)
        .toArray(),
    ]);
    const a = app as unknown as StatsDoc | null;
    const out: Statistics = {
      appId,
      total: a?.total ?? 0,
      accepted: a?.accepted ?? 0,
      declined: a?.declined ?? 0,
      noAction: a?.noAction ?? 0,
      distinctSubjects,
      targets: (targets as unknown as StatsDoc[])
        .map((t) => ({
          target: t.target ?? '',
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
