import type { ClaimedEvent, OutboxStore } from '../../app/ports';
import type { Call } from './faults';
import { claimDue, copy, type EventRec, type MemoryState } from './state';

/** The outbox in memory (the `pub` and `claim` marks on the events, see OutboxStore), for the relay (events/outbox-relay.ts). */
export function memoryOutboxStore(mem: MemoryState, call: Call): OutboxStore {
  const { events, settled, sorted } = mem;
  const claimedOf = (r: EventRec): ClaimedEvent => (settled(r) ? copy(r.event) : { ...copy(r.event), unsettledUntil: r.part! });
  const ofClaim = (claim: string, limit: number) =>
    sorted((r) => r.claim === claim && !!r.pub)
      .slice(0, limit)
      .map(claimedOf);
  return {
    async claimDue(claim, now, until, limit) {
      call('outbox.claimDue');
      return claimDue(
        events.values(),
        (r) => !!r.pub && r.pub <= now,
        (r) => Object.assign(r, { pub: new Date(until), claim }),
        () => ofClaim(claim, limit),
      );
    },
    async claimed(claim, limit) {
      call('outbox.claimed');
      return ofClaim(claim, limit);
    },
    async markPublished(ids) {
      call('outbox.markPublished');
      for (const id of ids) {
        const r = events.get(id);
        if (r) {
          delete r.pub;
          delete r.claim;
          delete r.part; // published: its request is stored whole
        }
      }
    },
    async defer(ids, at) {
      call('outbox.defer');
      for (const id of ids) {
        const r = events.get(id);
        if (r?.pub) r.pub = new Date(at);
      }
    },
    async pending() {
      call('outbox.pending');
      const waiting = sorted((r) => !!r.pub);
      return { count: waiting.length, oldestStoredAt: waiting[0] ? new Date(waiting[0].event.createdAt) : null };
    },
  };
}
