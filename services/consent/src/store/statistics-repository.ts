import { LIMITS, hashKey, type ConsentEvent } from '../domain/consent';
import type { StatisticsCounts } from '../domain/statistics';
import { bulkUpserts } from './event-docs';
import type { Models, StatsDoc } from './models';

/** Maximum number of targets in statistics (those with the most events). */
export const STATISTICS_MAX_TARGETS = LIMITS.statisticsTargets;

/** Stands in for "never expires" when states are grouped by expiry. */
const NEVER = new Date(8.64e15);

/**
 * The statistics counters (`consent_stats`): written with each batch of events, read with the
 * current states they do not hold. The arithmetic is in domain/statistics.ts.
 */
export class StatisticsRepository {
  constructor(private readonly m: Models) {}

  /**
   * Step 3: the event counters of a batch, one bulkWrite of `$inc` upserts: events per
   * application by action, events per application and target, and a marker per (application,
   * subject) for distinct subjects. (Current states per target are counted from the current
   * documents when statistics are read, so they are exact by construction.) Applied once per
   * batch by its writer; a process that dies between step 1 and this step leaves these
   * counters short by that batch (docs/consent.md), while current states and publication
   * recover.
   */
  async count(events: ConsentEvent[]): Promise<void> {
    const ops = new Map<string, { inc: Record<string, number>; set: Partial<StatsDoc> }>();
    const bump = (id: string, set: Partial<StatsDoc>, field?: string) => {
      let e = ops.get(id);
      if (!e) ops.set(id, (e = { inc: {}, set }));
      if (field) e.inc[field] = (e.inc[field] ?? 0) + 1;
    };
    for (const ev of events) {
      const app = `app:${hashKey([ev.accountId, ev.appId])}`;
      const appSet = { kind: 'app' as const, accountId: ev.accountId, appId: ev.appId };
      bump(app, appSet, 'total');
      bump(app, appSet, ev.action === true ? 'accepted' : ev.action === false ? 'declined' : 'noAction');
      bump(`target:${hashKey([ev.accountId, ev.appId, ev.target])}`, { kind: 'target', accountId: ev.accountId, appId: ev.appId, target: ev.target }, 'events');
      bump(`subject:${hashKey([ev.accountId, ev.appId, ev.subject])}`, { kind: 'subject', accountId: ev.accountId, appId: ev.appId });
    }
    await bulkUpserts(
      this.m.stats.collection,
      [...ops.entries()].map(([_id, { inc, set }]) => ({
        updateOne: { filter: { _id }, update: Object.keys(inc).length ? { $inc: inc, $setOnInsert: set } : { $setOnInsert: set }, upsert: true },
      })),
    );
  }

  /** What an application's statistics are made of: its counters, its targets' counters and its current states grouped. */
  async read(accountId: string, appId: string, now: Date = new Date()): Promise<StatisticsCounts> {
    const [app, targets, distinctSubjects, current, latest] = await Promise.all([
      this.m.stats.collection.findOne({ _id: `app:${hashKey([accountId, appId])}` } as never),
      this.m.stats.collection
        .find({ kind: 'target', accountId, appId } as never, { projection: { _id: 0, target: 1, events: 1 } })
        .sort({ events: -1 })
        .limit(STATISTICS_MAX_TARGETS)
        .toArray(),
      this.m.stats.collection.countDocuments({ kind: 'subject', accountId, appId } as never),
      // current states this application holds (it wrote their newest event), per target and action
      this.m.current.collection
        .aggregate([
          { $match: { accountId, $or: [{ 'cur.appId': appId }, { cur: { $exists: false }, appId }] } },
          {
            $group: {
              _id: {
                target: '$target',
                action: { $ifNull: ['$cur.action', '$action'] },
                expired: { $lte: [{ $ifNull: ['$cur.expiresAt', NEVER] }, now] },
                version: '$cur.targetVersion',
              },
              n: { $sum: 1 },
            },
          },
        ])
        .toArray(),
      this.m.events.collection
        .find({ accountId, appId } as never, { projection: { createdAt: 1 } })
        .sort({ _id: -1 })
        .limit(1)
        .toArray(),
    ]);
    const a = app as unknown as StatsDoc | null;
    const l = latest[0] as unknown as { createdAt?: Date } | undefined;
    return {
      app: { total: a?.total ?? 0, accepted: a?.accepted ?? 0, declined: a?.declined ?? 0, noAction: a?.noAction ?? 0 },
      targets: (targets as unknown as StatsDoc[]).map((t) => ({ target: t.target ?? '', events: t.events ?? 0 })),
      distinctSubjects,
      states: (current as unknown as Array<{ _id: { target: string; action?: boolean | null; expired?: boolean; version?: number | null }; n: number }>).map(
        (g) => ({
          target: g._id.target,
          action: g._id.action ?? null,
          expired: g._id.expired ?? false,
          version: g._id.version ?? undefined,
          count: g.n,
        }),
      ),
      latestEventAt: l?.createdAt ? new Date(l.createdAt) : undefined,
    };
  }
}
