import { InvalidArgumentError, NotFoundError } from '@accord/common';
import { validateLimits, type AccountLimits, type LimitField } from '../domain/limits';
import type { LimitsStore } from '../store/limits-repository';
import type { OAuthRepository } from '../store/repository';

function requireAccount(accountId: string): void {
  if (!accountId) throw InvalidArgumentError.field('account_id', 'is required');
}

/** Account limits (overrides of the gateway's defaults) and the daily event allowance: what LimitsService calls. */
export class Limits {
  constructor(
    private readonly store: LimitsStore,
    private readonly accounts: Pick<OAuthRepository, 'findAccountById'>,
  ) {}

  /** Sets (or with `clear`, removes) an existing account's overrides; answers the overrides now in force. */
  async set(accountId: string, limits: Partial<Record<LimitField, number | undefined>> | undefined, clear: boolean): Promise<AccountLimits> {
    requireAccount(accountId);
    if (!(await this.accounts.findAccountById(accountId))) throw new NotFoundError(`account ${accountId} not found`);
    return this.store.set(accountId, clear ? {} : validateLimits(limits), clear);
  }

  async get(accountId: string): Promise<AccountLimits> {
    requireAccount(accountId);
    return this.store.get(accountId);
  }

  /** Admits `count` events of today's allowance of `maxPerDay`, or none. */
  consumeDaily(accountId: string, count: number, maxPerDay: number): ReturnType<LimitsStore['consume']> {
    requireAccount(accountId);
    if (maxPerDay <= 0) throw InvalidArgumentError.field('max_per_day', 'must be > 0');
    return this.store.consume(accountId, count, maxPerDay);
  }
}
