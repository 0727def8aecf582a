import { hashKey } from '../../domain/consent';
import type { ErasureRecord, ErasureStore } from '../../app/ports';
import type { Call } from './faults';
import { copy, eventOfState, type MemoryState } from './state';

/** Erasure in memory (see ErasureStore): the subject's events, states and markers rewritten under a pseudonym, and the erasure records. */
export function memoryErasureStore(mem: MemoryState, call: Call): ErasureStore {
  const { events, states, markers, importKeys, importKeyOf, upsertState } = mem;
  const erasures = new Map<string, ErasureRecord>();
  return {
    async inClear(accountId, subject, issuer, limit) {
      call('erasure.inClear');
      return [...events.values()]
        .filter((r) => r.event.accountId === accountId && r.event.subject === subject && (issuer === undefined || r.event.issuer === issuer))
        .slice(0, limit)
        .map((r) => {
          const importKey = importKeyOf.get(r.event.id);
          return { ...copy(r.event), logPending: !!r.logq, ...(importKey ? { importKey } : {}) };
        });
    },
    async rewrite(list) {
      call('erasure.rewrite');
      let n = 0;
      for (const w of list) {
        const r = events.get(w.id);
        if (!r || r.event.subject !== w.subject) continue;
        r.event.subject = w.set.subject;
        if (w.set.source !== undefined) r.event.source = w.set.source;
        if (w.set.delegate !== undefined) r.event.delegate = w.set.delegate;
        r.event.erasedAt = new Date(w.set.erasedAt);
        if (w.set.leafHash) r.logh = Buffer.from(w.set.leafHash);
        const had = importKeyOf.get(w.id);
        if (w.set.importKey && had !== undefined) {
          importKeys.delete(had);
          importKeys.set(w.set.importKey, w.id);
          importKeyOf.set(w.id, w.set.importKey);
        }
        n++;
      }
      return n;
    },
    async statesOf(accountId, subject, issuer, skip, limit) {
      call('erasure.statesOf');
      return [...states.entries()]
        .filter(([k, s]) => s.accountId === accountId && s.subject === subject && (issuer === undefined || s.issuer === issuer) && !skip.includes(k))
        .slice(0, limit)
        .map(([key, s]) => ({ key, event: eventOfState(s), ...(s.xq ? { expiryDue: new Date(s.xq) } : {}) }));
    },
    async erased(ids) {
      call('erasure.erased');
      return new Set(ids.filter((id) => !!events.get(id)?.event.erasedAt));
    },
    async moveStates(moves) {
      call('erasure.moveStates');
      for (const m of moves) {
        upsertState(m.to, m.event, m.expiryDue ?? m.event.expiresAt);
        if (states.get(m.from)?.cur.id === m.eventId) states.delete(m.from);
      }
    },
    async hasInClear(accountId, appId, subject) {
      call('erasure.hasInClear');
      return [...events.values()].some((r) => r.event.accountId === accountId && r.event.appId === appId && r.event.subject === subject);
    },
    async moveSubjectMarkers(accountId, subject, pseudonym, appIds) {
      call('erasure.moveSubjectMarkers');
      for (const appId of appIds) {
        markers.delete(hashKey([accountId, appId, subject]));
        markers.set(hashKey([accountId, appId, pseudonym]), `${accountId}\n${appId}`);
      }
    },
    async record(rec) {
      call('erasure.record');
      erasures.set(rec.id, { ...rec, erasedAt: new Date(rec.erasedAt) });
    },
    async list(accountId, limit, before) {
      call('erasure.list');
      return [...erasures.values()]
        .filter((e) => e.accountId === accountId && (before === undefined || e.id < before))
        .sort((x, y) => (x.id < y.id ? 1 : -1))
        .slice(0, limit)
        .map((e) => ({ ...e }));
    },
  };
}
