import type { Response } from 'express';
import { Counter, metricsRegistry, type Logger } from '@accord/common';
import type { limitsv1 } from '@accord/proto';
import type { Clients } from '../clients';
import type { Config } from '../config';
import { BucketMap, unlimited, type BucketPolicy, type Take } from './token-bucket';

/** Requests refused by a limit, by limit name (a fixed set; never ids). */
export const rateLimited = new Counter({
  name: 'accord_gateway_rate_limited_total',
  help: 'Requests refused with 429 by the gateway, by limit.',
  labelNames: ['limit'] as const,
  registers: [metricsRegistry],
});

export type LimitName = 'account' | 'app' | 'client' | 'auth-failures-client' | 'auth-failures-address' | 'events-per-day';

/** The limits that apply to one account: its overrides over the configured defaults. */
export interface EffectiveLimits {
  account: BucketPolicy;
  app: BucketPolicy;
  maxEventsPerRequest: number;
  maxEventsPerDay: number;
}

/** This replica's share of a bucket policy (see ACCORD_GATEWAY_REPLICAS). */
export function share(policy: BucketPolicy, replicas: number): BucketPolicy {
  if (unlimited(policy) || replicas <= 1) return policy;
  return { rate: policy.rate / replicas, burst: Math.max(1, Math.floor(policy.burst / replicas)) };
}

export function mergeLimits(config: Config, o: limitsv1.AccountLimits = {}): EffectiveLimits {
  const n = config.ACCORD_GATEWAY_REPLICAS;
  return {
    account: share({ rate: o.requestsPerSecond ?? config.ACCORD_LIMIT_ACCOUNT_RPS, burst: o.burst ?? config.ACCORD_LIMIT_ACCOUNT_BURST }, n),
    app: share({ rate: o.appRequestsPerSecond ?? config.ACCORD_LIMIT_APP_RPS, burst: o.appBurst ?? config.ACCORD_LIMIT_APP_BURST }, n),
    maxEventsPerRequest: o.maxEventsPerRequest ?? config.ACCORD_LIMIT_EVENTS_PER_REQUEST,
    maxEventsPerDay: o.maxEventsPerDay ?? config.ACCORD_LIMIT_EVENTS_PER_DAY,
  };
}

/** One applied bucket, for the RateLimit headers. */
export interface Applied {
  name: LimitName;
  policy: BucketPolicy;
  take: Take;
}

/** Window of a token bucket for RateLimit-Policy: the seconds it takes to refill from empty. */
const windowOf = (p: BucketPolicy) => Math.max(1, Math.ceil(p.burst / p.rate));

/**
 * IETF RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers, structured
 * field lists): one item per limit that applied, `q` its burst, `w` its refill window, `r` the
 * requests left, `t` the seconds until the bucket is full again.
 */
export function setRateLimitHeaders(res: Response, applied: Applied[]): void {
  if (!applied.length) return;
  res.setHeader('RateLimit-Policy', applied.map((a) => `"${a.name}";q=${a.policy.burst};w=${windowOf(a.policy)}`).join(', '));
  res.setHeader('RateLimit', applied.map((a) => `"${a.name}";r=${a.take.remaining};t=${a.take.reset}`).join(', '));
}

/**
 * The gateway's limits state: buckets of this replica, and the overrides of accounts fetched
 * from the oauth service's LimitsService and remembered for ACCORD_LIMIT_CACHE_MS.
 */
export class Limiter {
  readonly accounts = new BucketMap();
  readonly apps = new BucketMap();
  readonly clients = new BucketMap();
  readonly failuresByClient = new BucketMap();
  readonly failuresByAddress = new BucketMap();
  private cache = new Map<string, { limits: EffectiveLimits; until: number }>();

  constructor(
    readonly config: Config,
    private readonly client: Clients['limits'],
    private readonly logger: Logger,
  ) {}

  get tokenPolicy(): BucketPolicy {
    return share({ rate: this.config.ACCORD_LIMIT_TOKEN_RPS, burst: this.config.ACCORD_LIMIT_TOKEN_BURST }, this.config.ACCORD_GATEWAY_REPLICAS);
  }
  get failuresClientPolicy(): BucketPolicy {
    return share(
      { rate: this.config.ACCORD_LIMIT_AUTH_FAILURES_CLIENT_RPS, burst: this.config.ACCORD_LIMIT_AUTH_FAILURES_CLIENT_BURST },
      this.config.ACCORD_GATEWAY_REPLICAS,
    );
  }
  get failuresAddressPolicy(): BucketPolicy {
    return share(
      { rate: this.config.ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_RPS, burst: this.config.ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_BURST },
      this.config.ACCORD_GATEWAY_REPLICAS,
    );
  }

  /** The account's effective limits; with the oauth service unreachable, the defaults. */
  async limitsOf(accountId: string): Promise<EffectiveLimits> {
    const hit = this.cache.get(accountId);
    if (hit && hit.until > Date.now()) return hit.limits;
    let limits: EffectiveLimits;
    try {
      limits = mergeLimits(this.config, (await this.client.getAccountLimits({ accountId })).limits);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'cannot read account limits; applying the defaults');
      return hit?.limits ?? mergeLimits(this.config);
    }
    if (this.cache.size >= 100_000) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(accountId, { limits, until: Date.now() + this.config.ACCORD_LIMIT_CACHE_MS });
    return limits;
  }

  /** Counts events against the account's day (shared state in the oauth service). */
  consumeDailyEvents(accountId: string, count: number, maxPerDay: number): Promise<limitsv1.ConsumeDailyEventsResponse> {
    return this.client.consumeDailyEvents({ accountId, count, maxPerDay });
  }
}
