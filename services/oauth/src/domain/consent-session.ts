import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { FieldError, SigningKey } from '@accord/common';
import { contracts } from '@accord/proto';
import { ACCESS_TOKEN_AUDIENCE } from './access-token';

/** The JWT `typ` of consent session tokens: never accepted where an access token (at+jwt) is expected. */
export const SESSION_TOKEN_TYPE = 'accord-session+jwt';
/** The session contract's limits (@accord/proto contracts/sessions.ts), which the gateway's document states. */
const { LIMITS } = contracts.sessions;
export const SESSION_DEFAULT_TTL = LIMITS.ttlDefault;
export const SESSION_MAX_TTL = LIMITS.ttlMax;
const MAX_ORIGINS = 50;

export interface ConsentSessionInput {
  accountId: string;
  appId: string;
  subject: string;
  issuer: string;
  groupId: string;
  targets: string[];
  ttlSeconds: number;
}

/** Field errors of a session request (empty when it is valid). */
export function checkSessionInput(i: ConsentSessionInput): FieldError[] {
  const errors: FieldError[] = [];
  const text = (name: 'subject' | 'issuer', v: string) => {
    if (!v.trim()) errors.push({ field: `/${name}`, message: 'is required' });
    else if (contracts.longerThan(v, LIMITS[name])) errors.push({ field: `/${name}`, message: `must be at most ${LIMITS[name]} characters` });
    // the consent service refuses such an identifier on every event: a session for one would be refused too (contracts/consent.ts)
    else if (contracts.consent.holdsReplacement(v)) errors.push({ field: `/${name}`, message: contracts.consent.IDENTIFIER_MESSAGE });
  };
  if (!i.accountId) errors.push({ field: '/account_id', message: 'is required' });
  if (!i.appId) errors.push({ field: '/app_id', message: 'is required' });
  text('subject', i.subject);
  text('issuer', i.issuer);
  if (i.groupId && (i.groupId.length > LIMITS.groupIdLength || !/^[A-Za-z0-9_-]+$/.test(i.groupId)))
    errors.push({ field: '/groupId', message: 'is not a group id' });
  if (!i.groupId && i.targets.length === 0) errors.push({ field: '/groupId', message: 'a groupId or at least one target is required' });
  if (i.targets.length > LIMITS.targets) errors.push({ field: '/targets', message: `at most ${LIMITS.targets} targets` });
  i.targets.forEach((t, n) => {
    if (!t || contracts.longerThan(t, LIMITS.target)) errors.push({ field: `/targets/${n}`, message: `must be 1 to ${LIMITS.target} characters` });
    else if (contracts.consent.holdsReplacement(t)) errors.push({ field: `/targets/${n}`, message: contracts.consent.IDENTIFIER_MESSAGE });
  });
  if (!Number.isInteger(i.ttlSeconds) || i.ttlSeconds < 0 || i.ttlSeconds > SESSION_MAX_TTL) {
    errors.push({ field: '/ttlSeconds', message: `must be an integer from 1 to ${SESSION_MAX_TTL}` });
  }
  return errors;
}

/**
 * Signs a consent session token. Claims: iss, aud, sub = subject, acc, app, cis = consent
 * issuer, grp = group id (optional), tgt = targets (optional), jti, iat, exp.
 */
export async function signSessionToken(
  key: SigningKey,
  opts: { issuer: string; now: Date },
  i: ConsentSessionInput,
): Promise<{ token: string; expiresAt: Date }> {
  const iat = Math.floor(opts.now.getTime() / 1000);
  const exp = iat + (i.ttlSeconds || SESSION_DEFAULT_TTL);
  const token = await new SignJWT({
    acc: i.accountId,
    app: i.appId,
    cis: i.issuer,
    ...(i.groupId ? { grp: i.groupId } : {}),
    ...(i.targets.length ? { tgt: i.targets } : {}),
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: SESSION_TOKEN_TYPE })
    .setIssuer(opts.issuer)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setSubject(i.subject)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key.privateKey);
  return { token, expiresAt: new Date(exp * 1000) };
}

/**
 * Canonical browser origins (`scheme://host[:port]`, lower case, default ports dropped), or the
 * field errors. Paths, queries, credentials and wildcards are refused: an origin is exact.
 */
export function parseOrigins(raw: string[]): { origins: string[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const out = new Set<string>();
  if (raw.length > MAX_ORIGINS) errors.push({ field: '/origins', message: `at most ${MAX_ORIGINS} origins` });
  raw.forEach((o, n) => {
    const origin = canonicalOrigin(o);
    if (!origin) errors.push({ field: `/origins/${n}`, message: 'must be an origin: http(s)://host[:port] without path, query or wildcard' });
    else out.add(origin);
  });
  return { origins: [...out], errors };
}

/** The canonical form of one origin, or null when it is not an http(s) origin. */
export function canonicalOrigin(o: string): string | null {
  const s = o.trim();
  if (!s || s.length > 300 || s.includes('*')) return null;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) return null;
  if (!/^[a-z]+:\/\/[^/?#]+\/?$/i.test(s)) return null;
  return u.origin;
}
