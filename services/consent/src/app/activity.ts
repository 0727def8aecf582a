import { dayRange, reportDays } from '../domain/days';
import { topTargets, type Statistics } from '../domain/statistics';
import { idFloor, idTime } from '../domain/event-id';
import type { EventStore } from './ports';

/** Events one answer counts at most; a larger range answers truncated counts. */
export const MAX_COUNTED_EVENTS = 200_000;

export interface DailyActivity {
  days: Array<{ day: string; accepted: number; declined: number; noAction: number }>;
  truncated: boolean;
}

/**
 * Daily counts of an application's events by action over an inclusive range of UTC days: the
 * events of the range are read by id (ids begin with their time), only their id and action, and
 * counted here (the same on every MongoDB-wire server).
 */
export async function dailyActivity(
  events: Pick<EventStore, 'actions'>,
  accountId: string,
  appId: string,
  fromDay: string,
  toDay: string,
): Promise<DailyActivity> {
  const { days, startMs, endMs } = dayRange(fromDay, toDay);
  const counts = new Map(days.map((d) => [d, { day: d, accepted: 0, declined: 0, noAction: 0 }]));
  let n = 0;
  for await (const e of events.actions(accountId, appId, idFloor(startMs), idFloor(endMs), MAX_COUNTED_EVENTS + 1)) {
    if (++n > MAX_COUNTED_EVENTS) break;
    const c = counts.get(idTime(e.id).toISOString().slice(0, 10));
    if (!c) continue;
    if (e.action === true) c.accepted++;
    else if (e.action === false) c.declined++;
    else c.noAction++;
  }
  return { days: [...counts.values()], truncated: n > MAX_COUNTED_EVENTS };
}

export interface ActivityReport extends DailyActivity {
  fromDay: string;
  toDay: string;
  statistics: Statistics;
  topTargets: Statistics['targets'];
}

/**
 * The console's statistics of an application, whole: its daily activity over a range of UTC days
 * (by default the 30 days ending today), its statistics, and its top targets (domain/statistics.ts).
 */
export async function activityReport(
  events: Pick<EventStore, 'actions'>,
  statistics: (accountId: string, appId: string) => Promise<Statistics>,
  q: { accountId: string; appId: string; fromDay?: string | undefined; toDay?: string | undefined },
): Promise<ActivityReport> {
  const { from, to } = reportDays(q.fromDay, q.toDay);
  const [daily, stats] = await Promise.all([dailyActivity(events, q.accountId, q.appId, from, to), statistics(q.accountId, q.appId)]);
  return { fromDay: from, toDay: to, ...daily, statistics: stats, topTargets: topTargets(stats.targets) };
}
