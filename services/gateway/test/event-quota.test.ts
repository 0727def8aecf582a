/**
 * The daily event quota is given back only when the events of a request certainly were not
 * stored. The gateway's real consent route and event limit run in front of a consent service
 * that answers as a failing one would: it may store a batch and still fail the call (a deadline
 * passing, a dropped connection), or refuse it before storing anything (validation).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Metadata, status } from '@grpc/grpc-js';
import { createLogger, loadConfig } from '@accord/common';
import type { Clients } from '../src/grpc/clients';
import { configShape } from '../src/config';
import type { GatewayContext } from '../src/context';
import { Limiter } from '../src/limits/limiter';
import { errorMiddleware } from '../src/middleware/errors';
import { eventLimits } from '../src/middleware/limits';
import { consentRoutes } from '../src/routes/consent';

const MAX_PER_DAY = 100;
const grpcError = (code: status, details: string) => Object.assign(new Error(details), { code, details, metadata: new Metadata() });

let server: http.Server;
let base: string;
/** Events counted against today in the fake oauth service, and events the fake consent service stored. */
let used = 0;
let stored = 0;
/** How the fake consent service answers the next write. */
/** Resolves when the last request's answer is finished and every listener of its 'finish' has run (the give-back is sent from one). */
let settled: Promise<void> = Promise.resolve();
let answer: 'store' | 'store-then-deadline' | 'store-then-unavailable' | 'store-then-cancelled' | 'store-then-internal' | 'invalid' | 'failed-precondition' =
  'store';

beforeAll(async () => {
  const config = loadConfig(configShape, { ACCORD_LIMIT_EVENTS_PER_DAY: String(MAX_PER_DAY), ACCORD_LIMIT_ACCOUNT_BURST: '0', ACCORD_LIMIT_APP_BURST: '0' });
  const limits = {
    async getAccountLimits() {
      return { limits: {} };
    },
    async consumeDailyEvents(req: { count: number; maxPerDay: number }) {
      if (req.count > 0 && used + req.count > req.maxPerDay) return { allowed: false, used, resetSeconds: 3600 };
      used += req.count;
      return { allowed: true, used, resetSeconds: 3600 };
    },
  };
  const consent = {
    async createConsents(req: { events: Array<{ subject: string; issuer: string; target: string }> }) {
      const refusal = { invalid: status.INVALID_ARGUMENT, 'failed-precondition': status.FAILED_PRECONDITION }[answer as string];
      if (refusal !== undefined) throw grpcError(refusal, '/0/target: unknown specification');
      stored += req.events.length;
      const failure = {
        'store-then-deadline': status.DEADLINE_EXCEEDED,
        'store-then-unavailable': status.UNAVAILABLE,
        'store-then-cancelled': status.CANCELLED,
        'store-then-internal': status.INTERNAL,
      }[answer as string];
      if (failure !== undefined) throw grpcError(failure, 'the answer was lost');
      return {
        events: req.events.map((e, i) => ({ ...e, id: `${'0'.repeat(31)}${i}`, scope: '', token: 'ABCDEF', createdAt: new Date(), appId: 'app' })),
      };
    },
  };
  const logger = createLogger('gateway', 'silent');
  const ctx = { config, logger, clients: { consent, limits } as unknown as Clients, baseUrl: 'http://accord.test' } as GatewayContext;
  const app = express();
  app.use(express.json());
  app.use((req, res, next) => {
    settled = new Promise((resolve) => res.once('finish', () => setImmediate(resolve)));
    req.auth = { accountId: 'acc', appId: 'app', clientId: 'cl', scopes: ['consent'] };
    next();
  });
  app.use(consentRoutes(ctx, eventLimits(new Limiter(config, ctx.clients.limits, logger))));
  app.use(errorMiddleware(logger));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

/** POSTs `n` events with the consent service answering as `a`; resolves with the status once the quota is settled. */
async function post(n: number, a: typeof answer, body?: unknown): Promise<number> {
  answer = a;
  const list = Array.from({ length: n }, (_, i) => ({ subject: `s${i}`, issuer: 'i', target: 't', action: true }));
  // one event is sent as an object: it goes through the gateway's group commit (consent-batches.ts)
  const events = n === 1 ? list[0] : list;
  const res = await fetch(`${base}/consents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? events) });
  await res.text();
  await settled;
  return res.status;
}

beforeEach(() => {
  used = 0;
  stored = 0;
});

describe('the daily event quota', () => {
  test('counts the events of a stored request', async () => {
    expect(await post(3, 'store')).toBe(201);
    expect({ used, stored }).toEqual({ used: 3, stored: 3 });
  });

  test.each([
    ['store-then-deadline', 504, 4],
    ['store-then-unavailable', 503, 4],
    ['store-then-cancelled', 499, 4],
    ['store-then-internal', 500, 4],
    ['store-then-deadline', 504, 1],
    ['store-then-internal', 500, 1],
  ] as const)('keeps the events counted when the write failed with %s (HTTP %i, %i events): they may be stored', async (a, http, n) => {
    expect(await post(n, a)).toBe(http);
    expect({ used, stored }).toEqual({ used: n, stored: n });
  });

  test.each([
    ['invalid', 400, 2],
    ['failed-precondition', 400, 2],
    ['invalid', 400, 1],
  ] as const)('gives the events back when the consent service refused them before storing (%s, HTTP %i, %i events)', async (a, http, n) => {
    expect(await post(n, a)).toBe(http);
    expect({ used, stored }).toEqual({ used: 0, stored: 0 });
  });

  test('gives the events back when the gateway refused the request before calling the consent service', async () => {
    expect(await post(0, 'store', [{ subject: 's', issuer: 'i' }, { subject: 's' }])).toBe(400);
    expect({ used, stored }).toEqual({ used: 0, stored: 0 });
  });
});
