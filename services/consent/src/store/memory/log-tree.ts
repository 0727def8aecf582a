import type { Subtree } from '@accord/proofs';
import type { LogLeaf, LogTreeStore, TreeHeadRecord } from '../../app/ports';
import type { Call } from './faults';

const copyLeaf = (l: LogLeaf): LogLeaf => ({ ...l, leafHash: Buffer.from(l.leafHash), at: new Date(l.at) });

/** The log's tree in memory (leaves, complete subtrees, signed heads and the per-account lease, see LogTreeStore); it shares nothing with the other sub-stores. */
export function memoryLogTreeStore(call: Call): LogTreeStore {
  /** `<accountId>/<leafIndex>` → leaf. */
  const leaves = new Map<string, LogLeaf>();
  const leafOfEvent = new Map<string, string>();
  /** `<level>/<index>/<accountId>` → the subtree's hash. */
  const nodes = new Map<string, Buffer>();
  /** `<accountId>/<treeSize>` → head. */
  const heads = new Map<string, TreeHeadRecord>();
  const leases = new Map<string, { owner: string; until: Date }>();
  return {
    async takeLease(accountId, owner, now, until) {
      call('log.takeLease');
      const l = leases.get(accountId);
      if (l && l.owner !== owner && l.until > now) return false;
      leases.set(accountId, { owner, until: new Date(until) });
      return true;
    },
    async releaseLease(accountId, owner) {
      call('log.releaseLease');
      if (leases.get(accountId)?.owner === owner) leases.delete(accountId);
    },
    async latestHead(accountId) {
      call('log.latestHead');
      let best: TreeHeadRecord | undefined;
      for (const h of heads.values()) if (h.accountId === accountId && (!best || h.treeSize > best.treeSize)) best = h;
      return best && { ...best };
    },
    async head(accountId, treeSize) {
      call('log.head');
      const h = heads.get(`${accountId}/${treeSize}`);
      return h && { ...h };
    },
    async leaf(accountId, eventId) {
      call('log.leaf');
      const l = leaves.get(leafOfEvent.get(eventId) ?? '');
      return l && l.accountId === accountId ? copyLeaf(l) : undefined;
    },
    async leavesFrom(accountId, from) {
      call('log.leavesFrom');
      const out: LogLeaf[] = [];
      for (let i = from; leaves.has(`${accountId}/${i}`); i++) out.push(copyLeaf(leaves.get(`${accountId}/${i}`)!));
      return out;
    },
    async withLeaves(eventIds) {
      call('log.withLeaves');
      return new Set(eventIds.filter((id) => leafOfEvent.has(id)));
    },
    async insertLeaves(list) {
      call('log.insertLeaves');
      for (const l of list) {
        const id = `${l.accountId}/${l.leafIndex}`;
        if (leaves.has(id) || leafOfEvent.has(l.eventId)) return false;
        leaves.set(id, copyLeaf(l));
        leafOfEvent.set(l.eventId, id);
      }
      return true;
    },
    async insertSubtrees(accountId, list) {
      call('log.insertSubtrees');
      for (const s of list) if (!nodes.has(`${s.level}/${s.index}/${accountId}`)) nodes.set(`${s.level}/${s.index}/${accountId}`, Buffer.from(s.hash));
    },
    async subtrees(accountId, list: Subtree[]) {
      call('log.subtrees');
      const out = new Map<string, Buffer>();
      for (const s of list) {
        const h = nodes.get(`${s.level}/${s.index}/${accountId}`);
        if (h) out.set(`${s.level}/${s.index}`, Buffer.from(h));
      }
      return out;
    },
    async insertHead(h) {
      call('log.insertHead');
      const id = `${h.accountId}/${h.treeSize}`;
      if (heads.has(id)) return false;
      heads.set(id, { ...h });
      return true;
    },
  };
}
