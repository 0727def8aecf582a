import type { AnyBulkWriteOperation, FilterQuery } from 'mongoose';
import type { ErasureRecord, ErasureStore } from '../../app/ports';
import { currentUpsert } from './current';
import { bulkUpserts, eventsOfCurrent, fromDoc } from './docs';
import type { CurrentDoc, ErasureDoc, EventDoc, Models, StatsDoc } from './models';
import { subjectMarkerId } from './statistics';

const recordOf = ({ _id, ...rest }: ErasureDoc): ErasureRecord => ({ id: _id, ...rest });

/** What subject erasure reads and rewrites (see ErasureStore; the steps are app/erasure.ts). */
export function mongoErasureStore(m: Models): ErasureStore {
  const subjectFilter = <D>(accountId: string, subject: string, issuer: string | undefined): FilterQuery<D> =>
    (issuer === undefined ? { subject, accountId } : { subject, issuer, accountId }) as FilterQuery<D>;
  return {
    /** No sort and no cursor: a rewritten event no longer matches, so each find (the `search` index's prefix) returns the next ones. */
    async inClear(accountId, subject, issuer, limit) {
      const docs = await m.events
        .find(subjectFilter<EventDoc>(accountId, subject, issuer), { pub: 0, claim: 0 })
        .limit(limit)
        .lean<EventDoc[]>()
        .exec();
      return docs.map((d) => ({ ...fromDoc(d), logPending: d.logq !== undefined, ...(d.importKey ? { importKey: d.importKey } : {}) }));
    },
    async rewrite(rewrites) {
      if (!rewrites.length) return 0;
      const res = await m.events.bulkWrite(
        rewrites.map(({ id, subject, set }) => {
          const $set: Partial<EventDoc> = { subject: set.subject, erasedAt: set.erasedAt };
          if (set.source !== undefined) $set.source = set.source;
          if (set.delegate !== undefined) $set.delegate = set.delegate;
          if (set.leafHash) $set.logh = set.leafHash.toString('base64');
          if (set.importKey) $set.importKey = set.importKey;
          return { updateOne: { filter: { _id: id, subject }, update: { $set } } };
        }),
        { ordered: false },
      );
      return res.modifiedCount;
    },
    async statesOf(accountId, subject, issuer, skip, limit) {
      const filter = subjectFilter<CurrentDoc>(accountId, subject, issuer);
      if (skip.length) filter._id = { $nin: skip };
      const docs = await m.current.find(filter).limit(limit).lean<CurrentDoc[]>().exec();
      const events = await eventsOfCurrent(m, docs);
      return docs.map((d, i) => {
        const event = events[i];
        const xq = d.cur?.id === event?.id ? d.cur?.xq : undefined;
        return { key: d._id, ...(event ? { event } : {}), ...(xq ? { expiryDue: new Date(xq) } : {}) };
      });
    },
    async erased(ids) {
      if (!ids.length) return new Set();
      const docs = await m.events
        .find({ _id: { $in: ids }, erasedAt: { $exists: true } }, { _id: 1 })
        .lean<Array<{ _id: string }>>()
        .exec();
      return new Set(docs.map((d) => d._id));
    },
    /** The new state by `$max` upsert; the old one removed only while it still holds the event moved (a concurrent write of new data keeps it). */
    async moveStates(moves) {
      if (!moves.length) return;
      const ops: AnyBulkWriteOperation<CurrentDoc>[] = [];
      for (const mv of moves) {
        ops.push(currentUpsert(mv.to, mv.event, mv.expiryDue));
        ops.push({ deleteOne: { filter: { _id: mv.from, $or: [{ 'cur.id': mv.eventId }, { cur: { $exists: false }, eventId: mv.eventId }] } } });
      }
      await bulkUpserts((list) => m.current.bulkWrite(list, { ordered: false }), ops);
    },
    async hasInClear(accountId, appId, subject) {
      return (await m.events.exists({ subject, accountId, appId }).exec()) !== null;
    },
    async moveSubjectMarkers(accountId, subject, pseudonym, appIds) {
      const ops: AnyBulkWriteOperation<StatsDoc>[] = appIds.flatMap((appId): AnyBulkWriteOperation<StatsDoc>[] => [
        { deleteOne: { filter: { _id: subjectMarkerId(accountId, appId, subject) } } },
        {
          updateOne: {
            filter: { _id: subjectMarkerId(accountId, appId, pseudonym) },
            update: { $setOnInsert: { kind: 'subject', accountId, appId } },
            upsert: true,
          },
        },
      ]);
      if (ops.length) await bulkUpserts((list) => m.stats.bulkWrite(list, { ordered: false }), ops);
    },
    async record(rec) {
      const { id, ...fields } = rec;
      const doc: ErasureDoc = { _id: id, ...fields };
      if (doc.issuer === undefined) delete doc.issuer;
      await m.erasures.insertMany([doc], { lean: true });
    },
    /** Served by the `account_erasures` index. */
    async list(accountId, limit, before) {
      const filter: FilterQuery<ErasureDoc> = before ? { accountId, _id: { $lt: before } } : { accountId };
      return (await m.erasures.find(filter).sort({ _id: -1 }).limit(limit).lean<ErasureDoc[]>().exec()).map(recordOf);
    },
  };
}
