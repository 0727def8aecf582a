import { type Router, type Request, type Response } from 'express';
import { webhookv1 } from '@accord/proto';
import type { GatewayContext } from '../context';
import { validateBody, validateQuery } from '../openapi/validate';
import { HttpProblem } from '../problem';
import { strictRouter } from './router';
import { setNextPageLink } from './paging';

/** REST form of a webhook. The secret is shown to its owner (not in the list). */
function webhookJson(w: webhookv1.Webhook, withSecret = true): Record<string, unknown> {
  return {
    id: w.id,
    appId: w.appId,
    url: w.url,
    events: w.events,
    // Object.fromEntries defines each name as its own property: a header named __proto__ is answered too
    ...(w.headers.size ? { headers: Object.fromEntries(w.headers) } : {}),
    ...(withSecret ? { secret: w.secret } : {}),
    ...(withSecret && w.previousSecretExpiresAt ? { previousSecretExpiresAt: w.previousSecretExpiresAt.toISOString() } : {}),
    disabled: w.disabled,
    ...(w.disabled && w.disabledReason ? { disabledReason: w.disabledReason } : {}),
    createdAt: w.createdAt?.toISOString(),
    updatedAt: w.updatedAt?.toISOString(),
  };
}

const STATUS_NAMES: Record<number, string> = {
  [webhookv1.DeliveryStatus.DELIVERY_STATUS_PENDING]: 'pending',
  [webhookv1.DeliveryStatus.DELIVERY_STATUS_SUCCEEDED]: 'succeeded',
  [webhookv1.DeliveryStatus.DELIVERY_STATUS_FAILED]: 'failed',
};

function deliveryJson(d: webhookv1.Delivery): Record<string, unknown> {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: STATUS_NAMES[d.status] ?? 'pending',
    attempts: d.attempts.map((a) => ({
      at: a.at?.toISOString(),
      statusCode: a.statusCode || null,
      latencyMs: a.latencyMs,
      ...(a.error ? { error: a.error } : {}),
    })),
    ...(d.nextAttemptAt ? { nextAttemptAt: d.nextAttemptAt.toISOString() } : {}),
    createdAt: d.createdAt?.toISOString(),
  };
}

function webhookId(req: Request): number {
  const raw = String(req.params.id);
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw HttpProblem.field('id', 'must be a webhook id (a positive integer)');
  return Number(raw);
}

/** /webhooks/v0: registration of the caller application's webhooks and their deliveries. */
export function webhooksRoutes(ctx: GatewayContext): Router {
  const r = strictRouter();
  const caller = (req: Request) => ({ accountId: req.auth!.accountId, appId: req.auth!.appId });
  const client = ctx.clients.webhook;

  r.post('/', validateBody('WebhookCreateRequest'), async (req, res) => {
    const b = req.body as { url: string; events: string[]; headers?: Record<string, string> };
    // a Map on the wire (ts-proto useMapType): a decoder writing into a plain object would drop __proto__
    const w = await client.createWebhook({ ...caller(req), url: b.url, events: b.events, headers: new Map(Object.entries(b.headers ?? {})) });
    res.status(201).location(`${ctx.baseUrl}/webhooks/v0/${w.id}`).json(webhookJson(w));
  });
  r.get('/', async (req, res) => {
    const out = await client.listWebhooks(caller(req));
    res.json(out.webhooks.map((w) => webhookJson(w, false)));
  });

  r.get('/:id', async (req, res) => {
    res.json(webhookJson(await client.getWebhook({ ...caller(req), id: webhookId(req) })));
  });
  r.patch('/:id', validateBody('WebhookUpdateRequest'), async (req, res) => {
    const id = webhookId(req);
    const b = req.body as { url?: string; events?: string[]; headers?: Record<string, string>; disabled?: boolean };
    const w = await client.updateWebhook({
      ...caller(req),
      id,
      url: b.url,
      events: b.events ? { values: b.events } : undefined,
      headers: b.headers ? { values: new Map(Object.entries(b.headers)) } : undefined,
      disabled: b.disabled,
    });
    res.json(webhookJson(w));
  });
  r.delete('/:id', async (req, res) => {
    await client.deleteWebhook({ ...caller(req), id: webhookId(req) });
    res.status(204).end();
  });

  r.post('/:id/secret/rotate', async (req, res) => {
    res.json(webhookJson(await client.rotateWebhookSecret({ ...caller(req), id: webhookId(req) })));
  });

  r.get('/:id/deliveries', validateQuery('WebhookDeliveriesQuery'), async (req: Request, res: Response) => {
    const q = res.locals.query as { limit?: number; cursor?: string };
    const id = webhookId(req);
    const out = await client.listDeliveries({ ...caller(req), webhookId: id, page: { limit: q.limit ?? 0, cursor: q.cursor ?? '' } });
    setNextPageLink(res, ctx, `/webhooks/v0/${id}/deliveries`, q.limit ? { limit: String(q.limit) } : {}, out.nextCursor);
    res.json(out.deliveries.map(deliveryJson));
  });

  r.post('/:id/deliveries/:deliveryId/redeliver', async (req, res) => {
    const deliveryId = String(req.params.deliveryId);
    if (!/^[\w-]{1,64}$/.test(deliveryId)) throw HttpProblem.field('deliveryId', 'is not a delivery id');
    const d = await client.redeliverDelivery({ ...caller(req), webhookId: webhookId(req), deliveryId });
    res.status(202).json(deliveryJson(d));
  });

  r.post('/:id/test', async (req, res) => {
    const d = await client.sendTestEvent({ ...caller(req), webhookId: webhookId(req) });
    res.status(202).json(deliveryJson(d));
  });
  return r;
}
