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
 * An opaque refresh token, stored hashed. Every refresh spends the token (usedAt) and issues a
 * successor in the same family; presenting a spent token revokes the whole family.
 */
export interface RefreshTokenDoc {
  _id: string;
  hash: string;
  familyId: string;
  clientId: string;
  applicationId: string;
  accountId: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
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
    hash: { type: String, required: true },
    familyId: { type: String, required: true },
    clientId: { type: String, required: true },
    applicationId: { type: String, required: true },
    accountId: { type: String, required: true },
    scopes: { type: [String], required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    usedAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
  },
  { collection: 'refresh_tokens', versionKey: false },
);
refreshTokenSchema.index({ hash: 1 }, { unique: true });
refreshTokenSchema.index({ familyId: 1 });
refreshTokenSchema.index({ clientId: 1 });
// The index on expiresAt is created by ensureRefreshTokenExpiry (TTL where the server has it).

export interface OAuthModels {
  accounts: Model<AccountDoc>;
  applications: Model<ApplicationDoc>;
  refreshTokens: Model<RefreshTokenDoc>;
}

/** Defines the oauth service's models on its own connection (never the global mongoose). */
export function defineModels(conn: Connection): OAuthModels {
  return {
    accounts: conn.model<AccountDoc>('Account', accountSchema),
    applications: conn.model<ApplicationDoc>('Application', applicationSchema),
    refreshTokens: conn.model<RefreshTokenDoc>('RefreshToken', refreshTokenSchema),
  };
}
