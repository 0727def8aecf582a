import type { Router } from 'express';
import type { Logger } from '@accord/common';
import type { GatewayContext } from '../context';
import { buildDocument } from '../openapi';
import { strictRouter } from './router';

/**
 * Logs readiness when it changes, not on every probe: while the services start, one info line
 * naming those not yet serving; then one when all are; a warning only when readiness is lost
 * after it was reached.
 */
export function readinessLog(logger: Logger): (services: Record<string, boolean>) => void {
  let last: boolean | undefined;
  return (services) => {
    const waiting = Object.keys(services).filter((name) => !services[name]);
    const ready = waiting.length === 0;
    if (ready === last) return;
    if (ready) logger.info('ready: every service is serving');
    else if (last === undefined) logger.info({ waiting }, 'not ready yet: waiting for services');
    else logger.warn({ notServing: waiting }, 'not ready: services not serving');
    last = ready;
  };
}

/** /healthz, /readyz, /.well-known/jwks.json, /openapi.json. */
export function systemRoutes(ctx: GatewayContext): Router {
  const r = strictRouter();
  const document = buildDocument(ctx.baseUrl);
  const readiness = readinessLog(ctx.logger);

  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  r.get('/readyz', async (_req, res) => {
    const entries = await Promise.all(Object.entries(ctx.clients.health).map(async ([name, probe]) => [name, await probe.serving()] as const));
    const services = Object.fromEntries(entries.map(([n, ok]) => [n, ok ? 'SERVING' : 'NOT_SERVING']));
    const ready = entries.every(([, ok]) => ok);
    readiness(Object.fromEntries(entries));
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
