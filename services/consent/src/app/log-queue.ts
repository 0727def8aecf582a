import type { LinkStore, LogPendingEvent, LogQueueStore } from './ports';

/** A leaf waiting to be appended: a consent event, or a link event with its leaf hash fixed at insert. */
export type LogPendingLeaf = LogPendingEvent | { id: string; leafHash: Buffer };

/** The log's queue as the sequencer and the proofs read it: consent events and link events. */
export interface LeafQueue {
  accounts(): Promise<string[]>;
  pending(accountId: string, limit: number, after?: string): Promise<{ events: LogPendingLeaf[]; last?: string; full: boolean }>;
  markLogged(ids: string[], published?: string[]): Promise<void>;
  isPending(accountId: string, id: string): Promise<boolean>;
}

/**
 * The consent log's queue with link events in it (docs/consent.md, Linked identities): both
 * queues read with the same cursor and merged by id (ids of both are time-ordered and unique). A
 * full page of either bounds the merge at its last id, so that nothing of the other beyond it is
 * appended before what the full one has not read yet. An account whose links are all sequenced
 * costs the pass one more small read.
 */
export function leafQueue(events: LogQueueStore, links: Pick<LinkStore, 'logAccounts' | 'logPending' | 'markLogged' | 'isLogPending'>): LeafQueue {
  /** Link ids handed out by `pending` and not yet marked logged (markLogged splits by them). */
  const handed = new Set<string>();
  return {
    async accounts() {
      const [a, b] = await Promise.all([events.accounts(), links.logAccounts()]);
      return [...new Set([...a, ...b])];
    },
    async pending(accountId, limit, after) {
      const [e, l] = await Promise.all([events.pending(accountId, limit, after), links.logPending(accountId, limit, after)]);
      if (!l.links.length && !l.full) return e;
      const fullLasts = [e.full ? e.last : undefined, l.full ? l.last : undefined].filter((x): x is string => x !== undefined);
      let bound = fullLasts.length ? fullLasts.sort()[0] : undefined;
      let merged: LogPendingLeaf[] = [...e.events, ...l.links].filter((x) => bound === undefined || x.id <= bound).sort((x, y) => (x.id < y.id ? -1 : 1));
      if (merged.length > limit) {
        merged = merged.slice(0, limit);
        bound = merged.at(-1)!.id;
      }
      for (const x of merged) if (!('accountId' in x)) handed.add(x.id);
      const lasts = [e.last, l.last].filter((x): x is string => x !== undefined).sort();
      const last = bound ?? lasts.at(-1);
      return { events: merged, ...(last !== undefined ? { last } : {}), full: bound !== undefined };
    },
    async markLogged(ids, published) {
      const linkIds = ids.filter((id) => handed.has(id));
      const eventIds = linkIds.length ? ids.filter((id) => !handed.has(id)) : ids;
      await Promise.all([eventIds.length ? events.markLogged(eventIds, published) : undefined, linkIds.length ? links.markLogged(linkIds) : undefined]);
      for (const id of linkIds) handed.delete(id);
    },
    async isPending(accountId, id) {
      return (await events.isPending(accountId, id)) || links.isLogPending(accountId, id);
    },
  };
}
