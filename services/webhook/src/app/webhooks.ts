import { randomUUID } from 'node:crypto';
import { InvalidArgumentError, NotFoundError, traceHeaders, type EventEnvelope } from '@accord/common';
import { contracts } from '@accord/proto';
import type { AddressPolicy } from '../domain/address-policy';
import { eventText, isAccountWide, isSubscribable } from '../domain/event-types';
import { deliveryCursor, deliveryId, readDeliveryCursor } from '../domain/delivery';
import { deliveryBody, generateSecret, rotateSecrets } from '../domain/signing';
import { validateWebhookFields } from '../domain/webhook-input';
import type { Delivery, DeliveryStore, Webhook, WebhookChange } from './ports';
import type { Registrations } from './registrations';

export interface WebhooksDeps {
  webhooks: Registrations;
  deliveries: DeliveryStore;
  policy: AddressPolicy;
  secretGraceMs: number;
  /** Called after deliveries were queued, to hand them to the local workers. */
  onQueued: (deliveryIds: string[]) => void;
  now?: () => Date;
}

/** Who calls: every webhook belongs to one application of one account. */
export interface Caller {
  accountId: string;
  appId: string;
}

function requireCaller(c: Caller): void {
  if (!c.accountId) throw InvalidArgumentError.field('accountId', 'is required');
  if (!c.appId) throw InvalidArgumentError.field('appId', 'is required');
}

const { deliveriesPageDefault: PAGE_DEFAULT, deliveriesPageMax: PAGE_MAX } = contracts.webhooks.LIMITS;

const unique = (xs: readonly string[]) => [...new Set(xs)];

/** The webhook use cases: registration and deliveries (what the gRPC handlers call), and the fan-out of events. */
export class Webhooks {
  private readonly now: () => Date;

  constructor(private readonly d: WebhooksDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** The caller's webhook, or NOT_FOUND (another application's webhook is not found either). */
  private async own(c: Caller, id: number): Promise<Webhook> {
    requireCaller(c);
    const doc = await this.d.webhooks.get(id, { accountId: c.accountId, appId: c.appId });
    if (!doc) throw new NotFoundError(`webhook ${id} not found`);
    return doc;
  }

  async create(c: Caller, w: { url: string; events: string[]; headers: Record<string, string> }): Promise<Webhook> {
    requireCaller(c);
    validateWebhookFields({ url: w.url, events: w.events, headers: w.headers }, this.d.policy);
    return this.d.webhooks.create({
      accountId: c.accountId,
      appId: c.appId,
      url: w.url,
      events: unique(w.events),
      headers: w.headers,
      secret: generateSecret(),
    });
  }

  async list(c: Caller): Promise<Webhook[]> {
    requireCaller(c);
    return this.d.webhooks.list(c.accountId, c.appId);
  }

  get(c: Caller, id: number): Promise<Webhook> {
    return this.own(c, id);
  }

  async update(c: Caller, id: number, u: { url?: string; events?: string[]; headers?: Record<string, string>; disabled?: boolean }): Promise<Webhook> {
    await this.own(c, id);
    validateWebhookFields({ url: u.url, events: u.events, headers: u.headers }, this.d.policy);
    const change: WebhookChange = {};
    if (u.url !== undefined) change.url = u.url;
    if (u.events) change.events = unique(u.events);
    if (u.headers) change.headers = u.headers;
    if (u.disabled !== undefined) {
      change.disabled = u.disabled;
      change.disabledReason = u.disabled ? 'disabled by its owner' : '';
    }
    const updated = await this.d.webhooks.update(c.accountId, c.appId, id, change);
    if (!updated) throw new NotFoundError(`webhook ${id} not found`);
    return updated;
  }

  async delete(c: Caller, id: number): Promise<void> {
    requireCaller(c);
    if (!(await this.d.webhooks.delete(c.accountId, c.appId, id))) throw new NotFoundError(`webhook ${id} not found`);
    await this.d.deliveries.deleteOfWebhook(id);
  }

  /** A new current secret; the previous one keeps signing for the grace period. Optimistic: retried when rotations race. */
  async rotateSecret(c: Caller, id: number): Promise<Webhook> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const doc = await this.own(c, id);
      const secrets = rotateSecrets(doc.secrets, generateSecret(), this.now(), this.d.secretGraceMs);
      const updated = await this.d.webhooks.replaceSecrets(doc.id, doc.secrets[0]!.secret, secrets);
      if (updated) return updated;
    }
    throw new Error('secret rotation kept conflicting with concurrent rotations');
  }

  /**
   * One page of a webhook's deliveries, newest first, after `cursor` (a cursor this API returned;
   * empty: the first page); `limit` 0 means the default, and is held within 1 and the maximum.
   * One more than the page is read to tell whether more follow (`nextCursor`, empty at the end).
   */
  async deliveries(c: Caller, webhookId: number, page: { limit?: number; cursor?: string } = {}): Promise<{ deliveries: Delivery[]; nextCursor: string }> {
    const limit = Math.min(Math.max(page.limit || PAGE_DEFAULT, 1), PAGE_MAX);
    let after: { createdAt: Date; id: string } | null = null;
    if (page.cursor) {
      after = readDeliveryCursor(page.cursor);
      if (!after) throw InvalidArgumentError.field('cursor', 'is not a cursor returned by this API');
    }
    await this.own(c, webhookId);
    const docs = await this.d.deliveries.list(webhookId, limit + 1, after);
    const deliveries = docs.slice(0, limit);
    return { deliveries, nextCursor: docs.length > limit ? deliveryCursor(deliveries[deliveries.length - 1]!) : '' };
  }

  async redeliver(c: Caller, webhookId: number, id: string): Promise<Delivery> {
    await this.own(c, webhookId);
    const doc = await this.d.deliveries.redeliver(webhookId, id, this.now());
    if (!doc) throw new NotFoundError(`delivery ${id} not found`);
    this.d.onQueued([doc.id]);
    return doc;
  }

  /** Queues a `ping` event to the webhook and returns its delivery. */
  async sendTestEvent(c: Caller, webhookId: number): Promise<Delivery> {
    const webhook = await this.own(c, webhookId);
    const eventId = `ping_${randomUUID().replace(/-/g, '')}`;
    const now = this.now();
    const data = { webhookId: webhook.id, appId: webhook.appId, eventId, sentAt: now.toISOString() };
    const id = deliveryId(eventId, webhook.id);
    await this.d.deliveries.enqueue(
      [
        {
          id,
          webhookId: webhook.id,
          accountId: webhook.accountId,
          appId: webhook.appId,
          eventId,
          eventType: 'ping',
          body: deliveryBody('ping', data, eventText('ping')),
        },
      ],
      now,
    );
    this.d.onQueued([id]);
    const doc = await this.d.deliveries.get(webhook.id, id);
    if (!doc) throw new Error('test delivery vanished');
    return doc;
  }

  /** One delivery per subscribed webhook of an event from the stream, stored before the message is acknowledged. */
  async fanOut(event: EventEnvelope): Promise<void> {
    if (!isSubscribable(event.type)) return;
    const targets = isAccountWide(event.type)
      ? await this.d.webhooks.accountSubscribers(event.accountId, event.type)
      : await this.d.webhooks.subscribers(event.accountId, event.appId, event.type);
    if (!targets.length) return;
    const body = deliveryBody(event.type, event.data, eventText(event.type));
    const { traceparent } = traceHeaders();
    const ids = await this.d.deliveries.enqueue(
      targets.map((w) => ({
        id: deliveryId(event.id, w.id),
        webhookId: w.id,
        accountId: w.accountId,
        appId: w.appId,
        eventId: event.id,
        eventType: event.type,
        body,
        traceparent,
      })),
      this.now(),
    );
    this.d.onQueued(ids);
  }
}
