import type { Handlers } from '@accord/common';
import { oauthv1 } from '@accord/proto';
import { OAuthProtocolError } from '../domain/oauth-error';
import type { OAuthCore } from '../app/oauth';
import type { Account, Application } from '../app/ports';
import { countGrant } from '../metrics';

const toAccount = (a: Account): oauthv1.Account => ({ id: a.id, name: a.name, createdAt: a.createdAt });
/** An application as the admin API shows it (the console's view adds its lifecycle). */
export const toApplication = (a: Application): oauthv1.Application => ({
  id: a.id,
  accountId: a.accountId,
  name: a.name,
  clientId: a.clientId,
  scopes: a.scopes,
  createdAt: a.createdAt,
  allowedOrigins: a.allowedOrigins,
});

export type OAuthHandlers = Handlers<oauthv1.OAuthServiceServer>;

/** gRPC handlers: proto <-> core translation, nothing else (who may call each RPC: access.ts). */
export function oauthHandlers(core: OAuthCore): OAuthHandlers {
  return {
    async issueToken(req) {
      try {
        const t = await core.issueToken(req);
        countGrant(req.grantType, 'issued');
        return { token: { accessToken: t.accessToken, expiresIn: t.expiresIn, scope: t.scope, refreshToken: t.refreshToken, tokenType: t.tokenType } };
      } catch (err) {
        if (err instanceof OAuthProtocolError) {
          countGrant(req.grantType, err.error);
          return { error: { error: err.error, errorDescription: err.description } };
        }
        throw err;
      }
    },
    async getJwks() {
      return { jwks: { keys: core.jwks } };
    },
    async validateApiKey(req) {
      return { accountId: await core.validateApiKey(req.apiKey) };
    },
    async bootstrap(req) {
      const r = await core.bootstrap(req);
      return {
        accountId: r.account.id,
        apiKey: r.apiKey,
        appId: r.application.id,
        clientId: r.application.clientId,
        clientSecret: r.clientSecret,
        scopes: r.application.scopes,
        accountCreated: r.accountCreated,
      };
    },
    async listAccounts() {
      return { accounts: (await core.listAccounts()).map(toAccount) };
    },
    async listApplications(req) {
      return { applications: (await core.listApplications(req.accountId)).map(toApplication) };
    },
    async rotateClientSecret(req) {
      return { clientId: req.clientId, clientSecret: await core.rotateClientSecret(req.clientId) };
    },
    async rotateApiKey(req) {
      return { accountId: req.accountId, apiKey: await core.rotateApiKey(req.accountId) };
    },
    async setAllowedOrigins(req) {
      return toApplication(await core.setAllowedOrigins(req.appId, req.origins));
    },
    async checkOrigin(req) {
      return { allowed: await core.checkOrigin(req.origin, req.appId) };
    },
    async createConsentSession(req) {
      const s = await core.createConsentSession(req);
      return { sessionToken: s.token, expiresAt: s.expiresAt };
    },
  };
}
