import type { RequestHandler } from 'express';
import { HttpProblem } from '../problem';
import type { OriginCache } from './session-auth';

const ALLOW_METHODS = 'GET, POST';
const ALLOW_HEADERS = 'authorization, content-type, x-request-id';
const EXPOSE_HEADERS = 'link, location, x-request-id, www-authenticate, content-language';

/**
 * CORS for the APIs that consent sessions may call. An origin is answered only when some
 * application lists it (a preflight carries no token, so it cannot be narrowed further); the
 * session check then requires the origin to be allowed for the token's own application.
 * Bearer tokens, not cookies: no Access-Control-Allow-Credentials.
 */
export function corsForSessions(origins: OriginCache): RequestHandler {
  return async (req, res, next) => {
    const origin = req.get('origin');
    if (!origin) return next();
    res.vary('Origin');
    const allowed = await origins.allowed(origin);
    const preflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined;
    if (!allowed) {
      if (preflight) throw new HttpProblem(403, 'Forbidden', `The origin ${origin} is not allowed by any application.`, [], {}, 'origin-not-allowed');
      return next(); // no CORS headers: the browser withholds the response
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    if (preflight) {
      res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
      res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    next();
  };
}
