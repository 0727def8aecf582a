import { Schema, type Connection, type Model } from 'mongoose';

/** consent_events: the immutable events. _id is the event id (time-ordered hex). */
export interface EventDoc {
  _id: string;
  accountId: string;
  appId: string;
  subject: string;
  issuer: string;
  target: string;
  source?: string;
  scope: string;
  delegate?: string;
  action: boolean | null;
  token: string;
  createdAt: Date;
}

/**
 * consent_current: one document per consent state (account, subject, issuer, target, scope),
 * _id = stateKey(...), created by the first event of the state and never removed. It holds a
 * copy of the state's newest event as last applied: only a newer event replaces it, through a
 * claimed move (ConsentRepository.applyCurrent), so it is exact under concurrent writers. Search
 * with current=true and GetCurrentStates read these documents only (one lookup with a scope, one
 * query without); the statistics counters follow its changes.
 *
 * Documents written before the copy was kept lack `token`/`createdAt`; their event is then read
 * from consent_events by `eventId`.
 */
export interface CurrentDoc {
  _id: string;
  accountId: string;
  subject: string;
  issuer: string;
  target: string;
  scope: string;
  source?: string;
  delegate?: string;
  eventId: string;
  appId: string;
  action: boolean | null;
  token?: string;
  createdAt?: Date;
}

/**
 * consent_outbox: one record per stored event until it is on NATS. Written BEFORE the event
 * (a record whose event does not exist after its lease is an abandoned write and is dropped).
 * `leaseUntil` is the claim: a relay owns a record until then.
 */
export interface OutboxDoc {
  _id: string;
  accountId: string;
  appId: string;
  createdAt: Date;
  leaseUntil: Date;
  owner: string;
  attempts: number;
  /** Current state and counters were applied by the writer (a claimer re-applies the state otherwise). */
  projected: boolean;
}

/** A won claim on an outbox record (see ConsentRepository.claimDue). */
export interface ClaimDoc {
  _id: string;
  recordId: string;
  owner: string;
  at: Date;
}

/**
 * consent_moves: `<collection>:<id>@<version>`, inserted by the one writer that moves a current
 * state or a counter document on from that version (see store/versioned.ts). Swept after an hour.
 */
export interface MoveDoc {
  _id: string;
  at: Date;
}

/** Statistics counters maintained on write. */
export interface AppStatsDoc {
  _id: string;
  accountId: string;
  appId: string;
  total: number;
  accepted: number;
  declined: number;
  noAction: number;
  distinctSubjects: number;
  /** Changes applied so far (the version a change starts from, see store/versioned.ts). */
  v?: number;
}
export interface TargetStatsDoc {
  _id: string;
  accountId: string;
  appId: string;
  target: string;
  events: number;
  currentAccepted: number;
  currentDeclined: number;
  currentNoAction: number;
  v?: number;
}
/** One marker per (account, app, subject), to count distinct subjects. */
export interface SubjectDoc {
  _id: string;
}

export interface Models {
  events: Model<EventDoc>;
  current: Model<CurrentDoc>;
  outbox: Model<OutboxDoc>;
  claims: Model<ClaimDoc>;
  moves: Model<MoveDoc>;
  appStats: Model<AppStatsDoc>;
  targetStats: Model<TargetStatsDoc>;
  subjects: Model<SubjectDoc>;
}

const opts = { versionKey: false, _id: false } as const;

export function defineModels(conn: Connection): Models {
  const events = new Schema<EventDoc>(
    {
      _id: { type: String, required: true },
      accountId: { type: String, required: true },
      appId: { type: String, required: true },
      subject: { type: String, required: true },
      issuer: { type: String, required: true },
      target: { type: String, required: true },
      source: String,
      scope: { type: String, required: true },
      delegate: String,
      action: { type: Boolean, default: null },
      token: { type: String, required: true },
      createdAt: { type: Date, required: true },
    },
    { ...opts, collection: 'consent_events' },
  );
  // search: equality on account/subject/issuer/target, newest first (source filtered in the scan of one history)
  events.index({ accountId: 1, subject: 1, issuer: 1, target: 1, _id: -1 }, { name: 'search' });
  // search with scope, and the newest event of one state (current=true)
  events.index({ accountId: 1, subject: 1, issuer: 1, target: 1, scope: 1, _id: -1 }, { name: 'search_scope' });
  // GET /consents/token/{token}
  events.index({ accountId: 1, token: 1, _id: -1 }, { name: 'token' });
  // statistics: latest event of an application
  events.index({ accountId: 1, appId: 1, _id: -1 }, { name: 'app_latest' });

  const current = new Schema<CurrentDoc>(
    {
      _id: { type: String, required: true },
      accountId: String,
      subject: String,
      issuer: String,
      target: String,
      scope: String,
      source: String,
      delegate: String,
      eventId: String,
      appId: String,
      action: { type: Boolean, default: null },
      token: String,
      createdAt: Date,
    },
    { ...opts, collection: 'consent_current' },
  );
  current.index({ accountId: 1, subject: 1, issuer: 1, target: 1 }, { name: 'states' });

  const outbox = new Schema<OutboxDoc>(
    {
      _id: { type: String, required: true },
      accountId: String,
      appId: String,
      createdAt: Date,
      leaseUntil: Date,
      owner: String,
      attempts: { type: Number, default: 0 },
      projected: { type: Boolean, default: false },
    },
    { ...opts, collection: 'consent_outbox' },
  );
  outbox.index({ leaseUntil: 1, _id: 1 }, { name: 'due' });

  const claims = new Schema<ClaimDoc>({ _id: String, recordId: String, owner: String, at: Date }, { ...opts, collection: 'consent_outbox_claims' });
  claims.index({ recordId: 1 }, { name: 'record' });

  const moves = new Schema<MoveDoc>({ _id: String, at: Date }, { ...opts, collection: 'consent_moves' });
  moves.index({ at: 1 }, { name: 'sweep' });

  const appStats = new Schema<AppStatsDoc>(
    { _id: String, accountId: String, appId: String, total: Number, accepted: Number, declined: Number, noAction: Number, distinctSubjects: Number, v: Number },
    { ...opts, collection: 'consent_app_stats' },
  );
  const targetStats = new Schema<TargetStatsDoc>(
    {
      _id: String,
      accountId: String,
      appId: String,
      target: String,
      events: Number,
      currentAccepted: Number,
      currentDeclined: Number,
      currentNoAction: Number,
      v: Number,
    },
    { ...opts, collection: 'consent_target_stats' },
  );
  targetStats.index({ accountId: 1, appId: 1, events: -1 }, { name: 'by_app' });
  const subjects = new Schema<SubjectDoc>({ _id: String }, { ...opts, collection: 'consent_subjects' });

  return {
    events: conn.model('ConsentEvent', events),
    current: conn.model('ConsentCurrent', current),
    outbox: conn.model('ConsentOutbox', outbox),
    claims: conn.model('ConsentOutboxClaim', claims),
    moves: conn.model('ConsentMove', moves),
    appStats: conn.model('ConsentAppStats', appStats),
    targetStats: conn.model('ConsentTargetStats', targetStats),
    subjects: conn.model('ConsentSubject', subjects),
  };
}
