import { errors as joseErrors, importJWK, jwtVerify, type JWTPayload, type KeyLike } from 'jose';
import { LRUCache } from 'lru-cache';
import type { commonv1 } from '@accord/proto';
import { jwkToJson } from './keys';
import type { Logger } from './logger';

/**
 * Caches a JWKS fetched from a service. Keys are refetched when the cache is older than
 * `ttlMs`, or when an unknown `kid` shows up (at most once per `minRefetchMs`, so a flood of
 * forged kids cannot hammer the oauth service).
 */
export class KeyStore {
  private keys = new Map<string, { jwk: commonv1.Jwk; key?: KeyLike | Uint8Array }>();
  private fetchedAt = 0;
  private inflight?: Promise<void>;

  constructor(
    private readonly fetchKeys: () => Promise<commonv1.Jwk[]>,
    private readonly ttlMs: number,
    private readonly logger: Logger,
    private readonly minRefetchMs = 5_000,
  ) {}

  /** The public key for `kid`, or undefined when no such key is published. */
  async key(kid: string | undefined): Promise<KeyLike | Uint8Array | undefined> {
    if (!kid) return undefined;
    const age = Date.now() - this.fetchedAt;
    if (age > this.ttlMs || (!this.keys.has(kid) && age > this.minRefetchMs)) await this.refresh();
    const entry = this.keys.get(kid);
    if (!entry) return undefined;
    entry.key ??= await importJWK({ ...jwkToJson(entry.jwk), kty: entry.jwk.kty }, entry.jwk.alg);
    return entry.key;
  }

  /** All published keys as RFC 7517 JSON. */
  async jwks(): Promise<Array<Record<string, string>>> {
    if (Date.now() - this.fetchedAt > this.ttlMs) await this.refresh();
    return [...this.keys.values()].map((e) => jwkToJson(e.jwk));
  }

  private refresh(): Promise<void> {
    this.inflight ??= this.fetchKeys()
      .then((jwks) => {
        this.keys = new Map(jwks.map((jwk) => [jwk.kid, { jwk, key: this.keys.get(jwk.kid)?.key }]));
        this.fetchedAt = Date.now();
      })
      .catch((err: unknown) => {
        // Keep serving the keys we have; the next request tries again.
        this.logger.warn({ err: (err as Error).message }, 'could not refresh keys');
        if (this.keys.size === 0) throw err;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}

/**
 * Access tokens this process has verified, with the key that verified them: a token is sent with
 * every request of its lifetime (minutes), and its ES256 verification was the largest single cost
 * of a gateway request (~13 % of its CPU on POST /consent/v0/consents), and every service verifies the same tokens of platform callers over gRPC. A hit is trusted only
 * while the token has not expired and its `kid` still resolves to the very key object that
 * verified it, so a key withdrawn from the JWKS (rotation, compromise) stops its tokens at the
 * next key refresh, as it did without the cache. Failures are never cached; bounded in size.
 */
export class VerifiedTokens {
  private readonly cache: LRUCache<string, { payload: JWTPayload; kid: string | undefined; key: KeyLike | Uint8Array; expMs: number }>;
  constructor(max = 10_000) {
    this.cache = new LRUCache({ max });
  }

  /** True when `token` was verified here as an access token (and not yet dropped): it is no session token. */
  known(token: string): boolean {
    return this.cache.has(token);
  }

  async verify(token: string, keys: KeyStore, issuer: string): Promise<JWTPayload> {
    const hit = this.cache.get(token);
    if (hit && hit.payload.iss === issuer) {
      if (hit.expMs <= Date.now()) {
        this.cache.delete(token);
        throw new joseErrors.JWTExpired('"exp" claim timestamp check failed', hit.payload, 'exp', 'check_failed');
      }
      if ((await keys.key(hit.kid)) === hit.key) return hit.payload;
      this.cache.delete(token);
    }
    let used: KeyLike | Uint8Array | undefined;
    let kid: string | undefined;
    const { payload } = await jwtVerify(
      token,
      async (h) => {
        kid = h.kid;
        used = await keys.key(h.kid);
        if (!used) throw new joseErrors.JWKSNoMatchingKey();
        return used;
      },
      { issuer, audience: 'accord', typ: 'at+jwt', algorithms: ['ES256', 'RS256'] },
    );
    // only tokens that stay valid until they expire (exp set, no future nbf) are remembered
    if (used && typeof payload.exp === 'number' && (payload.nbf === undefined || payload.nbf * 1000 <= Date.now())) {
      this.cache.set(token, { payload, kid, key: used, expMs: payload.exp * 1000 });
    }
    return payload;
  }
}

/** Who an access token says is calling: its account, application, OAuth client and scopes. */
export interface AccessClaims {
  accountId: string;
  appId: string;
  clientId: string;
  scopes: string[];
}

/** The claims of a verified access token (`acc`, `app`, `sub`, `scope`); undefined when it lacks account or application. */
export function accessClaims(payload: JWTPayload): AccessClaims | undefined {
  const claims = {
    accountId: String(payload.acc ?? ''),
    appId: String(payload.app ?? ''),
    clientId: String(payload.sub ?? ''),
    scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
  };
  return claims.accountId && claims.appId ? claims : undefined;
}

/** The token of an `Authorization: Bearer <token>` value (RFC 6750 b64token), or undefined. */
export function bearerToken(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  return /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)$/i.exec(header.trim())?.[1];
}
