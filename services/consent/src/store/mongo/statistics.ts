import type { FilterQuery, mongo } from 'mongoose';
import { LIMITS, hashKey } from '../../domain/consent';
import { appCountersOf, expiredAt, GPC_DECLINE, type EventCondition } from '../../domain/statistics';
import type { StatisticsStore } from '../../app/ports';
import { bulkUpserts } from './docs';
import { driverCollection, type CurrentDoc, type EventDoc, type Models, type StatsDoc } from './models';

/** Stands in for an absent date in a `notAfter` comparison: later than any moment. */
const NEVER = new Date(8.64e15);

/** A domain condition (EventCondition) on the fields under `prefix`, as an aggregation expression. */
export function conditionExpr(prefix: string, cond: EventCondition): Record<string, unknown> {
  return {
    $and: Object.entries(cond).map(([field, want]) =>
      want !== null && typeof want === 'object'
        ? { $lte: [{ $ifNull: [`$${prefix}.${field}`, NEVER] }, want.notAfter] }
        : { $eq: [{ $ifNull: [`$${prefix}.${field}`, null] }, want] },
    ),
  };
}

/** The id of the distinct-subject marker of (account, application, subject). */
export const subjectMarkerId = (accountId: string, appId: string, subject: string) => `subject:${hashKey([accountId, appId, subject])}`;

/** The id of the counter of an application's events in one jurisdiction. */
const jurisdictionCounterId = (accountId: string, appId: string, jurisdiction: string) => `jurisdiction:${hashKey([accountId, appId, jurisdiction])}`;

/**
 * consent_stats (see StatisticsStore): counters written with each batch of events, read with the
 * current states they do not hold. The arithmetic is in domain/statistics.ts.
 */
export function mongoStatisticsStore(m: Models): StatisticsStore {
  return {
    /**
     * One bulkWrite of `$inc` upserts: events per application by action, events per application
     * and target, and a marker per (application, subject) for distinct subjects. (Current states
     * per target are counted from the current documents when statistics are read, so they are
     * exact by construction.) A process that dies between the insert and this step leaves these
     * counters short by that batch (docs/consent.md), while current states and publication
     * recover. Through the driver's collection, for the reason given at CurrentStateStore.apply
     * (store/mongo/current.ts): a batch writes about two counter operations per event.
     */
    async count(events) {
      const ops = new Map<string, { inc: Record<string, number>; set: Partial<StatsDoc> }>();
      const bump = (id: string, set: Partial<StatsDoc>, field?: string) => {
        let e = ops.get(id);
        if (!e) ops.set(id, (e = { inc: {}, set }));
        if (field) e.inc[field] = (e.inc[field] ?? 0) + 1;
      };
      for (const ev of events) {
        const app = `app:${hashKey([ev.accountId, ev.appId])}`;
        const appSet = { kind: 'app' as const, accountId: ev.accountId, appId: ev.appId };
        for (const counter of appCountersOf(ev)) bump(app, appSet, counter);
        if (ev.jurisdiction !== undefined)
          bump(
            jurisdictionCounterId(ev.accountId, ev.appId, ev.jurisdiction),
            { kind: 'jurisdiction', accountId: ev.accountId, appId: ev.appId, jurisdiction: ev.jurisdiction },
            'events',
          );
        bump(
          `target:${hashKey([ev.accountId, ev.appId, ev.target])}`,
          { kind: 'target', accountId: ev.accountId, appId: ev.appId, target: ev.target },
          'events',
        );
        bump(subjectMarkerId(ev.accountId, ev.appId, ev.subject), { kind: 'subject', accountId: ev.accountId, appId: ev.appId });
      }
      await bulkUpserts(
        (list) => driverCollection(m.stats).bulkWrite(list, { ordered: false }),
        [...ops.entries()].map(([_id, { inc, set }]): mongo.AnyBulkWriteOperation<StatsDoc> => ({
          updateOne: { filter: { _id }, update: Object.keys(inc).length ? { $inc: inc, $setOnInsert: set } : { $setOnInsert: set }, upsert: true },
        })),
      );
    },

    async read(accountId, appId, now) {
      // the counters of one kind with the most events (served by `by_app`)
      const mostEvents = (kind: 'target' | 'jurisdiction') =>
        m.stats
          .find({ kind, accountId, appId }, { _id: 0, [kind]: 1, events: 1 })
          .sort({ events: -1 })
          .limit(LIMITS.statisticsTargets)
          .lean<StatsDoc[]>()
          .exec();
      const [app, targets, distinctSubjects, current, latest, jurisdictions] = await Promise.all([
        m.stats
          .findById(`app:${hashKey([accountId, appId])}`)
          .lean<StatsDoc>()
          .exec(),
        mostEvents('target'),
        m.stats.countDocuments({ kind: 'subject', accountId, appId }).exec(),
        // current states this application holds (it wrote their newest event), per target and action
        m.current
          .aggregate<{ _id: { target: string; action?: boolean | null; expired?: boolean; version?: number | null; gpc?: boolean }; n: number }>([
            { $match: { accountId, $or: [{ 'cur.appId': appId }, { cur: { $exists: false }, appId }] } satisfies FilterQuery<CurrentDoc> },
            {
              $group: {
                _id: {
                  target: '$target',
                  action: { $ifNull: ['$cur.action', '$action'] },
                  expired: conditionExpr('cur', expiredAt(now)),
                  version: '$cur.targetVersion',
                  gpc: conditionExpr('cur', GPC_DECLINE),
                },
                n: { $sum: 1 },
              },
            },
          ])
          .exec(),
        // the newest event of a request stored whole: the last event of a request carries no `part`
        m.events
          .findOne({ accountId, appId, part: { $exists: false } }, { createdAt: 1 })
          .sort({ _id: -1 })
          .lean<Pick<EventDoc, 'createdAt'>>()
          .exec(),
        mostEvents('jurisdiction'),
      ]);
      return {
        app: {
          total: app?.total ?? 0,
          accepted: app?.accepted ?? 0,
          declined: app?.declined ?? 0,
          noAction: app?.noAction ?? 0,
          gpcDeclines: app?.gpcDeclines ?? 0,
        },
        jurisdictions: jurisdictions.map((j) => ({ jurisdiction: j.jurisdiction ?? '', events: j.events ?? 0 })),
        targets: targets.map((t) => ({ target: t.target ?? '', events: t.events ?? 0 })),
        distinctSubjects,
        states: current.map((g) => ({
          target: g._id.target,
          action: g._id.action ?? null,
          expired: g._id.expired ?? false,
          version: g._id.version ?? undefined,
          ...(g._id.gpc ? { gpcDecline: true } : {}),
          count: g.n,
        })),
        latestEventAt: latest?.createdAt ? new Date(latest.createdAt) : undefined,
      };
    },

    async eventTotal(q) {
      const filter: FilterQuery<StatsDoc> = { kind: q.target !== undefined ? 'target' : 'app', accountId: q.accountId };
      if (q.appId !== undefined) filter.appId = q.appId;
      if (q.target !== undefined) filter.target = q.target;
      const field = q.target !== undefined ? 'events' : 'total';
      const docs = await m.stats
        .find(filter, { _id: 0, [field]: 1 })
        .lean<StatsDoc[]>()
        .exec();
      return docs.reduce((n, d) => n + (Number(d[field]) || 0), 0);
    },
  };
}
