import { Router } from 'express';
import type { GatewayContext } from '../context';
import { buildDocument } from '../openapi';

/** /healthz, /readyz, /.well-known/jwks.json, /openapi.json. */
export function systemRoutes(ctx: GatewayContext): Router {
  const r = Router();
  const document = buildDocument(ctx.baseUrl);

  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  r.get('/readyz', async (_req, res) => {
    const entries = await Promise.all(Object.entries(ctx.clients.health).map(async ([name, probe]) => [name, await probe.serving()] as const));
    const services = Object.fromEntries(entries.map(([n, ok]) => [n, ok ? 'SERVING' : 'NOT_SERVING']));
    const ready = entries.every(([, ok]) => ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', services });
  });

  r.get('/.well-known/jwks.json', async (_req, res) => {
    // Each half is served even when the other service is down; both down is a 503 problem.
    const [tokens, receipts] = await Promise.allSettled([ctx.tokenKeys.jwks(), ctx.receiptKeys.jwks()]);
    if (tokens.status === 'rejected' && receipts.status === 'rejected') throw tokens.reason;
    const keys = [...(tokens.status === 'fulfilled' ? tokens.value : []), ...(receipts.status === 'fulfilled' ? receipts.value : [])];
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json({ keys });
  });

  r.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  return r;
}
