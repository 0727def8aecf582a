import { InvalidArgumentError } from '@accord/common';

/** The limits an account may override (a field absent = the gateway's default). */
export const LIMIT_FIELDS = ['requestsPerSecond', 'burst', 'appRequestsPerSecond', 'appBurst', 'maxEventsPerRequest', 'maxEventsPerDay'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];
export type AccountLimits = Partial<Record<LimitField, number>>;

const INTEGER_FIELDS = new Set<LimitField>(['burst', 'appBurst', 'maxEventsPerRequest', 'maxEventsPerDay']);

/** Checks an override: finite, >= 0, integers where counts are meant. */
export function validateLimits(input: Partial<Record<LimitField, number | undefined>> | undefined): AccountLimits {
  const out: AccountLimits = {};
  for (const f of LIMIT_FIELDS) {
    const v = input?.[f];
    if (v === undefined) continue;
    if (!Number.isFinite(v) || v < 0) throw InvalidArgumentError.field(`limits.${f}`, 'must be a number >= 0 (0 = no limit)');
    if (INTEGER_FIELDS.has(f) && !Number.isInteger(v)) throw InvalidArgumentError.field(`limits.${f}`, 'must be a whole number');
    if (f === 'requestsPerSecond' || f === 'appRequestsPerSecond') {
      if (v > 1e6) throw InvalidArgumentError.field(`limits.${f}`, 'must be at most 1000000');
    }
    out[f] = v;
  }
  return out;
}

const DAY_MS = 86_400_000;

/**
 * The day an account's daily event count runs in (UTC): its key (`<accountId>:<YYYY-MM-DD>`), the
 * seconds until it ends, and when its count may be deleted (a day after it ends).
 */
export function dayOf(accountId: string, now: Date): { key: string; resetSeconds: number; expiresAt: Date } {
  const day = now.toISOString().slice(0, 10);
  const end = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
  return { key: `${accountId}:${day}`, resetSeconds: Math.max(1, Math.ceil((end - now.getTime()) / 1000)), expiresAt: new Date(end + DAY_MS) };
}
