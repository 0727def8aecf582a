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
 * created by the first event of the state and never removed, carrying the id, app and action
 * of the newest event as last applied (a conditional upsert: only a newer event id replaces
 * it). Its existence lists the states (scopes) of a subject/target; its action feeds the
 * statistics counters. Search with current=true reads the current event itself from
 * consent_events (exact on every backend).
 */
export interface CurrentDoc {
  _id: string;
  accountId: string;
  subject: string;
  issuer: string;
  target: string;
  scope: string;
  source?: string;
  eventId: string;
  appId: string;
  action: boolean | null;
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
      eventId: String,
      appId: String,
      action: { type: Boolean, default: null },
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

  const appStats = new Schema<AppStatsDoc>(
    { _id: String, accountId: String, appId: String, total: Number, accepted: Number, declined: Number, noAction: Number, distinctSubjects: Number },
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
    appStats: conn.model('ConsentAppStats', appStats),
    targetStats: conn.model('ConsentTargetStats', targetStats),
    subjects: conn.model('ConsentSubject', subjects),
  };
}
