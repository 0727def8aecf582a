import type { LinkStore } from '../../app/ports';
import type { LinkEvent } from '../../domain/link';

const copy = (l: LinkEvent): LinkEvent => {
  const out = { ...l, createdAt: new Date(l.createdAt) };
  if (l.erasedAt) out.erasedAt = new Date(l.erasedAt);
  return out;
};

/** The link events in memory (the reference of the contract test); `call` records each call and throws a planned fault. */
export function memoryLinkStore(call: (method: string) => unknown): LinkStore {
  const links = new Map<string, LinkEvent>();
  const newest = (filter: (l: LinkEvent) => boolean, limit: number) =>
    [...links.values()]
      .filter(filter)
      .sort((x, y) => (x.id < y.id ? 1 : -1))
      .slice(0, limit)
      .map(copy);
  const below = (l: LinkEvent, before: string | undefined) => before === undefined || l.id < before;
  return {
    async insert(link) {
      call('links.insert');
      if (links.has(link.id)) throw new Error(`duplicate link id ${link.id}`);
      links.set(link.id, copy(link));
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
      return newest((l) => l.accountId === accountId && (issuer === undefined || l.issuer === issuer) && (l.identity === name || l.subject === name), limit);
    },
    async rewrite(rewrites) {
      call('links.rewrite');
      let n = 0;
      for (const r of rewrites) {
        const l = links.get(r.id);
        if (!l || l.identity !== r.identity) continue;
        links.set(r.id, { ...l, identity: r.set.identity, subject: r.set.subject, erasedAt: new Date(r.set.erasedAt) });
        n++;
      }
      return n;
    },
  };
}
