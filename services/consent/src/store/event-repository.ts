import { stateKey, type ConsentEvent } from '../domain/consent';
import { currentDocs, eventsOfCurrent, fromDoc, toDoc } from './event-docs';
import type { CurrentDoc, EventDoc, Models } from './models';

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

/** Most states (scopes) of one subject, issuer and target read by a current search. */
const MAX_STATES = 10_000;

/**
 * The consent events: stored once and never changed (their `pub`/`claim`/`logq` bookkeeping
 * aside), read back by id, token, search and export. Each event document is also its own outbox
 * record (OutboxRepository) and log queue entry (LogQueueRepository).
 */
export class EventRepository {
  /** @param publishLeaseMs how long a new event belongs to its writer's publish before any relay may claim it */
  constructor(
    private readonly m: Models,
    private readonly publishLeaseMs: number,
  ) {}

  /**
   * Step 1: the events, each due for publishing by the relay from `pubAt` unless the writer's
   * own publish acknowledges it first. All or nothing: if the insert fails part-way, the events
   * of this call that did get in are withdrawn again (they were never answered to anybody; this
   * is the only removal in the store).
   *
   * `pubAt` defaults to now + the publish lease (tests set it to make events due at once).
   */
  async insertEvents(events: ConsentEvent[], pubAt: Date = new Date(Date.now() + this.publishLeaseMs)): Promise<void> {
    try {
      // `logq`: waiting for the consent log's leaf, in the same document, so no stored event can miss the log
      await this.m.events.collection.insertMany(events.map((e) => ({ ...toDoc(e), pub: pubAt, logq: e.accountId })) as never[], { ordered: true });
    } catch (err) {
      await this.m.events.collection.deleteMany({ _id: { $in: events.map((e) => e.id) } } as never).catch(() => undefined);
      throw err;
    }
  }

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
          : await currentDocs(this.m, q.accountId, q.subject, q.issuer, [q.target], MAX_STATES);
      events = (await eventsOfCurrent(this.m, docs))
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
}
