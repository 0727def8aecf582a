import type { ClaimedEvent, OutboxStore } from '../../app/ports';
import { fromDoc, unsettled } from './docs';
import { driverCollection, type EventDoc, type Models } from './models';

/**
 * Publication bookkeeping on the event documents (each is its own outbox record): `pub` is when
 * an event becomes due for the relay, `claim` the relay round that took it (see OutboxStore).
 */
export function mongoOutboxStore(m: Models): OutboxStore {
  const claimed = async (claim: string, limit: number): Promise<ClaimedEvent[]> => {
    const docs = await m.events.find({ claim }).sort({ _id: 1 }).limit(limit).lean<EventDoc[]>().exec();
    const doubt = await unsettled(m, docs);
    return docs.map((d) => (d.part && doubt.has(d.part) ? { ...fromDoc(d), unsettledUntil: d.part } : fromDoc(d)));
  };
  return {
    async claimDue(claim, now, until, limit) {
      // served by the sparse `unpublished` index
      const res = await m.events.updateMany({ pub: { $lte: now } }, { $set: { pub: until, claim } }).exec();
      return res.modifiedCount ? claimed(claim, limit) : [];
    },
    claimed,
    /** Through the driver: the writer's publication marks every batch (see driverCollection). */
    async markPublished(ids) {
      // published, so its request is known to be stored whole: `part` goes too
      if (ids.length) await driverCollection(m.events).updateMany({ _id: { $in: ids } }, { $unset: { pub: '', claim: '', part: '' } });
    },
    async defer(ids, at) {
      if (ids.length) await m.events.updateMany({ _id: { $in: ids }, pub: { $exists: true } }, { $set: { pub: at } }).exec();
    },
    async pending() {
      // event ids are time-ordered, so the smallest unpublished id is the oldest
      const [count, oldest] = await Promise.all([
        m.events.countDocuments({ pub: { $exists: true } }).exec(),
        m.events
          .findOne({ pub: { $exists: true } }, { createdAt: 1 })
          .sort({ _id: 1 })
          .lean<Pick<EventDoc, 'createdAt'>>()
          .exec(),
      ]);
      return { count, oldestStoredAt: oldest?.createdAt ? new Date(oldest.createdAt) : null };
    },
  };
}
