import type { CallContext, Handlers } from '@accord/common';
import type { limitsv1 } from '@accord/proto';
import type { Limits } from '../app/limits';
import { requireAdmin } from './admin-auth';

export type LimitsHandlers = Handlers<limitsv1.LimitsServiceServer>;

/** gRPC handlers of accord.oauth.v1.LimitsService: the admin check, then the use cases (app/limits.ts). */
export function limitsHandlers(limits: Limits, adminToken: string | undefined): LimitsHandlers {
  const admin = (ctx: CallContext) => requireAdmin(ctx, adminToken);
  return {
    async setAccountLimits(req, ctx) {
      admin(ctx);
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
