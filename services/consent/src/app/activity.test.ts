import { timeOrderedId } from '../domain/event-id';
import { statisticsOf, type Statistics } from '../domain/statistics';
import { activityReport } from './activity';

/** An application's statistics with these event counts per target (no current states). */
const stats = (targets: Array<{ target: string; events: number }>): Statistics =>
  statisticsOf('app', {
    app: { total: 0, accepted: 0, declined: 0, noAction: 0, gpcDeclines: 0 },
    jurisdictions: [],
    targets,
    distinctSubjects: 1,
    states: [],
  });

describe("the console's activity report", () => {
  const today = new Date().toISOString().slice(0, 10);
  const events = {
    async *actions() {
      yield { id: timeOrderedId(new Date()), action: true as boolean | null };
    },
  };

  it('covers the 30 days ending today when no range is asked, with the statistics and the ten targets with the most events', async () => {
    const targets = Array.from({ length: 12 }, (_, i) => ({ target: `https://t.example/${String(i).padStart(2, '0')}`, events: i }));
    const r = await activityReport(events, async () => stats(targets), { accountId: 'acc', appId: 'app' });
    expect(r.toDay).toBe(today);
    expect(r.days).toHaveLength(30);
    expect(r.days[0]!.day).toBe(r.fromDay);
    expect(r.days.at(-1)).toEqual({ day: today, accepted: 1, declined: 0, noAction: 0 });
    expect(r.statistics.targets).toHaveLength(12);
    expect(r.topTargets.map((t) => t.events)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  });

  it('answers the range asked', async () => {
    const r = await activityReport(events, async () => stats([]), { accountId: 'acc', appId: 'app', fromDay: '2026-01-01', toDay: '2026-01-03' });
    expect([r.fromDay, r.toDay, r.days.length]).toEqual(['2026-01-01', '2026-01-03', 3]);
  });
});
