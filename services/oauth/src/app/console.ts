import { randomBytes } from 'node:crypto';
import { ConflictError, InvalidArgumentError, NotFoundError, UnauthenticatedError, type FieldError } from '@accord/common';
import { parseOrigins } from '../domain/consent-session';
import { isRole, ROLES } from '../domain/roles';
import { applicationScopes, canonicalScopes, grantScopes } from '../domain/scopes';
import { newApiKey, newClientSecret, newId, newSecret, type CredentialCrypto } from '../domain/secrets';
import { newApplication, type IssuedToken, type OAuthCore } from './oauth';
import type { Account, Application, ConsoleSession, Member, OAuthStore, TokenFamily } from './ports';

export const LINK_PREFIX = 'cln_';
export const SESSION_PREFIX = 'cs_';
export const MAX_LINK_TTL_SECONDS = 900;
/** The longest grace period a rotation may give the previous secret or key (7 days). */
export const MAX_GRACE_SECONDS = 7 * 86_400;
const MAX_NAME = 200;
/** A session's lastSeenAt is written at most this often (idle timeouts are minutes long). */
const TOUCH_EVERY_MS = 30_000;

export interface SessionLimits {
  idleTimeoutSeconds: number;
  absoluteTimeoutSeconds: number;
}

export interface SessionView {
  session: ConsoleSession;
  account: Account;
  member: Member;
}

export interface ApiKeyView {
  accountId: string;
  masked: string;
  rotatedAt: Date | null;
  previousExpiresAt: Date | null;
}

function nameField(path: string, value: string): FieldError[] {
  if (!value) return [{ field: path, message: 'is required' }];
  if (value.length > MAX_NAME) return [{ field: path, message: `must be at most ${MAX_NAME} characters` }];
  return [];
}

function invalid(fields: FieldError[]): never {
  throw new InvalidArgumentError(fields.map((f) => `${f.field}: ${f.message}`).join('; '), fields);
}

const lastOwner = () => new ConflictError('the account must keep at least one owner: make another member owner first');

function graceOf(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_GRACE_SECONDS)
    invalid([{ field: '/grace_seconds', message: `must be an integer from 0 to ${MAX_GRACE_SECONDS}` }]);
  return seconds;
}

/** The console's use cases in the oauth service: members, sign-in links, sessions, and account-scoped credentials. */
export class ConsoleCore {
  private readonly now: () => Date;

  constructor(
    private readonly o: {
      store: OAuthStore;
      oauth: OAuthCore;
      crypto: CredentialCrypto;
      now?: () => Date;
    },
  ) {
    this.now = o.now ?? (() => new Date());
  }

  // Sign-in

  /** A one-time link for a member (created with the role when new) of an existing account. */
  async createLink(input: { accountName: string; memberName: string; role: string; ttlSeconds: number }) {
    const accountName = input.accountName.trim();
    const memberName = input.memberName.trim() || 'owner';
    const role = input.role.trim() || 'owner';
    const ttl = input.ttlSeconds || MAX_LINK_TTL_SECONDS;
    const fields = [...nameField('/account_name', accountName), ...nameField('/member_name', memberName)];
    if (!isRole(role)) fields.push({ field: '/role', message: `must be one of ${ROLES.join(', ')}` });
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_LINK_TTL_SECONDS)
      fields.push({ field: '/ttl_seconds', message: `must be from 1 to ${MAX_LINK_TTL_SECONDS}` });
    if (fields.length) invalid(fields);
    const account = await this.o.store.accounts.byName(accountName);
    if (!account) throw new NotFoundError(`account ${JSON.stringify(accountName)} not found (create it with the bootstrap command)`);
    const member = await this.findOrCreateMember(account.id, memberName, role, null);
    return { ...(await this.issueLink(member, ttl)), account, member };
  }

  /** A one-time sign-in link for the member, stored only as its keyed hash. */
  private async issueLink(member: Member, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }> {
    const token = newSecret(LINK_PREFIX);
    const now = this.now();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    await this.o.store.links.insert({
      hash: this.o.crypto.hash(token),
      accountId: member.accountId,
      memberId: member.id,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    return { token, expiresAt };
  }

  /**
   * An owner's invitation from the console: a new member of the account with the role, and a
   * one-time sign-in link for it (the link the admin command prints). A name already taken is
   * a conflict: an invitation never hands out a link to an existing member.
   */
  async inviteMember(input: { accountId: string; memberName: string; role: string; ttlSeconds: number }) {
    const memberName = input.memberName.trim();
    const ttl = input.ttlSeconds || MAX_LINK_TTL_SECONDS;
    const fields = nameField('/member_name', memberName);
    if (!isRole(input.role)) fields.push({ field: '/role', message: `must be one of ${ROLES.join(', ')}` });
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_LINK_TTL_SECONDS)
      fields.push({ field: '/ttl_seconds', message: `must be from 1 to ${MAX_LINK_TTL_SECONDS}` });
    if (fields.length) invalid(fields);
    const account = input.accountId ? await this.o.store.accounts.byId(input.accountId) : undefined;
    if (!account) throw new NotFoundError('account not found');
    const member: Member = { id: newId(), accountId: account.id, name: memberName, role: input.role, subject: null, createdAt: this.now() };
    if (!(await this.o.store.members.insert(member))) throw new ConflictError(`a member named ${JSON.stringify(memberName)} already exists in this account`);
    return { ...(await this.issueLink(member, ttl)), account, member };
  }

  private async findOrCreateMember(accountId: string, name: string, role: string, subject: string | null): Promise<Member> {
    const existing = await this.o.store.members.byName(accountId, name);
    if (existing) return existing;
    const member: Member = { id: newId(), accountId, name, role, subject, createdAt: this.now() };
    if (await this.o.store.members.insert(member)) return member;
    // a concurrent sign-in made the member first
    const winner = await this.o.store.members.byName(accountId, name);
    if (!winner) throw new Error(`member ${JSON.stringify(name)} was taken, then vanished`);
    return winner;
  }

  /** Spends a link (once, before it expires) and opens a session for its member. */
  async redeemLink(token: string, limits: SessionLimits, userAgent: string) {
    const link = token && token.length <= 256 ? await this.o.store.links.spend(this.o.crypto.hash(token), this.now()) : undefined;
    if (!link) throw new UnauthenticatedError('the sign-in link is unknown, expired or already used');
    const member = await this.o.store.members.get(link.accountId, link.memberId);
    if (!member) throw new UnauthenticatedError('the member of this sign-in link no longer exists');
    return this.openSession(member, limits, userAgent);
  }

  /**
   * OIDC sign-in: the member bound to the subject; else, when a trusted claim names accounts,
   * a new member (claimedRole) of the first existing one of them.
   */
  async signInSubject(input: {
    subject: string;
    claimedAccounts: string[];
    claimedRole: string;
    displayName: string;
    limits: SessionLimits;
    userAgent: string;
  }) {
    if (!input.subject) invalid([{ field: '/subject', message: 'is required' }]);
    const bound = await this.o.store.members.bySubject(input.subject);
    let member = bound[0];
    if (!member) {
      const role = input.claimedRole || 'viewer';
      if (!isRole(role)) invalid([{ field: '/claimed_role', message: `must be one of ${ROLES.join(', ')}` }]);
      for (const name of input.claimedAccounts) {
        const account = await this.o.store.accounts.byName(name);
        if (!account) continue;
        member = await this.findOrCreateMember(account.id, (input.displayName || input.subject).slice(0, MAX_NAME), role, input.subject);
        break;
      }
    }
    if (!member) throw new UnauthenticatedError('this identity is not a member of any account');
    return this.openSession(member, input.limits, input.userAgent);
  }

  private async openSession(member: Member, limits: SessionLimits, userAgent: string) {
    const idle = limits.idleTimeoutSeconds;
    const absolute = limits.absoluteTimeoutSeconds;
    if (!(idle > 0) || !(absolute >= idle)) invalid([{ field: '/limits', message: 'idle and absolute timeouts must be positive, absolute >= idle' }]);
    const token = newSecret(SESSION_PREFIX);
    const now = this.now();
    const session: ConsoleSession = {
      hash: this.o.crypto.hash(token),
      sessionId: newId(),
      accountId: member.accountId,
      memberId: member.id,
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: now,
      expiresAt: new Date(now.getTime() + absolute * 1000),
      idleTimeoutMs: idle * 1000,
      lastSeenAt: now,
      revokedAt: null,
      userAgent: userAgent.slice(0, 300),
    };
    await this.o.store.sessions.insert(session);
    const account = await this.o.store.accounts.byId(member.accountId);
    if (!account) throw new NotFoundError('account not found');
    return { token, view: { session, account, member } satisfies SessionView };
  }

  /** The live session of a token, touched; UNAUTHENTICATED when it is not live. */
  async session(token: string): Promise<SessionView> {
    const hash = token && token.length <= 256 ? this.o.crypto.hash(token) : '';
    const session = hash ? await this.o.store.sessions.get(hash) : undefined;
    const now = this.now();
    if (!session || session.revokedAt) throw new UnauthenticatedError('no session');
    if (session.expiresAt <= now) throw new UnauthenticatedError('the session has reached its absolute timeout');
    if (session.lastSeenAt.getTime() + session.idleTimeoutMs <= now.getTime()) throw new UnauthenticatedError('the session has been idle too long');
    const [account, member] = await Promise.all([this.o.store.accounts.byId(session.accountId), this.o.store.members.get(session.accountId, session.memberId)]);
    if (!account || !member) throw new UnauthenticatedError('the account or member of this session no longer exists');
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
      await this.o.store.sessions.touch(hash, now);
      session.lastSeenAt = now;
    }
    return { session, account, member };
  }

  async revokeSession(token: string): Promise<void> {
    if (token && token.length <= 256) await this.o.store.sessions.revoke(this.o.crypto.hash(token), this.now());
  }

  revokeMemberSessions(accountId: string, memberId: string): Promise<number> {
    return this.o.store.sessions.revokeOfMember(accountId, memberId, this.now());
  }

  listMembers(accountId: string): Promise<Member[]> {
    return this.o.store.members.ofAccount(accountId);
  }

  /**
   * Changes a member's role; the account always keeps an owner (a conflict otherwise). The store
   * has no multi-document transactions, so the rule is checked before the change and again after
   * it: two owners demoting each other at the same moment both see no owner left afterwards and
   * both undo their change, so the account never stays without one.
   */
  async updateMemberRole(accountId: string, memberId: string, role: string): Promise<Member> {
    if (!isRole(role)) invalid([{ field: '/role', message: `must be one of ${ROLES.join(', ')}` }]);
    const current = accountId && memberId ? await this.o.store.members.get(accountId, memberId) : undefined;
    if (!current) throw new NotFoundError(`member ${memberId} not found`);
    if (current.role === role) return current;
    const demotesOwner = current.role === 'owner';
    if (demotesOwner && (await this.o.store.members.countOwners(accountId)) <= 1) throw lastOwner();
    const before = await this.o.store.members.setRole(accountId, memberId, role);
    if (!before) throw new NotFoundError(`member ${memberId} not found`);
    if (before.role === 'owner' && (await this.o.store.members.countOwners(accountId)) === 0) {
      await this.o.store.members.setRole(accountId, memberId, 'owner');
      throw lastOwner();
    }
    return { ...before, role };
  }

  /** Removes a member (never the last owner), ends its sessions and drops its unused links. */
  async removeMember(accountId: string, memberId: string): Promise<number> {
    const current = accountId && memberId ? await this.o.store.members.get(accountId, memberId) : undefined;
    if (!current) throw new NotFoundError(`member ${memberId} not found`);
    if (current.role === 'owner' && (await this.o.store.members.countOwners(accountId)) <= 1) throw lastOwner();
    const removed = await this.o.store.members.delete(accountId, memberId);
    if (!removed) throw new NotFoundError(`member ${memberId} not found`);
    if (removed.role === 'owner' && (await this.o.store.members.countOwners(accountId)) === 0) {
      await this.o.store.members.insert(removed); // the same rule as above: undo when a concurrent change took the other owner
      throw lastOwner();
    }
    const revoked = await this.o.store.sessions.revokeOfMember(accountId, memberId, this.now());
    await this.o.store.links.deleteOfMember(accountId, memberId);
    return revoked;
  }

  // Applications

  listApplications(accountId: string): Promise<Application[]> {
    return this.o.store.applications.ofAccount(accountId);
  }

  async createApplication(accountId: string, name: string, scopes: string[]): Promise<{ application: Application; clientSecret: string }> {
    const appName = name.trim();
    const fields = nameField('/name', appName);
    const parsed = applicationScopes(scopes);
    if (!parsed.ok) fields.push({ field: '/scopes', message: `unknown scope(s) ${parsed.unknown.join(', ')}; allowed: consent, dataprocessing, webhooks` });
    if (fields.length || !parsed.ok) invalid(fields);
    if (!(await this.o.store.accounts.byId(accountId))) throw new NotFoundError('account not found');
    const clientSecret = newClientSecret();
    const application = newApplication(accountId, appName, this.o.crypto.hash(clientSecret), canonicalScopes(parsed.scopes), this.now());
    await this.o.store.applications.insert(application);
    return { application, clientSecret };
  }

  private async application(accountId: string, id: string): Promise<Application> {
    const app = id && accountId ? await this.o.store.applications.get({ id, accountId }) : undefined;
    if (!app) throw new NotFoundError(`application ${id} not found`);
    return app;
  }

  /** A new secret; the previous one stays valid for the grace period (0: revoked at once, with the refresh tokens). */
  async rotateSecret(accountId: string, id: string, graceSeconds: number): Promise<{ application: Application; clientSecret: string }> {
    const grace = graceOf(graceSeconds);
    const app = await this.application(accountId, id);
    const clientSecret = newClientSecret();
    const now = this.now();
    const updated = await this.o.store.applications.update(
      { id, accountId },
      {
        secretHash: this.o.crypto.hash(clientSecret),
        previousSecretHash: grace ? app.secretHash : null,
        previousSecretExpiresAt: grace ? new Date(now.getTime() + grace * 1000) : null,
        secretRotatedAt: now,
      },
    );
    this.o.oauth.forgetClient(app.clientId);
    if (!updated) throw new NotFoundError(`application ${id} not found`);
    if (!grace) await this.o.store.families.revokeOfClient(app.clientId, now, 'client secret rotated');
    return { application: updated, clientSecret };
  }

  async disableApplication(accountId: string, id: string): Promise<Application> {
    const app = await this.application(accountId, id);
    if (app.disabledAt) return app;
    const now = this.now();
    const updated = await this.o.store.applications.update({ id, accountId }, { disabledAt: now });
    this.o.oauth.forgetClient(app.clientId);
    if (!updated) throw new NotFoundError(`application ${id} not found`);
    await this.o.store.families.revokeOfClient(app.clientId, now, 'application disabled');
    return updated;
  }

  /** Replaces the application's allowed browser origins (canonical, de-duplicated; at most 50). */
  async setOrigins(accountId: string, id: string, raw: string[]): Promise<Application> {
    const { origins, errors } = parseOrigins(raw);
    if (errors.length) invalid(errors);
    await this.application(accountId, id);
    const updated = await this.o.store.applications.update({ id, accountId }, { allowedOrigins: origins });
    if (!updated) throw new NotFoundError(`application ${id} not found`);
    return updated;
  }

  // Tokens

  async issueToken(accountId: string, id: string, scopes: string[]): Promise<IssuedToken> {
    const app = await this.application(accountId, id);
    if (app.disabledAt) invalid([{ field: '/application_id', message: 'the application is disabled' }]);
    const granted = grantScopes(scopes, app.scopes);
    if (!granted.ok) invalid([{ field: '/scopes', message: `not allowed for this application: ${granted.notAllowed.join(' ')}` }]);
    return this.o.oauth.issue(app, granted.scopes, granted.scopes);
  }

  async listFamilies(accountId: string, id: string): Promise<TokenFamily[]> {
    const app = await this.application(accountId, id);
    const families = await this.o.store.families.ofClient(accountId, app.clientId, 200);
    return families.map((f) => ({ ...f, applicationId: app.id }));
  }

  async revokeFamily(accountId: string, familyId: string): Promise<TokenFamily> {
    const family = familyId ? await this.o.store.families.revoke(familyId, this.now(), 'revoked in the console', accountId) : undefined;
    if (!family) throw new NotFoundError(`token family ${familyId} not found`);
    return family;
  }

  // API key

  async apiKeyInfo(accountId: string): Promise<ApiKeyView> {
    const account = accountId ? await this.o.store.accounts.byId(accountId) : undefined;
    if (!account) throw new NotFoundError('account not found');
    return this.keyView(account);
  }

  private keyView(account: Account): ApiKeyView {
    const key = this.o.crypto.decrypt(account.apiKeyEnc, account.id);
    const live = account.previousApiKeyExpiresAt && account.previousApiKeyExpiresAt > this.now() ? account.previousApiKeyExpiresAt : null;
    return { accountId: account.id, masked: `${key.slice(0, 3)}…${key.slice(-4)}`, rotatedAt: account.apiKeyRotatedAt ?? null, previousExpiresAt: live };
  }

  async rotateApiKey(accountId: string, graceSeconds: number): Promise<{ apiKey: string; info: ApiKeyView }> {
    const grace = graceOf(graceSeconds);
    const account = accountId ? await this.o.store.accounts.byId(accountId) : undefined;
    if (!account) throw new NotFoundError('account not found');
    const apiKey = newApiKey();
    const now = this.now();
    const updated = await this.o.store.accounts.rotateApiKey(
      accountId,
      { hash: this.o.crypto.hash(apiKey), enc: this.o.crypto.encrypt(apiKey, accountId) },
      grace ? { hash: account.apiKeyHash, expiresAt: new Date(now.getTime() + grace * 1000) } : null,
      now,
    );
    if (!updated) throw new NotFoundError('account not found');
    return { apiKey, info: this.keyView(updated) };
  }
}
