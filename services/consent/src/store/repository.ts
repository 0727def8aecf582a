import { isDuplicateKey, mapLimit } from '@accord/common';
import { randomBytes } from 'node:crypto';
import { LIMITS, hashKey, needsRenewal, stateKey, type ConsentEvent } from '../domain/consent';
import { pseudonym, redaction } from '../domain/erasure';
import { eventLeafHash } from '../domain/log';
import { EXPIRY_ANNOUNCED, type RenewalJobDoc, type CurrentDoc, type CurrentEvent, type ErasureDoc, type EventDoc, type Models, type StatsDoc } from './models';

/** Documents one erasure step reads and rewrites per round trip. */
const ERASE_BATCH = 1000;

/** An event waiting for its log leaf; `leafHash` when an erasure fixed it before redacting the event. */
export type LogPendingEvent = ConsentEvent & { leafHash?: Buffer };

export interface ErasureResult {
  subjectHash: string;
  events: number;
  states: number;
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
  if (doc.erasedAt != null) ev.erasedAt = new Date(doc.erasedAt);
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
export const STATISTICS_MAX_TARGETS = LIMITS.statisticsTargets;

type ActionCounter = 'currentAccepted' | 'currentDeclined' | 'currentNoAction';
/** Current states of one target by action; lapsed ones (expiresAt passed) apart, whatever their action. */
type CurrentCounts = Record<ActionCounter | 'currentExpired' | 'currentRenewalRequired', number>;
const noCurrent = (): CurrentCounts => ({ currentAccepted: 0, currentDeclined: 0, currentNoAction: 0, currentExpired: 0, currentRenewalRequired: 0 });
/** Stands in for "never expires" when states are grouped by expiry. */
const NEVER = new Date(8.64e15);
const counterOf = (action: boolean | null): ActionCounter => (action === true ? 'currentAccepted' : action === false ? 'currentDeclined' : 'currentNoAction');

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
  Object.assign(cur, lifecycleOf(ev));
  // the expiry queue, last (see CurrentEvent.xq): due when the event lapses
  if (ev.expiresAt !== undefined) cur.xq = ev.expiresAt;
  return cur;
}

/** A state whose current event lapsed, claimed for its `consent.expired` announcement. */
export interface LapsedState {
  /** The state key (the current document's _id). */
  key: string;
  event: ConsentEvent;
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

  // --- expiry (the sweeper) -----------------------------------------------------------------

  /**
   * Claims the states whose current event has lapsed and is not yet announced: one updateMany
   * that moves their `cur.xq` forward by the lease and tags them with this round's claim, then
   * (when it claimed any) one read of the tagged states. Each document's update is atomic, so of
   * several replicas exactly one claims a state per lease; an idle round is the one update,
   * matching nothing (served by the sparse `expiry_queue` index). A state renewed meanwhile holds
   * a newer `cur` without the tag, so it is not read.
   */
  async claimLapsed(claim: string, leaseMs: number, limit: number, now: Date = new Date()): Promise<LapsedState[]> {
    const res = await this.m.current.collection.updateMany(
      { 'cur.xq': { $lte: now } } as never,
      { $set: { 'cur.xq': new Date(now.getTime() + leaseMs), 'cur.xc': claim } } as never,
    );
    return res.modifiedCount ? this.lapsedOfClaim(claim, limit) : [];
  }

  /** States of a claim not yet announced (a round reads its claim in chunks). */
  async lapsedOfClaim(claim: string, limit: number): Promise<LapsedState[]> {
    const docs = (await this.m.current.collection
      .find({ 'cur.xc': claim } as never)
      .limit(limit)
      .toArray()) as unknown as CurrentDoc[];
    const out: LapsedState[] = [];
    for (const d of docs) {
      const [event] = await this.eventsOfCurrent([d]);
      if (event) out.push({ key: d._id, event });
    }
    return out;
  }

  /**
   * Announced: the states leave the queue for good (`cur.xq` = EXPIRY_ANNOUNCED), each only if
   * the same event is still current (a renewal has its own expiry). One bulkWrite for any number.
   */
  async markExpiryAnnounced(states: Array<{ key: string; eventId: string }>): Promise<void> {
    if (!states.length) return;
    await this.m.current.collection.bulkWrite(
      states.map((s) => ({
        updateOne: { filter: { _id: s.key, 'cur.id': s.eventId }, update: { $set: { 'cur.xq': EXPIRY_ANNOUNCED }, $unset: { 'cur.xc': '' } } },
      })) as never[],
      { ordered: false },
    );
  }

  // --- renewal fan-out (consent.renewal_required) -------------------------------------------

  /**
   * The job of one (specification, material version): created on first sight (upsert with
   * `$setOnInsert`, so racing replicas make one), returned as stored.
   */
  async renewalJob(job: Pick<RenewalJobDoc, 'accountId' | 'specId' | 'version' | 'targets'>, now: Date = new Date()): Promise<RenewalJobDoc> {
    const _id = `${job.specId}:${job.version}`;
    const insert: RenewalJobDoc = { _id, ...job, createdAt: now, leaseUntil: new Date(0), announced: 0, done: false };
    const { _id: _, ...fields } = insert;
    try {
      await this.m.renewalJobs.collection.updateOne({ _id } as never, { $setOnInsert: fields } as never, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a racing replica inserted it
    }
    return (await this.m.renewalJobs.collection.findOne({ _id } as never)) as unknown as RenewalJobDoc;
  }

  /** Takes the job for `leaseMs` when it is not done and no other replica holds it; null otherwise. One atomic update. */
  async claimRenewalJob(id: string, owner: string, leaseMs: number, now: Date = new Date()): Promise<RenewalJobDoc | null> {
    return (await this.m.renewalJobs.collection.findOneAndUpdate(
      { _id: id, done: false, leaseUntil: { $lte: now } } as never,
      { $set: { owner, leaseUntil: new Date(now.getTime() + leaseMs) } } as never,
      { returnDocument: 'after' },
    )) as unknown as RenewalJobDoc | null;
  }

  /**
   * Records progress (the last state announced) and extends the lease, only while `owner` still
   * holds the job; false when another replica took it over (the caller stops).
   */
  async advanceRenewalJob(id: string, owner: string, lastKey: string, count: number, leaseMs: number, now: Date = new Date()): Promise<boolean> {
    const res = await this.m.renewalJobs.collection.updateOne(
      { _id: id, owner } as never,
      { $set: { lastKey, leaseUntil: new Date(now.getTime() + leaseMs) }, $inc: { announced: count } } as never,
    );
    return res.matchedCount === 1;
  }

  /** The fan-out is complete (only while `owner` holds the job). */
  async finishRenewalJob(id: string, owner: string): Promise<boolean> {
    const res = await this.m.renewalJobs.collection.updateOne({ _id: id, owner } as never, { $set: { done: true } } as never);
    return res.matchedCount === 1;
  }

  /**
   * Current states of these targets consented to a version older than `version` (so due for
   * renewal), after state key `afterKey`, by key; erased states left out. A state re-consented
   * to `version` or later in the meantime is not among them.
   */
  async renewalPage(
    accountId: string,
    targets: string[],
    version: number,
    afterKey: string | undefined,
    limit: number,
  ): Promise<{ states: LapsedState[]; lastKey: string | undefined; full: boolean }> {
    const filter: Record<string, unknown> = { accountId, target: { $in: targets }, 'cur.targetVersion': { $lt: version } };
    if (afterKey !== undefined) filter._id = { $gt: afterKey };
    const docs = (await this.m.current.collection
      .find(filter as never)
      .sort({ _id: 1 })
      .limit(limit)
      .toArray()) as unknown as CurrentDoc[];
    const states: LapsedState[] = [];
    for (const d of docs) {
      const [event] = await this.eventsOfCurrent([d]);
      if (event && !event.erasedAt && event.targetVersion !== undefined) states.push({ key: d._id, event });
    }
    return { states, lastKey: docs.at(-1)?._id, full: docs.length === limit };
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

  /**
   * An account's events waiting for their log leaf, oldest first. An event erased while waiting
   * carries the leaf hash of its answered form (`logh`, set with the redaction): the leaf is never
   * computed from a redacted document.
   */
  async logPending(accountId: string, limit: number): Promise<LogPendingEvent[]> {
    const docs = (await this.m.events.collection
      .find({ logq: accountId } as never)
      .sort({ _id: 1 })
      .limit(limit)
      .toArray()) as unknown as EventDoc[];
    return docs.map((d) => (d.logh ? Object.assign(fromDoc(d), { leafHash: Buffer.from(d.logh, 'base64') }) : fromDoc(d)));
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

  // --- erasure (docs/consent.md, Erasure) -----------------------------------------------------

  /**
   * Replaces the subject (and the sources and delegates of its events) by keyed hashes in every
   * event of the account (of `issuer` only, when given), moves its current states to the
   * pseudonymous subject, and moves its distinct-subject markers, keeping every count. Batched:
   * each step reads and rewrites up to ERASE_BATCH documents per round trip (one find, one
   * bulkWrite), never one round trip per event.
   *
   * Each event is rewritten by one atomic update conditional on its subject still being the one
   * read, so concurrent erasures never double-hash. An event still waiting for its log leaf gets
   * the leaf hash of its answered form (`logh`) in that same update, so whichever the sequencer
   * reads, the original or the redacted document, its leaf is the answered event's.
   *
   * Events of the subject written while the erasure runs are new data: those stored before its
   * last find are erased, later ones are not (erase again to erase them).
   */
  async eraseSubject(accountId: string, subject: string, issuer: string | undefined, key: Buffer, at: Date): Promise<ErasureResult> {
    const subjectHash = pseudonym(key, subject);
    const apps = new Set<string>();
    const events = await this.eraseEvents(accountId, subject, issuer, key, at, apps);
    const states = await this.moveCurrentStates(accountId, subject, issuer, key);
    await this.moveSubjectMarkers(accountId, subject, subjectHash, [...apps]);
    return { subjectHash, events, states };
  }

  /**
   * Rewrites the subject's events batch by batch until none is left in clear. No sort and no
   * cursor: a rewritten event no longer matches, so each find (served by the `search` index's
   * `accountId, subject` prefix) returns the next ones, including events a concurrent write stored
   * meanwhile.
   */
  private async eraseEvents(accountId: string, subject: string, issuer: string | undefined, key: Buffer, at: Date, apps: Set<string>): Promise<number> {
    let done = 0;
    let stalled = 0;
    for (;;) {
      const filter: Record<string, unknown> = { subject, accountId };
      if (issuer !== undefined) filter.issuer = issuer;
      const docs = (await this.m.events.collection
        .find(filter as never, { projection: { pub: 0, claim: 0 } })
        .limit(ERASE_BATCH)
        .toArray()) as unknown as EventDoc[];
      if (!docs.length) return done;
      const ops = docs.map((d) => {
        apps.add(d.appId);
        const set: Record<string, unknown> = { ...redaction(key, d), erasedAt: at };
        // the leaf of an event not yet sequenced: from the event as answered, before redaction
        if (d.logq) set.logh = eventLeafHash(fromDoc(d)).toString('base64');
        return { updateOne: { filter: { _id: d._id, subject: d.subject }, update: { $set: set } } };
      });
      const res = await this.m.events.collection.bulkWrite(ops as never[], { ordered: false });
      done += res.modifiedCount;
      // a concurrent erasure may have taken a batch; events that match and never change are a fault
      stalled = res.modifiedCount ? 0 : stalled + 1;
      if (stalled >= 3) throw new Error('consent erasure: events of the subject could not be rewritten');
    }
  }

  /**
   * Current states of the subject whose current event is erased move to the state of the
   * pseudonymous subject (their `_id` is an unkeyed hash of the subject, so it cannot stay):
   * `$max` upsert of the new one, then removal of the old one only if its current event is still
   * the one moved (a concurrent write of new data keeps its state). States whose current event
   * is not erased (new data written meanwhile) stay.
   */
  private async moveCurrentStates(accountId: string, subject: string, issuer: string | undefined, key: Buffer): Promise<number> {
    let moved = 0;
    // states whose current event is new data (not erased): they stay, and are not read again
    const kept: string[] = [];
    for (;;) {
      const filter: Record<string, unknown> = { subject };
      if (issuer !== undefined) filter.issuer = issuer;
      filter.accountId = accountId;
      if (kept.length) filter._id = { $nin: kept };
      const docs = (await this.m.current.collection
        .find(filter as never)
        .limit(ERASE_BATCH)
        .toArray()) as unknown as CurrentDoc[];
      if (!docs.length) return moved;
      const newest = docs.map((d) => newestOf(d));
      const ids = newest.filter((e) => !!e).map((e) => e.id);
      const erased = new Set(
        (
          (await this.m.events.collection
            .find({ _id: { $in: ids }, erasedAt: { $exists: true } } as never, { projection: { _id: 1 } })
            .toArray()) as unknown as Array<{ _id: string }>
        ).map((e) => e._id),
      );
      const ops: object[] = [];
      docs.forEach((d, i) => {
        const e = newest[i];
        if (!e || !erased.has(e.id)) {
          kept.push(d._id);
          return;
        }
        const r = redaction(key, { subject: d.subject, source: e.source ?? null, delegate: e.delegate ?? null });
        const cur: Record<string, unknown> = { ...e };
        for (const f of Object.keys(cur)) if (cur[f] === undefined) delete cur[f];
        if (r.source) cur.source = r.source;
        if (r.delegate) cur.delegate = r.delegate;
        ops.push({
          updateOne: {
            filter: { _id: stateKey(accountId, r.subject, d.issuer, d.target, d.scope) },
            update: { $max: { cur }, $setOnInsert: { accountId, subject: r.subject, issuer: d.issuer, target: d.target, scope: d.scope } },
            upsert: true,
          },
        });
        // only while its current event is still the one moved: a concurrent write of new data keeps the state
        ops.push({ deleteOne: { filter: d.cur ? { _id: d._id, 'cur.id': e.id } : { _id: d._id, eventId: e.id } } });
        moved++;
      });
      if (ops.length) await this.bulkUpserts(this.m.current.collection, ops);
    }
  }

  /**
   * Distinct subjects stay counted once: per application whose events were erased and that has no
   * event of the subject in clear left (an erasure narrowed by issuer may leave some), the
   * marker of the subject moves to the pseudonym (one bulkWrite).
   */
  private async moveSubjectMarkers(accountId: string, subject: string, subjectHash: string, apps: string[]): Promise<void> {
    const ops: object[] = [];
    for (const appId of apps) {
      if (await this.m.events.collection.findOne({ subject, accountId, appId } as never, { projection: { _id: 1 } })) continue;
      ops.push({ deleteOne: { filter: { _id: `subject:${hashKey([accountId, appId, subject])}` } } });
      ops.push({
        updateOne: {
          filter: { _id: `subject:${hashKey([accountId, appId, subjectHash])}` },
          update: { $setOnInsert: { kind: 'subject', accountId, appId } },
          upsert: true,
        },
      });
    }
    if (ops.length) await this.bulkUpserts(this.m.stats.collection, ops);
  }

  /** Records an erasure (never the subject in clear). */
  async recordErasure(rec: Omit<ErasureDoc, '_id'>): Promise<ErasureDoc> {
    const doc: ErasureDoc = { _id: `${rec.erasedAt.getTime().toString(16).padStart(12, '0')}${randomBytes(10).toString('hex')}`, ...rec };
    if (doc.issuer === undefined) delete doc.issuer;
    await this.m.erasures.collection.insertOne(doc as never);
    return doc;
  }

  /** The account's erasure records, newest first, after `cursor` (the id of the last one received). */
  async erasures(accountId: string, limit: number, cursor?: string): Promise<ErasureDoc[]> {
    const filter: Record<string, unknown> = { accountId };
    if (cursor) filter._id = { $lt: cursor };
    return (await this.m.erasures.collection
      .find(filter as never)
      .sort({ _id: -1 })
      .limit(limit)
      .toArray()) as unknown as ErasureDoc[];
  }

  /**
   * `reconsentSince` gives the latest material version of the specifications some targets name
   * (see Consents): states consented to an older version count in `currentRenewalRequired`.
   */
  async statistics(
    accountId: string,
    appId: string,
    now: Date = new Date(),
    reconsentSince?: (targets: string[]) => Promise<(target: string) => number | undefined>,
  ): Promise<Statistics> {
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
                version: '$cur.targetVersion',
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
    const groups = current as unknown as Array<{ _id: { target: string; action?: boolean | null; expired?: boolean; version?: number | null }; n: number }>;
    for (const g of groups) {
      let row = byTarget.get(g._id.target);
      if (!row) byTarget.set(g._id.target, (row = noCurrent()));
      row[g._id.expired ? 'currentExpired' : counterOf(g._id.action ?? null)] += g.n;
    }
    // states bound to a version (specification targets): due for renewal when it is older than the latest material one
    const versioned = groups.filter((g) => g._id.version != null);
    if (versioned.length && reconsentSince) {
      const since = await reconsentSince([...new Set(versioned.map((g) => g._id.target))]);
      for (const g of versioned) if (needsRenewal(g._id.version ?? undefined, since(g._id.target))) byTarget.get(g._id.target)!.currentRenewalRequired += g.n;
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
