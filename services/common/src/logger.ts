import pino, { type Logger } from 'pino';
import { currentRequestId } from './context';
import { traceIds } from './tracing';

export type { Logger };

/** Paths that must never reach a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.client_secret',
  '*.clientSecret',
  '*.refresh_token',
  '*.refreshToken',
  '*.access_token',
  '*.apiKey',
  '*.api_key',
  '*.secret',
  '*.password',
];

/** pino JSON logs with `service`, the current `requestId`, `trace_id`/`span_id` when traced, and secrets redacted. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const requestId = currentRequestId();
      const ids = traceIds();
      return { ...(requestId ? { requestId } : {}), ...(ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {}) };
    },
  });
}
