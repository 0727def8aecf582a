import { createHash, randomUUID } from 'node:crypto';
import type { AttemptDoc, DeliveryDoc, Models } from './models';

/** Attempts kept per delivery (older ones are dropped from the log). */
export const MAX_ATTEMPT_LOG = 50;

export function deliveryId(eventId: string, webhookId: number): string {
  return 'dlv_' + createHash('sha256').update(`${eventId}\0${webhookId}`).digest('base64url').slice(0, 24);
}

export interface NewDelivery {
  webhookId: number;
  accountId: string;
  appId: string;
  eventId: string;
  eventType: string;
  body: string;
}

export interface Claimed {
  delivery: DeliveryDoc;
  leaseToken: string;
}

export interface AttemptOutcome {
  attempt: AttemptDoc;
  /** Next attempt time when retrying; null when done (status tells how). */
  nextAttemptAt: Date | null;
  status: 'pending' | 'succeeded' | 'failed';
}

export class DeliveryStore {
  constructor(private readonly m: Models) {}

  /**
   * One pending delivery per (event, webhook); idempotent, so a NATS message handled twice
   * (redelivered after a crash) leaves one record and one webhook-id.
   */
  async enqueue(items: NewDelivery[], now = new Date()): Promise<void> {
    if (!items.length) return;
    await this.m.Delivery.bulkWrite(
      items.map((d) => ({
        updateOne: {
          filter: { _id: deliveryId(d.eventId, d.webhookId) },
          update: {
            $setOnInsert: {
              ...d,
              status: 'pending',
              failedAttempts: 0,
              attempts: [],
              nextAttemptAt: now,
              dueAt: now,
              leaseToken: null,
              createdAt: now,
              updatedAt: now,
            },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  get(webhookId: number, id: string): Promise<DeliveryDoc | null> {
    return this.m.Delivery.findOne({ _id: id, webhookId }).lean<DeliveryDoc>().exec();
  }

  /** Claims the most overdue pending attempt with a lease, or null when none is due. */
  async claim(leaseMs: number, now = new Date()): Promise<Claimed | null> {
    const leaseToken = randomUUID();
    const delivery = await this.m.Delivery.findOneAndUpdate(
      { status: 'pending', dueAt: { $lte: now } },
      { $set: { dueAt: new Date(now.getTime() + leaseMs), leaseToken } },
      { sort: { dueAt: 1 }, new: true },
    )
      .lean<DeliveryDoc>()
      .exec();
    return delivery ? { delivery, leaseToken } : null;
  }

  /** Records an attempt, if this worker still holds the lease. False when the lease was lost. */
  async complete(id: string, leaseToken: string, outcome: AttemptOutcome, failedAttempts: number): Promise<boolean> {
    const res = await this.m.Delivery.updateOne(
      { _id: id, leaseToken },
      {
        $set: {
          status: outcome.status,
          failedAttempts,
          nextAttemptAt: outcome.nextAttemptAt,
          dueAt: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
          leaseToken: null,
          updatedAt: new Date(),
        },
        $push: { attempts: { $each: [outcome.attempt], $slice: -MAX_ATTEMPT_LOG } },
      },
    );
    return res.modifiedCount === 1;
  }

  /** Ends a delivery without an attempt (its webhook was deleted or disabled meanwhile). */
  async abandon(id: string, leaseToken: string, reason: string): Promise<void> {
    await this.m.Delivery.updateOne(
      { _id: id, leaseToken },
      {
        $set: { status: 'failed', nextAttemptAt: null, dueAt: null, leaseToken: null, updatedAt: new Date() },
        $push: { attempts: { $each: [{ at: new Date(), statusCode: 0, latencyMs: 0, error: reason }], $slice: -MAX_ATTEMPT_LOG } },
      },
    );
  }

  /**
   * Schedules a delivery again now with a fresh retry schedule. A delivery whose attempt is in
   * flight (leased) is left to finish that attempt.
   */
  async redeliver(webhookId: number, id: string, now = new Date()): Promise<DeliveryDoc | null> {
    const updated = await this.m.Delivery.findOneAndUpdate(
      { _id: id, webhookId, $or: [{ status: { $ne: 'pending' } }, { leaseToken: null }, { dueAt: { $lte: now } }] },
      { $set: { status: 'pending', failedAttempts: 0, nextAttemptAt: now, dueAt: now, leaseToken: null, updatedAt: now } },
      { new: true },
    )
      .lean<DeliveryDoc>()
      .exec();
    return updated ?? this.get(webhookId, id);
  }

  /** Newest first; the cursor is the last item's (createdAt, id). */
  async list(webhookId: number, limit: number, cursor: { createdAt: Date; id: string } | null): Promise<DeliveryDoc[]> {
    const filter: Record<string, unknown> = { webhookId };
    if (cursor) filter.$or = [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, _id: { $lt: cursor.id } }];
    return this.m.Delivery.find(filter).sort({ createdAt: -1, _id: -1 }).limit(limit).lean<DeliveryDoc[]>().exec();
  }

  async deleteForWebhook(webhookId: number): Promise<void> {
    await this.m.Delivery.deleteMany({ webhookId });
  }
}
