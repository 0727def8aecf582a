import { createHash, randomUUID } from 'node:crypto';
import type { AttemptDoc, DeliveryDoc, Models } from './models';

/** Attempts kept per delivery (older ones are dropped from the log). */
export const MAX_ATTEMPT_LOG = 50;

const DUPLICATE_KEY = 11000;

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
              leaseGen: 0,
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

  /**
   * Claims one due pending attempt with a lease, or null when none is due. Among the `spread`
   * most overdue candidates one is tried at random (so a replica's loops rarely collide); the
   * claim itself is the insert of lease `<id>#<leaseGen + 1>`, which exactly one worker wins.
   * Until the lease expires (`leaseMs`) the delivery is not due for anyone else.
   */
  async claim(leaseMs: number, spread = 1, now = new Date()): Promise<Claimed | null> {
    const candidates = await this.m.Delivery.find({ status: 'pending', dueAt: { $lte: now } }, { _id: 1, leaseGen: 1, webhookId: 1 })
      .sort({ dueAt: 1 })
      .limit(Math.max(1, spread))
      .lean<Array<Pick<DeliveryDoc, '_id' | 'leaseGen' | 'webhookId'>>>()
      .exec();
    const start = Math.floor(Math.random() * candidates.length);
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[(start + i) % candidates.length]!;
      const gen = (c.leaseGen ?? 0) + 1;
      const leaseToken = `${c._id}#${gen}`;
      try {
        await this.m.Lease.create({ _id: leaseToken, deliveryId: c._id, webhookId: c.webhookId, createdAt: now });
      } catch (err) {
        if ((err as { code?: number }).code === DUPLICATE_KEY) continue; // another worker won this one
        throw err;
      }
      const delivery = await this.m.Delivery.findOneAndUpdate(
        { _id: c._id },
        { $set: { leaseGen: gen, leaseToken, dueAt: new Date(now.getTime() + leaseMs) } },
        { new: true },
      )
        .lean<DeliveryDoc>()
        .exec();
      if (delivery?.status === 'pending') return { delivery, leaseToken };
      // Deleted or finished by a late previous holder meanwhile: nothing to send.
      await this.release(leaseToken);
    }
    return null;
  }

  /**
   * Lease documents of a pending delivery are kept (a worker that read the delivery before the
   * latest claim must keep colliding on its stale generation); once the delivery is finished
   * they go, since a late claim re-checks the status anyway (no TTL index: FerretDB 1.x lacks them).
   */
  private async release(leaseToken: string): Promise<void> {
    await this.m.Lease.deleteOne({ _id: leaseToken }).catch(() => undefined);
  }

  private async releaseAll(deliveryId: string): Promise<void> {
    await this.m.Lease.deleteMany({ deliveryId }).catch(() => undefined);
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
    if (outcome.status !== 'pending') await this.releaseAll(id);
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
    await this.releaseAll(id);
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
    await this.m.Lease.deleteMany({ webhookId });
  }
}
