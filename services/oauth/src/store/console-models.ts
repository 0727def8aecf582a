import { Schema, type Connection, type Model } from 'mongoose';

/** A person (or a link holder) who may use the console of one account, with a role. */
export interface MemberDoc {
  _id: string;
  accountId: string;
  name: string;
  role: string;
  /** The identity provider subject ("<issuer> <sub>") for OIDC sign-in; null for link-only members. */
  subject: string | null;
  createdAt: Date;
}

/** A one-time sign-in link, stored under the keyed hash of its token. */
export interface ConsoleLinkDoc {
  _id: string;
  accountId: string;
  memberId: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** A console session, stored under the keyed hash of the cookie's value. */
export interface ConsoleSessionDoc {
  _id: string;
  /** A public id (for lists and logs); the _id is secret-derived. */
  sessionId: string;
  accountId: string;
  memberId: string;
  csrfToken: string;
  createdAt: Date;
  /** The absolute end. */
  expiresAt: Date;
  idleTimeoutMs: number;
  lastSeenAt: Date;
  revokedAt: Date | null;
  userAgent: string;
}

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

export interface ConsoleModels {
  members: Model<MemberDoc>;
  links: Model<ConsoleLinkDoc>;
  sessions: Model<ConsoleSessionDoc>;
}

export function defineConsoleModels(conn: Connection): ConsoleModels {
  return {
    members: conn.model<MemberDoc>('ConsoleMember', memberSchema),
    links: conn.model<ConsoleLinkDoc>('ConsoleLink', linkSchema),
    sessions: conn.model<ConsoleSessionDoc>('ConsoleSession', sessionSchema),
  };
}
