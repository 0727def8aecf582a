import { isDuplicateKey } from '@accord/common';
import { createHash } from 'node:crypto';
import { contracts } from '@accord/proto';
import type { AttemptDoc, DeliveryDoc, Models, QueueDoc } from './models';

/** Attempts kept per delivery (older ones are dropped from the log). */
export const MAX_ATTEMPT_LOG = contracts.webhooks.LIMITS.attemptsKept;

export function deliveryId(eventId: string, webhookId: number): string {
  return 'dlv_' + createHash('sha256').update(`${eventId}\0${webhookId}`).digest('base64url').slice(0, 24);
}

/** What the caller gives of a delivery; the store derives the id and keeps the status, attempts and lease. */
export type NewDelivery = Pick<DeliveryDoc, 'webhookId' | 'accountId' | 'appId' | 'eventId' | 'eventType' | 'body' | 'traceparent'>;

export interface Claimed {
  delivery: DeliveryDoc;
  leaseToken: string;
}

/** A claim, or why there was none: how many entries were due, and when the next one is. */
export type ClaimResult = { claimed: Claimed; due: number } | { claimed: null; due: number; nextDueAt: Date | null };

export interface AttemptOutcome {
  attempt: AttemptDoc;
  /** Next attempt time when retrying; null when done (status tells how). */
  nextAttemptAt: Date | null;
  status: 'pending' | 'succeeded' | 'failed';
}

/**
 * Delivery records (with their attempt log) and the work queue. Safety between replicas rests
 * on single-document atomicity as MongoDB guarantees it: an insert against a unique _id (the
 * lease claim) and updates conditional on the lease token (outcomes).
 */
export class DeliveryStore {
  constructor(private readonly m: Models) {}

  /**
   * One delivery per (event, webhook) and its queue entry; idempotent, so a NATS message
   * handled twice leaves one record and one webhook-id. The record is written first and the
   * queue entry after: a new record always gets one; an existing record (the message came
   * again) gets one only while it is still pending, which covers a process that died between
   * the two writes without re-sending finished deliveries. Returns the ids queued.
   */
  async enqueue(items: NewDelivery[], now = new Date()): Promise<string[]> {
    if (!items.length) return [];
    const ids = items.map((d) => deliveryId(d.eventId, d.webhookId));
    const res = await this.m.Delivery.bulkWrite(
      items.map((d, i) => ({
        updateOne: {
          filter: { _id: ids[i]! },
          update: { $setOnInsert: { ...d, status: 'pending', failedAttempts: 0, attempts: [], nextAttemptAt: now, createdAt: now, updatedAt: now } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    const inserted = new Set(Object.values(res.upsertedIds ?? {}).map(String));
    const existing = ids.filter((id) => !inserted.has(id));
    const stillPending = existing.length
      ? (
          await this.m.Delivery.find({ _id: { $in: existing }, status: 'pending' }, { _id: 1 })
            .lean<Array<{ _id: string }>>()
            .exec()
        ).map((d) => d._id)
      : [];
    const queued = ids.filter((id) => inserted.has(id) || stillPending.includes(id));
    if (!queued.length) return [];
    const webhookOf = new Map(ids.map((id, i) => [id, items[i]!.webhookId]));
    await this.m.Queue.bulkWrite(
      queued.map((id) => ({
        updateOne: {
          filter: { _id: id },
          update: { $setOnInsert: { webhookId: webhookOf.get(id)!, dueAt: now, leaseGen: 0, leaseToken: null } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    return queued;
  }

  get(webhookId: number, id: string): Promise<DeliveryDoc | null> {
    return this.m.Delivery.findOne({ _id: id, webhookId }).lean<DeliveryDoc>().exec();
  }

  /**
   * Claims one due attempt with a lease. With `ids` (deliveries this replica just queued) those
   * are tried first without searching; otherwise the `spread` entries due soonest are read and
   * one of the due ones is tried at random, so a replica's loops rarely collide; when none is
   * due the answer says when the next one is (an idle worker sleeps until then). The claim
   * itself is the insert of lease `<id>#<leaseGen + 1>`, which exactly one worker wins; the
   * entry is then not due for anyone else until the lease expires (`leaseMs`).
   */
  async claim(leaseMs: number, spread = 1, ids: string[] = [], now = new Date()): Promise<ClaimResult> {
    let candidates: Array<Pick<QueueDoc, '_id' | 'dueAt' | 'leaseGen'>>;
    let nextDueAt: Date | null = null;
    if (ids.length) {
      // Just queued by this replica: due now and never claimed (if it was, lease #1 exists and
      // the insert below loses, which is the right answer).
      candidates = ids.map((id) => ({ _id: id, dueAt: now, leaseGen: 0 }));
    } else {
      const soonest = await this.m.Queue.find({}, { _id: 1, dueAt: 1, leaseGen: 1 }).sort({ dueAt: 1 }).limit(Math.max(1, spread)).lean<QueueDoc[]>().exec();
      candidates = soonest.filter((c) => c.dueAt.getTime() <= now.getTime());
      nextDueAt = soonest.find((c) => c.dueAt.getTime() > now.getTime())?.dueAt ?? null;
      const start = Math.floor(Math.random() * candidates.length);
      candidates = [...candidates.slice(start), ...candidates.slice(0, start)];
    }
    const due = candidates.length;
    for (const c of candidates) {
      const gen = (c.leaseGen ?? 0) + 1;
      const leaseToken = `${c._id}#${gen}`;
      try {
        await this.m.Lease.create({ _id: leaseToken, deliveryId: c._id, createdAt: now });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // Another worker won this one, or won it and died before the queue update below.
        if (!ids.length) await this.skipOrphanedLease(c._id, gen, leaseMs, now);
        continue;
      }
      // Only forward: a claimer slower than a lease must not take back a skipped generation.
      const taken = await this.m.Queue.updateOne(
        { _id: c._id, leaseGen: { $not: { $gte: gen } } },
        { $set: { leaseGen: gen, leaseToken, dueAt: new Date(now.getTime() + leaseMs) } },
      );
      if (taken.matchedCount !== 1) {
        // The entry was finished and removed after we read it (its leases go after it, so a
        // stale generation can win the insert only then), or its generation was skipped: nothing to send.
        await this.m.Lease.deleteOne({ _id: leaseToken }).catch(() => undefined);
        continue;
      }
      // The record carries the lease too, so that only this attempt's outcome can change it.
      const delivery = await this.m.Delivery.findOneAndUpdate({ _id: c._id }, { $set: { leaseToken } }, { new: true }).lean<DeliveryDoc>().exec();
      // The queue entry decides that an attempt is due (a redelivery may follow a finished one).
      if (delivery) return { claimed: { delivery, leaseToken }, due };
      await this.finishQueue(c._id, gen); // its webhook was deleted
    }
    return { claimed: null, due, nextDueAt };
  }

  /**
   * A worker killed between its lease insert and the queue update leaves lease `<id>#<gen>`
   * while the entry still shows generation gen - 1: every later claim would collide with it and
   * the delivery would never be sent (e2e/faults/webhook-kill.test.ts found it). Once that lease
   * is older than a lease, its generation is skipped (conditional, so racing workers skip it once).
   */
  private async skipOrphanedLease(id: string, gen: number, leaseMs: number, now: Date): Promise<void> {
    const lease = await this.m.Lease.findById(`${id}#${gen}`).lean<{ createdAt: Date }>().exec();
    if (!lease || lease.createdAt.getTime() + leaseMs > now.getTime()) return;
    await this.m.Queue.updateOne({ _id: id, leaseGen: { $not: { $gte: gen } } }, { $set: { leaseGen: gen, leaseToken: null } });
  }

  /**
   * Records an attempt's outcome only while this worker holds the lease: status, retry count and
   * next attempt change in one update conditional on the record's lease token, and only then
   * is the queue entry rescheduled or removed. A worker whose lease expired (another took over, perhaps
   * already finished the delivery) or was reset by a redelivery only adds its attempt to the
   * log, so it can never turn a finished delivery back to pending with no queue entry left to
   * retry it. Returns whether the outcome counted.
   */
  async complete(id: string, leaseToken: string, outcome: AttemptOutcome, failedAttempts: number): Promise<boolean> {
    const log = { $push: { attempts: { $each: [outcome.attempt], $slice: -MAX_ATTEMPT_LOG } } };
    const res = await this.m.Delivery.updateOne(
      { _id: id, leaseToken },
      { $set: { status: outcome.status, failedAttempts, nextAttemptAt: outcome.nextAttemptAt, leaseToken: null, updatedAt: new Date() }, ...log },
    );
    if (res.matchedCount !== 1) {
      await this.m.Delivery.updateOne({ _id: id }, log);
      return false;
    }
    return this.releaseQueueEntry(id, leaseToken, outcome.status === 'pending' ? outcome.nextAttemptAt : null);
  }

  /** Ends a delivery without an attempt (its webhook was deleted or disabled meanwhile). */
  async abandon(id: string, leaseToken: string, reason: string): Promise<void> {
    const res = await this.m.Delivery.updateOne(
      { _id: id, leaseToken },
      {
        $set: { status: 'failed', nextAttemptAt: null, leaseToken: null, updatedAt: new Date() },
        $push: { attempts: { $each: [{ at: new Date(), statusCode: 0, latencyMs: 0, error: reason }], $slice: -MAX_ATTEMPT_LOG } },
      },
    );
    if (res.matchedCount === 1) await this.releaseQueueEntry(id, leaseToken, null);
  }

  /** Reschedules (next) or removes (null) the queue entry, if the lease is still ours. */
  private async releaseQueueEntry(id: string, leaseToken: string, next: Date | null): Promise<boolean> {
    const gen = Number(leaseToken.slice(leaseToken.lastIndexOf('#') + 1));
    if (next) {
      const res = await this.m.Queue.updateOne({ _id: id, leaseToken }, { $set: { dueAt: next, leaseToken: null } });
      return res.matchedCount === 1;
    }
    const res = await this.m.Queue.deleteOne({ _id: id, leaseToken });
    if (res.deletedCount === 1) await this.dropLeases(id, gen);
    return res.deletedCount === 1;
  }

  private async finishQueue(id: string, gen: number): Promise<void> {
    await this.m.Queue.deleteOne({ _id: id });
    await this.dropLeases(id, gen);
  }

  /**
   * Lease documents of a queued delivery are kept (a worker that read the entry before the
   * latest claim must keep colliding on its stale generation); once the entry is gone they go,
   * since a late claim re-checks the record's status anyway. (No TTL index: FerretDB 1.x lacks them.)
   */
  private async dropLeases(id: string, gen: number): Promise<void> {
    const keys = Array.from({ length: gen }, (_, i) => `${id}#${i + 1}`);
    await this.m.Lease.deleteMany({ _id: { $in: keys } }).catch(() => undefined);
  }

  /**
   * Schedules a delivery again now, whatever its status, with a fresh retry schedule and the
   * same webhook-id. An attempt in flight at that moment finishes on its own; its outcome no
   * longer changes the queue entry (the lease token was reset), so the redelivery still happens.
   */
  async redeliver(webhookId: number, id: string, now = new Date()): Promise<DeliveryDoc | null> {
    const existing = await this.get(webhookId, id);
    if (!existing) return null;
    await this.m.Delivery.updateOne({ _id: id }, { $set: { status: 'pending', failedAttempts: 0, nextAttemptAt: now, leaseToken: null, updatedAt: now } });
    await this.m.Queue.updateOne({ _id: id }, { $set: { dueAt: now, leaseToken: null }, $setOnInsert: { webhookId, leaseGen: 0 } }, { upsert: true });
    return this.get(webhookId, id);
  }

  /** Newest first; the cursor is the last item's (createdAt, id). */
  async list(webhookId: number, limit: number, cursor: { createdAt: Date; id: string } | null): Promise<DeliveryDoc[]> {
    const filter: Record<string, unknown> = { webhookId };
    if (cursor) filter.$or = [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, _id: { $lt: cursor.id } }];
    return this.m.Delivery.find(filter).sort({ createdAt: -1, _id: -1 }).limit(limit).lean<DeliveryDoc[]>().exec();
  }

  async deleteForWebhook(webhookId: number): Promise<void> {
    await this.m.Queue.deleteMany({ webhookId });
    await this.m.Delivery.deleteMany({ webhookId });
    // Leases of its queued deliveries stay behind: a few tiny documents, never read again.
  }
}
