import { Schema, type Connection, type Model } from 'mongoose';

export interface SecretDoc {
  secret: string;
  createdAt: Date;
  /** Set when rotated out: the secret keeps signing until then. */
  expiresAt?: Date | null;
}

export interface WebhookDoc {
  _id: number;
  accountId: string;
  appId: string;
  url: string;
  events: string[];
  /** Kept as pairs so that any valid header name is a valid document (no dots/dollars issue). */
  headers: Array<{ name: string; value: string }>;
  /** Newest (current) first. */
  secrets: SecretDoc[];
  disabled: boolean;
  disabledReason: string;
  createdAt: Date;
  updatedAt: Date;
}

export type DeliveryStatusName = 'pending' | 'succeeded' | 'failed';

export interface AttemptDoc {
  at: Date;
  statusCode: number;
  latencyMs: number;
  error: string;
}

export interface DeliveryDoc {
  /** Deterministic from (event id, webhook id), so a re-delivered NATS message upserts the same record. */
  _id: string;
  webhookId: number;
  accountId: string;
  appId: string;
  /** The event id: the `webhook-id` header of every attempt. */
  eventId: string;
  eventType: string;
  /** The exact JSON body sent (signed as is). */
  body: string;
  status: DeliveryStatusName;
  /** Failed attempts since the delivery was last (re)scheduled; drives the retry schedule. */
  failedAttempts: number;
  /** Attempt log, newest last (bounded). */
  attempts: AttemptDoc[];
  /** When the next attempt is due (pending only; for display, the queue entry decides). */
  nextAttemptAt: Date | null;
  /**
   * The lease of the attempt in flight (also on the queue entry). Outcomes are recorded with a
   * condition on it, so a worker that lost its lease cannot change the status any more.
   */
  leaseToken?: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** W3C trace context of the event that caused it, so each attempt joins the consent's trace. */
  traceparent?: string;
}

/**
 * The work queue: one small entry per delivery that has an attempt to make, removed when the
 * delivery is finished. Kept apart from the delivery records so that finding due work stays
 * cheap however many deliveries are kept (FerretDB scans rather than using such indexes).
 */
export interface QueueDoc {
  /** The delivery id. */
  _id: string;
  webhookId: number;
  /** When a worker may claim it: the next attempt time, or while leased the lease expiry. */
  dueAt: Date;
  /** Generation of the latest claim; the next claim inserts lease `<id>#<leaseGen + 1>`. */
  leaseGen: number;
  /** Lease key of the current holder; null when not leased. */
  leaseToken: string | null;
}

/**
 * One document per claim of a delivery attempt, keyed `<deliveryId>#<leaseGen>`. Claiming is an
 * insert against this unique key, the one write that is atomic on MongoDB and on FerretDB alike
 * (FerretDB 1.x does not make findOneAndUpdate or conditional updates atomic).
 */
export interface LeaseDoc {
  _id: string;
  deliveryId: string;
  createdAt: Date;
}

export interface Models {
  Webhook: Model<WebhookDoc>;
  Delivery: Model<DeliveryDoc>;
  Lease: Model<LeaseDoc>;
  Queue: Model<QueueDoc>;
}

export function defineModels(conn: Connection): Models {
  const secret = new Schema<SecretDoc>(
    { secret: { type: String, required: true }, createdAt: { type: Date, required: true }, expiresAt: { type: Date, default: null } },
    { _id: false },
  );
  const webhook = new Schema<WebhookDoc>(
    {
      _id: { type: Number, required: true },
      accountId: { type: String, required: true },
      appId: { type: String, required: true },
      url: { type: String, required: true },
      events: { type: [String], required: true },
      headers: { type: [new Schema({ name: String, value: String }, { _id: false })], default: [] },
      secrets: { type: [secret], required: true },
      disabled: { type: Boolean, default: false },
      disabledReason: { type: String, default: '' },
      createdAt: { type: Date, required: true },
      updatedAt: { type: Date, required: true },
    },
    { collection: 'webhooks', versionKey: false },
  );
  webhook.index({ accountId: 1, appId: 1, _id: 1 });

  const attempt = new Schema<AttemptDoc>({ at: Date, statusCode: Number, latencyMs: Number, error: String }, { _id: false });
  const delivery = new Schema<DeliveryDoc>(
    {
      _id: { type: String, required: true },
      webhookId: { type: Number, required: true },
      accountId: { type: String, required: true },
      appId: { type: String, required: true },
      eventId: { type: String, required: true },
      eventType: { type: String, required: true },
      body: { type: String, required: true },
      status: { type: String, required: true, enum: ['pending', 'succeeded', 'failed'] },
      failedAttempts: { type: Number, default: 0 },
      attempts: { type: [attempt], default: [] },
      nextAttemptAt: { type: Date, default: null },
      leaseToken: { type: String, default: null },
      createdAt: { type: Date, required: true },
      updatedAt: { type: Date, required: true },
      traceparent: { type: String },
    },
    { collection: 'webhook_deliveries', versionKey: false },
  );
  delivery.index({ webhookId: 1, createdAt: -1, _id: -1 });

  const lease = new Schema<LeaseDoc>(
    { _id: { type: String, required: true }, deliveryId: { type: String, required: true }, createdAt: { type: Date, required: true } },
    { collection: 'webhook_delivery_leases', versionKey: false },
  );

  const queue = new Schema<QueueDoc>(
    {
      _id: { type: String, required: true },
      webhookId: { type: Number, required: true },
      dueAt: { type: Date, required: true },
      leaseGen: { type: Number, default: 0 },
      leaseToken: { type: String, default: null },
    },
    { collection: 'webhook_delivery_queue', versionKey: false },
  );
  queue.index({ dueAt: 1 });
  queue.index({ webhookId: 1 });

  return {
    Queue: conn.model<QueueDoc>('WebhookDeliveryQueue', queue),
    Webhook: conn.model<WebhookDoc>('Webhook', webhook),
    Delivery: conn.model<DeliveryDoc>('WebhookDelivery', delivery),
    Lease: conn.model<LeaseDoc>('WebhookDeliveryLease', lease),
  };
}
