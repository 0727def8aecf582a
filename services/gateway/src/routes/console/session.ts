import { timingSafeEqual } from 'node:crypto';
import { status as Code } from '@grpc/grpc-js';
import type { Request, RequestHandler, Response } from 'express';
import { isServiceError } from '@accord/common';
import type { oauthconsolev1 } from '@accord/proto';
import type { GatewayContext } from '../../context';
import { HttpProblem } from '../../problem';
import { declaredPermission, type Role } from '../../middleware/permissions';

export const SESSION_COOKIE = 'accord_console';
export const CSRF_HEADER = 'x-csrf-token';

export type { Role };
const RANK: Record<Role, number> = { viewer: 0, developer: 1, owner: 2 };

export interface ConsoleAuth {
  sessionToken: string;
  session: oauthconsolev1.ConsoleSession;
  accountId: string;
  memberId: string;
  role: Role;
}

declare module 'express-serve-static-core' {
  interface Request {
    console?: ConsoleAuth;
  }
}

/** The value of one cookie from the Cookie header (RFC 6265 syntax; no library needed for one name). */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (never sent on cross-site
 * requests), Path=/console, Secure unless the public base URL is a loopback http URL. No
 * Max-Age: the server enforces the idle and absolute timeouts and the cookie dies with the browser.
 */
export function sessionCookie(ctx: GatewayContext, value: string, clear = false): string {
  const attrs = [`${SESSION_COOKIE}=${clear ? '' : value}`, 'Path=/console', 'HttpOnly', 'SameSite=Strict'];
  if (!isLoopback(ctx.baseUrl) || ctx.baseUrl.startsWith('https:')) attrs.push('Secure');
  if (clear) attrs.push('Max-Age=0');
  return attrs.join('; ');
}

const signedOut = (detail: string) => new HttpProblem(401, 'Unauthorized', detail, [], {}, 'console-session');

/** Loads the session behind the cookie (touching it) and puts it on req.console; 401 otherwise. */
export function requireSession(ctx: GatewayContext): RequestHandler {
  return async (req, res, next) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (!token) throw signedOut('Sign in to the console first.');
    let session: oauthconsolev1.ConsoleSession;
    try {
      session = await ctx.clients.oauthConsole.getConsoleSession({ sessionToken: token });
    } catch (err) {
      if (isServiceError(err) && err.code === Code.UNAUTHENTICATED) {
        res.setHeader('Set-Cookie', sessionCookie(ctx, '', true));
        throw signedOut(`The console session has ended (${err.details}); sign in again.`);
      }
      throw err;
    }
    const role = session.member?.role as Role;
    if (!(role in RANK)) throw new HttpProblem(403, 'Forbidden', 'This member has no console role.');
    req.console = { sessionToken: token, session, accountId: session.accountId, memberId: session.member!.id, role };
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

function sameOrigin(req: Request, ctx: GatewayContext): boolean {
  const origin = req.get('origin');
  if (!origin) return true; // non-browser clients and same-origin GET-like navigations; the CSRF token still applies
  if (origin === new URL(ctx.baseUrl).origin) return true;
  return origin === `${req.protocol}://${req.get('host')}`;
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF protection on every change: the request must carry the session's CSRF token in the
 * x-csrf-token header (a cross-site form cannot set headers, and cannot read the token), and an
 * Origin, when sent, must be this gateway's.
 */
export function requireCsrf(ctx: GatewayContext): RequestHandler {
  return (req, _res, next) => {
    if (safeMethods.has(req.method)) return next();
    if (!sameOrigin(req, ctx)) throw new HttpProblem(403, 'Forbidden', 'Cross-origin requests cannot change anything in the console.', [], {}, 'csrf');
    const sent = Buffer.from(req.get(CSRF_HEADER) ?? '');
    const expected = Buffer.from(req.console!.session.csrfToken);
    if (!sent.length || sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      throw new HttpProblem(403, 'Forbidden', `Changes need the session's CSRF token in the ${CSRF_HEADER} header.`, [], {}, 'csrf');
    }
    next();
  };
}

/**
 * The member's role must be at least the one the route declares (routes/permissions.ts). Checked
 * once for the account's own routes after the session and CSRF checks (`account`), and for the
 * routes acting as one of its applications after that application is found (`application`).
 * A path no route declares is left to the 404 that follows, except below an application: Express
 * also answers a mounted router's root with a trailing slash (`…/webhooks/`), which the table does
 * not spell, so there a change without a declaration needs the developer role all the same.
 */
export function requireDeclaredRole(stage: 'account' | 'application'): RequestHandler {
  return (req, res, next) => {
    const p = declaredPermission(res)?.permission;
    let min: Role | undefined;
    if (p?.who === 'console' && (p.asApplication === true) === (stage === 'application')) min = p.role;
    else if (!p && stage === 'application' && !safeMethods.has(req.method)) min = 'developer';
    if (min && RANK[req.console!.role] < RANK[min]) {
      throw new HttpProblem(403, 'Forbidden', `This needs the ${min} role; you are ${req.console!.role}.`, [], {}, 'console-role');
    }
    next();
  };
}

/** What the console shows about the signed-in member. */
export function sessionJson(s: oauthconsolev1.ConsoleSession) {
  return {
    account: { id: s.accountId, name: s.accountName },
    member: { id: s.member?.id, name: s.member?.name, role: s.member?.role },
    csrfToken: s.csrfToken,
    expiresAt: s.expiresAt?.toISOString(),
    idleExpiresAt: s.idleExpiresAt?.toISOString(),
  };
}

export function limits(ctx: GatewayContext): oauthconsolev1.SessionLimits {
  return {
    idleTimeoutSeconds: ctx.config.ACCORD_CONSOLE_IDLE_TIMEOUT_MS / 1_000,
    absoluteTimeoutSeconds: ctx.config.ACCORD_CONSOLE_ABSOLUTE_TIMEOUT_MS / 1_000,
  };
}

export function startSession(ctx: GatewayContext, res: Response, grant: oauthconsolev1.ConsoleSessionGrant): void {
  res.setHeader('Set-Cookie', sessionCookie(ctx, grant.sessionToken));
  res.setHeader('Cache-Control', 'no-store');
}
