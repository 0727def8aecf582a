/** A rate (tokens per second) and a burst (bucket size); a rate or burst of 0 means no limit. */
export interface BucketPolicy {
  rate: number;
  burst: number;
}

export interface Take {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until one token is available again (0 when allowed). */
  retryAfter: number;
  /** Seconds until the bucket is full again. */
  reset: number;
}

export const unlimited = (p: BucketPolicy): boolean => p.rate <= 0 || p.burst <= 0;

/**
 * A token bucket kept as (tokens, time of last update): refilled lazily at `rate` per second up
 * to `burst`; a request takes one token or is refused. No timers; pure arithmetic on `now`.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(policy: BucketPolicy, now: number) {
    this.tokens = policy.burst;
    this.at = now;
  }

  /** Refills to `now`; `cost` tokens are taken when there are enough (cost 0 only looks). */
  take(policy: BucketPolicy, now: number, cost = 1): Take {
    this.tokens = Math.min(policy.burst, this.tokens + (Math.max(0, now - this.at) / 1000) * policy.rate);
    this.at = Math.max(this.at, now);
    const allowed = this.tokens >= cost;
    if (allowed) this.tokens -= cost;
    // A tiny epsilon so that float residue never reports 0 remaining on an exact refill.
    const whole = Math.floor(this.tokens + 1e-9);
    return {
      allowed,
      remaining: whole,
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((Math.max(cost, 1) - this.tokens) / policy.rate)),
      reset: Math.ceil((policy.burst - this.tokens) / policy.rate),
    };
  }

  /** True when a request would be admitted at `now` (nothing is taken). */
  admits(policy: BucketPolicy, now: number): boolean {
    return this.tokens + (Math.max(0, now - this.at) / 1000) * policy.rate >= 1;
  }

  /** True when the bucket would be full at `now` (it can be forgotten). */
  full(policy: BucketPolicy, now: number): boolean {
    return this.tokens + (Math.max(0, now - this.at) / 1000) * policy.rate >= policy.burst;
  }
}

/**
 * Buckets by key, bounded: when `maxKeys` is reached, full buckets (nothing to remember) are
 * forgotten first, then the oldest. Keys are account, application, client ids or addresses.
 */
export class BucketMap {
  private buckets = new Map<string, TokenBucket>();

  constructor(private readonly maxKeys = 100_000) {}

  take(key: string, policy: BucketPolicy, now = Date.now(), cost = 1): Take {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= this.maxKeys) this.evict(policy, now);
      b = new TokenBucket(policy, now);
      this.buckets.set(key, b);
    }
    return b.take(policy, now, cost);
  }

  /** True when a request under `key` would be admitted now (a new key always is). */
  admits(key: string, policy: BucketPolicy, now = Date.now()): boolean {
    return this.buckets.get(key)?.admits(policy, now) ?? policy.burst >= 1;
  }

  get size(): number {
    return this.buckets.size;
  }

  private evict(policy: BucketPolicy, now: number): void {
    for (const [k, b] of this.buckets) if (b.full(policy, now)) this.buckets.delete(k);
    while (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
  }
}
