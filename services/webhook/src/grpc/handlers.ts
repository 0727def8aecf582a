import { randomUUID } from 'node:crypto';
import { InvalidArgumentError, NotFoundError, type Handlers } from '@accord/common';
import { contracts, webhookv1 } from '@accord/proto';
import type { AddressPolicy } from '../domain/address-policy';
import { eventText } from '../domain/event-types';
import { deliveryBody, generateSecret } from '../domain/signing';
import { validateWebhookFields } from '../domain/webhook-input';
import { deliveryId, type DeliveryStore } from '../store/delivery-store';
import type { DeliveryDoc, SecretDoc, WebhookDoc } from '../store/models';
import type { WebhookStore } from '../store/webhook-store';

export interface HandlerDeps {
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  policy: AddressPolicy;
  secretGraceMs: number;
  /** Called after a delivery was queued, to hand it to the local workers. */
  onQueued: (deliveryId: string) => void;
}

const { deliveriesPageDefault: PAGE_DEFAULT, deliveriesPageMax: PAGE_MAX } = contracts.webhooks.LIMITS;

function toWebhook(doc: WebhookDoc, now = new Date()): webhookv1.Webhook {
  const previous = doc.secrets.slice(1).filter((s) => s.expiresAt && s.expiresAt > now);
  const previousExpiry = previous.length ? new Date(Math.max(...previous.map((s) => s.expiresAt!.getTime()))) : undefined;
  return {
    id: doc._id,
    appId: doc.appId,
    url: doc.url,
    events: doc.events,
    headers: Object.fromEntries(doc.headers.map((h) => [h.name, h.value])),
    secret: doc.secrets[0]!.secret,
    previousSecretExpiresAt: previousExpiry,
    disabled: doc.disabled,
    disabledReason: doc.disabledReason,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

const STATUS: Record<DeliveryDoc['status'], webhookv1.DeliveryStatus> = {
  pending: webhookv1.DeliveryStatus.DELIVERY_STATUS_PENDING,
  succeeded: webhookv1.DeliveryStatus.DELIVERY_STATUS_SUCCEEDED,
  failed: webhookv1.DeliveryStatus.DELIVERY_STATUS_FAILED,
};

function toDelivery(doc: DeliveryDoc): webhookv1.Delivery {
  return {
    id: doc._id,
    webhookId: doc.webhookId,
    eventId: doc.eventId,
    eventType: doc.eventType,
    status: STATUS[doc.status],
    attempts: (doc.attempts ?? []).map((a) => ({ at: a.at, statusCode: a.statusCode, latencyMs: a.latencyMs, error: a.error })),
    nextAttemptAt: doc.status === 'pending' && doc.nextAttemptAt ? doc.nextAttemptAt : undefined,
    createdAt: doc.createdAt,
  };
}

function encodeCursor(d: DeliveryDoc): string {
  return Buffer.from(JSON.stringify([d.createdAt.getTime(), d._id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  if (!cursor) return null;
  try {
    const [t, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof t === 'number' && typeof id === 'string') return { createdAt: new Date(t), id };
  } catch {
    /* fall through */
  }
  throw InvalidArgumentError.field('cursor', 'is not a cursor returned by this API');
}

function requireCaller(req: { accountId: string; appId: string }): void {
  if (!req.accountId) throw InvalidArgumentError.field('accountId', 'is required');
  if (!req.appId) throw InvalidArgumentError.field('appId', 'is required');
}

function headerPairs(headers: Record<string, string>): WebhookDoc['headers'] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

export type WebhookHandlers = Handlers<webhookv1.WebhookServiceServer>;

export function webhookHandlers(d: HandlerDeps): WebhookHandlers {
  const own = async (req: { accountId: string; appId: string }, id: number): Promise<WebhookDoc> => {
    requireCaller(req);
    const doc = await d.webhooks.get(req.accountId, req.appId, id);
    if (!doc) throw new NotFoundError(`webhook ${id} not found`);
    return doc;
  };

  return {
    async createWebhook(req) {
      requireCaller(req);
      validateWebhookFields({ url: req.url, events: req.events, headers: req.headers }, d.policy);
      const now = new Date();
      const doc: Omit<WebhookDoc, '_id'> = {
        accountId: req.accountId,
        appId: req.appId,
        url: req.url,
        events: unique(req.events),
        headers: headerPairs(req.headers),
        secrets: [{ secret: generateSecret(), createdAt: now, expiresAt: null }],
        disabled: false,
        disabledReason: '',
        createdAt: now,
        updatedAt: now,
      };
      return toWebhook(await d.webhooks.create(doc));
    },

    async listWebhooks(req) {
      requireCaller(req);
      return { webhooks: (await d.webhooks.list(req.accountId, req.appId)).map((w) => toWebhook(w)) };
    },

    async getWebhook(req) {
      return toWebhook(await own(req, req.id));
    },

    async updateWebhook(req) {
      await own(req, req.id);
      validateWebhookFields({ url: req.url, events: req.events?.values, headers: req.headers?.values }, d.policy);
      const set: Partial<WebhookDoc> = {};
      if (req.url !== undefined) set.url = req.url;
      if (req.events) set.events = unique(req.events.values);
      if (req.headers) set.headers = headerPairs(req.headers.values);
      if (req.disabled !== undefined) {
        set.disabled = req.disabled;
        set.disabledReason = req.disabled ? 'disabled by its owner' : '';
      }
      const updated = await d.webhooks.update(req.accountId, req.appId, req.id, set);
      if (!updated) throw new NotFoundError(`webhook ${req.id} not found`);
      return toWebhook(updated);
    },

    async deleteWebhook(req) {
      requireCaller(req);
      if (!(await d.webhooks.delete(req.accountId, req.appId, req.id))) throw new NotFoundError(`webhook ${req.id} not found`);
      await d.deliveries.deleteForWebhook(req.id);
      return {};
    },

    async rotateWebhookSecret(req) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const doc = await own(req, req.id);
        const now = new Date();
        const graceEnd = new Date(now.getTime() + d.secretGraceMs);
        // The current secret keeps signing until the grace ends; older ones keep their own end.
        const previous: SecretDoc[] = doc.secrets.map((s, i) => (i === 0 ? { ...s, expiresAt: graceEnd } : s)).filter((s) => s.expiresAt && s.expiresAt > now);
        const secrets = [{ secret: generateSecret(), createdAt: now, expiresAt: null }, ...previous];
        const updated = await d.webhooks.replaceSecrets(doc._id, doc.secrets[0]!.secret, secrets);
        if (updated) return toWebhook(updated);
      }
      throw new Error('secret rotation kept conflicting with concurrent rotations');
    },

    async listDeliveries(req) {
      await own(req, req.webhookId);
      const limit = Math.min(Math.max(req.page?.limit || PAGE_DEFAULT, 1), PAGE_MAX);
      const docs = await d.deliveries.list(req.webhookId, limit + 1, decodeCursor(req.page?.cursor ?? ''));
      const page = docs.slice(0, limit);
      return { deliveries: page.map(toDelivery), nextCursor: docs.length > limit ? encodeCursor(page[page.length - 1]!) : '' };
    },

    async redeliverDelivery(req) {
      await own(req, req.webhookId);
      const doc = await d.deliveries.redeliver(req.webhookId, req.deliveryId);
      if (!doc) throw new NotFoundError(`delivery ${req.deliveryId} not found`);
      d.onQueued(doc._id);
      return toDelivery(doc);
    },

    async sendTestEvent(req) {
      const webhook = await own(req, req.webhookId);
      const eventId = `ping_${randomUUID().replace(/-/g, '')}`;
      const data = { webhookId: webhook._id, appId: webhook.appId, eventId, sentAt: new Date().toISOString() };
      await d.deliveries.enqueue([
        {
          webhookId: webhook._id,
          accountId: webhook.accountId,
          appId: webhook.appId,
          eventId,
          eventType: 'ping',
          body: deliveryBody('ping', data, eventText('ping')),
        },
      ]);
      d.onQueued(deliveryId(eventId, webhook._id));
      const doc = await d.deliveries.get(webhook._id, deliveryId(eventId, webhook._id));
      if (!doc) throw new Error('test delivery vanished');
      return toDelivery(doc);
    },
  };
}
