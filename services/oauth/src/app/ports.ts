import type { AccountLimits } from '../domain/limits';

/**
 * The oauth service's storage: one port, grouped by what it holds. The MongoDB adapter
 * (store/mongo) and the memory adapter (store/memory) implement it, and one contract test runs
 * the same cases against both (test/store-contract.test.ts).
 *
 * The store holds queries: each method is one read or one write, atomic per document, so it is
 * exact with any number of replicas without transactions. Unique names answer `false` when taken
 * (the caller decides what that means); times, lifetimes and the rules on them are the callers'
 * (app/, domain/): they pass `now` and expiry times, never durations.
 */
export interface OAuthStore {
  accounts: AccountStore;
  applications: ApplicationStore;
  families: TokenFamilyStore;
  members: MemberStore;
  links: LinkStore;
  sessions: SessionStore;
  limits: LimitStore;
}

// --- accounts and applications --------------------------------------------------------------

export interface Account {
  id: string;
  /** Unique. */
  name: string;
  /** HMAC-SHA256 of the API key (lookup key, unique). */
  apiKeyHash: string;
  /** The API key, AES-256-GCM encrypted (bound to the account id) so the admin can read it back. */
  apiKeyEnc: string;
  createdAt: Date;
  /** Rotation with a grace period: the previous key's hash, accepted until previousApiKeyExpiresAt. */
  previousApiKeyHash: string | null;
  previousApiKeyExpiresAt: Date | null;
  apiKeyRotatedAt: Date | null;
}

export interface AccountStore {
  /** Stores a new account; false when its name is taken. */
  insert(account: Account): Promise<boolean>;
  byId(id: string): Promise<Account | undefined>;
  byName(name: string): Promise<Account | undefined>;
  byApiKeyHash(hash: string): Promise<Account | undefined>;
  /** The account whose previous key (in its grace period or past it) has this hash. */
  byPreviousApiKeyHash(hash: string): Promise<Account | undefined>;
  /** Every account, oldest first. */
  list(): Promise<Account[]>;
  /** Replaces the API key (the previous one accepted until its expiry when given); the account after, undefined when there is none. */
  rotateApiKey(id: string, next: { hash: string; enc: string }, previous: { hash: string; expiresAt: Date } | null, at: Date): Promise<Account | undefined>;
}

export interface Application {
  id: string;
  accountId: string;
  name: string;
  /** Unique. */
  clientId: string;
  /** HMAC-SHA256 of the client secret (unique). */
  secretHash: string;
  scopes: string[];
  createdAt: Date;
  /** Canonical browser origins allowed to use this application's consent sessions (CORS). */
  allowedOrigins: string[];
  /** A disabled application gets no tokens. */
  disabledAt: Date | null;
  /** Rotation with a grace period: the previous secret's hash, accepted until previousSecretExpiresAt. */
  previousSecretHash: string | null;
  previousSecretExpiresAt: Date | null;
  secretRotatedAt: Date | null;
}

/** What an update of an application may set. */
export type ApplicationChange = Partial<
  Pick<Application, 'secretHash' | 'previousSecretHash' | 'previousSecretExpiresAt' | 'secretRotatedAt' | 'allowedOrigins' | 'disabledAt'>
>;

/** An application by its id (within an account when given), or by its client id. */
export type ApplicationKey = { id: string; accountId?: string } | { clientId: string };

export interface ApplicationStore {
  insert(app: Application): Promise<void>;
  get(key: ApplicationKey): Promise<Application | undefined>;
  /** The applications of an account, oldest first. */
  ofAccount(accountId: string): Promise<Application[]>;
  /** Sets the fields given; the application after, undefined when there is none. */
  update(key: ApplicationKey, change: ApplicationChange): Promise<Application | undefined>;
  /** Whether any application allows the browser origin. */
  anyAllowsOrigin(origin: string): Promise<boolean>;
}

// --- refresh tokens -------------------------------------------------------------------------

/**
 * The chain of refresh tokens descended from one client_credentials grant, in one record. A
 * refresh token is `rt_<family id>.<generation>.<MAC>` (domain/refresh-token.ts): nothing per
 * token is stored. The family keeps the generation of its one live token; a refresh moves it on
 * (`spend`), and revoking the family invalidates its live token.
 */
export interface TokenFamily {
  id: string;
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

export interface TokenFamilyStore {
  /** Stores new families in one write; the ones that failed, by index (empty: all stored). Throws when the write failed as a whole. */
  insertMany(families: TokenFamily[]): Promise<Map<number, unknown>>;
  get(id: string): Promise<TokenFamily | undefined>;
  /** The families of a client in an account, newest first, at most `limit`. */
  ofClient(accountId: string, clientId: string, limit: number): Promise<TokenFamily[]>;
  /**
   * Spends the live refresh token `gen` of a family: one conditional update moves the generation
   * on, so of concurrent refreshes with one token exactly one gets the family (as it was before
   * the spend). Undefined when the family is unknown, of another client, revoked, expired by
   * `now`, lacks one of `scopes`, or has moved past `gen`.
   */
  spend(q: { familyId: string; gen: number; clientId: string; scopes: string[]; now: Date }): Promise<TokenFamily | undefined>;
  /** Revokes a family not yet revoked (of the account when given); the family after, undefined when there is none. */
  revoke(id: string, at: Date, reason: string, accountId?: string): Promise<TokenFamily | undefined>;
  /** Revokes every live family of a client; how many. */
  revokeOfClient(clientId: string, at: Date, reason: string): Promise<number>;
}

// --- the console ----------------------------------------------------------------------------

/** A person (or a link holder) who may use the console of one account, with a role. */
export interface Member {
  id: string;
  accountId: string;
  /** Unique within the account. */
  name: string;
  role: string;
  /** The identity provider subject ("<issuer> <sub>") for OIDC sign-in; null for link-only members. */
  subject: string | null;
  createdAt: Date;
}

export interface MemberStore {
  /** Stores a member; false when the account has a member of that name. */
  insert(member: Member): Promise<boolean>;
  get(accountId: string, id: string): Promise<Member | undefined>;
  byName(accountId: string, name: string): Promise<Member | undefined>;
  /** The members bound to an identity, oldest first. */
  bySubject(subject: string): Promise<Member[]>;
  /** The members of an account, oldest first. */
  ofAccount(accountId: string): Promise<Member[]>;
  countOwners(accountId: string): Promise<number>;
  /** Sets the role; the member as it was before, undefined when it is not a member of the account. */
  setRole(accountId: string, id: string, role: string): Promise<Member | undefined>;
  /** Deletes the member; the member, undefined when it was not one of the account. */
  delete(accountId: string, id: string): Promise<Member | undefined>;
}

/** A one-time sign-in link, stored under the keyed hash of its token. */
export interface ConsoleLink {
  hash: string;
  accountId: string;
  memberId: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

export interface LinkStore {
  insert(link: ConsoleLink): Promise<void>;
  /** Spends a link: only the first caller gets it, and only before it expires (`now`). */
  spend(hash: string, now: Date): Promise<ConsoleLink | undefined>;
  /** Drops a member's links. */
  deleteOfMember(accountId: string, memberId: string): Promise<void>;
}

/** A console session, stored under the keyed hash of the cookie's value. */
export interface ConsoleSession {
  hash: string;
  /** A public id (for lists and logs); the hash is secret-derived. */
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

export interface SessionStore {
  insert(session: ConsoleSession): Promise<void>;
  get(hash: string): Promise<ConsoleSession | undefined>;
  touch(hash: string, at: Date): Promise<void>;
  /** Revokes a session not yet revoked. */
  revoke(hash: string, at: Date): Promise<void>;
  /** Revokes a member's live sessions; how many. */
  revokeOfMember(accountId: string, memberId: string, at: Date): Promise<number>;
}

// --- account limits -------------------------------------------------------------------------

export interface LimitStore {
  /** An account's overrides of the gateway's default limits (none: `{}`). */
  overrides(accountId: string): Promise<AccountLimits>;
  /** Sets the given overrides (others unchanged). */
  setOverrides(accountId: string, limits: AccountLimits, at: Date): Promise<void>;
  /** Removes every override. */
  clearOverrides(accountId: string): Promise<void>;
  /** Events counted under a key (an account and a day, domain/limits.ts); 0 when none. */
  counted(key: string): Promise<number>;
  /**
   * Counts `count` more events under `key` only while the total stays within `max`, atomically
   * (one conditional upsert; the record of a new key expires at `expiresAt`). The new total, or
   * undefined when refused.
   */
  admit(key: string, count: number, max: number, expiresAt: Date): Promise<number | undefined>;
  /** Takes back `count` events counted under `key` (none when fewer are counted). */
  giveBack(key: string, count: number): Promise<void>;
}
