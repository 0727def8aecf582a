import type { AccessTable, RpcAccess } from '@accord/common';
import type { webhookv1 } from '@accord/proto';

/** Platform callers with the `webhooks` scope, in their own account and application, and the gateway (REST, the console) for any. */
const platform: RpcAccess = { scope: 'webhooks', services: ['gateway'] };

/** Who may call each RPC of the webhook service (read by its gRPC server; an RPC without a row does not start). */
export const webhookAccess: AccessTable<webhookv1.WebhookServiceServer> = {
  createWebhook: platform,
  listWebhooks: platform,
  getWebhook: platform,
  updateWebhook: platform,
  deleteWebhook: platform,
  rotateWebhookSecret: platform,
  listDeliveries: platform,
  redeliverDelivery: platform,
  sendTestEvent: platform,
};
