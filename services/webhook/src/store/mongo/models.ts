import { Schema, type Connection, type Model } from 'mongoose';
import { collectionSchema, nullableFields, requiredFields } from '@accord/common';
import type { Attempt, Delivery, Secret, Webhook } from '../../app/ports';

/** A webhook as a document: `_id` is its id; headers are kept as pairs, so any valid header name is a valid document (no dots/dollars issue). */
export type WebhookDoc = Omit<Webhook, 'id' | 'headers'> & { _id: number; headers: Array<{ name: string; value: string }> };

/** A delivery as a document: `_id` is its id; `leaseToken` is the lease of the attempt in flight (also on its queue entry). */
export type DeliveryDoc = Omit<Delivery, 'id'> & { _id: string; leaseToken?: string | null };

/**
 * The work queue: one small entry per delivery that has an attempt to make, removed when the
 * delivery is finished. Kept apart from the delivery records (which hold the body and the log)
 * so that looking for due work reads one small collection by one index, however many deliveries
 * are kept.
 */
export interface QueueDoc {
  /** The delivery id. */
  _id: string;
  webhookId: number;
  /** When a worker may claim it: the next attempt time, or while leased the lease's end. */
  dueAt: Date;
  /** The lease of the worker holding it; null when not leased. */
  leaseToken: string | null;
}

export interface Models {
  Webhook: Model<WebhookDoc>;
  Delivery: Model<DeliveryDoc>;
  Queue: Model<QueueDoc>;
}

export function defineModels(conn: Connection): Models {
  const secret = new Schema<Secret>(
    { secret: { type: String, required: true }, createdAt: { type: Date, required: true }, expiresAt: { type: Date, default: null } },
    { _id: false },
  );
  const webhook = collectionSchema<WebhookDoc>(
    'webhooks',
    {
      ...requiredFields({ accountId: String, appId: String, url: String, events: [String] }),
      headers: { type: [new Schema({ name: String, value: String }, { _id: false })], default: [] },
      secrets: { type: [secret], required: true },
      disabled: { type: Boolean, default: false },
      disabledReason: { type: String, default: '' },
      ...requiredFields({ createdAt: Date, updatedAt: Date }),
    },
    Number,
  );
  webhook.index({ accountId: 1, appId: 1, _id: 1 });

  const attempt = new Schema<Attempt>({ at: Date, statusCode: Number, latencyMs: Number, error: String }, { _id: false });
  const delivery = collectionSchema<DeliveryDoc>('webhook_deliveries', {
    ...requiredFields({ webhookId: Number, accountId: String, appId: String, eventId: String, eventType: String, body: String }),
    status: { type: String, required: true, enum: ['pending', 'succeeded', 'failed'] },
    failedAttempts: { type: Number, default: 0 },
    attempts: { type: [attempt], default: [] },
    ...nullableFields({ nextAttemptAt: Date, leaseToken: String }),
    ...requiredFields({ createdAt: Date, updatedAt: Date }),
    traceparent: { type: String },
  });
  delivery.index({ webhookId: 1, createdAt: -1, _id: -1 });

  const queue = collectionSchema<QueueDoc>('webhook_delivery_queue', {
    ...requiredFields({ webhookId: Number, dueAt: Date }),
    ...nullableFields({ leaseToken: String }),
  });
  queue.index({ dueAt: 1 });
  queue.index({ webhookId: 1 });

  return {
    Queue: conn.model<QueueDoc>('WebhookDeliveryQueue', queue),
    Webhook: conn.model<WebhookDoc>('Webhook', webhook),
    Delivery: conn.model<DeliveryDoc>('WebhookDelivery', delivery),
  };
}
