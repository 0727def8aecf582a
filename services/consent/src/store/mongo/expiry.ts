import type { ExpiryStore, StateEvent } from '../../app/ports';
import { eventsOfCurrent } from './docs';
import { EXPIRY_ANNOUNCED, type CurrentDoc, type Models } from './models';

/** The expiry queue on the current documents (`cur.xq`, see CurrentEvent), for the sweeper (events/expiry-sweeper.ts). */
export function mongoExpiryStore(m: Models): ExpiryStore {
  const lapsedOfClaim = async (claim: string, limit: number): Promise<StateEvent[]> => {
    const docs = await m.current.find({ 'cur.xc': claim }).limit(limit).lean<CurrentDoc[]>().exec();
    const events = await eventsOfCurrent(m, docs);
    return docs.flatMap((d, i) => (events[i] ? [{ key: d._id, event: events[i] }] : []));
  };
  return {
    /**
     * One updateMany (served by the sparse `expiry_queue` index) that pushes `cur.xq` to `until`
     * and tags the states with the claim, then (when it claimed any) one read of the tagged
     * states. A state renewed meanwhile holds a newer `cur` without the tag, so it is not read.
     */
    async claimLapsed(claim, now, until, limit) {
      const res = await m.current.updateMany({ 'cur.xq': { $lte: now } }, { $set: { 'cur.xq': until, 'cur.xc': claim } }).exec();
      return res.modifiedCount ? lapsedOfClaim(claim, limit) : [];
    },
    lapsedOfClaim,
    /** `cur.xq` = EXPIRY_ANNOUNCED, each only if the same event is still current (a renewal has its own expiry). One bulkWrite. */
    async markAnnounced(states) {
      if (!states.length) return;
      await m.current.bulkWrite(
        states.map((s) => ({
          updateOne: { filter: { _id: s.key, 'cur.id': s.eventId }, update: { $set: { 'cur.xq': EXPIRY_ANNOUNCED }, $unset: { 'cur.xc': '' } } },
        })),
        { ordered: false },
      );
    },
  };
}
