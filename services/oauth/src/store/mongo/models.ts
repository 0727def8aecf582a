import type { Connection } from 'mongoose';
import { collectionSchema, nullableFields, requiredFields } from '@accord/common';
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

const accountSchema = collectionSchema<AccountDoc>('accounts', {
  ...requiredFields({ name: String, apiKeyHash: String, apiKeyEnc: String, createdAt: Date }),
  ...nullableFields({ previousApiKeyHash: String, previousApiKeyExpiresAt: Date, apiKeyRotatedAt: Date }),
});
accountSchema.index({ name: 1 }, { unique: true });
accountSchema.index({ apiKeyHash: 1 }, { unique: true });
accountSchema.index({ previousApiKeyHash: 1 }, { sparse: true });

const applicationSchema = collectionSchema<ApplicationDoc>('applications', {
  ...requiredFields({ accountId: String, name: String, clientId: String, secretHash: String, scopes: [String], createdAt: Date }),
  allowedOrigins: { type: [String], default: undefined },
  ...nullableFields({ disabledAt: Date, previousSecretHash: String, previousSecretExpiresAt: Date, secretRotatedAt: Date }),
});
applicationSchema.index({ clientId: 1 }, { unique: true });
applicationSchema.index({ secretHash: 1 }, { unique: true });
applicationSchema.index({ accountId: 1, createdAt: 1 });
applicationSchema.index({ allowedOrigins: 1 });

// The index on expiresAt is created by ensureExpiry (TTL where the server has it).
const tokenFamilySchema = collectionSchema<TokenFamilyDoc>('token_families', {
  ...requiredFields({ clientId: String, applicationId: String, accountId: String, scopes: [String], gen: Number, createdAt: Date, expiresAt: Date }),
  ...nullableFields({ revokedAt: Date, revokedReason: String }),
});
tokenFamilySchema.index({ clientId: 1 });
tokenFamilySchema.index({ accountId: 1, clientId: 1, createdAt: -1 });

const memberSchema = collectionSchema<MemberDoc>('console_members', {
  ...requiredFields({ accountId: String, name: String, role: String }),
  ...nullableFields({ subject: String }),
  ...requiredFields({ createdAt: Date }),
});
memberSchema.index({ accountId: 1, name: 1 }, { unique: true });
memberSchema.index({ subject: 1 }, { sparse: true });

const linkSchema = collectionSchema<ConsoleLinkDoc>('console_links', {
  ...requiredFields({ accountId: String, memberId: String, createdAt: Date, expiresAt: Date }),
  ...nullableFields({ usedAt: Date }),
});

const sessionSchema = collectionSchema<ConsoleSessionDoc>('console_sessions', {
  ...requiredFields({ sessionId: String, accountId: String, memberId: String, csrfToken: String, createdAt: Date, expiresAt: Date }),
  ...requiredFields({ idleTimeoutMs: Number, lastSeenAt: Date }),
  ...nullableFields({ revokedAt: Date }),
  userAgent: { type: String, default: '' },
});
sessionSchema.index({ accountId: 1, memberId: 1 });

const limitsSchema = collectionSchema<AccountLimitsDoc>('account_limits', {
  ...Object.fromEntries(LIMIT_FIELDS.map((f) => [f, { type: Number }])),
  ...requiredFields({ updatedAt: Date }),
});

const usageSchema = collectionSchema<DailyUsageDoc>('account_daily_usage', requiredFields({ events: Number, expiresAt: Date }));

/** Defines the oauth service's models on its own connection (never the global mongoose). */
export function defineModels(conn: Connection) {
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

export type OAuthModels = ReturnType<typeof defineModels>;
