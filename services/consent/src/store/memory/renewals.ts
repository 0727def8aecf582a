import { needsRenewal } from '../../domain/consent';
import type { RenewalJob, RenewalStore, StateEvent } from '../../app/ports';
import type { Call } from './faults';
import { eventOfState, type MemoryState } from './state';

/** Renewal fan-out jobs in memory and the states they walk (see RenewalStore), for events/renewal-announcer.ts. */
export function memoryRenewalStore(mem: MemoryState, call: Call): RenewalStore {
  const { states } = mem;
  const jobs = new Map<string, RenewalJob>();
  return {
    async job(j, now) {
      call('renewals.job');
      const id = `${j.specId}:${j.version}`;
      if (!jobs.has(id)) jobs.set(id, { id, ...j, targets: [...j.targets], createdAt: new Date(now), leaseUntil: new Date(0), announced: 0, done: false });
      return { ...jobs.get(id)! };
    },
    async claim(id, owner, now, until) {
      call('renewals.claim');
      const j = jobs.get(id);
      if (!j || j.done || j.leaseUntil > now) return null;
      Object.assign(j, { owner, leaseUntil: new Date(until) });
      return { ...j };
    },
    async advance(id, owner, lastKey, count, until) {
      call('renewals.advance');
      const j = jobs.get(id);
      if (!j || j.owner !== owner) return false;
      Object.assign(j, { lastKey, leaseUntil: new Date(until), announced: j.announced + count });
      return true;
    },
    async finish(id, owner) {
      call('renewals.finish');
      const j = jobs.get(id);
      if (!j || j.owner !== owner) return false;
      j.done = true;
      return true;
    },
    /** The states of `targets` consented to a version older than `version` (domain/consent.ts needsRenewal), by key. */
    async page(accountId, targets, version, afterKey, limit) {
      call('renewals.page');
      const rows = [...states.entries()]
        .filter(
          ([k, s]) =>
            s.accountId === accountId && targets.includes(s.target) && needsRenewal(s.cur.targetVersion, version) && (afterKey === undefined || k > afterKey),
        )
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .slice(0, limit);
      const out: StateEvent[] = rows.filter(([, s]) => !s.cur.erasedAt).map(([key, s]) => ({ key, event: eventOfState(s) }));
      return { states: out, lastKey: rows.at(-1)?.[0], full: rows.length === limit };
    },
  };
}
