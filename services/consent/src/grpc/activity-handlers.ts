import { implement, type Logger } from '@accord/common';
import type { consentactivityv1 } from '@accord/proto';
import type { Model } from 'mongoose';
import { dayRange, eventIdAt } from '../domain/days';
import type { EventDoc } from '../store/models';

/** Events one answer counts at most; a larger range answers truncated counts. */
export const MAX_COUNTED_EVENTS = 200_000;

/**
 * Daily counts of an application's events by action. Reads the events of the range through the
 * (accountId, appId, _id) index — event ids begin with their time — reading only _id and
 * action, and counts in the process (the same on MongoDB and every MongoDB-wire server).
 */
export function activityHandlers(events: Model<EventDoc>, logger: Logger) {
  return implement<consentactivityv1.ConsentActivityServiceServer>(
    {
      async getDailyActivity(req) {
        const { days, startMs, endMs } = dayRange(req.fromDay, req.toDay);
        const counts = new Map(days.map((d) => [d, { day: d, accepted: 0, declined: 0, noAction: 0 }]));
        const cursor = events
          .find({ accountId: req.accountId, appId: req.appId, _id: { $gte: eventIdAt(startMs), $lt: eventIdAt(endMs) } }, { _id: 1, action: 1 })
          .lean<Pick<EventDoc, '_id' | 'action'>>()
          .limit(MAX_COUNTED_EVENTS + 1)
          .cursor();
        let n = 0;
        for await (const e of cursor) {
          if (++n > MAX_COUNTED_EVENTS) break;
          const day = new Date(parseInt(e._id.slice(0, 12), 16)).toISOString().slice(0, 10);
          const c = counts.get(day);
          if (!c) continue;
          if (e.action === true) c.accepted++;
          else if (e.action === false) c.declined++;
          else c.noAction++;
        }
        return { days: [...counts.values()], truncated: n > MAX_COUNTED_EVENTS };
      },
    },
    logger,
  );
}
