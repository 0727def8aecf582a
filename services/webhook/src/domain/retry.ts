/**
 * Retry policy of deliveries (Svix-like): the first attempt is immediate; after the n-th failed
 * attempt the next one waits `schedule[n-1]` (± jitter), or at least what the receiver asked for
 * with `Retry-After`. After `schedule.length + 1` attempts the delivery has failed for good.
 */
export interface RetryPolicy {
  /** Delays between attempts in ms. */
  schedule: number[];
  /** Relative jitter, e.g. 0.2 = ±20 %. */
  jitter: number;
}

/** Longest wait a receiver can ask for with Retry-After. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** Delay before the next attempt, or null when `failedAttempts` used up the schedule. */
export function nextRetryDelay(policy: RetryPolicy, failedAttempts: number, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  if (failedAttempts < 1 || failedAttempts > policy.schedule.length) return null;
  const base = policy.schedule[failedAttempts - 1]!;
  const jittered = Math.round(base * (1 + policy.jitter * (2 * random() - 1)));
  if (retryAfterMs === null) return jittered;
  // Never earlier than the receiver asked (up to a day), never earlier than the schedule says.
  return Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in ms from `now`; null when absent or invalid. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  const trimmed = v.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
