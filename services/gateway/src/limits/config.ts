import { z } from 'zod';

const rate = (d: number) => z.coerce.number().min(0).max(1e6).default(d);
const count = (d: number) => z.coerce.number().int().min(0).default(d);

/**
 * Default limits (env), each a token bucket of `_RPS` tokens per second and `_BURST` tokens;
 * 0 switches a limit off. Accounts can override the account, application and event limits
 * (admin `limits` command, LimitsService.SetAccountLimits).
 */
export const limitsEnv = {
  /** Requests per second and burst of a whole account (all its applications). */
  ACCORD_LIMIT_ACCOUNT_RPS: rate(1000),
  ACCORD_LIMIT_ACCOUNT_BURST: count(2000),
  /** Requests per second and burst of each application. */
  ACCORD_LIMIT_APP_RPS: rate(500),
  ACCORD_LIMIT_APP_BURST: count(1000),
  /** Token requests per second and burst per client id. */
  ACCORD_LIMIT_TOKEN_RPS: rate(10),
  ACCORD_LIMIT_TOKEN_BURST: count(50),
  /** Failed client authentications per client id (refill per second, burst)… */
  ACCORD_LIMIT_AUTH_FAILURES_CLIENT_RPS: rate(0.2),
  ACCORD_LIMIT_AUTH_FAILURES_CLIENT_BURST: count(20),
  /** …and per source address. */
  ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_RPS: rate(1),
  ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_BURST: count(100),
  /** Events in one array POST /consent/v0/consents, and per account per UTC day. */
  ACCORD_LIMIT_EVENTS_PER_REQUEST: count(0),
  ACCORD_LIMIT_EVENTS_PER_DAY: count(0),
  /**
   * Gateway replicas sharing the request limits: each enforces rate/N and burst/N (its share),
   * which is exact with one replica and close to exact behind an even load balancer. The daily
   * event limit is shared state in the oauth service and exact with any number of replicas.
   */
  ACCORD_GATEWAY_REPLICAS: z.coerce.number().int().min(1).default(1),
  /** How long an account's limit overrides are remembered (ms). */
  ACCORD_LIMIT_CACHE_MS: z.coerce.number().int().min(0).default(30_000),
};
