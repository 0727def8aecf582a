import { contracts } from '@accord/proto';
import type { Delivery, DeliveryStore } from '../../app/ports';
import type { DeliveryDoc, Models } from './models';

const KEPT = contracts.webhooks.LIMITS.attemptsKept;

function toDelivery(d: DeliveryDoc | null): Delivery | undefined {
  if (!d) return undefined;
  const { _id, leaseToken: _lease, ...rest } = d;
  return { id: _id, ...rest };
}

/**
 * Deliveries and their work queue on MongoDB. Safety between replicas rests on single-document
 * atomicity: a claim is an update of the queue entry conditional on its being due, an outcome an
 * update of the delivery conditional on the claim's lease.
 */
export function mongoDeliveryStore(m: Models): DeliveryStore {
  return {
    async enqueue(items, now) {
      if (!items.length) return [];
      // the record first, the queue entry after (see the port)
      const res = await m.Delivery.bulkWrite(
        items.map(({ id, ...d }) => ({
          updateOne: {
            filter: { _id: id },
            update: { $setOnInsert: { ...d, status: 'pending', failedAttempts: 0, attempts: [], nextAttemptAt: now, createdAt: now, updatedAt: now } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
      const inserted = new Set(Object.values(res.upsertedIds ?? {}).map(String));
      const existing = items.filter((d) => !inserted.has(d.id)).map((d) => d.id);
      const stillPending = new Set(
        existing.length
          ? (
              await m.Delivery.find({ _id: { $in: existing }, status: 'pending' }, { _id: 1 })
                .lean()
                .exec()
            ).map((d) => d._id)
          : [],
      );
      const queued = items.filter((d) => inserted.has(d.id) || stillPending.has(d.id));
      if (!queued.length) return [];
      await m.Queue.bulkWrite(
        queued.map((d) => ({
          updateOne: { filter: { _id: d.id }, update: { $setOnInsert: { webhookId: d.webhookId, dueAt: now, leaseToken: null } }, upsert: true },
        })),
        { ordered: false },
      );
      return queued.map((d) => d.id);
    },

    get: async (webhookId, id) => toDelivery(await m.Delivery.findOne({ _id: id, webhookId }).lean().exec()),

    soonest: async (limit) =>
      (await m.Queue.find({}, { _id: 1, dueAt: 1 }).sort({ dueAt: 1 }).limit(limit).lean().exec()).map((q) => ({ id: q._id, dueAt: q.dueAt })),

    async claim(id, lease, now, until) {
      const taken = await m.Queue.findOneAndUpdate({ _id: id, dueAt: { $lte: now } }, { $set: { dueAt: until, leaseToken: lease } })
        .lean()
        .exec();
      if (!taken) return undefined;
      // the record carries the lease too, so that only this attempt's outcome can change it
      const delivery = await m.Delivery.findOneAndUpdate({ _id: id }, { $set: { leaseToken: lease } }, { new: true })
        .lean()
        .exec();
      if (!delivery) await m.Queue.deleteOne({ _id: id, leaseToken: lease }).exec();
      return toDelivery(delivery);
    },

    async complete(id, lease, outcome, at) {
      const log = { $push: { attempts: { $each: [outcome.attempt], $slice: -KEPT } } };
      const res = await m.Delivery.updateOne(
        { _id: id, leaseToken: lease },
        {
          $set: { status: outcome.status, failedAttempts: outcome.failedAttempts, nextAttemptAt: outcome.nextAttemptAt, leaseToken: null, updatedAt: at },
          ...log,
        },
      ).exec();
      if (res.matchedCount !== 1) {
        await m.Delivery.updateOne({ _id: id }, log).exec();
        return false;
      }
      if (outcome.status === 'pending' && outcome.nextAttemptAt) {
        return (
          (await m.Queue.updateOne({ _id: id, leaseToken: lease }, { $set: { dueAt: outcome.nextAttemptAt, leaseToken: null } }).exec()).matchedCount === 1
        );
      }
      return (await m.Queue.deleteOne({ _id: id, leaseToken: lease }).exec()).deletedCount === 1;
    },

    async redeliver(webhookId, id, now) {
      const delivery = await m.Delivery.findOneAndUpdate(
        { _id: id, webhookId },
        { $set: { status: 'pending', failedAttempts: 0, nextAttemptAt: now, leaseToken: null, updatedAt: now } },
        { new: true },
      )
        .lean()
        .exec();
      if (!delivery) return undefined;
      await m.Queue.updateOne({ _id: id }, { $set: { dueAt: now, leaseToken: null }, $setOnInsert: { webhookId } }, { upsert: true }).exec();
      return toDelivery(delivery);
    },

    async list(webhookId, limit, cursor) {
      const filter = cursor
        ? { webhookId, $or: [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, _id: { $lt: cursor.id } }] }
        : { webhookId };
      return (await m.Delivery.find(filter).sort({ createdAt: -1, _id: -1 }).limit(limit).lean().exec()).map((d) => toDelivery(d)!);
    },

    async deleteOfWebhook(webhookId) {
      await m.Queue.deleteMany({ webhookId }).exec();
      await m.Delivery.deleteMany({ webhookId }).exec();
    },

    queued: () => m.Queue.estimatedDocumentCount().exec(),
  };
}
