import type { Response } from 'express';
import { AccountLimits, BucketMap, Counter, metricsRegistry, share, type AppliedLimit, type BucketPolicy, type Logger, type Take } from '@accord/common';
import type { Clients } from '../grpc/clients';
import type { Config } from '../config';

/** Requests refused by a limit, by limit name (a fixed set; never ids). */
export const rateLimited = new Counter({
  name: 'accord_gateway_rate_limited_total',
  help: 'Requests refused with 429 by the gateway, by limit.',
  labelNames: ['limit'] as const,
  registers: [metricsRegistry],
});

export type LimitName = 'account' | 'app' | 'client' | 'auth-failures-client' | 'auth-failures-address' | 'events-per-day';

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
export function setRateLimitHeaders(res: Response, applied: Array<Applied | AppliedLimit>): void {
  if (!applied.length) return;
  res.setHeader('RateLimit-Policy', applied.map((a) => `"${a.name}";q=${a.policy.burst};w=${windowOf(a.policy)}`).join(', '));
  res.setHeader('RateLimit', applied.map((a) => `"${a.name}";r=${a.take.remaining};t=${a.take.reset}`).join(', '));
}

/**
 * The gateway's limits state: the account limits every entry point shares (AccountLimits, this
 * replica's share of them: ACCORD_GATEWAY_REPLICAS), and the token endpoint's own buckets.
 */
export class Limiter extends AccountLimits {
  readonly clients = new BucketMap();
  readonly failuresByClient = new BucketMap();
  readonly failuresByAddress = new BucketMap();

  constructor(
    readonly gatewayConfig: Config,
    client: Clients['limits'],
    logger: Logger,
  ) {
    super(gatewayConfig, client, logger, gatewayConfig.ACCORD_GATEWAY_REPLICAS);
  }

  get tokenPolicy(): BucketPolicy {
    const c = this.gatewayConfig;
    return share({ rate: c.ACCORD_LIMIT_TOKEN_RPS, burst: c.ACCORD_LIMIT_TOKEN_BURST }, this.replicas);
  }
  get failuresClientPolicy(): BucketPolicy {
    const c = this.gatewayConfig;
    return share({ rate: c.ACCORD_LIMIT_AUTH_FAILURES_CLIENT_RPS, burst: c.ACCORD_LIMIT_AUTH_FAILURES_CLIENT_BURST }, this.replicas);
  }
  get failuresAddressPolicy(): BucketPolicy {
    const c = this.gatewayConfig;
    return share({ rate: c.ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_RPS, burst: c.ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_BURST }, this.replicas);
  }
}
