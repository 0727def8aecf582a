import { InvalidArgumentError, NotFoundError, type Handlers, type CallContext } from '@accord/common';
import { limitsv1 } from '@accord/proto';
import { requireAdmin } from './admin-auth';
import type { OAuthRepository } from '../store/repository';
import { LIMIT_FIELDS, type AccountLimits, type LimitsStore } from '../store/limits-repository';

export type LimitsHandlers = Handlers<limitsv1.LimitsServiceServer>;

const INTEGER_FIELDS = new Set(['burst', 'appBurst', 'maxEventsPerRequest', 'maxEventsPerDay']);

/** Checks an override: finite, >= 0, integers where counts are meant. */
export function validateLimits(input: limitsv1.AccountLimits | undefined): AccountLimits {
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

/** gRPC handlers of accord.oauth.v1.LimitsService. */
export function limitsHandlers(store: LimitsStore, repo: OAuthRepository, adminToken: string | undefined): LimitsHandlers {
  const admin = (ctx: CallContext) => requireAdmin(ctx, adminToken);
  return {
    async setAccountLimits(req, ctx) {
      admin(ctx);
      if (!req.accountId) throw InvalidArgumentError.field('account_id', 'is required');
      if (!(await repo.findAccountById(req.accountId))) throw new NotFoundError(`account ${req.accountId} not found`);
      const limits = req.clear ? {} : validateLimits(req.limits);
      return { accountId: req.accountId, limits: await store.set(req.accountId, limits, req.clear) };
    },
    async getAccountLimits(req) {
      if (!req.accountId) throw InvalidArgumentError.field('account_id', 'is required');
      return { accountId: req.accountId, limits: await store.get(req.accountId) };
    },
    async consumeDailyEvents(req) {
      if (!req.accountId) throw InvalidArgumentError.field('account_id', 'is required');
      if (req.maxPerDay <= 0) throw InvalidArgumentError.field('max_per_day', 'must be > 0');
      return store.consume(req.accountId, req.count, req.maxPerDay);
    },
  };
}
