import { Schema, type Connection, type Model } from 'mongoose';

export interface AccountDoc {
  _id: string;
  name: string;
  /** HMAC-SHA256 of the API key (lookup key). */
  apiKeyHash: string;
  /** The API key, AES-256-GCM encrypted (bound to the account id) so the admin can read it back. */
  apiKeyEnc: string;
  createdAt: Date;
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
}

/**
 * An opaque refresh token, stored under its keyed hash (_id, so lookups go by primary key on
 * MongoDB and FerretDB alike). Every refresh spends the token (a RefreshTokenUseDoc) and issues
 * a successor in the same family.
 */
export interface RefreshTokenDoc {
  /** HMAC-SHA256 of the refresh token. */
  _id: string;
  familyId: string;
  clientId: string;
  applicationId: string;
  accountId: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date;
}

/**
 * The record that a refresh token was spent. Inserting it is the atomic spend: _id is the token
 * hash, so of two concurrent refreshes exactly one insert succeeds and the other gets a
 * duplicate key. (A conditional findOneAndUpdate would be as atomic, but FerretDB 1.x does not
 * use the primary key for findAndModify/update filters with extra conditions: measured 75 ms per
 * call at 5,000 tokens. An insert is O(log n) on both servers.)
 */
export interface RefreshTokenUseDoc {
  _id: string;
  familyId: string;
  usedAt: Date;
  expiresAt: Date;
}

/**
 * The chain of refresh tokens descended from one client_credentials grant. Revoking the family
 * (one document) invalidates every token in it, including ones written concurrently.
 */
export interface TokenFamilyDoc {
  _id: string;
  clientId: string;
  accountId: string;
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
  },
  { collection: 'accounts', versionKey: false },
);
accountSchema.index({ name: 1 }, { unique: true });
accountSchema.index({ apiKeyHash: 1 }, { unique: true });

const applicationSchema = new Schema<ApplicationDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    name: { type: String, required: true },
    clientId: { type: String, required: true },
    secretHash: { type: String, required: true },
    scopes: { type: [String], required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'applications', versionKey: false },
);
applicationSchema.index({ clientId: 1 }, { unique: true });
applicationSchema.index({ secretHash: 1 }, { unique: true });
applicationSchema.index({ accountId: 1, createdAt: 1 });

const refreshTokenSchema = new Schema<RefreshTokenDoc>(
  {
    _id: { type: String, required: true },
    familyId: { type: String, required: true },
    clientId: { type: String, required: true },
    applicationId: { type: String, required: true },
    accountId: { type: String, required: true },
    scopes: { type: [String], required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'refresh_tokens', versionKey: false },
);

const refreshTokenUseSchema = new Schema<RefreshTokenUseDoc>(
  {
    _id: { type: String, required: true },
    familyId: { type: String, required: true },
    usedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'refresh_token_uses', versionKey: false },
);
// _id is the token hash: unique by construction. The index on expiresAt is created by
// ensureExpiry (TTL where the server has it).

const tokenFamilySchema = new Schema<TokenFamilyDoc>(
  {
    _id: { type: String, required: true },
    clientId: { type: String, required: true },
    accountId: { type: String, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    revokedReason: { type: String, default: null },
  },
  { collection: 'token_families', versionKey: false },
);
tokenFamilySchema.index({ clientId: 1 });

export interface OAuthModels {
  accounts: Model<AccountDoc>;
  applications: Model<ApplicationDoc>;
  refreshTokens: Model<RefreshTokenDoc>;
  refreshTokenUses: Model<RefreshTokenUseDoc>;
  tokenFamilies: Model<TokenFamilyDoc>;
}

/** Defines the oauth service's models on its own connection (never the global mongoose). */
export function defineModels(conn: Connection): OAuthModels {
  return {
    accounts: conn.model<AccountDoc>('Account', accountSchema),
    applications: conn.model<ApplicationDoc>('Application', applicationSchema),
    refreshTokens: conn.model<RefreshTokenDoc>('RefreshToken', refreshTokenSchema),
    refreshTokenUses: conn.model<RefreshTokenUseDoc>('RefreshTokenUse', refreshTokenUseSchema),
    tokenFamilies: conn.model<TokenFamilyDoc>('TokenFamily', tokenFamilySchema),
  };
}
