import type { RequestHandler } from 'express';
import type { Logger } from '@accord/common';

const PROBES = new Set(['/healthz', '/readyz']);

export type AccessLogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * The level of one access line. Probes (/healthz, /readyz) are asked every few seconds by
 * Kubernetes and by `npm start` while it waits: whatever they answer, they are debug lines (a
 * 503 while the services start is an expected state; /readyz itself logs when readiness
 * changes). Elsewhere a 5xx is an error, a request the client gave up on a warning, the rest info.
 */
export function accessLogLevel(path: string, status: number, aborted = false): AccessLogLevel {
  if (PROBES.has(path)) return 'debug';
  if (status >= 500) return 'error';
  return aborted ? 'warn' : 'info';
}

/**
 * One line per answered request, when it is finished or abandoned: method, path (without the
 * query string, which may name a data subject), status, duration in ms, and the ids — request,
 * and account and application once authenticated. No header: the request id is the key to the
 * rest (traces, the services' logs).
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const path = (req.originalUrl ?? req.url).split('?', 1)[0]!;
      const aborted = !res.writableFinished;
      const level = accessLogLevel(path, res.statusCode, aborted);
      if (!logger.isLevelEnabled(level)) return;
      const auth = req.auth;
      logger[level](
        {
          method: req.method,
          path,
          status: res.statusCode,
          durationMs: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
          requestId: (req as { id?: string }).id,
          ...(auth ? { accountId: auth.accountId, appId: auth.appId } : {}),
          ...(aborted ? { aborted: true } : {}),
        },
        'request',
      );
    };
    res.once('finish', done);
    res.once('close', done);
    next();
  };
}
