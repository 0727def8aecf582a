import { LRUCache } from 'lru-cache';
import { GroupCommit, InvalidArgumentError, NotFoundError, type Logger, type SigningKey } from '@accord/common';
import { issuerFor, signAccessToken } from '../domain/access-token';
import { canonicalOrigin, checkSessionInput, parseOrigins, signSessionToken, type ConsentSessionInput } from '../domain/consent-session';
import { OAuthProtocolError } from '../domain/oauth-error';
import { applicationScopes, canonicalScopes, grantScopes } from '../domain/scopes';
import { formatRefreshToken, parseRefreshToken, type RefreshTokenClaim } from '../domain/refresh-token';
import { CredentialCrypto, newApiKey, newClientId, newClientSecret, newId } from '../domain/secrets';
import { parseTokenRequest, type RawTokenRequest } from '../domain/token-request';
import type { Account, Application, OAuthStore, TokenFamily } from './ports';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  scope: string;
  refreshToken: string;
  tokenType: 'Bearer';
}

export interface BootstrapResult {
  account: Account;
  accountCreated: boolean;
  apiKey: string;
  application: Application;
  clientSecret: string;
}

export interface OAuthCoreOptions {
  store: Pick<OAuthStore, 'accounts' | 'applications' | 'families'>;
  crypto: CredentialCrypto;
  signingKeys: SigningKey[];
  baseUrl: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  /** Lifetime of a cached application on the token endpoint, ms (0 = none; default 5000). */
  clientCacheMs?: number;
  logger: Logger;
  now?: () => Date;
}

const MAX_NAME = 200;

/** The oauth service's use cases: the token endpoint, API key resolution and administration. */
export class OAuthCore {
  private readonly now: () => Date;
  private readonly issuer: string;
  private readonly clients: { get(clientId: string): Promise<Application | undefined>; forget(clientId: string): void };

  constructor(private readonly o: OAuthCoreOptions) {
    if (!o.signingKeys.length) throw new Error('at least one signing key is required');
    this.now = o.now ?? (() => new Date());
    this.issuer = issuerFor(o.baseUrl);
    this.clients = applicationCache(o.store, o.clientCacheMs ?? 5000);
  }

  /**
   * New token families: concurrent grants share one unordered insert (group commit), so under load
   * N token requests cost one round trip, and a lone one waits one turn of the event loop at most.
   */
  private readonly familyInserts = new GroupCommit<TokenFamily>(async (batch) => {
    const failed = await this.o.store.families.insertMany(batch.map((p) => p.item));
    batch.forEach((p, i) => (failed.has(i) ? p.reject(failed.get(i)) : p.resolve()));
  });

  get jwks() {
    return this.o.signingKeys.map((k) => k.publicJwk);
  }

  // Token endpoint (RFC 6749). Protocol errors are thrown as OAuthProtocolError.

  async issueToken(raw: RawTokenRequest): Promise<IssuedToken> {
    const req = parseTokenRequest(raw);
    const app = await this.authenticateClient(req.clientId, req.clientSecret);

    if (req.grantType === 'client_credentials') {
      const granted = grantScopes(req.scopes, app.scopes);
      if (!granted.ok) throw new OAuthProtocolError('invalid_scope', `scope not allowed for this client: ${granted.notAllowed.join(' ')}`);
      return this.issue(app, granted.scopes, granted.scopes);
    }

    // refresh_token: one conditional update spends the live token of the family.
    const now = this.now();
    const claim = parseRefreshToken(this.o.crypto, req.refreshToken);
    if (!claim) throw new OAuthProtocolError('invalid_grant', 'the refresh token is invalid');
    const requested = req.scopes;
    const notAllowed = requested.filter((s) => !app.scopes.includes(s));
    if (notAllowed.length) throw new OAuthProtocolError('invalid_scope', `scope not allowed for this client: ${notAllowed.join(' ')}`);
    const family = await this.o.store.families.spend({ ...claim, clientId: app.clientId, scopes: requested, now });
    if (!family) throw await this.refusal(claim, app, requested, now);
    // The access token may narrow the scope; the successor keeps the original grant (RFC 6749 §6).
    const allowed = family.scopes.filter((s) => app.scopes.includes(s));
    const granted = grantScopes(req.scopes, allowed);
    if (!granted.ok) throw new OAuthProtocolError('invalid_scope', `scope exceeds the scope originally granted: ${granted.notAllowed.join(' ')}`);
    return this.issue(app, granted.scopes, family.scopes, { id: family.id, expiresAt: family.expiresAt, gen: claim.gen + 1 });
  }

  /** Why a refresh was refused (read only on this failure path); a reuse revokes the family. */
  private async refusal(claim: RefreshTokenClaim, app: Application, requested: string[], now: Date): Promise<OAuthProtocolError> {
    const family = await this.o.store.families.get(claim.familyId);
    // A token of another client is treated as unknown: it tells the caller nothing.
    if (!family || family.clientId !== app.clientId) return new OAuthProtocolError('invalid_grant', 'the refresh token is invalid');
    if (family.expiresAt.getTime() <= now.getTime()) return new OAuthProtocolError('invalid_grant', 'the refresh token has expired');
    if (family.gen > claim.gen) {
      // Already spent, earlier or by a concurrent request: a reuse.
      await this.revokeFamilyOnReuse(family.id, app.clientId);
      return new OAuthProtocolError('invalid_grant', 'the refresh token was already used; its token family has been revoked');
    }
    if (family.revokedAt) return new OAuthProtocolError('invalid_grant', 'the refresh token has been revoked');
    const notGranted = requested.filter((s) => !family.scopes.includes(s));
    if (notGranted.length) return new OAuthProtocolError('invalid_scope', `scope exceeds the scope originally granted: ${notGranted.join(' ')}`);
    return new OAuthProtocolError('invalid_grant', 'the refresh token is invalid');
  }

  private async revokeFamilyOnReuse(familyId: string, clientId: string): Promise<void> {
    await this.o.store.families.revoke(familyId, this.now(), 'reuse');
    this.o.logger.warn({ clientId, familyId }, 'refresh token reuse detected; token family revoked');
  }

  private async authenticateClient(clientId: string, clientSecret: string): Promise<Application> {
    const app = clientId.length <= 128 ? await this.clients.get(clientId) : undefined;
    // Hash even for an unknown client so both failures take the same path.
    const ok = this.o.crypto.verify(clientSecret, app?.secretHash ?? '') || (app !== undefined && this.previousSecretAccepted(app, clientSecret));
    if (!app || !ok || app.disabledAt) throw new OAuthProtocolError('invalid_client', 'client authentication failed');
    return app;
  }

  /** The secret replaced by a rotation with a grace period still works until the grace ends. */
  private previousSecretAccepted(app: Application, clientSecret: string): boolean {
    return (
      !!app.previousSecretHash &&
      !!app.previousSecretExpiresAt &&
      app.previousSecretExpiresAt > this.now() &&
      this.o.crypto.verify(clientSecret, app.previousSecretHash)
    );
  }

  /**
   * Signs an access token and, for a new grant, starts a token family (one insert); a refresh
   * passes the family whose generation it has just advanced, and nothing more is written. Also
   * used by the console's token page.
   */
  async issue(app: Application, accessScopes: string[], refreshScopes: string[], family?: { id: string; expiresAt: Date; gen: number }): Promise<IssuedToken> {
    const now = this.now();
    const signing = signAccessToken(
      this.o.signingKeys[0]!,
      { issuer: this.issuer, ttlSeconds: this.o.accessTokenTtl, now },
      { clientId: app.clientId, accountId: app.accountId, applicationId: app.id, scopes: accessScopes },
    );
    if (!family) {
      family = { id: newId(), expiresAt: new Date(now.getTime() + this.o.refreshTokenTtl * 1000), gen: 0 };
      await this.familyInserts.add({
        id: family.id,
        clientId: app.clientId,
        applicationId: app.id,
        accountId: app.accountId,
        scopes: refreshScopes,
        gen: 0,
        createdAt: now,
        expiresAt: family.expiresAt,
        revokedAt: null,
        revokedReason: null,
      });
    }
    const refreshToken = formatRefreshToken(this.o.crypto, { familyId: family.id, gen: family.gen });
    return { accessToken: await signing, expiresIn: this.o.accessTokenTtl, scope: accessScopes.join(' '), refreshToken, tokenType: 'Bearer' };
  }

  // API keys

  /** The account an API key belongs to (NOT_FOUND when unknown). */
  async validateApiKey(apiKey: string): Promise<string> {
    if (!apiKey || apiKey.length > 256) throw new NotFoundError('unknown API key');
    const hash = this.o.crypto.hash(apiKey);
    let account = await this.o.store.accounts.byApiKeyHash(hash);
    if (!account) {
      // A key replaced by a rotation with a grace period works until the grace ends.
      const previous = await this.o.store.accounts.byPreviousApiKeyHash(hash);
      if (previous?.previousApiKeyExpiresAt && previous.previousApiKeyExpiresAt > this.now()) account = previous;
    }
    if (!account) throw new NotFoundError('unknown API key');
    return account.id;
  }

  // Administration

  /**
   * Creates the account when the name is new, then a new application in it. The API key is
   * returned every time: it is kept encrypted for exactly this (admin-only) read-back.
   */
  async bootstrap(input: { accountName: string; appName: string; scopes: string[] }): Promise<BootstrapResult> {
    const accountName = input.accountName.trim();
    const appName = input.appName.trim();
    const fields = [];
    if (!accountName) fields.push({ field: '/account_name', message: 'is required' });
    else if (accountName.length > MAX_NAME) fields.push({ field: '/account_name', message: `must be at most ${MAX_NAME} characters` });
    if (!appName) fields.push({ field: '/app_name', message: 'is required' });
    else if (appName.length > MAX_NAME) fields.push({ field: '/app_name', message: `must be at most ${MAX_NAME} characters` });
    const scopes = applicationScopes(input.scopes);
    if (!scopes.ok) fields.push({ field: '/scopes', message: `unknown scope(s) ${scopes.unknown.join(', ')}; allowed: consent, dataprocessing, webhooks` });
    if (fields.length || !scopes.ok) throw new InvalidArgumentError(fields.map((f) => `${f.field}: ${f.message}`).join('; '), fields);

    const { account, created } = await this.findOrCreateAccount(accountName);
    const clientSecret = newClientSecret();
    const application = newApplication(account.id, appName, this.o.crypto.hash(clientSecret), canonicalScopes(scopes.scopes), this.now());
    await this.o.store.applications.insert(application);
    return { account, accountCreated: created, apiKey: this.o.crypto.decrypt(account.apiKeyEnc, account.id), application, clientSecret };
  }

  private async findOrCreateAccount(name: string): Promise<{ account: Account; created: boolean }> {
    const existing = await this.o.store.accounts.byName(name);
    if (existing) return { account: existing, created: false };
    const id = newId();
    const apiKey = newApiKey();
    const account: Account = {
      id,
      name,
      apiKeyHash: this.o.crypto.hash(apiKey),
      apiKeyEnc: this.o.crypto.encrypt(apiKey, id),
      createdAt: this.now(),
      previousApiKeyHash: null,
      previousApiKeyExpiresAt: null,
      apiKeyRotatedAt: null,
    };
    if (await this.o.store.accounts.insert(account)) return { account, created: true };
    // A concurrent bootstrap created the same name first: use that account.
    const winner = await this.o.store.accounts.byName(name);
    if (!winner) throw new Error(`account ${JSON.stringify(name)} was taken, then vanished`);
    return { account: winner, created: false };
  }

  listAccounts(): Promise<Account[]> {
    return this.o.store.accounts.list();
  }

  async listApplications(accountId: string): Promise<Application[]> {
    if (!accountId) throw InvalidArgumentError.field('/account_id', 'is required');
    if (!(await this.o.store.accounts.byId(accountId))) throw new NotFoundError(`account ${accountId} not found`);
    return this.o.store.applications.ofAccount(accountId);
  }

  /** Drops this replica's cached copy of an application that has just changed (secret, disabling). */
  forgetClient(clientId: string): void {
    this.clients.forget(clientId);
  }

  /**
   * A new client secret: the old ones (a previous one still in its grace period too) stop working
   * at once, and outstanding refresh tokens are revoked.
   */
  async rotateClientSecret(clientId: string): Promise<string> {
    if (!clientId) throw InvalidArgumentError.field('/client_id', 'is required');
    const secret = newClientSecret();
    const now = this.now();
    const found = await this.o.store.applications.update(
      { clientId },
      { secretHash: this.o.crypto.hash(secret), previousSecretHash: null, previousSecretExpiresAt: null, secretRotatedAt: now },
    );
    this.clients.forget(clientId);
    if (!found) throw new NotFoundError(`client ${clientId} not found`);
    await this.o.store.families.revokeOfClient(clientId, now, 'client secret rotated');
    return secret;
  }

  /** A new API key for the account: the old ones (a previous one still in its grace period too) stop working at once. */
  async rotateApiKey(accountId: string): Promise<string> {
    if (!accountId) throw InvalidArgumentError.field('/account_id', 'is required');
    const apiKey = newApiKey();
    const next = { hash: this.o.crypto.hash(apiKey), enc: this.o.crypto.encrypt(apiKey, accountId) };
    if (!(await this.o.store.accounts.rotateApiKey(accountId, next, null, this.now()))) throw new NotFoundError(`account ${accountId} not found`);
    return apiKey;
  }

  // Browser origins and consent sessions

  /** Replaces an application's allowed origins (canonicalised, de-duplicated). */
  async setAllowedOrigins(appId: string, raw: string[]): Promise<Application> {
    if (!appId) throw InvalidArgumentError.field('/app_id', 'is required');
    const { origins, errors } = parseOrigins(raw);
    if (errors.length) throw new InvalidArgumentError(errors.map((f) => `${f.field}: ${f.message}`).join('; '), errors);
    const app = await this.o.store.applications.update({ id: appId }, { allowedOrigins: origins });
    if (!app) throw new NotFoundError(`application ${appId} not found`);
    return app;
  }

  /** Whether the origin is allowed for the application, or (no appId) for any application. */
  async checkOrigin(raw: string, appId: string): Promise<boolean> {
    const origin = canonicalOrigin(raw);
    if (!origin) return false;
    if (!appId) return this.o.store.applications.anyAllowsOrigin(origin);
    const app = await this.o.store.applications.get({ id: appId });
    return !!app?.allowedOrigins.includes(origin);
  }

  /** Signs a consent session for an existing application of the account. */
  async createConsentSession(input: ConsentSessionInput): Promise<{ token: string; expiresAt: Date }> {
    const errors = checkSessionInput(input);
    if (errors.length) throw new InvalidArgumentError(errors.map((f) => `${f.field}: ${f.message}`).join('; '), errors);
    const app = await this.o.store.applications.get({ id: input.appId });
    if (!app || app.accountId !== input.accountId) throw new NotFoundError(`application ${input.appId} not found`);
    return signSessionToken(this.o.signingKeys[0]!, { issuer: this.issuer, now: this.now() }, input);
  }
}

/** A new application: enabled, no browser origins, never rotated. */
export function newApplication(accountId: string, name: string, secretHash: string, scopes: string[], now: Date): Application {
  return {
    id: newId(),
    accountId,
    name,
    clientId: newClientId(),
    secretHash,
    scopes,
    createdAt: now,
    allowedOrigins: [],
    disabledAt: null,
    previousSecretHash: null,
    previousSecretExpiresAt: null,
    secretRotatedAt: null,
  };
}

/**
 * Applications by client id for the token endpoint: a bounded LRU whose entries live `ttlMs`,
 * so a busy client costs no lookup; concurrent misses share one find. Unknown clients are not
 * cached (an application created on another replica works at once).
 */
function applicationCache(store: Pick<OAuthStore, 'applications'>, ttlMs: number) {
  const find = (clientId: string) => store.applications.get({ clientId });
  if (ttlMs <= 0) return { get: find, forget: () => undefined };
  const cache = new LRUCache<string, Application>({ max: 10_000, ttl: ttlMs, fetchMethod: find });
  return {
    get: (clientId: string) => cache.fetch(clientId),
    forget: (clientId: string) => void cache.delete(clientId),
  };
}
