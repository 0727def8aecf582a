import type { FilterQuery } from 'mongoose';
import { isDuplicateKey } from '@accord/common';
import type { RenewalJob, RenewalStore, StateEvent } from '../../app/ports';
import { eventsOfCurrent } from './docs';
import type { CurrentDoc, Models, RenewalJobDoc } from './models';

const jobOf = ({ _id, ...rest }: RenewalJobDoc): RenewalJob => ({ id: _id, ...rest });

/** Renewal fan-out jobs (consent.renewal_required) and the states they walk, for events/renewal-announcer.ts. */
export function mongoRenewalStore(m: Models): RenewalStore {
  return {
    /** Upsert with `$setOnInsert`, so racing replicas make one; then read as stored. */
    async job(job, now) {
      const _id = `${job.specId}:${job.version}`;
      const fields: Omit<RenewalJobDoc, '_id'> = { ...job, createdAt: now, leaseUntil: new Date(0), announced: 0, done: false };
      try {
        await m.renewalJobs.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true }).exec();
      } catch (err) {
        if (!isDuplicateKey(err)) throw err; // a racing replica inserted it
      }
      return jobOf((await m.renewalJobs.findById(_id).lean<RenewalJobDoc>().exec())!);
    },
    async claim(id, owner, now, until) {
      const doc = await m.renewalJobs
        .findOneAndUpdate({ _id: id, done: false, leaseUntil: { $lte: now } }, { $set: { owner, leaseUntil: until } }, { returnDocument: 'after' })
        .lean<RenewalJobDoc>()
        .exec();
      return doc ? jobOf(doc) : null;
    },
    async advance(id, owner, lastKey, count, until) {
      const res = await m.renewalJobs.updateOne({ _id: id, owner }, { $set: { lastKey, leaseUntil: until }, $inc: { announced: count } }).exec();
      return res.matchedCount === 1;
    },
    async finish(id, owner) {
      const res = await m.renewalJobs.updateOne({ _id: id, owner }, { $set: { done: true } }).exec();
      return res.matchedCount === 1;
    },
    /** Served by the `target_states` index. */
    async page(accountId, targets, version, afterKey, limit) {
      const filter: FilterQuery<CurrentDoc> = { accountId, target: { $in: targets }, 'cur.targetVersion': { $lt: version } };
      if (afterKey !== undefined) filter._id = { $gt: afterKey };
      const docs = await m.current.find(filter).sort({ _id: 1 }).limit(limit).lean<CurrentDoc[]>().exec();
      const events = await eventsOfCurrent(m, docs);
      const states: StateEvent[] = [];
      docs.forEach((d, i) => {
        const event = events[i];
        if (event && !event.erasedAt && event.targetVersion !== undefined) states.push({ key: d._id, event });
      });
      return { states, lastKey: docs.at(-1)?._id, full: docs.length === limit };
    },
  };
}
