import { isDuplicateKey } from '@accord/common';
import type { LogLeaf, LogTreeStore, TreeHeadRecord } from '../../app/ports';
import { asBuffer } from './docs';
import type { LogHeadDoc, LogLeafDoc, LogModels } from './log-models';

const nodeId = (accountId: string, s: { level: number; index: number }) => `${s.level}/${s.index}/${accountId}`;
const headId = (accountId: string, treeSize: number) => `${accountId}/${treeSize}`;
const leafId = (accountId: string, leafIndex: number) => `${accountId}/${leafIndex}`;
/** Positions read per lookup when following leaves beyond a head. */
const CHUNK = 512;

const leafOf = ({ _id: _, ...d }: LogLeafDoc): LogLeaf => ({ ...d, leafHash: asBuffer(d.leafHash) });
const headOf = ({ _id: _, ...d }: LogHeadDoc): TreeHeadRecord => d;

/** The consent log's collections (see log-models.ts and LogTreeStore). */
export function mongoLogTreeStore(m: LogModels): LogTreeStore {
  return {
    /** A conditional upsert on `until`/`owner` (findAndModify): a duplicate key means another owner holds it. */
    async takeLease(accountId, owner, now, until) {
      try {
        const doc = await m.leases
          .findOneAndUpdate(
            { _id: accountId, $or: [{ until: { $lte: now } }, { owner }] },
            { $set: { owner, until } },
            { upsert: true, returnDocument: 'after' },
          )
          .lean()
          .exec();
        return doc?.owner === owner;
      } catch (err) {
        if (isDuplicateKey(err)) return false; // the lease exists and is someone else's
        throw err;
      }
    },
    async releaseLease(accountId, owner) {
      await m.leases.deleteOne({ _id: accountId, owner }).exec();
    },
    /** Served by the `latest` index. */
    async latestHead(accountId) {
      const doc = await m.heads.findOne({ accountId }).sort({ treeSize: -1 }).lean<LogHeadDoc>().exec();
      return doc ? headOf(doc) : undefined;
    },
    async head(accountId, treeSize) {
      const doc = await m.heads.findById(headId(accountId, treeSize)).lean<LogHeadDoc>().exec();
      return doc ? headOf(doc) : undefined;
    },
    /** By the unique `event` index; the account checked here. */
    async leaf(accountId, eventId) {
      const doc = await m.leaves.findOne({ eventId }).lean<LogLeafDoc>().exec();
      return doc && doc.accountId === accountId ? leafOf(doc) : undefined;
    },
    /** Point lookups by `_id` in chunks, so the cost is the leaves found, not the log. */
    async leavesFrom(accountId, from) {
      const out: LogLeaf[] = [];
      for (;;) {
        const start = from + out.length;
        const ids = Array.from({ length: CHUNK }, (_, k) => leafId(accountId, start + k));
        const docs = await m.leaves
          .find({ _id: { $in: ids } })
          .lean<LogLeafDoc[]>()
          .exec();
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
      const docs = await m.leaves
        .find({ eventId: { $in: eventIds } }, { eventId: 1 })
        .lean<Array<Pick<LogLeafDoc, 'eventId'>>>()
        .exec();
      return new Set(docs.map((d) => d.eventId));
    },
    /** Ordered: a duplicate position or event stops the insert there. */
    async insertLeaves(leaves) {
      try {
        await m.leaves.insertMany(
          leaves.map((l): LogLeafDoc => ({ _id: leafId(l.accountId, l.leafIndex), ...l })),
          { ordered: true, lean: true },
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
        await m.nodes.insertMany(
          subtrees.map((s) => ({ _id: nodeId(accountId, s), h: s.hash })),
          { ordered: false, lean: true },
        );
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
    async subtrees(accountId, subtrees) {
      const out = new Map<string, Buffer>();
      if (!subtrees.length) return out;
      const docs = await m.nodes
        .find({ _id: { $in: [...new Set(subtrees.map((s) => nodeId(accountId, s)))] } })
        .lean<Array<{ _id: string; h: unknown }>>()
        .exec();
      for (const d of docs) out.set(d._id.slice(0, d._id.length - accountId.length - 1), asBuffer(d.h));
      return out;
    },
    async insertHead(head) {
      try {
        await m.heads.insertMany([{ _id: headId(head.accountId, head.treeSize), ...head }], { lean: true });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
  };
}
