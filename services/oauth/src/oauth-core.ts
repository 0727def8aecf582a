import { InvalidArgumentError, NotFoundError, type Logger, type SigningKey } from '@accord/common';
import { issuerFor, signAccessToken } from './domain/access-token';
import { OAuthProtocolError } from './domain/oauth-error';
import { applicationScopes, canonicalScopes, grantScopes } from './domain/scopes';
import { CredentialCrypto, newApiKey, newClientId, newClientSecret, newId, newRefreshToken } from './domain/secrets';
import { parseTokenRequest, type RawTokenRequest } from './domain/token-request';
import type { AccountDoc, ApplicationDoc } from './store/models';
import { isDuplicateKey, type OAuthRepository } from './store/repository';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  scope: string;
  refreshToken: string;
  tokenType: 'Bearer';
}

export interface BootstrapResult {
  account: AccountDoc;
  accountCreated: boolean;
  apiKey: string;
  application: ApplicationDoc;
  clientSecret: string;
}

export interface OAuthCoreOptions {
  repo: OAuthRepository;
  crypto: CredentialCrypto;
  signingKeys: SigningKey[];
  baseUrl: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  logger: Logger;
  now?: () => Date;
}

const MAX_NAME = 200;

/** The oauth service's use cases: the token endpoint, API key resolution and administration. */
export class OAuthCore {
  private readonly now: () => Date;
  private readonly issuer: string;

  constructor(private readonly o: OAuthCoreOptions) {
    if (!o.signingKeys.length) throw new Error('at least one signing key is required');
    this.now = o.now ?? (() => new Date());
    this.issuer = issuerFor(o.baseUrl);
  }

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

    // refresh_token
    const now = this.now();
    const hash = this.o.crypto.hash(req.refreshToken);
    const stored = req.refreshToken.length <= 256 ? await this.o.repo.findRefreshToken(hash) : null;
    if (!stored || stored.clientId !== app.clientId) {
      // A token of another client is treated as unknown: it tells the caller nothing.
      throw new OAuthProtocolError('invalid_grant', 'the refresh token is invalid');
    }
    if (stored.expiresAt.getTime() <= now.getTime()) throw new OAuthProtocolError('invalid_grant', 'the refresh token has expired');

    // The access token may narrow the scope; the successor keeps the original grant (RFC 6749 §6).
    const allowed = stored.scopes.filter((s) => app.scopes.includes(s));
    const granted = grantScopes(req.scopes, allowed);
    if (!granted.ok) throw new OAuthProtocolError('invalid_scope', `scope exceeds the scope originally granted: ${granted.notAllowed.join(' ')}`);

    if (!(await this.o.repo.spendRefreshToken(stored, now))) {
      // Already spent, earlier or by a concurrent request: a reuse.
      await this.revokeFamilyOnReuse(stored.familyId, app.clientId);
      throw new OAuthProtocolError('invalid_grant', 'the refresh token was already used; its token family has been revoked');
    }
    const issued = await this.issue(app, granted.scopes, stored.scopes, { id: stored.familyId, expiresAt: stored.expiresAt });
    // The family is read after the successor is written, so that a revocation (reuse elsewhere,
    // secret rotation) that raced with this refresh is seen: then the successor is worthless too.
    // Spending a token of an already revoked family above is harmless.
    const family = await this.o.repo.findFamily(stored.familyId);
    if (!family || family.revokedAt) throw new OAuthProtocolError('invalid_grant', 'the refresh token has been revoked');
    return issued;
  }

  private async revokeFamilyOnReuse(familyId: string, clientId: string): Promise<void> {
    await this.o.repo.revokeFamily(familyId, this.now(), 'reuse');
    this.o.logger.warn({ clientId, familyId }, 'refresh token reuse detected; token family revoked');
  }

  private async authenticateClient(clientId: string, clientSecret: string): Promise<ApplicationDoc> {
    const app = clientId.length <= 128 ? await this.o.repo.findApplicationByClientId(clientId) : null;
    // Hash even for an unknown client so both failures take the same path.
    const ok = this.o.crypto.verify(clientSecret, app?.secretHash ?? '');
    if (!app || !ok) throw new OAuthProtocolError('invalid_client', 'client authentication failed');
    return app;
  }

  /**
   * Signs an access token and stores a refresh token: in a new family (client_credentials) or
   * as the successor in an existing one, inheriting its absolute expiry (refresh_token).
   */
  private async issue(app: ApplicationDoc, accessScopes: string[], refreshScopes: string[], family?: { id: string; expiresAt: Date }): Promise<IssuedToken> {
    const now = this.now();
    const accessToken = await signAccessToken(
      this.o.signingKeys[0]!,
      { issuer: this.issuer, ttlSeconds: this.o.accessTokenTtl, now },
      { clientId: app.clientId, accountId: app.accountId, applicationId: app._id, scopes: accessScopes },
    );
    if (!family) {
      family = { id: newId(), expiresAt: new Date(now.getTime() + this.o.refreshTokenTtl * 1000) };
      await this.o.repo.insertFamily({
        _id: family.id,
        clientId: app.clientId,
        accountId: app.accountId,
        createdAt: now,
        expiresAt: family.expiresAt,
        revokedAt: null,
        revokedReason: null,
      });
    }
    const refreshToken = newRefreshToken();
    await this.o.repo.insertRefreshToken({
      _id: this.o.crypto.hash(refreshToken),
      familyId: family.id,
      clientId: app.clientId,
      applicationId: app._id,
      accountId: app.accountId,
      scopes: refreshScopes,
      createdAt: now,
      expiresAt: family.expiresAt,
    });
    return { accessToken, expiresIn: this.o.accessTokenTtl, scope: accessScopes.join(' '), refreshToken, tokenType: 'Bearer' };
  }

  // API keys

  /** The account an API key belongs to (NOT_FOUND when unknown). */
  async validateApiKey(apiKey: string): Promise<string> {
    const account = apiKey && apiKey.length <= 256 ? await this.o.repo.findAccountByApiKeyHash(this.o.crypto.hash(apiKey)) : null;
    if (!account) throw new NotFoundError('unknown API key');
    return account._id;
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
    const application: ApplicationDoc = {
      _id: newId(),
      accountId: account._id,
      name: appName,
      clientId: newClientId(),
      secretHash: this.o.crypto.hash(clientSecret),
      scopes: canonicalScopes(scopes.scopes),
      createdAt: this.now(),
    };
    await this.o.repo.insertApplication(application);
    return { account, accountCreated: created, apiKey: this.o.crypto.decrypt(account.apiKeyEnc, account._id), application, clientSecret };
  }

  private async findOrCreateAccount(name: string): Promise<{ account: AccountDoc; created: boolean }> {
    const existing = await this.o.repo.findAccountByName(name);
    if (existing) return { account: existing, created: false };
    const id = newId();
    const apiKey = newApiKey();
    const account: AccountDoc = { _id: id, name, apiKeyHash: this.o.crypto.hash(apiKey), apiKeyEnc: this.o.crypto.encrypt(apiKey, id), createdAt: this.now() };
    try {
      await this.o.repo.insertAccount(account);
      return { account, created: true };
    } catch (err) {
      // A concurrent bootstrap created the same name first: use that account.
      if (!isDuplicateKey(err)) throw err;
      const winner = await this.o.repo.findAccountByName(name);
      if (!winner) throw err;
      return { account: winner, created: false };
    }
  }

  listAccounts(): Promise<AccountDoc[]> {
    return this.o.repo.listAccounts();
  }

  async listApplications(accountId: string): Promise<ApplicationDoc[]> {
    if (!accountId) throw InvalidArgumentError.field('/account_id', 'is required');
    if (!(await this.o.repo.findAccountById(accountId))) throw new NotFoundError(`account ${accountId} not found`);
    return this.o.repo.listApplications(accountId);
  }

  /** A new client secret (the old one stops working at once); outstanding refresh tokens are revoked. */
  async rotateClientSecret(clientId: string): Promise<string> {
    if (!clientId) throw InvalidArgumentError.field('/client_id', 'is required');
    const secret = newClientSecret();
    if (!(await this.o.repo.setClientSecret(clientId, this.o.crypto.hash(secret)))) throw new NotFoundError(`client ${clientId} not found`);
    await this.o.repo.revokeFamiliesOfClient(clientId, this.now(), 'client secret rotated');
    return secret;
  }

  /** A new API key for the account (the old one stops working at once). */
  async rotateApiKey(accountId: string): Promise<string> {
    if (!accountId) throw InvalidArgumentError.field('/account_id', 'is required');
    const apiKey = newApiKey();
    if (!(await this.o.repo.setApiKey(accountId, this.o.crypto.hash(apiKey), this.o.crypto.encrypt(apiKey, accountId)))) {
      throw new NotFoundError(`account ${accountId} not found`);
    }
    return apiKey;
  }
}
