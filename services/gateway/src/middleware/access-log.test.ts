import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import { accessLog, accessLogLevel } from './access-log';

describe('gateway access log level', () => {
  test('probes are debug lines whatever they answer: a 503 while the services start is neither a warning nor an error', () => {
    expect(accessLogLevel('/healthz', 200)).toBe('debug');
    expect(accessLogLevel('/readyz', 200)).toBe('debug');
    expect(accessLogLevel('/readyz', 503)).toBe('debug');
  });

  test('other answers: a 5xx is an error, a request the client gave up on a warning, the rest info', () => {
    expect(accessLogLevel('/consent/v0/consents', 201)).toBe('info');
    expect(accessLogLevel('/consent/v0/consents', 404)).toBe('info');
    expect(accessLogLevel('/consent/v0/consents', 500)).toBe('error');
    expect(accessLogLevel('/consent/v0/consents', 200, true)).toBe('warn');
    expect(accessLogLevel('/readyz/x', 503)).toBe('error');
  });
});

/** Runs one request through the middleware with a logger writing JSON lines into `lines`. */
function run(opts: { url: string; status: number; finished?: boolean; auth?: Request['auth']; level?: string }): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: opts.level ?? 'info' }, sink);
  const req = {
    method: 'POST',
    url: opts.url,
    originalUrl: opts.url,
    id: 'req-1',
    auth: opts.auth,
    headers: { authorization: 'Bearer secret-token', 'x-api-key': 'ak_secret', 'user-agent': 'curl/8' },
  } as unknown as Request;
  const res = Object.assign(new EventEmitter(), { statusCode: opts.status, writableFinished: opts.finished ?? true }) as unknown as Response;
  const next = jest.fn() as NextFunction;
  accessLog(logger)(req, res, next);
  expect(next).toHaveBeenCalledTimes(1);
  (res as unknown as EventEmitter).emit(opts.finished === false ? 'close' : 'finish');
  (res as unknown as EventEmitter).emit('close');
  return lines;
}

describe('gateway access line', () => {
  test('holds method, path without the query, status, duration and ids — one line, no header', () => {
    const lines = run({
      url: '/consent/v0/consents/search?subject=user-42',
      status: 200,
      auth: { accountId: 'acc-1', appId: 'app-1', clientId: 'cl_1', scopes: ['consent'] } as Request['auth'],
    });
    expect(lines).toHaveLength(1);
    const { time: _time, durationMs, ...line } = lines[0]!;
    expect(line).toEqual({
      level: 30,
      pid: expect.any(Number),
      hostname: expect.any(String),
      method: 'POST',
      path: '/consent/v0/consents/search',
      status: 200,
      requestId: 'req-1',
      accountId: 'acc-1',
      appId: 'app-1',
      msg: 'request',
    });
    expect(typeof durationMs).toBe('number');
    expect(JSON.stringify(lines)).not.toMatch(/secret|curl|user-42/);
  });

  test('a request the client abandoned is one warning marked aborted', () => {
    const lines = run({ url: '/consent/v0/consents', status: 200, finished: false });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, path: '/consent/v0/consents', aborted: true });
  });

  test('a not-ready probe writes nothing at level info, one debug line at debug', () => {
    expect(run({ url: '/readyz', status: 503 })).toEqual([]);
    expect(run({ url: '/readyz', status: 503, level: 'debug' })).toMatchObject([{ level: 20, path: '/readyz', status: 503 }]);
  });
});
