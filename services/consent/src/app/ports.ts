import type { LogAnchor, Subtree } from '@accord/proofs';
import type { ConsentEvent } from '../domain/consent';
import type { DecidedEvent, DecisionStrings } from '../domain/decision';
import type { ImportedEvent, ImportError, ImportJob } from '../domain/import';
import type { ImportedLink, LinkEvent } from '../domain/link';
import type { SpecDetails } from '../domain/receipt';
import type { StatisticsCounts } from '../domain/statistics';

/**
 * The consent service's storage, as its callers use it: the write path, the reads, the exports,
 * the consent log and the lifecycle (publication, expiry, renewal, erasure, import) are ports of
 * their own (below), each naming only the methods that use case calls, and a caller takes the
 * ports it needs (`Consents` the write path, reads and exports; `Imports` the write path and the
 * import jobs; the relay the write path and the outbox; decisions two reads). The store is all of
 * them at once. The MongoDB adapter (store/mongo) and the memory adapter (store/memory) implement
 * it, one module per collection, and the contract tests run the same cases against both
 * (test/store-contract.test.ts, test/link-store-contract.test.ts, one `describe` per port).
 *
 * The store holds queries: every method is one read or one write (or a few, named where they
 * are), each atomic per document, so the store is exact with any number of writers and replicas
 * without transactions. Leases, durations, retries, batching rules and arithmetic are the
 * callers' (app/, events/, domain/): they pass times (`now`, `until`), never lease lengths.
 *
 * A batch of new events costs three commands whatever its size: `events.insert`,
 * `current.apply`, `statistics.count`.
 */
export interface ConsentStore extends WritePath, Reads, Exports, LogPorts, Lifecycle {
  events: EventStore;
  current: CurrentStateStore;
  statistics: StatisticsStore;
  links: LinkStore;
}

/**
 * The write path: a batch of new events costs three commands (`events.insert`, `current.apply`,
 * `statistics.count`); the relay settles a batch an insert cut short (`events.fence`, then
 * `events.withdraw`). Imports store through `imports.insertEvents` and then apply and count the
 * same way.
 */
export interface WritePath {
  events: EventWrites;
  current: StateWrites;
  statistics: Counting;
}

/** The reads of the registry: an event by id or token, a history, current states, decisions at a past time, statistics. */
export interface Reads {
  events: EventReads;
  current: StateReads;
  statistics: StatisticsReads;
}

/** The exports: pages of events (and link events) by id, their count, an application's actions (the console's activity). */
export interface Exports {
  events: EventExports;
  links: Pick<LinkStore, 'exportPage'>;
}

/** The consent log: events waiting for their leaf, and the Merkle tree's leaves, subtrees and signed heads. */
export interface LogPorts {
  logQueue: LogQueueStore;
  log: LogTreeStore;
}

/** What happens after a write: publication (outbox), the expiry and renewal announcements, erasure, import jobs. */
export interface Lifecycle {
  outbox: OutboxStore;
  expiry: ExpiryStore;
  renewals: RenewalStore;
  erasure: ErasureStore;
  imports: ImportStore;
}

// --- events ---------------------------------------------------------------------------------

/** One subject's history on one target (search without `current`), newest first. */
export interface HistoryQuery {
  accountId: string;
  subject: string;
  issuer: string;
  target: string;
  scope?: string;
  source?: string;
  /** Only events with this `gpc` / in this jurisdiction (filtered within the one history). */
  gpc?: boolean;
  jurisdiction?: string;
  /** Only events with a smaller id (older): the cursor of the previous page. */
  before?: string;
  limit: number;
}

/** One consent state by its parts. */
export interface StateRef {
  subject: string;
  issuer: string;
  target: string;
  scope: string;
}

/** The filter of an export: the account's events, oldest first, within id bounds. */
export interface ExportFilter {
  accountId: string;
  appId?: string;
  target?: string;
  subject?: string;
  /** Event id bounds: `after` exclusive (the cursor), `from` inclusive, `before` exclusive. */
  after?: string;
  from?: string;
  before?: string;
}

/**
 * The consent events: stored once and never changed (erasure aside), read back by id, token,
 * history and export. Each event is also its own outbox record (OutboxStore) and log-queue entry
 * (LogQueueStore).
 *
 * **Requests are stored whole or not at all, as readers see them.** `insert` writes the events of
 * several requests with one ordered insert, which stores a prefix of them whatever happens; every
 * event but the last of a request names that last one, so a request is stored once its last
 * event is. Until then (a request the insert cut in half, or one still being inserted) no read,
 * outbox claim or log-queue read returns its events, except `claim`, which shows them as
 * unsettled so that the relay can settle them (`fence`, then `withdraw`).
 */
export interface EventStore extends EventWrites, EventReads, EventExports {}

/** The write path's part of the events (WritePath). */
export interface EventWrites {
  /**
   * The write path's step 1: the requests' events in one ordered insert, due for the relay at
   * `pubAt` and waiting for their log leaf. Throws when the insert failed: `fence` then tells
   * which requests are stored.
   */
  insert(requests: ConsentEvent[][], pubAt: Date): Promise<void>;
  /**
   * For each id: `stored` when an event is stored under it; otherwise `fenced`: a tombstone holds
   * the id from now on, so no event can ever be stored under it (an insert still under way fails
   * there). The fence of a request's last event settles the request for good. Ids whose fate
   * could not be settled are absent; throws when none could be (the database did not answer).
   */
  fence(ids: string[]): Promise<Map<string, 'stored' | 'fenced'>>;
  /** Removes the events of fenced requests (never answered, never visible). */
  withdraw(ids: string[]): Promise<void>;
}

/** Reads of events (Reads). */
export interface EventReads {
  findById(accountId: string, id: string): Promise<ConsentEvent | undefined>;
  /** Events sharing a token, newest first. */
  findByToken(accountId: string, token: string, limit: number): Promise<ConsentEvent[]>;
  history(q: HistoryQuery): Promise<ConsentEvent[]>;
  /**
   * Point in time (decisions): the newest event of each state with an id below `before` (an id
   * floor: created before that millisecond), by state key (`stateKey`); states without one are
   * absent. One command for any number of states (served by the `search_scope` index).
   */
  newestBefore(accountId: string, states: StateRef[], before: string): Promise<Map<string, ConsentEvent>>;
}

/** Exports of events (Exports). */
export interface EventExports {
  /** One page of an export, oldest first. */
  exportPage(q: ExportFilter & { limit: number }): Promise<ConsentEvent[]>;
  /** How many events an export's filter matches; undefined when the database gave up counting after `maxTimeMs`. */
  count(q: ExportFilter, maxTimeMs: number): Promise<number | undefined>;
  /** The id and action of an application's events with ids in [from, to), in id order, at most `limit`. */
  actions(accountId: string, appId: string, from: string, to: string, limit: number): AsyncIterable<{ id: string; action: boolean | null }>;
}

// --- current states -------------------------------------------------------------------------

/**
 * The current state of each (account, subject, issuer, target, scope), keyed by `stateKey`: a
 * copy of its newest event, so reads of current states never look at the history.
 */
export interface CurrentStateStore extends StateWrites, StateReads {}

/** The write path's part of the current states (WritePath). */
export interface StateWrites {
  /**
   * The write path's step 2: each state the events touch holds its newest event; a newer one
   * already held stays, whatever the order in which writers arrive (one atomic `$max` per
   * state). Idempotent: applying the same events again changes nothing.
   */
  apply(events: ConsentEvent[]): Promise<void>;
}

/** Reads of current states (Reads). */
export interface StateReads {
  /** The current event of each of these states (state keys) of the account; unknown keys are absent. One lookup by key. */
  byKeys(accountId: string, keys: string[]): Promise<Map<string, ConsentEvent>>;
  /**
   * byKeys for decisions: of each current event only what a decision reads (DecidedEvent), so
   * that a batch of 1,000 reads and builds no more than it needs (the TC string only when
   * `tcString` is asked: TCF vendor decisions; the AC string only when `addtlConsent` is: Google
   * ATP decisions). One lookup by key.
   */
  forDecisions(accountId: string, keys: string[], opts?: DecisionStrings): Promise<Map<string, DecidedEvent>>;
  /** The current events of one subject and issuer on these targets (all targets when none is given), at most `limit`, in no order. */
  ofSubject(accountId: string, subject: string, issuer: string, targets: string[], limit: number): Promise<ConsentEvent[]>;
}

// --- statistics -----------------------------------------------------------------------------

export interface StatisticsStore extends Counting, StatisticsReads {}

/** The write path's part of the statistics (WritePath). */
export interface Counting {
  /**
   * The write path's step 3: the event counters of a batch (per application by action, per
   * application and target, a marker per application and subject), one write of increments.
   */
  count(events: ConsentEvent[]): Promise<void>;
}

/** Reads of the statistics (Reads). */
export interface StatisticsReads {
  /** What an application's statistics are made of (the arithmetic is domain/statistics.ts). */
  read(accountId: string, appId: string, now: Date): Promise<StatisticsCounts>;
  /** Events counted for an account, of one application and of one target when given (a sum of counters, no scan). */
  eventTotal(q: { accountId: string; appId?: string; target?: string }): Promise<number>;
}

// --- publication (outbox) ---------------------------------------------------------------------

/**
 * A claimed event. `unsettledUntil` names the last event of its request when that one is not
 * stored (a request cut in half by a failed insert, or one still being inserted): not to be
 * published before the request is settled (EventStore.fence).
 */
export type ClaimedEvent = ConsentEvent & { unsettledUntil?: string };

export interface OutboxStore {
  /**
   * Claims every event due at `now` (its writer did not publish it in time): one update that
   * moves their due time to `until` and tags them with `claim` (atomic per event, so of several
   * relays exactly one claims an event until then), then the first `limit` of the claim. An idle
   * round is the one update, matching nothing.
   */
  claimDue(claim: string, now: Date, until: Date, limit: number): Promise<ClaimedEvent[]>;
  /** Events of a claim not yet published, oldest first. */
  claimed(claim: string, limit: number): Promise<ClaimedEvent[]>;
  /** Published: the events leave the outbox. One write for any number. */
  markPublished(ids: string[]): Promise<void>;
  /** Not published: due again at `at`. */
  defer(ids: string[], at: Date): Promise<void>;
  /** Events not yet published, and when the oldest was stored (metrics). */
  pending(): Promise<{ count: number; oldestStoredAt: Date | null }>;
}

// --- expiry queue ---------------------------------------------------------------------------

/** A state (its key) and its current event. */
export interface StateEvent {
  key: string;
  event: ConsentEvent;
}

/** The expiry queue, kept on the current states (each due when its event lapses). */
export interface ExpiryStore {
  /**
   * Claims the states whose current event lapsed by `now` and is not yet announced: one update
   * that makes them due again at `until` and tags them with `claim` (atomic per state), then the
   * first `limit` of the claim. A state renewed meanwhile is not among them.
   */
  claimLapsed(claim: string, now: Date, until: Date, limit: number): Promise<StateEvent[]>;
  /** States of a claim not yet announced. */
  lapsedOfClaim(claim: string, limit: number): Promise<StateEvent[]>;
  /** Announced: the states leave the queue for good, each only while the same event is current. */
  markAnnounced(states: Array<{ key: string; eventId: string }>): Promise<void>;
}

// --- renewal fan-out jobs -------------------------------------------------------------------

/** The resumable `consent.renewal_required` fan-out of one (specification, material version). */
export interface RenewalJob {
  /** `<specId>:<version>` */
  id: string;
  accountId: string;
  specId: string;
  version: number;
  targets: string[];
  createdAt: Date;
  /** Held by `owner` until then. */
  leaseUntil: Date;
  owner?: string;
  /** The last state announced. */
  lastKey?: string;
  announced: number;
  done: boolean;
}

export interface RenewalStore {
  /** The job of one (specification, version), created on first sight (racing replicas make one), as stored. */
  job(job: Pick<RenewalJob, 'accountId' | 'specId' | 'version' | 'targets'>, now: Date): Promise<RenewalJob>;
  /** Takes the job until `until` when it is not done and its lease ran out by `now`; null otherwise. One atomic update. */
  claim(id: string, owner: string, now: Date, until: Date): Promise<RenewalJob | null>;
  /** Records progress and holds the job until `until`, only while `owner` holds it; false when another took it over. */
  advance(id: string, owner: string, lastKey: string, count: number, until: Date): Promise<boolean>;
  /** The fan-out is complete (only while `owner` holds the job). */
  finish(id: string, owner: string): Promise<boolean>;
  /**
   * Current states of these targets consented to a version older than `version`, after state key
   * `afterKey`, by key, erased ones left out; `lastKey` is the last key read, `full` whether the
   * page was full.
   */
  page(
    accountId: string,
    targets: string[],
    version: number,
    afterKey: string | undefined,
    limit: number,
  ): Promise<{ states: StateEvent[]; lastKey: string | undefined; full: boolean }>;
}

// --- the consent log ------------------------------------------------------------------------

/** An event waiting for its leaf; `leafHash` when an erasure fixed it before redacting the event. */
export type LogPendingEvent = ConsentEvent & { leafHash?: Buffer };

/** The log's queue: events waiting for their leaf are marked on their own documents by `EventStore.insert`. */
export interface LogQueueStore {
  /** Every account with events waiting for their leaf. One command. */
  accounts(): Promise<string[]>;
  /**
   * An account's events waiting for their leaf, by id, after `after`, reading at most `limit`;
   * events of requests not (yet) stored whole are skipped. `last` is the last id read (the next
   * call continues after it), `full` whether `limit` were read.
   */
  pending(accountId: string, limit: number, after?: string): Promise<{ events: LogPendingEvent[]; last?: string; full: boolean }>;
  /**
   * Sequenced: the events leave the queue. `published`, a part of `ids`, were acknowledged by
   * JetStream too: they are marked published in the same write (OutboxStore.markPublished), so the
   * log's pass saves the relay its own update of the same documents. One write for any number.
   */
  markLogged(ids: string[], published?: string[]): Promise<void>;
  /** Whether the account's event is stored and waiting for its leaf. */
  isPending(accountId: string, id: string): Promise<boolean>;
}

/** One leaf of an account's log (the position is unique: the fence between sequencers). */
export interface LogLeaf {
  accountId: string;
  leafIndex: number;
  eventId: string;
  /** SHA-256(0x00 ‖ JCS(event)), 32 bytes. */
  leafHash: Buffer;
  at: Date;
}

/** A signed tree head as stored. */
export interface TreeHeadRecord {
  accountId: string;
  treeSize: number;
  /** Standard padded base64. */
  rootHash: string;
  timestamp: Date;
  /** Compact JWS over {treeSize, rootHash, timestamp, account}. */
  signature: string;
  kid: string;
}

/**
 * The log's storage (docs/consent-log.md): leaves, the hash of every complete subtree, signed
 * heads, and the per-account sequencing lease. Appending and proving are app/log-tree.ts.
 */
export interface LogTreeStore {
  /** Takes or renews the account's sequencing lease until `until`: free (ran out by `now`) or already `owner`'s. */
  takeLease(accountId: string, owner: string, now: Date, until: Date): Promise<boolean>;
  releaseLease(accountId: string, owner: string): Promise<void>;
  latestHead(accountId: string): Promise<TreeHeadRecord | undefined>;
  head(accountId: string, treeSize: number): Promise<TreeHeadRecord | undefined>;
  /** The leaf of an event in the account's log. */
  leaf(accountId: string, eventId: string): Promise<LogLeaf | undefined>;
  /** The leaves at positions `from`, `from` + 1, … up to the first free one (lookups by position). */
  leavesFrom(accountId: string, from: number): Promise<LogLeaf[]>;
  /** Which of these events have a leaf. */
  withLeaves(eventIds: string[]): Promise<Set<string>>;
  /** Inserts leaves in order; false when a position or an event was taken first (the leaves before it are in). */
  insertLeaves(leaves: LogLeaf[]): Promise<boolean>;
  /** Stores complete-subtree hashes (idempotent: the same subtree always has the same hash). */
  insertSubtrees(accountId: string, subtrees: Array<Subtree & { hash: Buffer }>): Promise<void>;
  /** The stored hashes of these subtrees (one lookup), by `level/index`; missing ones are absent. */
  subtrees(accountId: string, subtrees: Subtree[]): Promise<Map<string, Buffer>>;
  /** Stores a head; false when a head of that size exists. */
  insertHead(head: TreeHeadRecord): Promise<boolean>;
}

// --- erasure --------------------------------------------------------------------------------

/** One erasure, recorded without the subject in clear (docs/consent.md, Erasure). */
export interface ErasureRecord {
  /** Time-ordered, like event ids. */
  id: string;
  accountId: string;
  /** What the subject became in the events: its keyed hash. */
  subjectHash: string;
  issuer?: string;
  appId: string;
  clientId: string;
  erasedAt: Date;
  events: number;
  states: number;
}

/** An event's personal fields rewritten, while its subject is still the one read. */
export interface EventRewrite {
  id: string;
  /** The subject as read (the rewrite is conditional on it). */
  subject: string;
  /** `importKey`: an imported event's key, replaced by its keyed hash (domain/erasure.ts erasedImportKey). */
  set: { subject: string; source?: string; delegate?: string; erasedAt: Date; leafHash?: Buffer; importKey?: string };
}

/** A current state moving to a new key (its subject erased). */
export interface StateMove {
  /** The key it leaves, removed only while it still holds the event `eventId`. */
  from: string;
  eventId: string;
  /** Its new key, given the event (a newer one held there stays). */
  to: string;
  event: ConsentEvent;
  /** Its place in the expiry queue, kept (see `statesOf`). */
  expiryDue?: Date;
}

/** What subject erasure reads and rewrites (the steps are app/erasure.ts). */
export interface ErasureStore {
  /** Up to `limit` events of the subject (of `issuer` when given) still in clear; `logPending` when waiting for their leaf; `importKey` when imported. */
  inClear(
    accountId: string,
    subject: string,
    issuer: string | undefined,
    limit: number,
  ): Promise<Array<ConsentEvent & { logPending: boolean; importKey?: string }>>;
  /** Rewrites events, each only while its subject is still the one read; resolves with how many changed. One write. */
  rewrite(rewrites: EventRewrite[]): Promise<number>;
  /**
   * Current states of the subject (of `issuer`), except those keyed in `skip`, at most `limit`;
   * `event` absent when unreadable; `expiryDue` when the expiry sweeper is next due to look at the
   * state (it moves past any time once the lapse is announced).
   */
  statesOf(
    accountId: string,
    subject: string,
    issuer: string | undefined,
    skip: string[],
    limit: number,
  ): Promise<Array<{ key: string; event?: ConsentEvent; expiryDue?: Date }>>;
  /** Which of these events are erased. */
  erased(ids: string[]): Promise<Set<string>>;
  /** Moves current states to new keys. One write. */
  moveStates(moves: StateMove[]): Promise<void>;
  /** Whether the application still has an event of the subject in clear. */
  hasInClear(accountId: string, appId: string, subject: string): Promise<boolean>;
  /** The distinct-subject markers of these applications move from the subject to its pseudonym. One write. */
  moveSubjectMarkers(accountId: string, subject: string, pseudonym: string, appIds: string[]): Promise<void>;
  record(rec: ErasureRecord): Promise<void>;
  /** The account's records, newest first, with ids below `before`. */
  list(accountId: string, limit: number, before?: string): Promise<ErasureRecord[]>;
}

// --- other ports ------------------------------------------------------------------------------

/** Where stored events go once their current states are applied: the outbox relay publishes them (events/outbox-relay.ts). */
export interface EventPublisher {
  publishStored(events: ConsentEvent[]): void;
}

/** A material change of a specification whose fan-out is not acknowledged yet (dataprocessing's ListPendingRenewals). */
export interface PendingRenewal {
  accountId: string;
  specId: string;
  version: number;
  /** The specification's target URL. */
  target: string;
}

/** Where material changes are signalled: the data processing service (gRPC). */
export interface RenewalSignals {
  pending(limit: number): Promise<PendingRenewal[]>;
  ack(specId: string, version: number): Promise<void>;
}

/** A specification (current, or as of `version`); undefined when unknown in the account. */
export type SpecLookup = (accountId: string, specId: string, version?: number) => Promise<SpecDetails | undefined>;

export interface SpecSource {
  /** For receipts. Graceful: any failure gives `undefined` (the receipt is built from the event alone). */
  lookup: SpecLookup;
  /**
   * For new consents: the current specification, remembered for `cacheMs` (a burst of consents to
   * one specification costs one call). Throws UnavailableError when the service cannot answer.
   */
  current(accountId: string, specId: string, fresh?: boolean): Promise<SpecDetails | undefined>;
  /**
   * For decisions in the past: the specification as it was at `at` (the version current then);
   * undefined when it did not exist yet. Throws UnavailableError when the service cannot answer.
   */
  asOf(accountId: string, specId: string, at: Date): Promise<SpecDetails | undefined>;
  close(): void;
}

/**
 * What the write path and receipts need from the consent log (docs/consent-log.md). The write
 * itself only marks its events as waiting for a leaf (EventStore.insert); the sequencer runs
 * behind it.
 */
export interface ConsentLogPort {
  /** After a batch is answered: sequence soon (never awaited). */
  nudge(): void;
  /** The event's position and the latest head, once sequenced. */
  anchor(accountId: string, eventId: string): Promise<LogAnchor | undefined>;
}

// --- imports ---------------------------------------------------------------------------------

/** What one batch of an import adds to its job: counts, and errors (already capped by the caller). */
export interface ImportProgress {
  read: number;
  stored: number;
  duplicates: number;
  refused: number;
  errors: ImportError[];
}

/**
 * Imports (docs/consent.md, Import): the jobs, stored so that any replica of the consent service
 * (and of the gateway) answers their progress, and the imported events, stored once per key.
 */
export interface ImportStore {
  create(job: ImportJob): Promise<void>;
  get(accountId: string, id: string): Promise<ImportJob | undefined>;
  /** Adds a batch's counts and errors to a running job (one atomic update); the job as it is then, undefined when no running job has this id. */
  progress(accountId: string, id: string, add: ImportProgress, at: Date): Promise<ImportJob | undefined>;
  /** Sets the CSV columns of a running job (its header row). */
  setColumns(accountId: string, id: string, columns: string[]): Promise<void>;
  /** Ends a running job (`done` or `failed`); the job as it is then. */
  finish(accountId: string, id: string, state: 'done' | 'failed', failure: string | undefined, at: Date): Promise<ImportJob | undefined>;
  /**
   * Stores imported events (one unordered insert), each waiting for its log leaf and never
   * published on the bus; an event whose `importKey` is stored already is not stored again. The
   * events stored now, and the stored events of the keys that were there already (their
   * current state is applied again: a batch cut short after its insert is finished by its resumption).
   * `erasedKeys` (one per event, when given): the key each event's stored copy has if its subject
   * was erased since (erasedImportKey); such an event is a duplicate too, never stored again in clear.
   */
  insertEvents(events: ImportedEvent[], erasedKeys?: string[]): Promise<{ stored: ImportedEvent[]; duplicates: ConsentEvent[] }>;
}

// --- linked identities ------------------------------------------------------------------------

/** What a list of links matches: one identity's links, or the links naming one subject (of one issuer). */
export interface LinkQuery {
  accountId: string;
  issuer: string;
  identity?: string;
  subject?: string;
  /** Only links with a smaller id (older): the cursor, or a time bound (`idFloor`). */
  before?: string;
  limit: number;
}

/**
 * Link events (domain/link.ts): stored once and never changed (erasure aside). Which link is
 * current, and what a subject resolves to, is the domain's (`currentLinks`, `rootOf`).
 */
export interface LinkStore {
  /**
   * Stores one link event, due for the relay at `pubAt` (its own outbox record, like a consent
   * event's) until marked published, and waiting for its log leaf, whose hash (`leafHash`, of the
   * link as answered) it keeps until sequenced.
   */
  insert(link: LinkEvent, pubAt: Date, leafHash: Buffer): Promise<void>;
  /** Every account with links waiting for their leaf. One command. */
  logAccounts(): Promise<string[]>;
  /** An account's links waiting for their leaf, by id, after `after`, at most `limit`; `last` the last id read, `full` whether `limit` were read. */
  logPending(accountId: string, limit: number, after?: string): Promise<{ links: Array<{ id: string; leafHash: Buffer }>; last?: string; full: boolean }>;
  /** Sequenced: the links leave the log's queue. One write. */
  markLogged(ids: string[]): Promise<void>;
  /** Whether the account's link is stored and waiting for its leaf. */
  isLogPending(accountId: string, id: string): Promise<boolean>;
  /**
   * Claims the links due at `now` (their writer did not publish them in time): one update that
   * makes them due again at `until` and tags them with `claim` (atomic per link, so of several
   * relays one claims a link until then), then the first `limit` of the claim.
   */
  claimDue(claim: string, now: Date, until: Date, limit: number): Promise<LinkEvent[]>;
  /** Published: the links leave the outbox. One write. */
  markPublished(ids: string[]): Promise<void>;
  /** Whether the account has any link event (one indexed probe). */
  any(accountId: string): Promise<boolean>;
  /** Links of the account and issuer whose identity or subject is one of `names`, ids below `before` when given, newest first, at most `limit`. One command. */
  naming(accountId: string, issuer: string, names: string[], before: string | undefined, limit: number): Promise<LinkEvent[]>;
  /** Links of the account whose identity is one of `identities` (any issuer when none is given), ids below `before`, newest first, at most `limit`. One command. */
  ofIdentities(accountId: string, issuer: string | undefined, identities: string[], before: string | undefined, limit: number): Promise<LinkEvent[]>;
  /** One identity's links (`identity`) or the links naming a subject (`subject`), newest first. */
  list(q: LinkQuery): Promise<LinkEvent[]>;
  /** Links naming `name` (as identity or subject), of `issuer` or any, newest first, at most `limit` (erasure, a subject's export); `importKey` when imported. */
  inClear(accountId: string, name: string, issuer: string | undefined, limit: number): Promise<Array<LinkEvent & { importKey?: string }>>;
  /**
   * Rewrites links' names (erasure), each only while its identity is still the one read, and an
   * imported link's `importKey` by its keyed hash (domain/erasure.ts erasedImportKey); resolves
   * with how many changed. One write.
   */
  rewrite(
    rewrites: Array<{ id: string; identity: string; set: { identity: string; subject: string | null; erasedAt: Date; importKey?: string } }>,
  ): Promise<number>;
  /**
   * One page of the account's link events for the NDJSON export (`links=true`), oldest first (by
   * id), within the export's id bounds; `appId` the linking application, `subject` a name the link
   * names as identity or subject. One command (index `account_links`, or the two name indexes).
   */
  exportPage(q: Omit<ExportFilter, 'target'> & { limit: number }): Promise<LinkEvent[]>;
  /**
   * Stores an imported link (docs/consent.md, Import) waiting for its log leaf (`leafHash`) and
   * never published (history is not announced): false when a link with its `importKey` is stored
   * already (the unique sparse index `link_import_key`).
   */
  insertImported(link: ImportedLink, leafHash: Buffer): Promise<boolean>;
  /** Which of these import keys are stored already (an import's duplicates, told before the link rules are checked). One command. */
  importedKeys(keys: string[]): Promise<Set<string>>;
}
