import { implement, type Logger } from '@accord/common';
import type { consentactivityv1 } from '@accord/proto';
import { dailyActivity } from '../app/activity';
import type { EventStore } from '../app/ports';

/** The console's activity chart: daily counts of an application's events by action (app/activity.ts). */
export function activityHandlers(events: Pick<EventStore, 'actions'>, logger: Logger) {
  return implement<consentactivityv1.ConsentActivityServiceServer>(
    {
      async getDailyActivity(req) {
        return dailyActivity(events, req.accountId, req.appId, req.fromDay, req.toDay);
      },
    },
    logger,
  );
}
