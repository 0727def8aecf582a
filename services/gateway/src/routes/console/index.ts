import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { type Router } from 'express';
import type { oauthconsolev1 } from '@accord/proto';
import type { GatewayContext } from '../../context';
import { validateBody } from '../../openapi/validate';
import { limits, requireCsrf, requireDeclaredRole, requireSession, sessionCookie, sessionJson, startSession } from './session';
import { consoleOidcRoutes } from './oidc';
import { consoleStatisticsRoutes } from './statistics';
import { actAsApplication, consoleApplicationApis } from './application-apis';
import type { OriginCache } from '../../middleware/session-auth';
import type { Limiter } from '../../limits/limiter';
import { strictRouter } from '../router';

const iso = (d: Date | undefined) => d?.toISOString() ?? null;

export const applicationJson = (a: oauthconsolev1.ConsoleApplication) => ({
  id: a.id,
  name: a.name,
  clientId: a.clientId,
  scopes: a.scopes,
  createdAt: iso(a.createdAt),
  disabledAt: iso(a.disabledAt),
  secretRotatedAt: iso(a.secretRotatedAt),
  previousSecretExpiresAt: iso(a.previousSecretExpiresAt),
  allowedOrigins: a.allowedOrigins,
});

const memberJson = (m: oauthconsolev1.ConsoleMember) => ({ id: m.id, name: m.name, role: m.role, createdAt: iso(m.createdAt) });

const familyJson = (f: oauthconsolev1.TokenFamily) => ({
  id: f.id,
  applicationId: f.applicationId || undefined,
  createdAt: iso(f.createdAt),
  expiresAt: iso(f.expiresAt),
  revokedAt: iso(f.revokedAt),
  revokedReason: f.revokedReason || null,
});

const keyJson = (k: oauthconsolev1.ApiKeyInfo | undefined) => ({
  masked: k?.masked ?? '',
  rotatedAt: iso(k?.rotatedAt),
  previousExpiresAt: iso(k?.previousExpiresAt),
});

/**
 * The console API (/console/api): sign-in, the session, and the account's credentials. Every
 * route but sign-in needs a live session; every change needs the CSRF token; roles are checked
 * here, and the account is always the session's, never one named by the caller.
 */
export function consoleApiRoutes(ctx: GatewayContext, deps: { origins?: OriginCache; limiter?: Limiter } = {}): Router {
  const r = strictRouter();
  const oc = ctx.clients.oauthConsole;

  // Sign-in with a one-time console link (no session yet, so no CSRF token: the link is the proof).
  r.post('/session', validateBody('ConsoleSignInRequest'), async (req, res) => {
    const grant = await oc.redeemConsoleLink({ token: req.body.link, limits: limits(ctx), userAgent: req.get('user-agent') ?? '' });
    startSession(ctx, res, grant);
    res.status(201).json(sessionJson(grant.session!));
  });

  // Sign-in with OpenID Connect (redirects; no session yet).
  r.use(consoleOidcRoutes(ctx));

  // The role each route needs is declared in routes/permissions.ts.
  r.use(requireSession(ctx), requireCsrf(ctx), requireDeclaredRole('account'));

  r.get('/session', (req, res) => {
    res.json(sessionJson(req.console!.session));
  });
  r.delete('/session', async (req, res) => {
    await oc.revokeConsoleSession({ sessionToken: req.console!.sessionToken });
    res.setHeader('Set-Cookie', sessionCookie(ctx, '', true));
    res.status(204).end();
  });
  // Sign-out everywhere: every session of this member, this one included.
  r.post('/session/revoke-all', async (req, res) => {
    const { revoked } = await oc.revokeMemberSessions({ accountId: req.console!.accountId, memberId: req.console!.memberId });
    res.setHeader('Set-Cookie', sessionCookie(ctx, '', true));
    res.json({ revoked });
  });

  r.get('/members', async (req, res) => {
    const { members } = await oc.listMembers({ accountId: req.console!.accountId });
    res.json(members.map(memberJson));
  });
  // Members (owner): invite with a one-time link, change a role, remove; the account keeps an owner (409).
  r.post('/members', validateBody('ConsoleInviteRequest'), async (req, res) => {
    const out = await oc.inviteMember({ accountId: req.console!.accountId, memberName: req.body.name, role: req.body.role, ttlSeconds: 0 });
    res.status(201).json({
      member: memberJson(out.member!),
      // The token rides in the fragment: browsers never send it to a server or a log.
      link: `${ctx.baseUrl}/console/#link=${encodeURIComponent(out.token)}`,
      expiresAt: iso(out.expiresAt),
    });
  });
  r.patch('/members/:id', validateBody('ConsoleMemberUpdateRequest'), async (req, res) => {
    res.json(memberJson(await oc.updateMemberRole({ accountId: req.console!.accountId, memberId: String(req.params.id), role: req.body.role })));
  });
  r.delete('/members/:id', async (req, res) => {
    await oc.removeMember({ accountId: req.console!.accountId, memberId: String(req.params.id) });
    res.status(204).end();
  });

  // Applications
  r.get('/applications', async (req, res) => {
    const { applications } = await oc.listAccountApplications({ accountId: req.console!.accountId });
    res.json(applications.map(applicationJson));
  });
  r.post('/applications', validateBody('ConsoleApplicationCreateRequest'), async (req, res) => {
    const out = await oc.createAccountApplication({ accountId: req.console!.accountId, name: req.body.name, scopes: req.body.scopes ?? [] });
    res.status(201).json({ application: applicationJson(out.application!), clientSecret: out.clientSecret });
  });
  r.post('/applications/:id/rotate-secret', validateBody('ConsoleRotateRequest'), async (req, res) => {
    const out = await oc.rotateApplicationSecret({
      accountId: req.console!.accountId,
      applicationId: String(req.params.id),
      graceSeconds: req.body.graceSeconds ?? 0,
    });
    res.json({ application: applicationJson(out.application!), clientSecret: out.clientSecret });
  });
  r.post('/applications/:id/disable', async (req, res) => {
    res.json(applicationJson(await oc.disableApplication({ accountId: req.console!.accountId, applicationId: String(req.params.id) })));
  });

  // Allowed browser origins (CORS for consent sessions): the whole list is replaced.
  r.put('/applications/:id/origins', validateBody('ConsoleOriginsRequest'), async (req, res) => {
    const app = await oc.setApplicationOrigins({ accountId: req.console!.accountId, applicationId: String(req.params.id), origins: req.body.origins });
    deps.origins?.forgetApplication(app.id);
    res.json(applicationJson(app));
  });

  // Tokens
  r.post('/applications/:id/tokens', validateBody('ConsoleTokenRequest'), async (req, res) => {
    const t = await oc.issueApplicationToken({ accountId: req.console!.accountId, applicationId: String(req.params.id), scopes: req.body.scopes ?? [] });
    res.status(201).json({ access_token: t.accessToken, token_type: t.tokenType, expires_in: t.expiresIn, scope: t.scope, refresh_token: t.refreshToken });
  });
  r.get('/applications/:id/token-families', async (req, res) => {
    const { families } = await oc.listTokenFamilies({ accountId: req.console!.accountId, applicationId: String(req.params.id) });
    res.json(families.map(familyJson));
  });
  r.post('/token-families/:id/revoke', async (req, res) => {
    res.json(familyJson(await oc.revokeTokenFamily({ accountId: req.console!.accountId, familyId: String(req.params.id) })));
  });

  // The account's API key (owner only for rotation)
  r.get('/api-key', async (req, res) => {
    res.json(keyJson(await oc.getApiKeyInfo({ accountId: req.console!.accountId })));
  });
  r.post('/api-key/rotate', validateBody('ConsoleRotateRequest'), async (req, res) => {
    const out = await oc.rotateAccountApiKey({ accountId: req.console!.accountId, graceSeconds: req.body.graceSeconds ?? 0 });
    res.json({ apiKey: out.apiKey, ...keyJson(out.info) });
  });

  r.use(consoleApplicationApis(ctx, deps.limiter));
  r.use(consoleStatisticsRoutes(ctx, actAsApplication(ctx)));
  return r;
}

/** Where the built console is: ACCORD_CONSOLE_DIR, else clients/console of this checkout or image (null when absent). */
export function consoleDir(ctx: GatewayContext): string | null {
  if (ctx.config.ACCORD_CONSOLE_DIR !== undefined) return ctx.config.ACCORD_CONSOLE_DIR || null;
  // services/gateway/{src,dist}/routes/console -> the repository (or /app in the image)
  const dir = resolve(__dirname, '..', '..', '..', '..', '..', 'clients', 'console');
  return existsSync(join(dir, 'public', 'index.html')) ? dir : null;
}

/** The console's pages: its static files (index.html, styles, compiled modules); every page is the one index.html. */
export function consolePages(ctx: GatewayContext): Router {
  const r = strictRouter();
  const dir = consoleDir(ctx);
  if (!dir) return r;
  const opts = { index: false, fallthrough: true, maxAge: 0 };
  r.use(express.static(join(dir, 'public'), opts));
  r.use('/js', express.static(join(dir, 'dist'), opts));
  r.get('/', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.sendFile(join(dir, 'public', 'index.html'));
  });
  return r;
}
