import type { IncomingMessage, ServerResponse } from 'node:http';

const PROBES = new Set(['/healthz', '/readyz']);

/**
 * The access log level of one answer. Probes (/healthz, /readyz) are asked every few seconds by
 * Kubernetes and by `npm start` while it waits: an answer of 200 is not logged, a not-ready 503
 * is a warning (an expected state while a service starts), not an error. Elsewhere a 5xx or a
 * failure is an error, the rest info.
 */
export function accessLogLevel(req: IncomingMessage, res: ServerResponse, err?: Error): 'silent' | 'info' | 'warn' | 'error' {
  const path = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0]!;
  if (PROBES.has(path)) return res.statusCode < 400 ? 'silent' : 'warn';
  return err || res.statusCode >= 500 ? 'error' : 'info';
}
