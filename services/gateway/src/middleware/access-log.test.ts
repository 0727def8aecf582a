import type { IncomingMessage, ServerResponse } from 'node:http';
import { accessLogLevel } from './access-log';

const level = (url: string, statusCode: number, err?: Error) => accessLogLevel({ url } as IncomingMessage, { statusCode } as ServerResponse, err);

describe('gateway access log level', () => {
  test('probes answered 200 are not logged; a not-ready 503 is a warning, not an error', () => {
    expect(level('/healthz', 200)).toBe('silent');
    expect(level('/readyz', 200)).toBe('silent');
    expect(level('/readyz?verbose=1', 200)).toBe('silent');
    expect(level('/readyz', 503, new Error('failed with status code 503'))).toBe('warn');
  });

  test('other answers: a 5xx or a failure is an error, the rest info', () => {
    expect(level('/consent/v0/consents', 201)).toBe('info');
    expect(level('/consent/v0/consents', 404)).toBe('info');
    expect(level('/consent/v0/consents', 500)).toBe('error');
    expect(level('/consent/v0/consents', 200, new Error('aborted'))).toBe('error');
    expect(level('/readyz/x', 503)).toBe('error');
  });
});
