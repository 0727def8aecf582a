import type { Request, RequestHandler, Response } from 'express';
import { isServiceError, REFUSED_BEFORE_STORING, unlimited } from '@accord/common';
import { rateLimited, setRateLimitHeaders, type Limiter, type LimitName } from '../limits/limiter';
import { HttpProblem } from '../problem';
import { basicCredentials } from './auth';

const DESCRIPTIONS: Record<LimitName, string> = {
  account: "The account's request limit",
  app: "The application's request limit",
  client: 'The token request limit of this client',
  'auth-failures-client': 'Too many failed client authentications for this client; the limit',
  'auth-failures-address': 'Too many failed client authentications from this address; the limit',
  'events-per-day': "The account's daily event limit",
};

function tooMany(name: LimitName, retryAfter: number, detail?: string): HttpProblem {
  rateLimited.inc({ limit: name });
  return new HttpProblem(
    429,
    'Too many requests',
    detail ?? `${DESCRIPTIONS[name]} is exhausted; retry after ${retryAfter} s.`,
    [],
    { 'Retry-After': String(retryAfter) },
    'rate-limited',
  );
}

/**
 * Token buckets of the account and of the application (after authentication): a request is
 * admitted only when both have a token, and only then are both taken. Every answer carries
 * RateLimit-Policy and RateLimit; a refusal is a 429 problem with Retry-After.
 */
export function requestLimits(limiter: Limiter): RequestHandler {
  return async (req, res, next) => {
    const auth = req.auth!;
    const admission = limiter.admitRequest(auth.accountId, auth.appId, await limiter.limitsOf(auth.accountId));
    setRateLimitHeaders(res, admission.applied);
    if (admission.refused) throw tooMany(admission.refused.name, admission.refused.retryAfter);
    next();
  };
}

/** The events a request took from the account's day, and whether they may have been stored since. */
interface EventCharge {
  sent: boolean;
}
const CHARGE = 'eventCharge';

/**
 * Runs the write that the event limit of this route guards (see `eventLimits`). From the moment
 * it is sent, the request's events count as possibly stored, unless the consent service refused
 * them before storing: only then, or when the write was never sent, are they given back.
 */
export async function storingEvents<T>(res: Response, write: () => Promise<T>): Promise<T> {
  const charge = res.locals[CHARGE] as EventCharge | undefined;
  if (charge) charge.sent = true;
  try {
    return await write();
  } catch (err) {
    // a refusal of the service, or the validation problem of one event that a shared call
    // refused (consent-batches.ts: nothing of a refused call is stored)
    if (charge && ((isServiceError(err) && REFUSED_BEFORE_STORING.has(err.code)) || (err instanceof HttpProblem && err.status < 500))) charge.sent = false;
    throw err;
  }
}

/**
 * Mounted on the route that stores events (`r.post('/consents', eventLimit, …)`): at most
 * `maxEventsPerRequest` events in one array (413) and `maxEventsPerDay` per account and UTC day
 * (429), counted in the oauth service so that every gateway replica shares the count. The events
 * of a request that fails are given back only when they certainly were not stored: refused by
 * the gateway before the write was sent, or by the consent service before it stored them
 * (`storingEvents`). A 504, 503, 500 or 499 keeps them counted.
 */
export function eventLimits(limiter: Limiter): RequestHandler {
  return async (req, res, next) => {
    const auth = req.auth!;
    const limits = await limiter.limitsOf(auth.accountId);
    const body: unknown = req.body;
    const count = Array.isArray(body) ? body.length : 1;
    const r = await limiter.chargeEvents(auth.accountId, count, limits);
    if (r.outcome === 'too-many-in-request') {
      throw new HttpProblem(
        413,
        'Payload too large',
        `At most ${r.max} events per request; this one has ${count}.`,
        [{ field: '', message: `must have at most ${r.max} items` }],
        {},
        'too-many-events',
      );
    }
    if (r.outcome === 'unlimited') return next();
    const policy = `"events-per-day";q=${r.max};w=86400`;
    const prior = res.getHeader('RateLimit-Policy');
    res.setHeader('RateLimit-Policy', prior ? `${String(prior)}, ${policy}` : policy);
    const state = `"events-per-day";r=${Math.max(0, r.max - r.used)};t=${r.resetSeconds}`;
    const priorState = res.getHeader('RateLimit');
    res.setHeader('RateLimit', priorState ? `${String(priorState)}, ${state}` : state);
    if (r.outcome === 'over-daily') {
      throw tooMany(
        'events-per-day',
        r.resetSeconds,
        `The account's daily event limit (${r.max}) would be exceeded: ${r.used} used today, ${count} in this request; the count starts again in ${r.resetSeconds} s.`,
      );
    }
    const charge: EventCharge = { sent: false };
    res.locals[CHARGE] = charge;
    res.once('finish', () => {
      if (res.statusCode >= 400 && !charge.sent) limiter.refundEvents(auth.accountId, count, limits);
    });
    next();
  };
}

function oauthTooMany(res: Response, name: LimitName, retryAfter: number): void {
  rateLimited.inc({ limit: name });
  res.setHeader('Retry-After', String(retryAfter));
  // The token endpoint keeps RFC 6749's error form; temporarily_unavailable is its "try later".
  res.status(429).json({ error: 'temporarily_unavailable', error_description: `${DESCRIPTIONS[name]} is exhausted; retry after ${retryAfter} s.` });
}

function clientIdOf(req: Request): string {
  const basic = basicCredentials(req);
  if (basic && basic !== 'malformed') return basic.clientId;
  const id = (req.body as Record<string, unknown> | undefined)?.client_id;
  return typeof id === 'string' ? id : '';
}

/**
 * Mounted on the token route (`r.post('/token', tokenLimit, …)`): a token bucket per client id,
 * and buckets of failed client authentications (401) per client id and per source address; an
 * empty failure bucket refuses further attempts of that client or address until it refills.
 */
export function tokenLimits(limiter: Limiter): RequestHandler {
  return (req, res, next) => {
    const now = Date.now();
    const clientId = clientIdOf(req).slice(0, 256);
    const address = req.ip ?? req.socket.remoteAddress ?? '';
    const byClient = limiter.failuresClientPolicy;
    const byAddress = limiter.failuresAddressPolicy;
    if (clientId && !unlimited(byClient) && !limiter.failuresByClient.admits(clientId, byClient, now)) {
      return oauthTooMany(res, 'auth-failures-client', limiter.failuresByClient.take(clientId, byClient, now, 0).retryAfter || Math.ceil(1 / byClient.rate));
    }
    if (!unlimited(byAddress) && !limiter.failuresByAddress.admits(address, byAddress, now)) {
      return oauthTooMany(res, 'auth-failures-address', limiter.failuresByAddress.take(address, byAddress, now, 0).retryAfter || Math.ceil(1 / byAddress.rate));
    }
    const policy = limiter.tokenPolicy;
    if (clientId && !unlimited(policy)) {
      const take = limiter.clients.take(clientId, policy, now);
      setRateLimitHeaders(res, [{ name: 'client', policy, take }]);
      if (!take.allowed) return oauthTooMany(res, 'client', take.retryAfter);
    }
    res.once('finish', () => {
      if (res.statusCode !== 401) return;
      const t = Date.now();
      if (clientId && !unlimited(byClient)) limiter.failuresByClient.take(clientId, byClient, t);
      if (!unlimited(byAddress)) limiter.failuresByAddress.take(address, byAddress, t);
    });
    next();
  };
}
