import { importJWK, type KeyLike } from 'jose';
import { jwkToJson, type Logger } from '@accord/common';
import type { commonv1 } from '@accord/proto';

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
