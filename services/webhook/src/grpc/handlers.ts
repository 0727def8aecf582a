import type { Handlers } from '@accord/common';
import { webhookv1 } from '@accord/proto';
import type { Webhooks } from '../app/webhooks';
import type { Delivery, Webhook } from '../app/ports';

function toWebhook(doc: Webhook, now = new Date()): webhookv1.Webhook {
  const previous = doc.secrets.slice(1).filter((s) => s.expiresAt && s.expiresAt > now);
  const previousExpiry = previous.length ? new Date(Math.max(...previous.map((s) => s.expiresAt!.getTime()))) : undefined;
  return {
    id: doc.id,
    appId: doc.appId,
    url: doc.url,
    events: doc.events,
    // a Map on the wire (ts-proto useMapType): no header name is lost in decoding, __proto__ included
    headers: new Map(Object.entries(doc.headers)),
    secret: doc.secrets[0]!.secret,
    previousSecretExpiresAt: previousExpiry,
    disabled: doc.disabled,
    disabledReason: doc.disabledReason,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

const STATUS: Record<Delivery['status'], webhookv1.DeliveryStatus> = {
  pending: webhookv1.DeliveryStatus.DELIVERY_STATUS_PENDING,
  succeeded: webhookv1.DeliveryStatus.DELIVERY_STATUS_SUCCEEDED,
  failed: webhookv1.DeliveryStatus.DELIVERY_STATUS_FAILED,
};

function toDelivery(doc: Delivery): webhookv1.Delivery {
  return {
    id: doc.id,
    webhookId: doc.webhookId,
    eventId: doc.eventId,
    eventType: doc.eventType,
    status: STATUS[doc.status],
    attempts: doc.attempts.map((a) => ({ at: a.at, statusCode: a.statusCode, latencyMs: a.latencyMs, error: a.error })),
    nextAttemptAt: doc.status === 'pending' && doc.nextAttemptAt ? doc.nextAttemptAt : undefined,
    createdAt: doc.createdAt,
  };
}

export type WebhookHandlers = Handlers<webhookv1.WebhookServiceServer>;

/** The WebhookService over gRPC: requests to use cases (app/webhooks.ts), stored records to messages. */
export function webhookHandlers(webhooks: Webhooks): WebhookHandlers {
  return {
    async createWebhook(req) {
      return toWebhook(await webhooks.create(req, { url: req.url, events: req.events, headers: Object.fromEntries(req.headers) }));
    },

    async listWebhooks(req) {
      return { webhooks: (await webhooks.list(req)).map((w) => toWebhook(w)) };
    },

    async getWebhook(req) {
      return toWebhook(await webhooks.get(req, req.id));
    },

    async updateWebhook(req) {
      return toWebhook(
        await webhooks.update(req, req.id, {
          url: req.url,
          events: req.events?.values,
          headers: req.headers && Object.fromEntries(req.headers.values),
          disabled: req.disabled,
        }),
      );
    },

    async deleteWebhook(req) {
      await webhooks.delete(req, req.id);
      return {};
    },

    async rotateWebhookSecret(req) {
      return toWebhook(await webhooks.rotateSecret(req, req.id));
    },

    async listDeliveries(req) {
      const page = await webhooks.deliveries(req, req.webhookId, { limit: req.page?.limit ?? 0, cursor: req.page?.cursor ?? '' });
      return { deliveries: page.deliveries.map(toDelivery), nextCursor: page.nextCursor };
    },

    async redeliverDelivery(req) {
      return toDelivery(await webhooks.redeliver(req, req.webhookId, req.deliveryId));
    },

    async sendTestEvent(req) {
      return toDelivery(await webhooks.sendTestEvent(req, req.webhookId));
    },
  };
}
