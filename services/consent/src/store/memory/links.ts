import type { LinkStore } from '../../app/ports';
import type { LinkEvent } from '../../domain/link';

const copy = (l: LinkEvent): LinkEvent => {
  const out = { ...l, createdAt: new Date(l.createdAt) };
  if (l.importedAt) out.importedAt = new Date(l.importedAt);
  if (l.erasedAt) out.erasedAt = new Date(l.erasedAt);
  return out;
};

/** The link events in memory (the reference of the contract test); `call` records each call and throws a planned fault. */
export function memoryLinkStore(call: (method: string) => unknown): LinkStore {
  const links = new Map<string, LinkEvent>();
  /** Imported links: import key → link id, and link id → import key. */
  const keys = new Map<string, string>();
  const keyOf = new Map<string, string>();
  /** The outbox: link id → due time and claim. */
  const outbox = new Map<string, { pub: Date; claim?: string }>();
  /** The log's queue: link id → its leaf hash, until sequenced. */
  const logq = new Map<string, Buffer>();
  const newest = (filter: (l: LinkEvent) => boolean, limit: number) =>
    [...links.values()]
      .filter(filter)
      .sort((x, y) => (x.id < y.id ? 1 : -1))
      .slice(0, limit)
      .map(copy);
  const below = (l: LinkEvent, before: string | undefined) => before === undefined || l.id < before;
  return {
    async insert(link, pubAt, leafHash) {
      call('links.insert');
      if (links.has(link.id)) throw new Error(`duplicate link id ${link.id}`);
      links.set(link.id, copy(link));
      outbox.set(link.id, { pub: new Date(pubAt) });
      logq.set(link.id, Buffer.from(leafHash));
    },
    async logAccounts() {
      call('links.logAccounts');
      return [...new Set([...logq.keys()].map((id) => links.get(id)!.accountId))];
    },
    async logPending(accountId, limit, after) {
      call('links.logPending');
      const ids = [...logq.keys()]
        .filter((id) => links.get(id)!.accountId === accountId && (after === undefined || id > after))
        .sort()
        .slice(0, limit);
      return {
        links: ids.map((id) => ({ id, leafHash: Buffer.from(logq.get(id)!) })),
        ...(ids.length ? { last: ids.at(-1)! } : {}),
        full: ids.length === limit,
      };
    },
    async markLogged(ids) {
      call('links.markLogged');
      for (const id of ids) logq.delete(id);
    },
    async isLogPending(accountId, id) {
      call('links.isLogPending');
      return logq.has(id) && links.get(id)!.accountId === accountId;
    },
    async claimDue(claim, now, until, limit) {
      call('links.claimDue');
      for (const o of outbox.values())
        if (o.pub <= now) {
          o.pub = new Date(until);
          o.claim = claim;
        }
      return [...outbox.entries()]
        .filter(([, o]) => o.claim === claim)
        .map(([id]) => id)
        .sort()
        .slice(0, limit)
        .map((id) => copy(links.get(id)!));
    },
    async markPublished(ids) {
      call('links.markPublished');
      for (const id of ids) outbox.delete(id);
    },
    async any(accountId) {
      call('links.any');
      return [...links.values()].some((l) => l.accountId === accountId);
    },
    async naming(accountId, issuer, names, before, limit) {
      call('links.naming');
      return newest(
        (l) =>
          l.accountId === accountId &&
          l.issuer === issuer &&
          (names.includes(l.identity) || (l.subject !== null && names.includes(l.subject))) &&
          below(l, before),
        limit,
      );
    },
    async ofIdentities(accountId, issuer, identities, before, limit) {
      call('links.ofIdentities');
      return newest(
        (l) => l.accountId === accountId && (issuer === undefined || l.issuer === issuer) && identities.includes(l.identity) && below(l, before),
        limit,
      );
    },
    async list(q) {
      call('links.list');
      return newest(
        (l) =>
          l.accountId === q.accountId &&
          l.issuer === q.issuer &&
          (q.identity === undefined || l.identity === q.identity) &&
          (q.subject === undefined || l.subject === q.subject) &&
          below(l, q.before),
        q.limit,
      );
    },
    async inClear(accountId, name, issuer, limit) {
      call('links.inClear');
      return newest(
        (l) => l.accountId === accountId && (issuer === undefined || l.issuer === issuer) && (l.identity === name || l.subject === name),
        limit,
      ).map((l) => {
        const importKey = keyOf.get(l.id);
        return importKey === undefined ? l : { ...l, importKey };
      });
    },
    async exportPage(q) {
      call('links.exportPage');
      return [...links.values()]
        .filter(
          (l) =>
            l.accountId === q.accountId &&
            (q.appId === undefined || l.appId === q.appId) &&
            (q.subject === undefined || l.identity === q.subject || l.subject === q.subject) &&
            (q.after === undefined || l.id > q.after) &&
            (q.from === undefined || l.id >= q.from) &&
            (q.before === undefined || l.id < q.before),
        )
        .sort((x, y) => (x.id < y.id ? -1 : 1))
        .slice(0, q.limit)
        .map(copy);
    },
    async insertImported(link, leafHash) {
      call('links.insertImported');
      if (keys.has(link.importKey) || links.has(link.id)) return false;
      const { importKey, ...rest } = link;
      keys.set(importKey, link.id);
      keyOf.set(link.id, importKey);
      links.set(link.id, copy(rest));
      logq.set(link.id, Buffer.from(leafHash));
      return true;
    },
    async importedKeys(asked) {
      call('links.importedKeys');
      return new Set(asked.filter((k) => keys.has(k)));
    },
    async rewrite(rewrites) {
      call('links.rewrite');
      let n = 0;
      for (const r of rewrites) {
        const l = links.get(r.id);
        if (!l || l.identity !== r.identity) continue;
        links.set(r.id, { ...l, identity: r.set.identity, subject: r.set.subject, erasedAt: new Date(r.set.erasedAt) });
        const key = keyOf.get(r.id);
        if (key !== undefined && r.set.importKey !== undefined) {
          keys.delete(key);
          keys.set(r.set.importKey, r.id);
          keyOf.set(r.id, r.set.importKey);
        }
        n++;
      }
      return n;
    },
  };
}
