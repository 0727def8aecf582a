import { Schema, type Connection, type Model, type mongo } from 'mongoose';
import { nullableFields, requiredFields } from '@accord/common';
import type { ConsentEvent } from '../../domain/consent';
import type { ErasureRecord, RenewalJob } from '../../app/ports';

/**
 * consent_events: the immutable events. _id is the event id (time-ordered hex). The event's
 * fields never change once inserted. The document is also its own outbox record: `pub` (the
 * time from which the relay may publish it) is set at insert and removed once JetStream has
 * acknowledged the event; `claim` names the relay round that took it after a failure.
 */
export interface EventDoc extends Omit<ConsentEvent, 'id' | 'expired' | 'renewalRequired' | 'erasedAt'> {
  _id: string;
  pub?: Date;
  claim?: string;
  /**
   * On every event of a request but its last: the last one's id. The events of a request go into
   * one ordered insert, which stores a prefix of them whatever happens, so the request is stored
   * once its last event is; until then readers skip the event (see EventStore in app/ports.ts).
   * Removed when the event is published or sequenced (its request is known to be whole then).
   */
  part?: string;
  /** The account id while the event waits for its consent-log leaf (docs/consent-log.md); removed once sequenced. */
  logq?: string;
  /** When the event's subject was erased (subject, source, delegate are keyed hashes since; docs/consent.md, Erasure). */
  erasedAt?: Date;
  /**
   * Set by an erasure that found the event still waiting for its leaf (`logq`): the leaf hash of
   * the event as it was answered, before redaction (base64). The sequencer uses it instead of
   * hashing the redacted document, so the leaf is always the answered event's.
   */
  logh?: string;
  /** Only on a tombstone (TombstoneDoc). */
  gone?: Date;
  /** Imported events only (domain/import.ts): the account and the line's key (domain/import.ts `importKey`), unique (`import_key`), so a line is stored once. */
  importKey?: string;
}

/** consent_erasures: one record per erasure, never the subject in clear (docs/consent.md, Erasure). */
/**
 * A tombstone in consent_events: `_id` is the id of a request's last event that was never stored
 * (EventStore.fence), so none can be stored under it any more. No other field: no query but a
 * lookup by `_id` matches it.
 */
export interface TombstoneDoc {
  _id: string;
  gone: Date;
}

export interface ErasureDoc extends Omit<ErasureRecord, 'id'> {
  /** Time-ordered (12 hex digits of the millisecond, then random), like event ids. */
  _id: string;
}

/**
 * consent_current: one document per consent state (account, subject, issuer, target, scope),
 * _id = stateKey(...), created by the first event of the state and never removed. `cur` holds a
 * copy of the state's newest event, `id` first: a write replaces it with `$max: {cur}` by _id, which
 * MongoDB applies atomically and which keeps the larger document, i.e. the one with the larger
 * (time-ordered, fixed-width) event id. So only newer events replace it, whatever the order in
 * which racing writers arrive (CurrentStateStore.apply). Search with current=true and GetCurrentStates
 * read these documents only (one lookup with a scope, one query without).
 *
 * Documents of Accord 0.1 hold the event's fields flat (`eventId`, `appId`, ...; some lack
 * `token`/`createdAt`, then read from consent_events); readers take the newer of both forms.
 */
export interface CurrentDoc {
  _id: string;
  accountId: string;
  subject: string;
  issuer: string;
  target: string;
  scope: string;
  cur?: CurrentEvent;
  // Accord 0.1's flat form
  source?: string;
  delegate?: string;
  eventId?: string;
  appId?: string;
  action?: boolean | null;
  token?: string;
  createdAt?: Date;
}

/** The newest event of a state, as kept in its current document (`id` must stay the first field). */
export interface CurrentEvent {
  id: string;
  appId: string;
  action: boolean | null;
  token: string;
  createdAt: Date;
  source?: string;
  delegate?: string;
  targetVersion?: number;
  expiresAt?: Date;
  /** The event's signals (ConsentEvent), copied whole: current states answer the event as stored. */
  gpc?: boolean;
  tcString?: string;
  tcf?: ConsentEvent['tcf'];
  gppString?: string;
  gpp?: ConsentEvent['gpp'];
  jurisdiction?: string;
  addtlConsent?: string;
  /** Imported events: when the event was imported (`createdAt` is its original time). */
  importedAt?: Date;
  /**
   * The expiry queue (last field, only when `expiresAt` is set): when the expiry sweeper may
   * announce that this event lapsed (`consent.expired`). Written equal to `expiresAt`; a sweeper
   * that claims the state pushes it forward by its lease (`xc` names the claim), and once the
   * event is on NATS it becomes EXPIRY_ANNOUNCED. It only ever grows, so `$max: {cur}` with the
   * same event again (a late current-state update, the relay's re-apply) keeps the stored copy, and the
   * announcement is never re-queued (ExpirySweeper).
   */
  xq?: Date;
  /** The sweeper claim that holds the state's announcement (see `xq`). */
  xc?: string;
}

/** `cur.xq` once the state's `consent.expired` event is published: later than any time, so it never matches a sweep again. */
export const EXPIRY_ANNOUNCED = new Date(8.64e15);

/**
 * consent_stats: the statistics, kept by `$inc` on write (one bulkWrite per batch). Four kinds
 * of document, by `_id` prefix: `app:` (events per application by action, and its GPC-driven
 * declines), `target:` (events per application and target), `jurisdiction:` (events per
 * application and jurisdiction) and `subject:` (one marker per application and subject, counted
 * for distinct subjects).
 */
export interface StatsDoc {
  _id: string;
  kind: 'app' | 'target' | 'subject' | 'jurisdiction';
  accountId: string;
  appId: string;
  target?: string;
  jurisdiction?: string;
  gpcDeclines?: number;
  total?: number;
  accepted?: number;
  declined?: number;
  noAction?: number;
  events?: number;
  currentAccepted?: number;
  currentDeclined?: number;
  currentNoAction?: number;
}

/**
 * consent_renewal_jobs: one document per (specification, material version), the resumable
 * `consent.renewal_required` fan-out over the specification's current states (RenewalAnnouncer).
 * `_id` = `<specId>:<version>`; a replica works on it while `leaseUntil` is ahead (`owner`
 * names it) and records after each page the last state announced (`lastKey`), so a successor
 * continues there.
 */
export interface RenewalJobDoc extends Omit<RenewalJob, 'id'> {
  _id: string;
}

export interface Models {
  erasures: Model<ErasureDoc>;
  /** Events, and the tombstones of requests fenced off (TombstoneDoc). */
  events: Model<EventDoc>;
  current: Model<CurrentDoc>;
  stats: Model<StatsDoc>;
  renewalJobs: Model<RenewalJobDoc>;
}

/**
 * The driver's collection under a model, typed with the model's documents (mongoose types it as
 * holding ObjectId ids), for the calls that bypass mongoose because it costs measurably more CPU
 * there: the write path, the reads a request waits for, the relay's marks and every sequencing
 * pass and proof. Mongoose adds to each query its own work (about 0.1–0.2 ms of CPU: casting the
 * filter, hooks, capturing a stack trace), to each id of an `$in` and each operation of a bulkWrite
 * (cloned and cast: ~14 µs each), and to each document of an insertMany (an asynchronous step of
 * its own, even `lean`). Through mongoose, a GET of one event cost the consent process twice the
 * CPU of the driver's call, a current-state search 30% more, and a batch of 100 events some 20%
 * more (in-process A/B against the previous build, three alternating rounds, November 2026). The
 * filters, documents and operations are built here from typed records, so mongoose's casting and
 * validation would add nothing; everything else goes through the models.
 */
export function driverCollection<T extends { _id: string }>(model: Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}

const opts = { versionKey: false, _id: false } as const;

export function defineModels(conn: Connection): Models {
  const events = new Schema<EventDoc>(
    {
      ...requiredFields({ _id: String, accountId: String, appId: String, subject: String, issuer: String, target: String }),
      source: String,
      ...requiredFields({ scope: String }),
      delegate: String,
      ...nullableFields({ action: Boolean }),
      ...requiredFields({ token: String, createdAt: Date }),
      targetVersion: Number,
      expiresAt: Date,
      gpc: Boolean,
      tcString: String,
      tcf: Schema.Types.Mixed,
      gppString: String,
      gpp: Schema.Types.Mixed,
      jurisdiction: String,
      addtlConsent: String,
      pub: Date,
      claim: String,
      logq: String,
      erasedAt: Date,
      logh: String,
      part: String,
      gone: Date,
      importedAt: Date,
      importKey: String,
    },
    { ...opts, collection: 'consent_events' },
  );
  // search: equality on account/subject/issuer/target, newest first (source filtered in the scan of one history)
  events.index({ accountId: 1, subject: 1, issuer: 1, target: 1, _id: -1 }, { name: 'search' });
  // search with scope, and the newest event of one state (current=true)
  events.index({ accountId: 1, subject: 1, issuer: 1, target: 1, scope: 1, _id: -1 }, { name: 'search_scope' });
  // GET /consents/token/{token}
  events.index({ accountId: 1, token: 1, _id: -1 }, { name: 'token' });
  // statistics: latest event of an application; export filtered by application
  events.index({ accountId: 1, appId: 1, _id: -1 }, { name: 'app_latest' });
  // export: the account's events in id (= time) order
  events.index({ accountId: 1, _id: 1 }, { name: 'export' });
  // the relay: events not yet on NATS (sparse: published events leave the index)
  events.index({ pub: 1 }, { name: 'unpublished', sparse: true });
  events.index({ claim: 1 }, { name: 'claimed', sparse: true });
  // the consent log's sequencer: events waiting for their leaf, by account (sparse: sequenced events leave the index)
  events.index({ logq: 1 }, { name: 'log_pending', sparse: true });
  // imports (domain/import.ts): a line's key once per account, so re-posting or resuming an import stores nothing twice
  // (the key begins with the account: one sparse single-field index, which every MongoDB-wire server keeps)
  events.index({ importKey: 1 }, { name: 'import_key', unique: true, sparse: true });

  const current = new Schema<CurrentDoc>(
    {
      ...requiredFields({ _id: String }),
      accountId: String,
      subject: String,
      issuer: String,
      target: String,
      scope: String,
      source: String,
      delegate: String,
      cur: Schema.Types.Mixed,
      eventId: String,
      appId: String,
      action: Boolean,
      token: String,
      createdAt: Date,
    },
    { ...opts, collection: 'consent_current' },
  );
  current.index({ accountId: 1, subject: 1, issuer: 1, target: 1 }, { name: 'states' });
  // statistics: the current states an application holds, per target
  current.index({ accountId: 1, 'cur.appId': 1, target: 1 }, { name: 'app_states' });
  // the expiry sweeper: states whose current event lapsed and is not yet announced (sparse: only states with an expiry)
  current.index({ 'cur.xq': 1 }, { name: 'expiry_queue', sparse: true });
  // the renewal fan-out: the states of a specification's targets, paged by _id
  current.index({ accountId: 1, target: 1, _id: 1 }, { name: 'target_states' });

  const stats = new Schema<StatsDoc>(
    {
      _id: String,
      kind: String,
      accountId: String,
      appId: String,
      target: String,
      jurisdiction: String,
      gpcDeclines: Number,
      total: Number,
      accepted: Number,
      declined: Number,
      noAction: Number,
      events: Number,
      currentAccepted: Number,
      currentDeclined: Number,
      currentNoAction: Number,
    },
    { ...opts, collection: 'consent_stats' },
  );
  // statistics: the targets of an application with the most events; the count of its subject markers
  stats.index({ kind: 1, accountId: 1, appId: 1, events: -1 }, { name: 'by_app' });

  const erasures = new Schema<ErasureDoc>(
    {
      ...requiredFields({ _id: String, accountId: String, subjectHash: String }),
      issuer: String,
      appId: String,
      clientId: String,
      erasedAt: Date,
      events: Number,
      states: Number,
    },
    { ...opts, collection: 'consent_erasures' },
  );
  // GET /consent/v0/subjects/erasures: the account's records, newest first
  erasures.index({ accountId: 1, _id: -1 }, { name: 'account_erasures' });

  const renewalJobs = new Schema<RenewalJobDoc>(
    {
      ...requiredFields({ _id: String, accountId: String, specId: String, version: Number }),
      targets: [String],
      createdAt: Date,
      leaseUntil: Date,
      owner: String,
      lastKey: String,
      announced: Number,
      done: Boolean,
    },
    { ...opts, collection: 'consent_renewal_jobs' },
  );

  return {
    renewalJobs: conn.model('ConsentRenewalJob', renewalJobs),
    erasures: conn.model('ConsentErasure', erasures),
    events: conn.model('ConsentEvent', events),
    current: conn.model('ConsentCurrent', current),
    stats: conn.model('ConsentStats', stats),
  };
}
