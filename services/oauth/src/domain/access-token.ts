import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SigningKey } from '@accord/common';

/** The audience of every access token: the Accord gateway. */
export const ACCESS_TOKEN_AUDIENCE = 'accord';

/** The issuer of access tokens: the token endpoint's base. */
export function issuerFor(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/oauth/v0`;
}

export interface AccessTokenSubject {
  clientId: string;
  accountId: string;
  applicationId: string;
  scopes: string[];
}

/**
 * Signs an RFC 9068 style access token (typ at+jwt) with the first (current) signing key.
 * Claims: iss, aud, sub = client id, client_id, acc = account id, app = application id,
 * scope (space-separated), jti, iat, exp.
 */
export async function signAccessToken(key: SigningKey, opts: { issuer: string; ttlSeconds: number; now?: Date }, subject: AccessTokenSubject): Promise<string> {
  const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  return new SignJWT({
    client_id: subject.clientId,
    acc: subject.accountId,
    app: subject.applicationId,
    scope: subject.scopes.join(' '),
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
    .setIssuer(opts.issuer)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setSubject(subject.clientId)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + opts.ttlSeconds)
    .sign(key.privateKey);
}
