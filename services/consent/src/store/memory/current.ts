import { stateKey, type ConsentEvent } from '../../domain/consent';
import { decidedEvent, withAskedStrings, type DecidedEvent } from '../../domain/decision';
import type { CurrentStateStore } from '../../app/ports';
import type { Call } from './faults';
import { eventOfState, type MemoryState } from './state';

/** consent_current in memory (see CurrentStateStore): newest event wins, by domain/consent.ts `supersedes` (MemoryState.upsertState). */
export function memoryCurrentStateStore(mem: MemoryState, call: Call): CurrentStateStore {
  const { states, upsertState } = mem;
  return {
    async apply(evs) {
      call('current.apply');
      for (const ev of evs) upsertState(stateKey(ev.accountId, ev.subject, ev.issuer, ev.target, ev.scope), ev);
    },
    async byKeys(accountId, keys) {
      call('current.byKeys');
      const out = new Map<string, ConsentEvent>();
      for (const k of keys) {
        const s = states.get(k);
        if (s && s.accountId === accountId) out.set(k, eventOfState(s));
      }
      return out;
    },
    async forDecisions(accountId, keys, opts) {
      call('current.forDecisions');
      const out = new Map<string, DecidedEvent>();
      for (const k of keys) {
        const s = states.get(k);
        if (!s || s.accountId !== accountId) continue;
        out.set(k, withAskedStrings(decidedEvent(s.cur), opts));
      }
      return out;
    },
    async ofSubject(accountId, subject, issuer, targets, limit) {
      call('current.ofSubject');
      return [...states.values()]
        .filter((s) => s.accountId === accountId && s.subject === subject && s.issuer === issuer && (!targets.length || targets.includes(s.target)))
        .slice(0, limit)
        .map(eventOfState);
    },
  };
}
