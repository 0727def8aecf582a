import { Schema, type Connection, type Model } from 'mongoose';
import { LIMIT_FIELDS, type AccountLimits } from '../../domain/limits';
import type { Account, Application, ConsoleLink, ConsoleSession, Member, TokenFamily } from '../../app/ports';

/** A record of the port as a document: its id (or hash) is the `_id`. */
type Doc<T, K extends keyof T> = Omit<T, K> & { _id: string };

export type AccountDoc = Doc<Account, 'id'>;
/** `allowedOrigins` is absent on applications that never had any. */
export type ApplicationDoc = Doc<Application, 'id' | 'allowedOrigins'> & { allowedOrigins?: string[] };
export type TokenFamilyDoc = Doc<TokenFamily, 'id'>;
export type MemberDoc = Doc<Member, 'id'>;
export type ConsoleLinkDoc = Doc<ConsoleLink, 'hash'>;
export type ConsoleSessionDoc = Doc<ConsoleSession, 'hash'>;
/** An account's overrides of the gateway's default limits (`_id`: the account id). */
export type AccountLimitsDoc = AccountLimits & { _id: string; updatedAt: Date };
/** Events admitted for one account on one UTC day (`_id`: domain/limits.ts `dayOf`). */
export interface DailyUsageDoc {
  _id: string;
  events: number;
  expiresAt: Date;
}

const accountSchema = new Schema<AccountDoc>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    apiKeyHash: { type: String, required: true },
    apiKeyEnc: { type: String, required: true },
    createdAt: { type: Date, required: true },
    previousApiKeyHash: { type: String, default: null },
    previousApiKeyExpiresAt: { type: Date, default: null },
    apiKeyRotatedAt: { type: Date, default: null },
  },
  { collection: 'accounts', versionKey: false },
);
accountSchema.index({ name: 1 }, { unique: true });
accountSchema.index({ apiKeyHash: 1 }, { unique: true });
accountSchema.index({ previousApiKeyHash: 1 }, { sparse: true });

const applicationSchema = new Schema<ApplicationDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    name: { type: String, required: true },
    clientId: { type: String, required: true },
    secretHash: { type: String, required: true },
    scopes: { type: [String], required: true },
    createdAt: { type: Date, required: true },
    allowedOrigins: { type: [String], default: undefined },
    disabledAt: { type: Date, default: null },
    previousSecretHash: { type: String, default: null },
    previousSecretExpiresAt: { type: Date, default: null },
    secretRotatedAt: { type: Date, default: null },
  },
  { collection: 'applications', versionKey: false },
);
applicationSchema.index({ clientId: 1 }, { unique: true });
applicationSchema.index({ secretHash: 1 }, { unique: true });
applicationSchema.index({ accountId: 1, createdAt: 1 });
applicationSchema.index({ allowedOrigins: 1 });

// The index on expiresAt is created by ensureExpiry (TTL where the server has it).
const tokenFamilySchema = new Schema<TokenFamilyDoc>(
  {
    _id: { type: String, required: true },
    clientId: { type: String, required: true },
    applicationId: { type: String, required: true },
    accountId: { type: String, required: true },
    scopes: { type: [String], required: true },
    gen: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    revokedReason: { type: String, default: null },
  },
  { collection: 'token_families', versionKey: false },
);
tokenFamilySchema.index({ clientId: 1 });
tokenFamilySchema.index({ accountId: 1, clientId: 1, createdAt: -1 });

const memberSchema = new Schema<MemberDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    name: { type: String, required: true },
    role: { type: String, required: true },
    subject: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { collection: 'console_members', versionKey: false },
);
memberSchema.index({ accountId: 1, name: 1 }, { unique: true });
memberSchema.index({ subject: 1 }, { sparse: true });

const linkSchema = new Schema<ConsoleLinkDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    memberId: { type: String, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    usedAt: { type: Date, default: null },
  },
  { collection: 'console_links', versionKey: false },
);

const sessionSchema = new Schema<ConsoleSessionDoc>(
  {
    _id: { type: String, required: true },
    sessionId: { type: String, required: true },
    accountId: { type: String, required: true },
    memberId: { type: String, required: true },
    csrfToken: { type: String, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    idleTimeoutMs: { type: Number, required: true },
    lastSeenAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    userAgent: { type: String, default: '' },
  },
  { collection: 'console_sessions', versionKey: false },
);
sessionSchema.index({ accountId: 1, memberId: 1 });

const limitsSchema = new Schema<AccountLimitsDoc>(
  {
    _id: { type: String, required: true },
    ...Object.fromEntries(LIMIT_FIELDS.map((f) => [f, { type: Number }])),
    updatedAt: { type: Date, required: true },
  },
  { collection: 'account_limits', versionKey: false },
);

const usageSchema = new Schema<DailyUsageDoc>(
  { _id: { type: String, required: true }, events: { type: Number, required: true }, expiresAt: { type: Date, required: true } },
  { collection: 'account_daily_usage', versionKey: false },
);

export interface OAuthModels {
  accounts: Model<AccountDoc>;
  applications: Model<ApplicationDoc>;
  tokenFamilies: Model<TokenFamilyDoc>;
  members: Model<MemberDoc>;
  links: Model<ConsoleLinkDoc>;
  sessions: Model<ConsoleSessionDoc>;
  limits: Model<AccountLimitsDoc>;
  usage: Model<DailyUsageDoc>;
}

/** Defines the oauth service's models on its own connection (never the global mongoose). */
export function defineModels(conn: Connection): OAuthModels {
  return {
    accounts: conn.model<AccountDoc>('Account', accountSchema),
    applications: conn.model<ApplicationDoc>('Application', applicationSchema),
    tokenFamilies: conn.model<TokenFamilyDoc>('TokenFamily', tokenFamilySchema),
    members: conn.model<MemberDoc>('ConsoleMember', memberSchema),
    links: conn.model<ConsoleLinkDoc>('ConsoleLink', linkSchema),
    sessions: conn.model<ConsoleSessionDoc>('ConsoleSession', sessionSchema),
    limits: conn.model<AccountLimitsDoc>('AccountLimits', limitsSchema),
    usage: conn.model<DailyUsageDoc>('AccountDailyUsage', usageSchema),
  };
}
