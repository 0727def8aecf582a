import type { ExpiryStore, StateEvent } from '../../app/ports';
import type { Call } from './faults';
import { claimDue, eventOfState, type MemoryState } from './state';

/** The expiry queue of an announced state: past any time, never due again (the Mongo adapter's EXPIRY_ANNOUNCED). */
const ANNOUNCED = 8.64e15;

/** The expiry queue in memory (`xq`, `xc` on the current states, see ExpiryStore), for the sweeper (events/expiry-sweeper.ts). */
export function memoryExpiryStore(mem: MemoryState, call: Call): ExpiryStore {
  const { states } = mem;
  const lapsed = (claim: string, limit: number): StateEvent[] =>
    [...states.entries()]
      .filter(([, s]) => s.xc === claim && !!s.xq)
      .slice(0, limit)
      .map(([key, s]) => ({ key, event: eventOfState(s) }));
  return {
    async claimLapsed(claim, now, until, limit) {
      call('expiry.claimLapsed');
      return claimDue(
        states.values(),
        (s) => !!s.xq && s.xq <= now,
        (s) => Object.assign(s, { xq: new Date(until), xc: claim }),
        () => lapsed(claim, limit),
      );
    },
    async lapsedOfClaim(claim, limit) {
      call('expiry.lapsedOfClaim');
      return lapsed(claim, limit);
    },
    async markAnnounced(list) {
      call('expiry.markAnnounced');
      for (const { key, eventId } of list) {
        const s = states.get(key);
        if (s && s.cur.id === eventId) {
          s.xq = new Date(ANNOUNCED);
          delete s.xc;
        }
      }
    },
  };
}
