import type { ConsentEvent } from '../../domain/consent';
import type { ImportedEvent, ImportJob } from '../../domain/import';
import type { ImportStore } from '../../app/ports';
import type { Call } from './faults';
import { copy, type MemoryState } from './state';

const copyJob = (j: ImportJob): ImportJob => structuredClone(j);

/** Import jobs in memory, and the imported events with their import keys (see ImportStore), for app/imports.ts. */
export function memoryImportStore(mem: MemoryState, call: Call): ImportStore {
  const { events, importKeys, importKeyOf } = mem;
  const importJobs = new Map<string, ImportJob>();
  /** The account's job `id`, while it runs (`any`: whatever its state). */
  const jobOf = (accountId: string, id: string, any = false) => {
    const j = importJobs.get(id);
    return j && j.accountId === accountId && (any || j.state === 'running') ? j : undefined;
  };
  return {
    async create(job) {
      call('imports.create');
      importJobs.set(job.id, copyJob(job));
    },
    async get(accountId, id) {
      call('imports.get');
      const j = jobOf(accountId, id, true);
      return j && copyJob(j);
    },
    async progress(accountId, id, add, at) {
      call('imports.progress');
      const j = jobOf(accountId, id);
      if (!j) return undefined;
      j.read += add.read;
      j.stored += add.stored;
      j.duplicates += add.duplicates;
      j.refused += add.refused;
      j.errors.push(...add.errors.map((e) => ({ ...e })));
      j.updatedAt = new Date(at);
      return copyJob(j);
    },
    async setColumns(accountId, id, columns) {
      call('imports.setColumns');
      const j = jobOf(accountId, id);
      if (j) j.columns = [...columns];
    },
    async finish(accountId, id, state, failure, at) {
      call('imports.finish');
      const j = jobOf(accountId, id, true);
      if (!j) return undefined;
      if (j.state === 'running') {
        j.state = state;
        if (failure !== undefined) j.failure = failure;
        j.updatedAt = new Date(at);
      }
      return copyJob(j);
    },
    async insertEvents(list, erasedKeys) {
      call('imports.insertEvents');
      const stored: ImportedEvent[] = [];
      const duplicates: ConsentEvent[] = [];
      for (const [i, ev] of list.entries()) {
        const erased = erasedKeys?.[i];
        const had = importKeys.get(ev.importKey) ?? (erased !== undefined ? importKeys.get(erased) : undefined);
        if (had !== undefined) {
          const r = events.get(had);
          if (r && !duplicates.some((d) => d.id === had)) duplicates.push(copy(r.event));
          continue;
        }
        events.set(ev.id, { event: copy(ev), logq: true });
        importKeys.set(ev.importKey, ev.id);
        importKeyOf.set(ev.id, ev.importKey);
        stored.push(ev);
      }
      return { stored, duplicates };
    },
  };
}
