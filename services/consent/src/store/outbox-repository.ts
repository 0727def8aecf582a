import type { ConsentEvent } from '../domain/consent';
import { fromDoc } from './event-docs';
import type { EventDoc, Models } from './models';

/**
 * Publication bookkeeping on the event documents (each is its own outbox record): `pub` is when
 * an event becomes due for the relay, `claim` the relay round that took it. Only the relay
 * (events/outbox-relay.ts) uses it.
 */
export class OutboxRepository {
  constructor(private readonly m: Models) {}

  /** Published: the events leave the relay's view. One bulkWrite of updates by _id for any number of events. */
  async markPublished(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.m.events.collection.bulkWrite(ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $unset: { pub: '', claim: '' } } } })) as never[], {
      ordered: false,
    });
  }

  /** Not published: any replica's relay may retry from `retryAt`. */
  async deferPublication(ids: string[], retryAt: Date): Promise<void> {
    if (!ids.length) return;
    await this.m.events.collection.bulkWrite(ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $set: { pub: retryAt } } } })) as never[], {
      ordered: false,
    });
  }

  /**
   * Claims every event due for publishing (its writer did not publish it in time): one update
   * that pushes their due time back by the lease and tags them with this round's `claim`, then one
   * read of the tagged events. Each event's update is atomic, so of several replicas exactly one
   * claims it per lease. An idle round is the one update, matching nothing.
   */
  async claimDue(claim: string, leaseMs: number, limit: number): Promise<ConsentEvent[]> {
    const now = new Date();
    const res = await this.m.events.collection.updateMany(
      { pub: { $lte: now } } as never,
      { $set: { pub: new Date(now.getTime() + leaseMs), claim } } as never,
    );
    return res.modifiedCount ? this.claimed(claim, limit) : [];
  }

  /** Events of a claim not yet published, oldest first (a relay round reads its claim in chunks). */
  async claimed(claim: string, limit: number): Promise<ConsentEvent[]> {
    const docs = (await this.m.events.collection
      .find({ claim } as never)
      .sort({ _id: 1 })
      .limit(limit)
      .toArray()) as unknown as EventDoc[];
    return docs.map((d) => fromDoc(d));
  }

  /** Events not yet on NATS (for tests and metrics). */
  async countUnpublished(): Promise<number> {
    return this.m.events.collection.countDocuments({ pub: { $exists: true } } as never);
  }
}
