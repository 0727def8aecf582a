import type { AccessTable, RpcAccess } from '@accord/common';
import type { limitsv1, oauthconsolev1, oauthv1 } from '@accord/proto';

/** The operator, with the admin token (`npm run admin`). */
const admin: RpcAccess = { services: [], admin: true };
/** The gateway alone: the token endpoint (behind its rate limits), API keys, browser sessions, the console. */
const gateway: RpcAccess = { services: ['gateway'] };

/**
 * Who may call each RPC of the oauth service (read by its gRPC server; an RPC without a row does
 * not start). No platform caller: credentials are managed by the operator and the console, and
 * tokens are obtained at /oauth/v0/token.
 */
export const oauthAccess: AccessTable<oauthv1.OAuthServiceServer> = {
  issueToken: gateway,
  // the keys of access tokens, published at /.well-known/jwks.json anyway (every service reads them)
  getJwks: { services: [], public: true },
  validateApiKey: gateway,
  bootstrap: admin,
  listAccounts: admin,
  listApplications: admin,
  rotateClientSecret: admin,
  rotateApiKey: admin,
  setAllowedOrigins: admin,
  checkOrigin: gateway,
  createConsentSession: gateway,
};

/** Account limits: set by the operator, read and counted by the gateway (REST) and the services serving platform callers. */
export const limitsAccess: AccessTable<limitsv1.LimitsServiceServer> = {
  setAccountLimits: admin,
  // the operator reads them too (`admin limits --account <id>`)
  getAccountLimits: { services: ['gateway', 'consent', 'dataprocessing', 'webhook'], admin: true },
  consumeDailyEvents: { services: ['gateway', 'consent'] },
};

/** The console's RPCs: the gateway's console API calls them for a signed-in member; the first sign-in link is the operator's. */
export const consoleAccess: AccessTable<oauthconsolev1.OAuthConsoleServiceServer> = {
  createConsoleLink: admin,
  redeemConsoleLink: gateway,
  signInMember: gateway,
  getConsoleSession: gateway,
  revokeConsoleSession: gateway,
  revokeMemberSessions: gateway,
  listMembers: gateway,
  inviteMember: gateway,
  updateMemberRole: gateway,
  removeMember: gateway,
  listAccountApplications: gateway,
  createAccountApplication: gateway,
  rotateApplicationSecret: gateway,
  disableApplication: gateway,
  setApplicationOrigins: gateway,
  issueApplicationToken: gateway,
  listTokenFamilies: gateway,
  revokeTokenFamily: gateway,
  getApiKeyInfo: gateway,
  rotateAccountApiKey: gateway,
};
