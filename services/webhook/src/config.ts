import {
  accountLimitsEnv,
  baseEnv,
  csv,
  DEFAULT_PORTS,
  msListEnv,
  grpcPortEnv,
  loadConfig,
  mongoEnv,
  natsEnv,
  natsPrefixEnv,
  parseDuration,
  parseDurationList,
  platformAuthEnv,
  serviceAuthEnv,
} from '@accord/common';
import { contracts } from '@accord/proto';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const { DELIVERY } = contracts.webhooks;

export const configShape = {
  ...baseEnv,
  ...mongoEnv,
  ...natsEnv,
  ...natsPrefixEnv,
  ...grpcPortEnv(DEFAULT_PORTS.webhook),
  ...serviceAuthEnv,
  ...platformAuthEnv,
  // the account limits of platform callers over gRPC (the gateway's, for REST)
  ...accountLimitsEnv,
  /** CIDRs exempt from the SSRF guard (e.g. `127.0.0.0/8,::1/128` for local receivers). Default: none. */
  ACCORD_WEBHOOK_ALLOW_CIDRS: csv.refine((list) => list.every((c) => ipaddr.isValidCIDR(c)), 'expected comma-separated CIDRs, e.g. 127.0.0.0/8,::1/128'),
  /** A delivery attempt succeeds on a 2xx within this time. */
  ACCORD_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(DELIVERY.timeoutMs),
  /**
   * Delays between attempts in ms, comma-separated (the first attempt is immediate); jittered by
   * ±ACCORD_WEBHOOK_JITTER. Was ACCORD_WEBHOOK_RETRY_SCHEDULE (`5s,5m,…`).
   */
  ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: msListEnv(parseDurationList(DELIVERY.retrySchedule.join(','))),
  ACCORD_WEBHOOK_JITTER: z.coerce.number().min(0).max(0.5).default(DELIVERY.jitter),
  /** How long a rotated-out secret keeps signing alongside the new one (ms); was ACCORD_WEBHOOK_SECRET_GRACE (`24h`). */
  ACCORD_WEBHOOK_SECRET_GRACE_MS: z.coerce.number().int().min(0).default(parseDuration(DELIVERY.secretGrace)),
  /**
   * Longest pause of the one idle worker that watches the queue for due retries (it backs off
   * from 50 ms and wakes earlier when the next retry falls due; new events wake workers at once).
   */
  ACCORD_WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(2_000),
  /** Lease on a claimed attempt; must exceed the timeout. A crashed replica's leases expire after it. */
  ACCORD_WEBHOOK_LEASE_MS: z.coerce.number().int().min(1_000).optional(),
  /** Attempts in flight at once per replica. */
  ACCORD_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(32),
};

export type Config = ReturnType<typeof loadConfig<typeof configShape>>;

/** Lease length: the configured one, or the timeout plus 30 s. */
export function leaseMs(config: Config): number {
  const lease = config.ACCORD_WEBHOOK_LEASE_MS ?? config.ACCORD_WEBHOOK_TIMEOUT_MS + 30_000;
  if (lease <= config.ACCORD_WEBHOOK_TIMEOUT_MS + 1_000) throw new Error('ACCORD_WEBHOOK_LEASE_MS must exceed ACCORD_WEBHOOK_TIMEOUT_MS by more than 1 s');
  return lease;
}
