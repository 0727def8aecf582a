import { hashKey, LIMITS } from '../../domain/consent';
import { appCountersOf, expiredAt, GPC_DECLINE, meets, type StatisticsCounts } from '../../domain/statistics';
import type { StatisticsStore } from '../../app/ports';
import type { Call } from './faults';
import type { CounterRec, MemoryState } from './state';

type CounterOf = Omit<CounterRec, 'n'>;

/** consent_stats in memory (see StatisticsStore): counters written with each batch, read with the current states. The rules are domain/statistics.ts's. */
export function memoryStatisticsStore(mem: MemoryState, call: Call): StatisticsStore {
  const { counters, markers, states, visible, sorted } = mem;
  const bump = (id: string, init: () => CounterOf, field: string) => {
    let c = counters.get(id);
    if (!c) counters.set(id, (c = { ...init(), n: {} }));
    c.n[field] = (c.n[field] ?? 0) + 1;
  };
  /** The counters of an application that `kind` names, most events first, at most LIMITS.statisticsTargets. */
  const most = <K extends 'target' | 'jurisdiction'>(accountId: string, appId: string, kind: K) =>
    [...counters.values()]
      .filter((c) => c[kind] !== undefined && c.accountId === accountId && c.appId === appId)
      .map((c) => ({ [kind]: c[kind]!, events: c.n.events ?? 0 }) as Record<K, string> & { events: number })
      .sort((x, y) => y.events - x.events)
      .slice(0, LIMITS.statisticsTargets);
  /** The application's current states, grouped as StatisticsCounts['states']. */
  const stateGroups = (accountId: string, appId: string, now: Date) => {
    const groups = new Map<string, StatisticsCounts['states'][number]>();
    for (const s of states.values()) {
      if (s.accountId !== accountId || s.cur.appId !== appId) continue;
      const g = {
        target: s.target,
        action: s.cur.action,
        expired: meets(s.cur, expiredAt(now)),
        version: s.cur.targetVersion,
        ...(meets(s.cur, GPC_DECLINE) ? { gpcDecline: true } : {}),
      };
      const k = JSON.stringify(g);
      const row = groups.get(k);
      if (row) row.count++;
      else groups.set(k, { ...g, count: 1 });
    }
    return [...groups.values()];
  };
  return {
    async count(evs) {
      call('statistics.count');
      for (const ev of evs) {
        const app = () => ({ accountId: ev.accountId, appId: ev.appId });
        for (const counter of appCountersOf(ev)) bump(`app:${hashKey([ev.accountId, ev.appId])}`, app, counter);
        if (ev.jurisdiction !== undefined)
          bump(`jurisdiction:${hashKey([ev.accountId, ev.appId, ev.jurisdiction])}`, () => ({ ...app(), jurisdiction: ev.jurisdiction }), 'events');
        bump(`target:${hashKey([ev.accountId, ev.appId, ev.target])}`, () => ({ ...app(), target: ev.target }), 'events');
        markers.set(hashKey([ev.accountId, ev.appId, ev.subject]), `${ev.accountId}\n${ev.appId}`);
      }
    },
    async read(accountId, appId, now) {
      call('statistics.read');
      const app = counters.get(`app:${hashKey([accountId, appId])}`)?.n ?? {};
      const targets = most(accountId, appId, 'target');
      const states = stateGroups(accountId, appId, now);
      const latest = sorted((r) => visible(accountId)(r) && r.event.appId === appId, true)[0];
      let distinctSubjects = 0;
      for (const owner of markers.values()) if (owner === `${accountId}\n${appId}`) distinctSubjects++;
      const out: StatisticsCounts = {
        app: {
          total: app.total ?? 0,
          accepted: app.accepted ?? 0,
          declined: app.declined ?? 0,
          noAction: app.noAction ?? 0,
          gpcDeclines: app.gpcDeclines ?? 0,
        },
        jurisdictions: most(accountId, appId, 'jurisdiction'),
        targets,
        distinctSubjects,
        states,
      };
      if (latest) out.latestEventAt = new Date(latest.event.createdAt);
      return out;
    },
    async eventTotal(q) {
      call('statistics.eventTotal');
      let n = 0;
      for (const c of counters.values()) {
        if (c.accountId !== q.accountId || (q.appId !== undefined && c.appId !== q.appId)) continue;
        if (c.jurisdiction !== undefined) continue;
        if (q.target !== undefined ? c.target === q.target : c.target === undefined) n += q.target !== undefined ? (c.n.events ?? 0) : (c.n.total ?? 0);
      }
      return n;
    },
  };
}
