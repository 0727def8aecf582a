import type { Handlers } from '@accord/common';
import type { limitsv1 } from '@accord/proto';
import type { Limits } from '../app/limits';

export type LimitsHandlers = Handlers<limitsv1.LimitsServiceServer>;

/** gRPC handlers of accord.oauth.v1.LimitsService: the use cases of app/limits.ts (who may call each RPC: access.ts). */
export function limitsHandlers(limits: Limits): LimitsHandlers {
  return {
    async setAccountLimits(req) {
      return { accountId: req.accountId, limits: await limits.set(req.accountId, req.limits, req.clear) };
    },
    async getAccountLimits(req) {
      return { accountId: req.accountId, limits: await limits.get(req.accountId) };
    },
    async consumeDailyEvents(req) {
      return limits.consumeDaily(req.accountId, req.count, req.maxPerDay);
    },
  };
}
