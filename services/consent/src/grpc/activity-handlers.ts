import { implement, type Logger } from '@accord/common';
import type { consentactivityv1 } from '@accord/proto';
import { activityReport, dailyActivity } from '../app/activity';
import type { EventStore } from '../app/ports';
import type { Statistics } from '../domain/statistics';

/** The console's activity chart and statistics page: daily counts of an application's events by action, and the whole report (app/activity.ts). */
export function activityHandlers(events: Pick<EventStore, 'actions'>, logger: Logger, statistics: (accountId: string, appId: string) => Promise<Statistics>) {
  return implement<consentactivityv1.ConsentActivityServiceServer>(
    {
      async getDailyActivity(req) {
        return dailyActivity(events, req.accountId, req.appId, req.fromDay, req.toDay);
      },
      async getActivityReport(req) {
        // the domain's report is the message field for field (the type checks it)
        return activityReport(events, statistics, req);
      },
    },
    logger,
  );
}
