import type { DeliveryStatus } from '../domain/delivery';

/**
 * The webhook service's storage: one port, grouped by what it holds. The MongoDB adapter
 * (store/mongo) and the memory adapter (store/memory) implement it, and one contract test runs
 * the same cases against both (test/store-contract.test.ts).
 *
 * The store holds queries: each method is one read or one write (or a few, named where they are),
 * atomic per document, so it is exact with any number of replicas without transactions. The rules
 * are the callers': which id a new webhook takes, the subscriber cache, the lease protocol of the
 * delivery workers (who may claim what, for how long, with which token), the retry schedule. They
 * pass times (`now`, `until`) and tokens, never durations.
 */
export interface WebhookStore {
  webhooks: RegistrationStore;
  deliveries: DeliveryStore;
}

// --- registrations --------------------------------------------------------------------------

export interface Secret {
  secret: string;
  createdAt: Date;
  /** Set when rotated out: the secret keeps signing until then. */
  expiresAt: Date | null;
}

export interface Webhook {
  /** A small integer, unique across the deployment. */
  id: number;
  accountId: string;
  appId: string;
  url: string;
  events: string[];
  /** Sent with every attempt. */
  headers: Record<string, string>;
  /** Newest (current) first. */
  secrets: Secret[];
  disabled: boolean;
  disabledReason: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What fan-out needs of a webhook. */
export type Subscriber = Pick<Webhook, 'id' | 'accountId' | 'appId' | 'events'>;

/** The fields an update sets (absent ones stay). */
export type WebhookChange = Partial<Pick<Webhook, 'url' | 'events' | 'headers' | 'disabled' | 'disabledReason'>>;

export interface RegistrationStore {
  /** The highest id in use; 0 when there is none. */
  lastId(): Promise<number>;
  /** Stores a new webhook; false when its id is taken. */
  insert(webhook: Webhook): Promise<boolean>;
  /** An application's webhooks, by id. */
  list(accountId: string, appId: string): Promise<Webhook[]>;
  /** A webhook of an application (within it only), or by id alone. */
  get(id: number, owner?: { accountId: string; appId: string }): Promise<Webhook | undefined>;
  /** Sets the fields given, of an application's webhook; the webhook after, undefined when there is none. */
  update(accountId: string, appId: string, id: number, change: WebhookChange, at: Date): Promise<Webhook | undefined>;
  /** Replaces the secrets only while the current one is still `expectedCurrent` (optimistic concurrency); the webhook after, undefined otherwise. */
  replaceSecrets(id: number, expectedCurrent: string, secrets: Secret[], at: Date): Promise<Webhook | undefined>;
  /** Deletes an application's webhook; false when there was none. */
  delete(accountId: string, appId: string, id: number): Promise<boolean>;
  /** The enabled webhooks of an application. */
  enabledOf(accountId: string, appId: string): Promise<Subscriber[]>;
  /** The enabled webhooks of every application of an account that subscribe to `type`. */
  enabledFor(accountId: string, type: string): Promise<Subscriber[]>;
  /** Disables a webhook (any application's). */
  disable(id: number, reason: string, at: Date): Promise<void>;
}

// --- deliveries -----------------------------------------------------------------------------

export interface Attempt {
  at: Date;
  statusCode: number;
  latencyMs: number;
  error: string;
}

/** One event to one webhook, with its attempt log. */
export interface Delivery {
  /** Derived from the event and the webhook (domain/delivery.ts), so an event handled twice makes one delivery. */
  id: string;
  webhookId: number;
  accountId: string;
  appId: string;
  /** The event id: the `webhook-id` header of every attempt. */
  eventId: string;
  eventType: string;
  /** The exact JSON body sent (signed as is). */
  body: string;
  status: DeliveryStatus;
  /** Failed attempts since the delivery was last (re)scheduled; drives the retry schedule. */
  failedAttempts: number;
  /** Attempt log, newest last (the newest `contracts.webhooks.LIMITS.attemptsKept`). */
  attempts: Attempt[];
  /** When the next attempt is due (pending only; for display, the queue decides). */
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** W3C trace context of the event that caused it, so each attempt joins the consent's trace. */
  traceparent?: string;
}

/** What the caller gives of a new delivery; the store keeps the status, attempts and times. */
export type NewDelivery = Pick<Delivery, 'id' | 'webhookId' | 'accountId' | 'appId' | 'eventId' | 'eventType' | 'body' | 'traceparent'>;

/** The outcome of an attempt: its log line, the new status, and the next attempt when pending. */
export interface Outcome {
  attempt: Attempt;
  status: DeliveryStatus;
  failedAttempts: number;
  nextAttemptAt: Date | null;
}

/**
 * Deliveries and their work queue: one queue entry per delivery with an attempt to make, due at
 * `dueAt` (the next attempt, or while leased the lease's end), removed when the delivery is
 * finished. An entry is taken by one worker at a time under a lease token, and only that token's
 * outcome changes the delivery (events/delivery-worker.ts holds the protocol).
 */
export interface DeliveryStore {
  /**
   * One delivery per id, queued due `now`; idempotent: a delivery that exists keeps its record,
   * and is queued again only while it is pending (which heals a process that died between the
   * two writes, without sending finished deliveries again). Two writes whatever the number; the
   * ids queued.
   */
  enqueue(items: NewDelivery[], now: Date): Promise<string[]>;
  /** A webhook's delivery. */
  get(webhookId: number, id: string): Promise<Delivery | undefined>;
  /** The queue entries due soonest (due already or not), at most `limit`. */
  soonest(limit: number): Promise<Array<{ id: string; dueAt: Date }>>;
  /**
   * Takes an entry due by `now` until `until` under `lease`: one conditional update, so of
   * workers racing for it exactly one gets it; then marks the delivery with the lease. The
   * delivery, or undefined when the entry is not due (taken, finished); an entry whose delivery
   * is gone (its webhook was deleted) is removed.
   */
  claim(id: string, lease: string, now: Date, until: Date): Promise<Delivery | undefined>;
  /**
   * Records an attempt's outcome while `lease` holds the delivery: status and schedule change,
   * and the queue entry is rescheduled (pending) or removed. A lease lost meanwhile (it ran out
   * and another worker took the entry, or a redelivery reset it) only adds the attempt to the log.
   * Whether the outcome counted.
   */
  complete(id: string, lease: string, outcome: Outcome, at: Date): Promise<boolean>;
  /**
   * Schedules a delivery again at `now`, whatever its status, with a fresh retry count; a lease
   * held on it is void. The delivery after, undefined when the webhook has no such delivery.
   */
  redeliver(webhookId: number, id: string, now: Date): Promise<Delivery | undefined>;
  /** A webhook's deliveries, newest first, after the cursor (the last item's createdAt and id). */
  list(webhookId: number, limit: number, cursor: { createdAt: Date; id: string } | null): Promise<Delivery[]>;
  /** Removes a webhook's deliveries and their queue entries. */
  deleteOfWebhook(webhookId: number): Promise<void>;
  /** Deliveries in the queue (due or waiting for a retry); an estimate. */
  queued(): Promise<number>;
}

// --- other ports ------------------------------------------------------------------------------

/** What one attempt's HTTP POST answered. */
export interface SendResult {
  /** 0 when no answer (refused address, timeout, connection error). */
  statusCode: number;
  latencyMs: number;
  /** Why there was no usable answer; '' otherwise. */
  error: string;
  /** The receiver's Retry-After, in ms. */
  retryAfterMs: number | null;
}

/** Sends an attempt (http/sender.ts: the address policy on the resolved address, a timeout). */
export interface Sender {
  post(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}
