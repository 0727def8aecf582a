import { Schema, type Connection, type Model } from 'mongoose';

export interface AccountDoc {
  _id: string;
  name: string;
  /** HMAC-SHA256 of the API key (lookup key). */
  apiKeyHash: string;
  /** The API key, AES-256-GCM encrypted (bound to the account id) so the admin can read it back. */
  apiKeyEnc: string;
  createdAt: Date;
  /** Rotation with a grace period: the previous key's hash, accepted until previousApiKeyExpiresAt. */
  previousApiKeyHash?: string | null;
  previousApiKeyExpiresAt?: Date | null;
  apiKeyRotatedAt?: Date | null;
}

export interface ApplicationDoc {
  _id: string;
  accountId: string;
  name: string;
  clientId: string;
  /** HMAC-SHA256 of the client secret. */
  secretHash: string;
  scopes: string[];
  createdAt: Date;
  /** Canonical browser origins allowed to use this application's consent sessions (CORS). */
  allowedOrigins?: string[];
  /** A disabled application gets no tokens. */
  disabledAt?: Date | null;
  /** Rotation with a grace period: the previous secret's hash, accepted until previousSecretExpiresAt. */
  previousSecretHash?: string | null;
  previousSecretExpiresAt?: Date | null;
  secretRotatedAt?: Date | null;
}

/**
 * The chain of refresh tokens descended from one client_credentials grant, in one document.
 * A refresh token is `rt_<family id>.<generation>.<MAC>` (see domain/refresh-token.ts): nothing
 * per token is stored. The family keeps the generation of its one live token; a refresh moves
 * it on with one conditional update (`{_id, gen}` → `$inc gen`), atomic on MongoDB, so of two
 * concurrent refreshes exactly one wins, and a token of an older generation is a reuse.
 * Revoking the family (one document) invalidates its live token.
 */
export interface TokenFamilyDoc {
  _id: string;
  clientId: string;
  applicationId: string;
  accountId: string;
  /** The original grant: a refresh may narrow the access token's scope, never the family's. */
  scopes: string[];
  /** Generation of the live refresh token (0 for the one issued with client_credentials). */
  gen: number;
  createdAt: Date;
  /** The family's absolute end: refreshes do not extend it. */
  expiresAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
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

export interface OAuthModels {
  accounts: Model<AccountDoc>;
  applications: Model<ApplicationDoc>;
  tokenFamilies: Model<TokenFamilyDoc>;
}

/** Defines the oauth service's models on its own connection (never the global mongoose). */
export function defineModels(conn: Connection): OAuthModels {
  return {
    accounts: conn.model<AccountDoc>('Account', accountSchema),
    applications: conn.model<ApplicationDoc>('Application', applicationSchema),
    tokenFamilies: conn.model<TokenFamilyDoc>('TokenFamily', tokenFamilySchema),
  };
}
