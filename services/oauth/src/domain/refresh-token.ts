import { PREFIX, type CredentialCrypto } from './secrets';

/** What a refresh token names: a token family and the generation it was issued as. */
export interface RefreshTokenClaim {
  familyId: string;
  gen: number;
}

const SHAPE = /^rt_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(0|[1-9]\d{0,8})\.([\w-]{43})$/;

const macInput = (c: RefreshTokenClaim) => `accord/refresh-token/v2:${c.familyId}.${c.gen}`;

/**
 * A refresh token is `rt_<family id>.<generation>.<MAC>`, the MAC being the HMAC-SHA256 (under
 * the credential key) of the family and generation. It cannot be forged without ACCORD_HASH_KEY,
 * so the store keeps nothing per token: the family document holds the live generation, and a
 * token with a valid MAC but an older generation is proof of reuse.
 */
export function formatRefreshToken(crypto: CredentialCrypto, claim: RefreshTokenClaim): string {
  return `${PREFIX.refreshToken}${claim.familyId}.${claim.gen}.${crypto.hash(macInput(claim))}`;
}

/** The claim of a well-formed token whose MAC verifies (constant time), otherwise null. */
export function parseRefreshToken(crypto: CredentialCrypto, token: string): RefreshTokenClaim | null {
  const m = token.length <= 128 ? SHAPE.exec(token) : null;
  if (!m) return null;
  const claim = { familyId: m[1]!, gen: Number(m[2]) };
  return crypto.verify(macInput(claim), m[3]!) ? claim : null;
}
