import { status as Code } from '@grpc/grpc-js';
import type { Request, RequestHandler } from 'express';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { isServiceError, type KeyStore, type VerifiedTokens } from '@accord/common';
import type { Clients } from '../grpc/clients';
import { decodedPathParam, HttpProblem } from '../problem';
import { declaredPermission, type Declared } from './permissions';

/** The JWT `typ` of consent session tokens (minted by the oauth service). */
export const SESSION_TOKEN_TYPE = 'accord-session+jwt';

/** What a consent session token allows: one subject and issuer, one group or a set of targets. */
export interface ConsentSession {
  accountId: string;
  appId: string;
  subject: string;
  issuer: string;
  groupId?: string;
  targets?: string[];
  expiresAt: Date;
}

declare module 'express-serve-static-core' {
  interface Request {
    consentSession?: ConsentSession;
  }
}

const forbidden = (detail: string, slug = 'session-forbidden') => new HttpProblem(403, 'Forbidden', detail, [], {}, slug);

/**
 * What a session may do on this request: the right its route declares (routes/permissions.ts,
 * found by `declaredPermissions`), checked against the path parameters, the query and the
 * parsed body. A route that declares no session right, and a path no route declares, is forbidden.
 * Throws a 403 problem (a 400 naming a path parameter whose escapes are not UTF-8).
 */
export function checkSessionRight(
  s: ConsentSession,
  declared: Pick<Declared, 'permission' | 'params'> | undefined,
  req: { method: string; query: Record<string, unknown>; body?: unknown },
  baseUrl: string,
): void {
  const { query } = req;
  const right = declared?.permission.who === 'application' ? declared.permission.session : undefined;
  const param = (name: string) => decodedPathParam(declared!.params[name]!, name);
  const sameSubject = () => {
    if (query.subject !== s.subject || query.issuer !== s.issuer)
      throw forbidden('A consent session reads only its own subject and issuer.', 'session-subject');
  };
  // HEAD is answered by GET's route, but a session was only ever given the GET itself
  switch (req.method === 'HEAD' ? undefined : right) {
    case 'group-consent-request':
    case 'group-dashboard':
      if (!s.groupId || param('group_id') !== s.groupId) throw forbidden('This consent session is not for this group.', 'session-group');
      if (right === 'group-dashboard') sameSubject();
      return;
    case 'target-spec':
      if (!s.targets?.includes(`${baseUrl}/dataprocessing/v0/dpspecs/${param('spec_id')}`))
        throw forbidden('This specification is not a target of the consent session.', 'session-target');
      return;
    case 'own-states':
      sameSubject();
      if (s.targets && typeof query.target === 'string' && !s.targets.includes(query.target))
        throw forbidden('This target is not part of the consent session.', 'session-target');
      return;
    case 'record-own': {
      const items = Array.isArray(req.body) ? req.body : [req.body];
      for (const item of items as Array<Record<string, unknown> | null>) {
        if (!item || typeof item !== 'object') continue; // left to the route's validation
        if (item.subject !== s.subject || item.issuer !== s.issuer)
          throw forbidden('A consent session records consent only for its own subject and issuer.', 'session-subject');
        if (s.targets && !s.targets.includes(String(item.target))) throw forbidden('This target is not part of the consent session.', 'session-target');
      }
      return;
    }
    case undefined:
      throw forbidden('A consent session token may only read its consent request, dashboard and states and record consent for its subject.');
  }
}

/** Remembers allowed origins per application (and for any application) for a short time, bounded. */
export class OriginCache {
  private cache = new Map<string, { allowed: boolean; until: number }>();
  constructor(
    private readonly oauth: Clients['oauth'],
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** Whether the origin is allowed for the application, or (appId '') for any application. */
  async allowed(origin: string, appId = ''): Promise<boolean> {
    if (origin.length > 300) return false;
    const key = `${appId}\n${origin}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.allowed;
    const { allowed } = await this.oauth.checkOrigin({ origin, appId });
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { allowed, until: Date.now() + this.ttlMs });
    return allowed;
  }

  /**
   * Drops what this replica remembers about the application's origins, and every answer for
   * "any application" (a change to one application's list can change those), so that a change
   * made through this gateway holds at once here; other replicas follow within the TTL.
   */
  forgetApplication(appId: string): void {
    for (const key of this.cache.keys()) {
      const app = key.slice(0, key.indexOf('\n'));
      if (app === appId || app === '') this.cache.delete(key);
    }
  }
}

const BEARER = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)$/i;

/**
 * Accepts a consent session token where it is allowed and hands every other bearer token to
 * `regular` (the access-token check). A session token is verified like an access token (same
 * keys, issuer, audience) but with its own `typ`, so neither can stand in for the other.
 */
export function sessionOr(
  regular: RequestHandler,
  opts: {
    keys: KeyStore;
    issuer: string;
    baseUrl: string;
    origins: OriginCache;
    dataprocessing: Clients['dataprocessing'];
    /** Access tokens already verified: they are not session tokens, so their header need not be decoded again. */
    verified?: Pick<VerifiedTokens, 'known'>;
  },
): RequestHandler {
  return async (req, res, next) => {
    const match = BEARER.exec((req.get('authorization') ?? '').trim());
    if (match && opts.verified?.known(match[1]!)) return regular(req, res, next);
    let typ: unknown;
    try {
      typ = match ? decodeProtectedHeader(match[1]!).typ : undefined;
    } catch {
      typ = undefined; // not a JWT: the regular check answers
    }
    if (typ !== SESSION_TOKEN_TYPE) return regular(req, res, next);

    let payload;
    try {
      ({ payload } = await jwtVerify(
        match![1]!,
        async (h) => {
          const key = await opts.keys.key(h.kid);
          if (!key) throw new joseErrors.JWKSNoMatchingKey();
          return key;
        },
        { issuer: opts.issuer, audience: 'accord', typ: SESSION_TOKEN_TYPE, algorithms: ['ES256', 'RS256'] },
      ));
    } catch (err) {
      const detail = err instanceof joseErrors.JWTExpired ? 'The consent session has expired.' : 'The consent session token is not valid.';
      if (err instanceof joseErrors.JOSEError)
        throw new HttpProblem(401, 'Unauthorized', detail, [], {
          'WWW-Authenticate': `Bearer realm="accord", error="invalid_token", error_description="${detail}"`,
        });
      throw err;
    }
    const s: ConsentSession = {
      accountId: String(payload.acc ?? ''),
      appId: String(payload.app ?? ''),
      subject: String(payload.sub ?? ''),
      issuer: String(payload.cis ?? ''),
      ...(typeof payload.grp === 'string' ? { groupId: payload.grp } : {}),
      ...(Array.isArray(payload.tgt) ? { targets: payload.tgt.map(String) } : {}),
      expiresAt: new Date((payload.exp ?? 0) * 1000),
    };
    if (!s.accountId || !s.appId || !s.subject || !s.issuer) throw new HttpProblem(401, 'Unauthorized', 'The consent session token lacks its claims.');
    if (req.get('x-api-key')) throw HttpProblem.field('x-api-key', 'must not be sent with a consent session token: API keys never belong in a browser');
    const origin = req.get('origin');
    if (origin && !(await opts.origins.allowed(origin, s.appId)))
      throw forbidden(
        `The origin ${origin} is not allowed for this application (the console's Applications page, or npm run -s admin -- set-origins).`,
        'origin-not-allowed',
      );

    checkSessionRight(s, declaredPermission(res), { method: req.method, query: req.query as Record<string, unknown>, body: req.body }, opts.baseUrl);
    if (req.method === 'POST' && s.groupId && !s.targets) await checkGroupTargets(s, req, opts.dataprocessing);

    req.consentSession = s;
    req.auth = { accountId: s.accountId, appId: s.appId, clientId: `session:${String(payload.jti ?? '')}`, scopes: [] };
    next();
  };
}

/** A group session posts only to the targets of its group's consent request. */
async function checkGroupTargets(s: ConsentSession, req: Request, dp: Clients['dataprocessing']): Promise<void> {
  let targets: Set<string>;
  try {
    const cr = await dp.getConsentRequest({ accountId: s.accountId, groupId: s.groupId!, language: '', textType: '' });
    targets = new Set(cr.items.map((i) => i.target));
  } catch (err) {
    if (isServiceError(err) && err.code === Code.NOT_FOUND) throw forbidden('The group of this consent session no longer exists.', 'session-group');
    throw err;
  }
  const items = (Array.isArray(req.body) ? req.body : [req.body]) as Array<Record<string, unknown> | null>;
  for (const item of items) {
    if (item && typeof item === 'object' && !targets.has(String(item.target)))
      throw forbidden('This target is not a consent target of the session group.', 'session-target');
  }
}
