import type { Request, RequestHandler } from 'express';
import { httpServerDuration } from '@accord/common';

const BASES = /^\/(consent|dataprocessing|webhooks|oauth|console\/api)\/v0(?=\/|$)|^\/(console\/api|docs|sdk|demo|console)(?=\/|$)/;

/**
 * The route template of a request (never its raw path, so that ids never become labels): the
 * matched Express route under its REST base, `<base>/*` when the request ended before routing
 * (authentication, validation), `other` for anything else.
 */
export function routeLabel(req: Request): string {
  // eslint-disable-next-line no-restricted-syntax -- a label (the REST base), nothing is decided on it
  const m = BASES.exec(req.originalUrl);
  const base = m ? m[0] : '';
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${base}${path}`;
  return base ? `${base}/*` : 'other';
}

/** RED metrics of every HTTP answer: one histogram by method, route template and status. */
export const httpMetrics: RequestHandler = (req, res, next) => {
  const end = httpServerDuration.startTimer();
  res.once('finish', () => {
    end({
      http_request_method: /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(req.method) ? req.method : 'OTHER',
      http_route: routeLabel(req),
      http_response_status_code: String(res.statusCode),
    });
  });
  next();
};
