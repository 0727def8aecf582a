import type { LogPendingEvent, LogQueueStore } from '../../app/ports';
import type { Call } from './faults';
import { copy, type MemoryState } from './state';

/** The log's queue in memory (the `logq` mark on the events, see LogQueueStore), for the sequencer (events/log-sequencer.ts). */
export function memoryLogQueueStore(mem: MemoryState, call: Call): LogQueueStore {
  const { events, settled, sorted } = mem;
  return {
    async accounts() {
      call('logQueue.accounts');
      return [...new Set([...events.values()].filter((r) => r.logq).map((r) => r.event.accountId))].sort();
    },
    async pending(accountId, limit, after) {
      call('logQueue.pending');
      const read = sorted((r) => !!r.logq && r.event.accountId === accountId && (after === undefined || r.event.id > after)).slice(0, limit);
      const out: LogPendingEvent[] = read.filter(settled).map((r) => (r.logh ? { ...copy(r.event), leafHash: Buffer.from(r.logh) } : copy(r.event)));
      return { events: out, ...(read.length ? { last: read.at(-1)!.event.id } : {}), full: read.length === limit };
    },
    async markLogged(ids, published = []) {
      call('logQueue.markLogged');
      const both = new Set(published);
      for (const id of ids) {
        const r = events.get(id);
        if (r) {
          delete r.logq;
          delete r.part; // sequenced: its request is stored whole
          if (both.has(id)) {
            delete r.pub;
            delete r.claim;
          }
        }
      }
    },
    async isPending(accountId, id) {
      call('logQueue.isPending');
      const r = events.get(id);
      return !!r?.logq && r.event.accountId === accountId;
    },
  };
}
