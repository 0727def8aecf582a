import { status } from '@grpc/grpc-js';
import { z } from 'zod';
import type { limitsv1 } from '@accord/proto';
import type { Logger } from './logger';
import { BucketMap, unlimited, type BucketPolicy, type Take } from './token-bucket';

const rate = (d: number) => z.coerce.number().min(0).max(1e6).default(d);
const count = (d: number) => z.coerce.number().int().min(0).default(d);

/**
 * The default limits of an account, each a token bucket of `_RPS` tokens per second and `_BURST`
 * tokens (0 switches a limit off). Accounts can override them (admin `limits` command,
 * LimitsService.SetAccountLimits). The gateway applies them to REST, and each service to its
 * platform callers over gRPC, with this one implementation.
 */
export const accountLimitsEnv = {
  /** Requests per second and burst of a whole account (all its applications). */
  ACCORD_LIMIT_ACCOUNT_RPS: rate(1000),
  ACCORD_LIMIT_ACCOUNT_BURST: count(2000),
  /** Requests per second and burst of each application. */
  ACCORD_LIMIT_APP_RPS: rate(500),
  ACCORD_LIMIT_APP_BURST: count(1000),
  /** Events in one write (an array POST /consent/v0/consents, a CreateConsents call), and per account per UTC day. */
  ACCORD_LIMIT_EVENTS_PER_REQUEST: count(0),
  ACCORD_LIMIT_EVENTS_PER_DAY: count(0),
  /** How long an account's limit overrides are remembered (ms). */
  ACCORD_LIMIT_CACHE_MS: z.coerce.number().int().min(0).default(30_000),
};

export interface AccountLimitsConfig {
  ACCORD_LIMIT_ACCOUNT_RPS: number;
  ACCORD_LIMIT_ACCOUNT_BURST: number;
  ACCORD_LIMIT_APP_RPS: number;
  ACCORD_LIMIT_APP_BURST: number;
  ACCORD_LIMIT_EVENTS_PER_REQUEST: number;
  ACCORD_LIMIT_EVENTS_PER_DAY: number;
  ACCORD_LIMIT_CACHE_MS: number;
}

/** The limits that apply to one account: its overrides over the configured defaults. */
export interface EffectiveLimits {
  account: BucketPolicy;
  app: BucketPolicy;
  maxEventsPerRequest: number;
  maxEventsPerDay: number;
}

/** One replica's share of a bucket policy, when `replicas` processes share it. */
export function share(policy: BucketPolicy, replicas: number): BucketPolicy {
  if (unlimited(policy) || replicas <= 1) return policy;
  return { rate: policy.rate / replicas, burst: Math.max(1, Math.floor(policy.burst / replicas)) };
}

export function mergeLimits(config: AccountLimitsConfig, o: limitsv1.AccountLimits = {}, replicas = 1): EffectiveLimits {
  return {
    account: share({ rate: o.requestsPerSecond ?? config.ACCORD_LIMIT_ACCOUNT_RPS, burst: o.burst ?? config.ACCORD_LIMIT_ACCOUNT_BURST }, replicas),
    app: share({ rate: o.appRequestsPerSecond ?? config.ACCORD_LIMIT_APP_RPS, burst: o.appBurst ?? config.ACCORD_LIMIT_APP_BURST }, replicas),
    maxEventsPerRequest: o.maxEventsPerRequest ?? config.ACCORD_LIMIT_EVENTS_PER_REQUEST,
    maxEventsPerDay: o.maxEventsPerDay ?? config.ACCORD_LIMIT_EVENTS_PER_DAY,
  };
}

/** One applied bucket (for RateLimit headers). */
export interface AppliedLimit {
  name: 'account' | 'app';
  policy: BucketPolicy;
  take: Take;
}

/** What the account's and application's buckets said of one request. */
export interface RequestAdmission {
  applied: AppliedLimit[];
  /** The limit that refused it, and the seconds until it admits one again. */
  refused?: { name: 'account' | 'app'; retryAfter: number };
}

/** What the events of one write did to the account's limits. */
export type EventCharge =
  | { outcome: 'unlimited' }
  | { outcome: 'too-many-in-request'; max: number }
  | { outcome: 'over-daily'; max: number; used: number; resetSeconds: number }
  | { outcome: 'charged'; max: number; used: number; resetSeconds: number };

/**
 * gRPC codes with which a service refuses a write before storing any of it: its validation,
 * ownership checks and lookups run first, and a write is all or nothing. Any other failure (a
 * deadline passing, a call cancelled or dropped, an internal error) can come after the write was
 * stored, and so can UNAVAILABLE (a connection lost while the answer was on its way): the events of
 * those stay counted.
 */
export const REFUSED_BEFORE_STORING = new Set<number>([
  status.INVALID_ARGUMENT,
  status.FAILED_PRECONDITION,
  status.OUT_OF_RANGE,
  status.NOT_FOUND,
  status.ALREADY_EXISTS,
  status.PERMISSION_DENIED,
  status.UNAUTHENTICATED,
  status.RESOURCE_EXHAUSTED,
  status.UNIMPLEMENTED,
]);

type LimitsClient = {
  getAccountLimits(req: limitsv1.GetAccountLimitsRequest): Promise<limitsv1.AccountLimitsResponse>;
  consumeDailyEvents(req: limitsv1.ConsumeDailyEventsRequest): Promise<limitsv1.ConsumeDailyEventsResponse>;
};

/**
 * The limits of accounts as one process enforces them: buckets of this process (each of
 * `replicas` processes takes its share), the overrides of accounts fetched from the oauth
 * service's LimitsService and remembered for ACCORD_LIMIT_CACHE_MS, and the daily event count,
 * which is shared state in the oauth service (exact with any number of processes).
 */
export class AccountLimits {
  readonly accounts = new BucketMap();
  readonly apps = new BucketMap();
  private cache = new Map<string, { limits: EffectiveLimits; until: number }>();

  constructor(
    readonly config: AccountLimitsConfig,
    private readonly client: LimitsClient,
    protected readonly logger: Logger,
    readonly replicas = 1,
  ) {}

  /** The account's effective limits; with the oauth service unreachable, the defaults. */
  async limitsOf(accountId: string): Promise<EffectiveLimits> {
    const hit = this.cache.get(accountId);
    if (hit && hit.until > Date.now()) return hit.limits;
    let limits: EffectiveLimits;
    try {
      limits = mergeLimits(this.config, (await this.client.getAccountLimits({ accountId })).limits, this.replicas);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'cannot read account limits; applying the defaults');
      return hit?.limits ?? mergeLimits(this.config, {}, this.replicas);
    }
    if (this.cache.size >= 100_000) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(accountId, { limits, until: Date.now() + this.config.ACCORD_LIMIT_CACHE_MS });
    return limits;
  }

  /**
   * One request of an application: admitted only when the account's and the application's buckets
   * both have a token, and only then are both taken.
   */
  admitRequest(accountId: string, appId: string, limits: EffectiveLimits, now = Date.now()): RequestAdmission {
    const checks = [
      { name: 'account' as const, map: this.accounts, key: accountId, policy: limits.account },
      { name: 'app' as const, map: this.apps, key: appId, policy: limits.app },
    ].filter((c) => !unlimited(c.policy));
    const refused = checks.find((c) => !c.map.admits(c.key, c.policy, now));
    const applied: AppliedLimit[] = checks.map((c) => ({ name: c.name, policy: c.policy, take: c.map.take(c.key, c.policy, now, refused ? 0 : 1) }));
    if (!refused) return { applied };
    const take = applied.find((a) => a.name === refused.name)!.take;
    return { applied, refused: { name: refused.name, retryAfter: Math.max(1, Math.ceil((1 - take.remaining) / refused.policy.rate)) } };
  }

  /** Counts `count` events of one write against the account's limits (per write, and per UTC day in the oauth service). */
  async chargeEvents(accountId: string, count: number, limits: EffectiveLimits): Promise<EventCharge> {
    if (limits.maxEventsPerRequest > 0 && count > limits.maxEventsPerRequest) return { outcome: 'too-many-in-request', max: limits.maxEventsPerRequest };
    if (limits.maxEventsPerDay <= 0 || count === 0) return { outcome: 'unlimited' };
    const r = await this.client.consumeDailyEvents({ accountId, count, maxPerDay: limits.maxEventsPerDay });
    const day = { max: limits.maxEventsPerDay, used: r.used, resetSeconds: r.resetSeconds };
    return r.allowed ? { outcome: 'charged', ...day } : { outcome: 'over-daily', ...day };
  }

  /** Gives back the events of a write that certainly stored none of them. */
  refundEvents(accountId: string, count: number, limits: EffectiveLimits): void {
    void this.client.consumeDailyEvents({ accountId, count: -count, maxPerDay: limits.maxEventsPerDay }).catch(() => undefined);
  }
}
