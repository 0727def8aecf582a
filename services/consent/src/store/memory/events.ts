import { stateKey, type ConsentEvent } from '../../domain/consent';
import type { EventStore, ExportFilter } from '../../app/ports';
import type { Call } from './faults';
import { copy, type EventRec, type MemoryState } from './state';

/** The events of an export filter, settled or not. */
const matchesExport = (q: ExportFilter) => (r: EventRec) => {
  const e = r.event;
  return (
    e.accountId === q.accountId &&
    (q.appId === undefined || e.appId === q.appId) &&
    (q.target === undefined || e.target === q.target) &&
    (q.subject === undefined || e.subject === q.subject) &&
    (q.after === undefined || e.id > q.after) &&
    (q.from === undefined || e.id >= q.from) &&
    (q.before === undefined || e.id < q.before)
  );
};

/** consent_events in memory (see EventStore); a planned `events.insert` fault stores `after` events first, as an ordered insert cut short would. */
export function memoryEventStore(mem: MemoryState, call: Call): EventStore {
  const { events, tombstones, settled, visible, sorted } = mem;
  return {
    async insert(requests, pubAt) {
      const f = call('events.insert');
      let n = 0;
      for (const req of requests) {
        const last = req.at(-1)!.id;
        for (const ev of req) {
          if (f && n >= f.after) throw f.error;
          if (events.has(ev.id) || tombstones.has(ev.id)) throw Object.assign(new Error(`E11000 duplicate key: ${ev.id}`), { code: 11000 });
          const rec: EventRec = { event: copy(ev), pub: new Date(pubAt), logq: true };
          if (ev.id !== last) rec.part = last;
          events.set(ev.id, rec);
          n++;
        }
      }
      if (f) throw f.error;
    },
    async fence(ids) {
      call('events.fence');
      const out = new Map<string, 'stored' | 'fenced'>();
      for (const id of ids) {
        if (events.has(id)) out.set(id, 'stored');
        else {
          tombstones.add(id);
          out.set(id, 'fenced');
        }
      }
      return out;
    },
    async withdraw(ids) {
      call('events.withdraw');
      for (const id of ids) events.delete(id);
    },
    async findById(accountId, id) {
      call('events.findById');
      const r = events.get(id);
      return r && visible(accountId)(r) ? copy(r.event) : undefined;
    },
    async findByToken(accountId, token, limit) {
      call('events.findByToken');
      return sorted((r) => visible(accountId)(r) && r.event.token === token, true)
        .slice(0, limit)
        .map((r) => copy(r.event));
    },
    async history(q) {
      call('events.history');
      return sorted((r) => {
        const e = r.event;
        return (
          visible(q.accountId)(r) &&
          e.subject === q.subject &&
          e.issuer === q.issuer &&
          e.target === q.target &&
          (q.scope === undefined || e.scope === q.scope) &&
          (q.source === undefined || e.source === q.source) &&
          (q.gpc === undefined || e.gpc === q.gpc) &&
          (q.jurisdiction === undefined || e.jurisdiction === q.jurisdiction) &&
          (q.before === undefined || e.id < q.before)
        );
      }, true)
        .slice(0, q.limit)
        .map((r) => copy(r.event));
    },
    async newestBefore(accountId, refs, before) {
      call('events.newestBefore');
      const wanted = new Set(refs.map((r) => stateKey(accountId, r.subject, r.issuer, r.target, r.scope)));
      const out = new Map<string, ConsentEvent>();
      for (const r of sorted((r) => visible(accountId)(r) && r.event.id < before, true)) {
        const e = r.event;
        const key = stateKey(accountId, e.subject, e.issuer, e.target, e.scope);
        if (wanted.has(key) && !out.has(key)) out.set(key, copy(e));
      }
      return out;
    },
    async exportPage(q) {
      call('events.exportPage');
      const match = matchesExport(q);
      return sorted((r) => match(r) && settled(r))
        .slice(0, q.limit)
        .map((r) => copy(r.event));
    },
    async count(q) {
      call('events.count');
      return sorted(matchesExport(q)).length;
    },
    async *actions(accountId, appId, from, to, limit) {
      call('events.actions');
      const rows = sorted((r) => visible(accountId)(r) && r.event.appId === appId && r.event.id >= from && r.event.id < to).slice(0, limit);
      for (const r of rows) yield { id: r.event.id, action: r.event.action };
    },
  };
}
