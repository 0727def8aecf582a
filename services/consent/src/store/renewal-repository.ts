import { isDuplicateKey } from '@accord/common';
import { eventsOfCurrent } from './event-docs';
import type { LapsedState } from './expiry-repository';
import type { CurrentDoc, Models, RenewalJobDoc } from './models';

/** Renewal fan-out jobs (consent.renewal_required) and the states they walk, for events/renewal-announcer.ts. */
export class RenewalRepository {
  constructor(private readonly m: Models) {}

  /**
   * The job of one (specification, material version): created on first sight (upsert with
   * `$setOnInsert`, so racing replicas make one), returned as stored.
   */
  async renewalJob(job: Pick<RenewalJobDoc, 'accountId' | 'specId' | 'version' | 'targets'>, now: Date = new Date()): Promise<RenewalJobDoc> {
    const _id = `${job.specId}:${job.version}`;
    const insert: RenewalJobDoc = { _id, ...job, createdAt: now, leaseUntil: new Date(0), announced: 0, done: false };
    const { _id: _, ...fields } = insert;
    try {
      await this.m.renewalJobs.collection.updateOne({ _id } as never, { $setOnInsert: fields } as never, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a racing replica inserted it
    }
    return (await this.m.renewalJobs.collection.findOne({ _id } as never)) as unknown as RenewalJobDoc;
  }

  /** Takes the job for `leaseMs` when it is not done and no other replica holds it; null otherwise. One atomic update. */
  async claimRenewalJob(id: string, owner: string, leaseMs: number, now: Date = new Date()): Promise<RenewalJobDoc | null> {
    return (await this.m.renewalJobs.collection.findOneAndUpdate(
      { _id: id, done: false, leaseUntil: { $lte: now } } as never,
      { $set: { owner, leaseUntil: new Date(now.getTime() + leaseMs) } } as never,
      { returnDocument: 'after' },
    )) as unknown as RenewalJobDoc | null;
  }

  /**
   * Records progress (the last state announced) and extends the lease, only while `owner` still
   * holds the job; false when another replica took it over (the caller stops).
   */
  async advanceRenewalJob(id: string, owner: string, lastKey: string, count: number, leaseMs: number, now: Date = new Date()): Promise<boolean> {
    const res = await this.m.renewalJobs.collection.updateOne(
      { _id: id, owner } as never,
      { $set: { lastKey, leaseUntil: new Date(now.getTime() + leaseMs) }, $inc: { announced: count } } as never,
    );
    return res.matchedCount === 1;
  }

  /** The fan-out is complete (only while `owner` holds the job). */
  async finishRenewalJob(id: string, owner: string): Promise<boolean> {
    const res = await this.m.renewalJobs.collection.updateOne({ _id: id, owner } as never, { $set: { done: true } } as never);
    return res.matchedCount === 1;
  }

  /**
   * Current states of these targets consented to a version older than `version` (so due for
   * renewal), after state key `afterKey`, by key; erased states left out. A state re-consented
   * to `version` or later in the meantime is not among them.
   */
  async renewalPage(
    accountId: string,
    targets: string[],
    version: number,
    afterKey: string | undefined,
    limit: number,
  ): Promise<{ states: LapsedState[]; lastKey: string | undefined; full: boolean }> {
    const filter: Record<string, unknown> = { accountId, target: { $in: targets }, 'cur.targetVersion': { $lt: version } };
    if (afterKey !== undefined) filter._id = { $gt: afterKey };
    const docs = (await this.m.current.collection
      .find(filter as never)
      .sort({ _id: 1 })
      .limit(limit)
      .toArray()) as unknown as CurrentDoc[];
    const states: LapsedState[] = [];
    for (const d of docs) {
      const [event] = await eventsOfCurrent(this.m, [d]);
      if (event && !event.erasedAt && event.targetVersion !== undefined) states.push({ key: d._id, event });
    }
    return { states, lastKey: docs.at(-1)?._id, full: docs.length === limit };
  }
}
