import type { ConsentEvent } from '../domain/consent';
import { eventsOfCurrent } from './event-docs';
import { EXPIRY_ANNOUNCED, type CurrentDoc, type Models } from './models';

/** A state whose current event lapsed, claimed for its `consent.expired` announcement. */
export interface LapsedState {
  /** The state key (the current document's _id). */
  key: string;
  event: ConsentEvent;
}

/** The expiry queue on the current documents (`cur.xq`), for the sweeper (events/expiry-sweeper.ts). */
export class ExpiryRepository {
  constructor(private readonly m: Models) {}

  /**
   * Claims the states whose current event has lapsed and is not yet announced: one updateMany
   * that pushes their `cur.xq` forward by the lease and tags them with this round's claim, then
   * (when it claimed any) one read of the tagged states. Each document's update is atomic, so of
   * several replicas exactly one claims a state per lease; an idle round is the one update,
   * matching nothing (served by the sparse `expiry_queue` index). A state renewed meanwhile holds
   * a newer `cur` without the tag, so it is not read.
   */
  async claimLapsed(claim: string, leaseMs: number, limit: number, now: Date = new Date()): Promise<LapsedState[]> {
    const res = await this.m.current.collection.updateMany(
      { 'cur.xq': { $lte: now } } as never,
      { $set: { 'cur.xq': new Date(now.getTime() + leaseMs), 'cur.xc': claim } } as never,
    );
    return res.modifiedCount ? this.lapsedOfClaim(claim, limit) : [];
  }

  /** States of a claim not yet announced (a round reads its claim in chunks). */
  async lapsedOfClaim(claim: string, limit: number): Promise<LapsedState[]> {
    const docs = (await this.m.current.collection
      .find({ 'cur.xc': claim } as never)
      .limit(limit)
      .toArray()) as unknown as CurrentDoc[];
    const out: LapsedState[] = [];
    for (const d of docs) {
      const [event] = await eventsOfCurrent(this.m, [d]);
      if (event) out.push({ key: d._id, event });
    }
    return out;
  }

  /**
   * Announced: the states leave the queue for good (`cur.xq` = EXPIRY_ANNOUNCED), each only if
   * the same event is still current (a renewal has its own expiry). One bulkWrite for any number.
   */
  async markExpiryAnnounced(states: Array<{ key: string; eventId: string }>): Promise<void> {
    if (!states.length) return;
    await this.m.current.collection.bulkWrite(
      states.map((s) => ({
        updateOne: { filter: { _id: s.key, 'cur.id': s.eventId }, update: { $set: { 'cur.xq': EXPIRY_ANNOUNCED }, $unset: { 'cur.xc': '' } } },
      })) as never[],
      { ordered: false },
    );
  }
}
