import { contracts } from '@accord/proto';
import { errorResponses } from './common';
import { ref, type OpenApiFragment } from './types';
import { queryParameters } from './params';

/**
 * /webhooks/v0: paths, parameters, responses and prose. The request and answer schemas, the
 * delivery body, limits, event types and the delivery defaults stated below are the contract's,
 * @accord/proto's contracts/webhooks.ts.
 */
const { DELIVERY, durationText, webhooksSchemas } = contracts.webhooks;
const retrySchedule = DELIVERY.retrySchedule.map(durationText).join(', ');

const security = [{ bearer: [] }];
const { '400': e400, '401': e401, '403': e403, '404': e404, '413': e413, '503': e503 } = errorResponses;
const json = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } });
const idParam = { name: 'id', in: 'path', required: true, description: 'Webhook id.', schema: { type: 'integer', minimum: 1, maximum: 999_999_999_999_999 } };
const deliveryIdParam = {
  name: 'deliveryId',
  in: 'path',
  required: true,
  description: 'Delivery id (`dlv_…`).',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
};
const webhookTag = ['webhooks'];

export const webhooksOpenApi: OpenApiFragment = {
  tags: [
    {
      name: 'webhooks',
      description:
        'HTTP callbacks of an application (scope `webhooks`). Deliveries are POSTs with a JSON body `WebhookEventPayload`, the custom headers, and Standard Webhooks headers `webhook-id` (the event id, stable across retries), `webhook-timestamp` (unix seconds of the attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>` per active secret, space-separated). ' +
        `Any 2xx within the timeout (${DELIVERY.timeoutMs / 1000} s) is success; anything else is retried (${retrySchedule}, with jitter, and never earlier than \`Retry-After\`); 410 Gone disables the webhook.`,
    },
  ],
  paths: {
    '/webhooks/v0': {
      post: {
        tags: webhookTag,
        operationId: 'createWebhook',
        summary: 'Register a webhook for the application of the access token.',
        security,
        requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookCreateRequest') } } },
        responses: {
          '201': json(ref('Webhook'), 'The webhook, with its signing secret; `Location` is its URL.'),
          '400': e400,
          '401': e401,
          '403': e403,
          '413': e413,
          '503': e503,
        },
      },
      get: {
        tags: webhookTag,
        operationId: 'listWebhooks',
        summary: "The application's webhooks, in id order (secrets not included; read one webhook to see its secret).",
        security,
        responses: { '200': json({ type: 'array', items: ref('Webhook') }, 'The webhooks.'), '401': e401, '403': e403, '503': e503 },
      },
    },
    '/webhooks/v0/{id}': {
      parameters: [idParam],
      get: {
        tags: webhookTag,
        operationId: 'getWebhook',
        summary: 'One webhook, with its current signing secret.',
        security,
        responses: { '200': json(ref('Webhook'), 'The webhook.'), '400': e400, '401': e401, '403': e403, '404': e404, '503': e503 },
      },
      patch: {
        tags: webhookTag,
        operationId: 'updateWebhook',
        summary:
          'Change the fields present in the body; `headers` and `events` replace the whole value. `disabled: false` re-enables a webhook disabled by a 410 answer.',
        security,
        requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookUpdateRequest') } } },
        responses: { '200': json(ref('Webhook'), 'The updated webhook.'), '400': e400, '401': e401, '403': e403, '404': e404, '413': e413, '503': e503 },
      },
      delete: {
        tags: webhookTag,
        operationId: 'deleteWebhook',
        summary: 'Remove a webhook with its deliveries; nothing more is sent to it, pending retries included.',
        security,
        responses: { '204': { description: 'Deleted.' }, '400': e400, '401': e401, '403': e403, '404': e404, '503': e503 },
      },
    },
    '/webhooks/v0/{id}/secret/rotate': {
      parameters: [idParam],
      post: {
        tags: webhookTag,
        operationId: 'rotateWebhookSecret',
        summary: `Replace the signing secret. The previous secret keeps signing alongside the new one (two signatures in \`webhook-signature\`) until \`previousSecretExpiresAt\` (grace period, ${durationText(DELIVERY.secretGrace)} by default).`,
        security,
        responses: { '200': json(ref('Webhook'), 'The webhook with its new secret.'), '400': e400, '401': e401, '403': e403, '404': e404, '503': e503 },
      },
    },
    '/webhooks/v0/{id}/deliveries': {
      parameters: [idParam],
      get: {
        tags: webhookTag,
        operationId: 'listWebhookDeliveries',
        summary: 'Deliveries of a webhook, newest first, with every attempt. The next page is in the `Link: <…>; rel="next"` header.',
        security,
        parameters: queryParameters(webhooksSchemas.WebhookDeliveriesQuery as Parameters<typeof queryParameters>[0]),
        responses: {
          '200': {
            ...json({ type: 'array', items: ref('WebhookDelivery') }, 'One page of deliveries.'),
            headers: { Link: { description: 'URL of the next page (rel="next"), when there is one.', schema: { type: 'string' } } },
          },
          '400': e400,
          '401': e401,
          '403': e403,
          '404': e404,
          '503': e503,
        },
      },
    },
    '/webhooks/v0/{id}/deliveries/{deliveryId}/redeliver': {
      parameters: [idParam, deliveryIdParam],
      post: {
        tags: webhookTag,
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send a delivery again now, with a fresh retry schedule and the same `webhook-id`, whatever its status.',
        security,
        responses: { '202': json(ref('WebhookDelivery'), 'The delivery, queued.'), '400': e400, '401': e401, '403': e403, '404': e404, '503': e503 },
      },
    },
    '/webhooks/v0/{id}/test': {
      parameters: [idParam],
      post: {
        tags: webhookTag,
        operationId: 'testWebhook',
        summary: 'Queue a signed test event of type `ping` for the webhook (whatever its `events`); follow it in the deliveries.',
        security,
        responses: { '202': json(ref('WebhookDelivery'), 'The queued test delivery.'), '400': e400, '401': e401, '403': e403, '404': e404, '503': e503 },
      },
    },
  },
  schemas: webhooksSchemas,
};
