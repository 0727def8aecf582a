import { isDuplicateKey } from '@accord/common';
import type { LogLeaf, LogTreeStore, TreeHeadRecord } from '../../app/ports';
import { asBuffer } from './docs';
import type { LogHeadDoc, LogLeafDoc, LogModels } from './log-models';
import { driverCollection } from './models';

const nodeId = (accountId: string, s: { level: number; index: number }) => `${s.level}/${s.index}/${accountId}`;
const headId = (accountId: string, treeSize: number) => `${accountId}/${treeSize}`;
const leafId = (accountId: string, leafIndex: number) => `${accountId}/${leafIndex}`;
/** Positions read per lookup when following leaves beyond a head. */
const CHUNK = 512;

const leafOf = ({ _id: _, ...d }: LogLeafDoc): LogLeaf => ({ ...d, leafHash: asBuffer(d.leafHash) });
const headOf = ({ _id: _, ...d }: LogHeadDoc): TreeHeadRecord => d;

/**
 * The consent log's collections (see log-models.ts and LogTreeStore), through the driver: every
 * sequencing pass and every proof runs these, in numbers (hundreds of ids per lookup, two
 * subtree documents per leaf) where mongoose's per-query, per-id and per-document work cost
 * measurably more CPU than the driver's (see driverCollection). The documents are built here.
 */
export function mongoLogTreeStore(m: LogModels): LogTreeStore {
  const leaves = driverCollection(m.leaves);
  const nodes = driverCollection(m.nodes);
  const heads = driverCollection(m.heads);
  const leases = driverCollection(m.leases);
  return {
    /** A conditional upsert on `until`/`owner` (findAndModify): a duplicate key means another owner holds it. */
    async takeLease(accountId, owner, now, until) {
      try {
        const doc = await leases.findOneAndUpdate(
          { _id: accountId, $or: [{ until: { $lte: now } }, { owner }] },
          { $set: { owner, until } },
          { upsert: true, returnDocument: 'after' },
        );
        return doc?.owner === owner;
      } catch (err) {
        if (isDuplicateKey(err)) return false; // the lease exists and is someone else's
        throw err;
      }
    },
    async releaseLease(accountId, owner) {
      await leases.deleteOne({ _id: accountId, owner });
    },
    /** Served by the `latest` index. */
    async latestHead(accountId) {
      const doc = await heads.findOne({ accountId }, { sort: { treeSize: -1 } });
      return doc ? headOf(doc) : undefined;
    },
    async head(accountId, treeSize) {
      const doc = await heads.findOne({ _id: headId(accountId, treeSize) });
      return doc ? headOf(doc) : undefined;
    },
    /** By the unique `event` index; the account checked here. */
    async leaf(accountId, eventId) {
      const doc = await leaves.findOne({ eventId });
      return doc && doc.accountId === accountId ? leafOf(doc) : undefined;
    },
    /** Point lookups by `_id` in chunks, so the cost is the leaves found, not the log. */
    async leavesFrom(accountId, from) {
      const out: LogLeaf[] = [];
      for (;;) {
        const start = from + out.length;
        const ids = Array.from({ length: CHUNK }, (_, k) => leafId(accountId, start + k));
        const docs = await leaves.find({ _id: { $in: ids } }).toArray();
        const byIndex = new Map(docs.map((d) => [d.leafIndex, d]));
        for (let k = 0; k < CHUNK; k++) {
          const d = byIndex.get(start + k);
          if (!d) return out;
          out.push(leafOf(d));
        }
      }
    },
    async withLeaves(eventIds) {
      if (!eventIds.length) return new Set();
      const docs = await leaves.find({ eventId: { $in: eventIds } }, { projection: { eventId: 1 } }).toArray();
      return new Set(docs.map((d) => d.eventId));
    },
    /** Ordered: a duplicate position or event stops the insert there. */
    async insertLeaves(list) {
      try {
        await leaves.insertMany(
          list.map((l): LogLeafDoc => ({ _id: leafId(l.accountId, l.leafIndex), ...l })),
          { ordered: true },
        );
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async insertSubtrees(accountId, subtrees) {
      if (!subtrees.length) return;
      try {
        await nodes.insertMany(
          subtrees.map((s) => ({ _id: nodeId(accountId, s), h: s.hash })),
          { ordered: false },
        );
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
    async subtrees(accountId, list) {
      const out = new Map<string, Buffer>();
      if (!list.length) return out;
      const docs = await nodes.find({ _id: { $in: [...new Set(list.map((s) => nodeId(accountId, s)))] } }).toArray();
      for (const d of docs) out.set(d._id.slice(0, d._id.length - accountId.length - 1), asBuffer(d.h));
      return out;
    },
    async insertHead(head) {
      try {
        await heads.insertOne({ _id: headId(head.accountId, head.treeSize), ...head });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
  };
}
