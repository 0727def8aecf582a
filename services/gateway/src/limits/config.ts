import { accountLimitsEnv } from '@accord/common';
import { z } from 'zod';

const rate = (d: number) => z.coerce.number().min(0).max(1e6).default(d);
const count = (d: number) => z.coerce.number().int().min(0).default(d);

/**
 * The gateway's limits (env): the account limits every entry point shares (accountLimitsEnv),
 * and the token endpoint's own, each a token bucket of `_RPS` tokens per second and `_BURST`
 * tokens; 0 switches a limit off.
 */
export const limitsEnv = {
  ...accountLimitsEnv,
  /** Token requests per second and burst per client id. */
  ACCORD_LIMIT_TOKEN_RPS: rate(10),
  ACCORD_LIMIT_TOKEN_BURST: count(50),
  /** Failed client authentications per client id (refill per second, burst)… */
  ACCORD_LIMIT_AUTH_FAILURES_CLIENT_RPS: rate(0.2),
  ACCORD_LIMIT_AUTH_FAILURES_CLIENT_BURST: count(20),
  /** …and per source address. */
  ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_RPS: rate(1),
  ACCORD_LIMIT_AUTH_FAILURES_ADDRESS_BURST: count(100),
  /**
   * Gateway replicas sharing the request limits: each enforces rate/N and burst/N (its share),
   * which is exact with one replica and close to exact behind an even load balancer. The daily
   * event limit is shared state in the oauth service and exact with any number of replicas.
   */
  ACCORD_GATEWAY_REPLICAS: z.coerce.number().int().min(1).default(1),
};
