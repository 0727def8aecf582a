import { InvalidArgumentError, NotFoundError } from '@accord/common';
import { dayOf, validateLimits, type AccountLimits, type LimitField } from '../domain/limits';
import type { OAuthStore } from './ports';

function requireAccount(accountId: string): void {
  if (!accountId) throw InvalidArgumentError.field('account_id', 'is required');
}

/** Account limits (overrides of the gateway's defaults) and the daily event allowance: what LimitsService calls. */
export class Limits {
  constructor(
    private readonly store: Pick<OAuthStore, 'accounts' | 'limits'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Sets (or with `clear`, removes) an existing account's overrides; answers the overrides now in force. */
  async set(accountId: string, limits: Partial<Record<LimitField, number | undefined>> | undefined, clear: boolean): Promise<AccountLimits> {
    requireAccount(accountId);
    if (!(await this.store.accounts.byId(accountId))) throw new NotFoundError(`account ${accountId} not found`);
    if (clear) await this.store.limits.clearOverrides(accountId);
    else {
      const valid = validateLimits(limits);
      if (Object.keys(valid).length) await this.store.limits.setOverrides(accountId, valid, this.now());
    }
    return this.store.limits.overrides(accountId);
  }

  async get(accountId: string): Promise<AccountLimits> {
    requireAccount(accountId);
    return this.store.limits.overrides(accountId);
  }

  /**
   * Admits `count` events of today's allowance of `maxPerDay` (UTC days), all or none; a negative
   * count gives events back (a write that failed after it was admitted). Every gateway replica
   * shares the count: one conditional write per call.
   */
  async consumeDaily(accountId: string, count: number, maxPerDay: number): Promise<{ allowed: boolean; used: number; resetSeconds: number }> {
    requireAccount(accountId);
    if (maxPerDay <= 0) throw InvalidArgumentError.field('max_per_day', 'must be > 0');
    const { key, resetSeconds, expiresAt } = dayOf(accountId, this.now());
    if (count < 0) await this.store.limits.giveBack(key, -count);
    const used = count > 0 && count <= maxPerDay ? await this.store.limits.admit(key, count, maxPerDay, expiresAt) : undefined;
    if (used !== undefined) return { allowed: true, used, resetSeconds };
    return { allowed: count <= 0, used: await this.store.limits.counted(key), resetSeconds };
  }
}
