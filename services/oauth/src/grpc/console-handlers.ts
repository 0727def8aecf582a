import type { Handlers } from '@accord/common';
import { oauthconsolev1 } from '@accord/proto';
import type { ApiKeyView, ConsoleCore, SessionLimits, SessionView } from '../app/console';
import type { Application, Member, TokenFamily } from '../app/ports';
import { toApplication } from './handlers';

export type ConsoleHandlers = Handlers<oauthconsolev1.OAuthConsoleServiceServer>;

const opt = (d: Date | null | undefined) => d ?? undefined;

const toMember = (m: Member): oauthconsolev1.ConsoleMember => ({
  id: m.id,
  accountId: m.accountId,
  name: m.name,
  role: m.role,
  subject: m.subject ?? '',
  createdAt: m.createdAt,
});

const toSession = (v: SessionView): oauthconsolev1.ConsoleSession => ({
  id: v.session.sessionId,
  accountId: v.account.id,
  accountName: v.account.name,
  member: toMember(v.member),
  csrfToken: v.session.csrfToken,
  createdAt: v.session.createdAt,
  expiresAt: v.session.expiresAt,
  idleExpiresAt: new Date(v.session.lastSeenAt.getTime() + v.session.idleTimeoutMs),
});

const toConsoleApplication = (a: Application): oauthconsolev1.ConsoleApplication => ({
  ...toApplication(a),
  disabledAt: opt(a.disabledAt),
  secretRotatedAt: opt(a.secretRotatedAt),
  previousSecretExpiresAt: a.previousSecretExpiresAt && a.previousSecretExpiresAt > new Date() ? a.previousSecretExpiresAt : undefined,
});

const toFamily = (f: TokenFamily, applicationId: string): oauthconsolev1.TokenFamily => ({
  id: f.id,
  applicationId,
  clientId: f.clientId,
  createdAt: f.createdAt,
  expiresAt: f.expiresAt,
  revokedAt: opt(f.revokedAt),
  revokedReason: f.revokedReason ?? '',
});

const toKey = (k: ApiKeyView): oauthconsolev1.ApiKeyInfo => ({
  accountId: k.accountId,
  masked: k.masked,
  rotatedAt: opt(k.rotatedAt),
  previousExpiresAt: opt(k.previousExpiresAt),
});

const limitsOf = (l: oauthconsolev1.SessionLimits | undefined): SessionLimits => ({
  idleTimeoutSeconds: l?.idleTimeoutSeconds ?? 0,
  absoluteTimeoutSeconds: l?.absoluteTimeoutSeconds ?? 0,
});

/** gRPC handlers of OAuthConsoleService: proto <-> core translation (who may call each RPC: access.ts). */
export function consoleHandlers(core: ConsoleCore): ConsoleHandlers {
  const grant = (g: { token: string; view: SessionView }): oauthconsolev1.ConsoleSessionGrant => ({ sessionToken: g.token, session: toSession(g.view) });
  return {
    async createConsoleLink(req) {
      const r = await core.createLink(req);
      return { token: r.token, expiresAt: r.expiresAt, accountId: r.account.id, member: toMember(r.member) };
    },
    async redeemConsoleLink(req) {
      return grant(await core.redeemLink(req.token, limitsOf(req.limits), req.userAgent));
    },
    async signInMember(req) {
      return grant(await core.signInSubject({ ...req, limits: limitsOf(req.limits) }));
    },
    async getConsoleSession(req) {
      return toSession(await core.session(req.sessionToken));
    },
    async revokeConsoleSession(req) {
      await core.revokeSession(req.sessionToken);
      return {};
    },
    async revokeMemberSessions(req) {
      return { revoked: await core.revokeMemberSessions(req.accountId, req.memberId) };
    },
    async listMembers(req) {
      return { members: (await core.listMembers(req.accountId)).map(toMember) };
    },
    async inviteMember(req) {
      const r = await core.inviteMember(req);
      return { token: r.token, expiresAt: r.expiresAt, accountId: r.account.id, member: toMember(r.member) };
    },
    async updateMemberRole(req) {
      return toMember(await core.updateMemberRole(req.accountId, req.memberId, req.role));
    },
    async removeMember(req) {
      return { revokedSessions: await core.removeMember(req.accountId, req.memberId) };
    },
    async listAccountApplications(req) {
      return { applications: (await core.listApplications(req.accountId)).map(toConsoleApplication) };
    },
    async createAccountApplication(req) {
      const r = await core.createApplication(req.accountId, req.name, req.scopes);
      return { application: toConsoleApplication(r.application), clientSecret: r.clientSecret };
    },
    async rotateApplicationSecret(req) {
      const r = await core.rotateSecret(req.accountId, req.applicationId, req.graceSeconds);
      return { application: toConsoleApplication(r.application), clientSecret: r.clientSecret };
    },
    async disableApplication(req) {
      return toConsoleApplication(await core.disableApplication(req.accountId, req.applicationId));
    },
    async setApplicationOrigins(req) {
      return toConsoleApplication(await core.setOrigins(req.accountId, req.applicationId, req.origins));
    },
    async issueApplicationToken(req) {
      return core.issueToken(req.accountId, req.applicationId, req.scopes);
    },
    async listTokenFamilies(req) {
      return { families: (await core.listFamilies(req.accountId, req.applicationId)).map((f) => toFamily(f, f.applicationId)) };
    },
    async revokeTokenFamily(req) {
      const f = await core.revokeFamily(req.accountId, req.familyId);
      return toFamily(f, '');
    },
    async getApiKeyInfo(req) {
      return toKey(await core.apiKeyInfo(req.accountId));
    },
    async rotateAccountApiKey(req) {
      const r = await core.rotateApiKey(req.accountId, req.graceSeconds);
      return { apiKey: r.apiKey, info: toKey(r.info) };
    },
  };
}
