import { hashKey, stateKey, type ConsentEvent } from '../domain/consent';
import type { CurrentDoc, CurrentEvent, EventDoc, Models, StatsDoc } from './models';

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
  if (ev.targetVersion !== undefined) doc.targetVersion = ev.targetVersion;
  if (ev.expiresAt !== undefined) doc.expiresAt = ev.expiresAt;
  return doc;
}

/** The lifecycle fields an event or its current copy may hold (absent on events that have none). */
function lifecycleOf(d: { targetVersion?: number | null; expiresAt?: Date | null }): Pick<ConsentEvent, 'targetVersion' | 'expiresAt'> {
  const out: Pick<ConsentEvent, 'targetVersion' | 'expiresAt'> = {};
  if (d.targetVersion != null) out.targetVersion = d.targetVersion;
  if (d.expiresAt != null) out.expiresAt = new Date(d.expiresAt);
  return out;
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
  return Object.assign(ev, lifecycleOf(doc));
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

export interface ExportQuery {
  accountId: string;
  appId?: string;
  target?: string;
  subject?: string;
  /** Event id bounds: `after` exclusive (the cursor), `from` inclusive, `before` exclusive. */
  after?: string;
  from?: string;
  before?: string;
  limit: number;
}

/** Time budget of the exact count behind an export's `X-Total-Count` (then the counters). */
export const EXPORT_COUNT_MS = 1000;

/** The filter of an export (and of its count): served by `export`, `app_latest` or `search`. */
function exportFilter(q: Omit<ExportQuery, 'limit'>): Record<string, unknown> {
  const filter: Record<string, unknown> = { accountId: q.accountId };
  if (q.subject !== undefined) filter.subject = q.subject;
  if (q.appId !== undefined) filter.appId = q.appId;
  if (q.target !== undefined) filter.target = q.target;
  const id: Record<string, string> = {};
  if (q.after !== undefined) id.$gt = q.after;
  if (q.from !== undefined) id.$gte = q.from;
  if (q.before !== undefined) id.$lt = q.before;
  if (Object.keys(id).length) filter._id = id;
  return filter;
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
}

/** Most states (scopes) of one subject, issuer and target read by a current search. */
const MAX_STATES = 10_000;

/** Maximum number of targets in statistics (those with the most events). */
export const STATISTICS_MAX_TARGETS = 1000;

type ActionCounter = 'currentAccepted' | 'currentDeclined' | 'currentNoAction';
/** Current states of one target by action; lapsed ones (expiresAt passed) apart, whatever their action. */
type CurrentCounts = Record<ActionCounter | 'currentExpired', number>;
const noCurrent = (): CurrentCounts => ({ currentAccepted: 0, currentDeclined: 0, currentNoAction: 0, currentExpired: 0 });
/** Stands in for "never expires" when states are grouped by expiry. */
const NEVER = new Date(8.64e15);
const counterOf = (action: boolean | null): ActionCounter => (action === true ? 'currentAccepted' : action === false ? 'currentDeclined' : 'currentNoAction');

const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

/** The newest event a current document holds: `cur`, or Accord 0.1's flat fields, whichever is newer. */
function newestOf(d: CurrentDoc): (Partial<CurrentEvent> & { id: string; appId: string }) | undefined {
  const flat = d.eventId
    ? { id: d.eventId, appId: d.appId ?? '', action: d.action ?? null, token: d.token, createdAt: d.createdAt, source: d.source, delegate: d.delegate }
    : undefined;
  if (d.cur && (!flat || d.cur.id > flat.id)) return d.cur;
  return flat;
}

/** The newest event of a state, as its current document keeps it (`id` first: see CurrentDoc). */
function currentEvent(ev: ConsentEvent): CurrentEvent {
  const cur: CurrentEvent = { id: ev.id, appId: ev.appId, action: ev.action, token: ev.token, createdAt: ev.createdAt };
  if (ev.source !== undefined) cur.source = ev.source;
  if (ev.delegate !== undefined) cur.delegate = ev.delegate;
  return Object.assign(cur, lifecycleOf(ev));
}

/**
 * The consent store, MongoDB-first: a batch of events (one call, or several coalesced by group
 * commit) costs three round trips whatever its size, each of which MongoDB applies atomically
 * per document, so the store is exact with any number of writers and replicas, with no
 * transaction:
 *
 * 1. `insertEvents`: one insertMany (the events are their own outbox records);
 * 2. `applyCurrent`: one bulkWrite of `$max` upserts, one per state;
 * 3. `count`: one bulkWrite of `$inc` upserts for the statistics.
 *
 * Events are inserted once and never changed (their `pub`/`claim`/`logq` bookkeeping aside).
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
      // `logq`: waiting for the consent log's leaf, in the same document, so no stored event can miss the log
      await this.m.events.collection.insertMany(events.map((e) => ({ ...toDoc(e), pub: pubAt, logq: e.accountId })) as never[], { ordered: true });
    } catch (err) {
      await this.m.events.collection.deleteMany({ _id: { $in: events.map((e) => e.id) } } as never).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Step 2: moves each state the batch touches to its newest event, unless a newer one is
   * current: `$max: {cur: <event>}` by _id, upserting. MongoDB applies each atomically and keeps
   * the larger `cur`, which is the newer event (its fixed-width, time-ordered id is the first
   * field), so racing writers of any replica leave the newest event current, in any order of
   * arrival. Idempotent. An upsert by _id that races another's first insert is retried by
   * MongoDB itself (>= 4.2); a duplicate-key error reaching us anyway is retried here.
   */
  async applyCurrent(events: ConsentEvent[]): Promise<void> {
    const newest = new Map<string, ConsentEvent>();
    for (const ev of events) {
      const key = stateKey(ev.accountId, ev.subject, ev.issuer, ev.target, ev.scope);
      const cur = newest.get(key);
      if (!cur || cur.id < ev.id) newest.set(key, ev);
    }
    await this.bulkUpserts(
      this.m.current.collection,
      [...newest.entries()].map(([_id, ev]) => ({
        updateOne: {
          filter: { _id },
          update: {
            $max: { cur: currentEvent(ev) },
            $setOnInsert: { accountId: ev.accountId, subject: ev.subject, issuer: ev.issuer, target: ev.target, scope: ev.scope },
          },
          upsert: true,
        },
      })),
    );
  }

  /**
   * Step 3: the event counters of a batch, one bulkWrite of `$inc` upserts: events per
   * application by action, events per application and target, and a marker per (application,
   * subject) for distinct subjects. (Current states per target are counted from the current
   * documents when statistics are read, so they are exact by construction.) Applied once per
   * batch by its writer; a process that dies between step 1 and this step leaves these
   * counters short by that batch (docs/consent.md), while current states and publication
   * recover.
   */
  async count(events: ConsentEvent[]): Promise<void> {
    const ops = new Map<string, { inc: Record<string, number>; set: Partial<StatsDoc> }>();
    const bump = (id: string, set: Partial<StatsDoc>, field?: string) => {
      let e = ops.get(id);
      if (!e) ops.set(id, (e = { inc: {}, set }));
      if (field) e.inc[field] = (e.inc[field] ?? 0) + 1;
    };
    for (const ev of events) {
      const app = `app:${hashKey([ev.accountId, ev.appId])}`;
      const appSet = { kind: 'app' as const, accountId: ev.accountId, appId: ev.appId };
      bump(app, appSet, 'total');
      bump(app, appSet, ev.action === true ? 'accepted' : ev.action === false ? 'declined' : 'noAction');
      bump(`target:${hashKey([ev.accountId, ev.appId, ev.target])}`, { kind: 'target', accountId: ev.accountId, appId: ev.appId, target: ev.target }, 'events');
      bump(`subject:${hashKey([ev.accountId, ev.appId, ev.subject])}`, { kind: 'subject', accountId: ev.accountId, appId: ev.appId });
    }
    await this.bulkUpserts(
      this.m.stats.collection,
      [...ops.entries()].map(([_id, { inc, set }]) => ({
        updateOne: { filter: { _id }, update: Object.keys(inc).length ? { $inc: inc, $setOnInsert: set } : { $setOnInsert: set }, upsert: true },
      })),
    );
  }

  /**
   * bulkWrite of upserts by _id (unordered). Two replicas creating the same document at once
   * may see E11000 on the upsert that lost (MongoDB retries most such upserts itself); an op
   * that failed so was not applied, so it is sent again.
   */
  private async bulkUpserts(coll: { bulkWrite(ops: never[], o: object): Promise<unknown> }, ops: object[]): Promise<void> {
    let pending = ops;
    for (let attempt = 0; pending.length; attempt++) {
      try {
        await coll.bulkWrite(pending as never[], { ordered: false });
        return;
      } catch (err) {
        const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
        const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as Array<{ index: number; code: number }>;
        if (attempt >= 3 || !list.length || list.some((w) => !isDuplicateKey(w))) throw err;
        pending = list.map((w) => pending[w.index]!);
      }
    }
  }

  /** The events that current documents hold (Accord 0.1's documents without the copy: read from consent_events). */
  private async eventsOfCurrent(docs: CurrentDoc[]): Promise<ConsentEvent[]> {
    const out: ConsentEvent[] = [];
    const missing: string[] = [];
    for (const d of docs) {
      const e = newestOf(d);
      if (!e) continue;
      // the state's identity from the document, the rest from its copy of the newest event
      if (e.token !== undefined && e.createdAt !== undefined)
        out.push(
          fromDoc(
            {
              ...e,
              _id: e.id,
              action: e.action ?? null,
              token: e.token,
              createdAt: e.createdAt,
              subject: d.subject,
              issuer: d.issuer,
              target: d.target,
              scope: d.scope,
            },
            d.accountId,
          ),
        );
      else missing.push(e.id);
    }
    if (missing.length) out.push(...(await mapLimit(missing, 8, (id) => this.findById(docs[0]!.accountId, id))).filter((e): e is ConsentEvent => !!e));
    return out;
  }

  // --- publication (the relay) --------------------------------------------------------------

  /** Published: the events leave the relay's view. One bulkWrite of updates by _id for any number of events. */
  async markPublished(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.m.events.collection.bulkWrite(ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $unset: { pub: '', claim: '' } } } })) as never[], {
      ordered: false,
    });
  }

  /** Not published: any replica's relay may retry from `retryAt`. */
  async deferPublication(ids: string[], retryAt: Date): Promise<void> {
    if (!ids.length) return;
    await this.m.events.collection.bulkWrite(ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $set: { pub: retryAt } } } })) as never[], {
      ordered: false,
    });
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

  // --- the consent log's queue (the sequencer; docs/consent-log.md) ---------------------------

  /** Accounts with events waiting for their log leaf (at most `limit`). */
  async logPendingAccounts(limit: number): Promise<string[]> {
    const ids = (await this.m.events.collection.distinct('logq')) as string[];
    return ids.slice(0, limit);
  }

  /** An account's events waiting for their log leaf, oldest first. */
  async logPending(accountId: string, limit: number): Promise<ConsentEvent[]> {
    const docs = (await this.m.events.collection
      .find({ logq: accountId } as never)
      .sort({ _id: 1 })
      .limit(limit)
      .toArray()) as unknown as EventDoc[];
    return docs.map((d) => fromDoc(d));
  }

  /** Sequenced: the events leave the log's queue. One command for any number of events. */
  async markLogged(ids: string[]): Promise<void> {
    if (ids.length) await this.m.events.collection.updateMany({ _id: { $in: ids } } as never, { $unset: { logq: '' } } as never);
  }

  /** Whether the account's event is stored and waiting for its log leaf. */
  async isLogPending(accountId: string, id: string): Promise<boolean> {
    const doc = (await this.m.events.collection.findOne({ _id: id } as never, { projection: { logq: 1 } })) as { logq?: string } | null;
    return doc?.logq === accountId;
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

  /**
   * One page of an export, oldest first: events with an id above `after` (ids are time-ordered,
   * so time bounds are id bounds). Served by the `export` index, or `app_latest` with an
   * application, or `search` with a subject; target is filtered in the scan.
   */
  async exportPage(q: ExportQuery): Promise<ConsentEvent[]> {
    const docs = (await this.m.events.collection
      .find(exportFilter(q) as never, { projection: { pub: 0, claim: 0 } })
      .sort({ _id: 1 })
      .limit(q.limit)
      .toArray()) as unknown as EventDoc[];
    return docs.map((d) => fromDoc(d));
  }

  /**
   * How many events an export holds, for progress (`X-Total-Count`). With only `appId` /
   * `target` filters: the statistics counters (one read per application of the account, never
   * a scan of the events). Otherwise one count with the export's own filter on its index, given
   * `countMs` at most; when it takes longer (millions of events and a narrow filter outside the
   * index), the counters again, an upper bound that ignores since, until, subject and cursor
   * (`exact: false`).
   */
  async exportTotal(q: Omit<ExportQuery, 'limit'>, countMs = EXPORT_COUNT_MS): Promise<{ total: number; exact: boolean }> {
    const counters = async () => {
      const filter: Record<string, unknown> = { kind: q.target !== undefined ? 'target' : 'app', accountId: q.accountId };
      if (q.appId !== undefined) filter.appId = q.appId;
      if (q.target !== undefined) filter.target = q.target;
      const field = q.target !== undefined ? 'events' : 'total';
      const docs = await this.m.stats.collection.find(filter as never, { projection: { _id: 0, [field]: 1 } }).toArray();
      return docs.reduce((n, d) => n + (Number((d as Record<string, unknown>)[field]) || 0), 0);
    };
    if (q.subject === undefined && q.after === undefined && q.from === undefined && q.before === undefined) return { total: await counters(), exact: true };
    // maxTimeMS stops the count on MongoDB; the timer bounds the wait on servers that ignore it
    // (mongo-java-server, FerretDB), where the count runs on but nobody waits for it
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), countMs + 100)));
    const count = this.m.events.collection.countDocuments(exportFilter(q) as never, { maxTimeMS: countMs }).catch((err: unknown) => {
      if ((err as { code?: unknown }).code === 50 /* MaxTimeMSExpired */) return undefined;
      throw err;
    });
    try {
      const n = await Promise.race([count, late]);
      if (n !== undefined) return { total: n, exact: true };
    } finally {
      clearTimeout(timer);
    }
    count.catch(() => undefined);
    return { total: await counters(), exact: false };
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

  async statistics(accountId: string, appId: string, now: Date = new Date()): Promise<Statistics> {
    const [app, targets, distinctSubjects, current, latest] = await Promise.all([
      this.m.stats.collection.findOne({ _id: `app:${hashKey([accountId, appId])}` } as never),
      this.m.stats.collection
        .find({ kind: 'target', accountId, appId } as never, { projection: { _id: 0, target: 1, events: 1 } })
        .sort({ events: -1 })
        .limit(STATISTICS_MAX_TARGETS)
        .toArray(),
      this.m.stats.collection.countDocuments({ kind: 'subject', accountId, appId } as never),
      // current states this application holds (it wrote their newest event), per target and action
      this.m.current.collection
        .aggregate([
          { $match: { accountId, $or: [{ 'cur.appId': appId }, { cur: { $exists: false }, appId }] } },
          {
            $group: {
              _id: {
                target: '$target',
                action: { $ifNull: ['$cur.action', '$action'] },
                expired: { $lte: [{ $ifNull: ['$cur.expiresAt', NEVER] }, now] },
              },
              n: { $sum: 1 },
            },
          },
        ])
        .toArray(),
      this.m.events.collection
        .find({ accountId, appId } as never, { projection: { createdAt: 1 } })
        .sort({ _id: -1 })
        .limit(1)
        .toArray(),
    ]);
    const byTarget = new Map<string, CurrentCounts>();
    for (const g of current as unknown as Array<{ _id: { target: string; action?: boolean | null; expired?: boolean }; n: number }>) {
      let row = byTarget.get(g._id.target);
      if (!row) byTarget.set(g._id.target, (row = noCurrent()));
      row[g._id.expired ? 'currentExpired' : counterOf(g._id.action ?? null)] += g.n;
    }
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
          ...(byTarget.get(t.target ?? '') ?? noCurrent()),
        }))
        .sort((x, y) => y.events - x.events || (x.target < y.target ? -1 : 1)),
    };
    const l = latest[0] as unknown as { createdAt?: Date } | undefined;
    if (l?.createdAt) out.latestEventAt = new Date(l.createdAt);
    return out;
  }
}
