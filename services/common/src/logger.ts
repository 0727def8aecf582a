import pino, { type DestinationStream, type Logger } from 'pino';
import { currentRequestId } from './context';
import { traceIds } from './tracing';

export type { Logger };

/** `json`: one pino JSON object per line (production); `pretty`: one short human line (a terminal, `npm start`). */
export type LogFormat = 'json' | 'pretty';

/** Field names whose values must never reach a log line, at the top of a record or one level down. */
const SECRET_FIELDS = ['client_secret', 'clientSecret', 'refresh_token', 'refreshToken', 'access_token', 'apiKey', 'api_key', 'secret', 'password'];

/** Paths that must never reach a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
];

/** The format when LOG_FORMAT is unset: pretty on a terminal, JSON otherwise. */
export function defaultLogFormat(): LogFormat {
  return process.stdout.isTTY ? 'pretty' : 'json';
}

/**
 * pino logs with `service`, the current `requestId`, `trace_id`/`span_id` when traced, and secrets
 * redacted: JSON lines, or (`pretty`) the same records as short human lines.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', format: LogFormat = defaultLogFormat()): Logger {
  const options = {
    level,
    base: { service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const requestId = currentRequestId();
      const ids = traceIds();
      return { ...(requestId ? { requestId } : {}), ...(ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {}) };
    },
  };
  return format === 'pretty' ? pino(options, prettyDestination()) : pino(options);
}

/** A destination that writes each JSON record as one human line (synchronous: for terminals, not for speed). */
export function prettyDestination(out: { write(s: string): unknown } = process.stdout): DestinationStream {
  return { write: (line: string) => void out.write(`${prettyLine(line)}\n`) };
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that only a machine needs; shown on warnings and errors only where noted. */
const HIDDEN = new Set(['level', 'time', 'service', 'msg', 'pid', 'hostname', 'requestId', 'trace_id', 'span_id', 'err']);
/** What an access line says in its head, and the ids a terminal reader does not need on every request. */
const ACCESS_FIELDS = ['method', 'path', 'status', 'durationMs', 'accountId', 'appId'];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const clock = (iso: unknown) => {
  const d = typeof iso === 'string' || typeof iso === 'number' ? new Date(iso) : new Date();
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
};
const value = (v: unknown) => (typeof v === 'string' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v));

/**
 * One JSON record as a human line: `12:03:04.567 INFO  connected to MongoDB db=accord`. An access
 * line (method, path, status, durationMs) reads `GET /readyz 200 3ms`, without its ids; a warning
 * or an error adds its request id, an error its stack on the lines below.
 */
export function prettyLine(json: string): string {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const level = typeof r.level === 'number' ? r.level : 30;
  const access = typeof r.method === 'string' && typeof r.path === 'string' && typeof r.status === 'number' && typeof r.durationMs === 'number';
  const head = access ? `${r.method} ${r.path} ${r.status} ${Math.round(r.durationMs as number)}ms` : String(r.msg ?? '');
  const skip = access ? new Set([...HIDDEN, ...ACCESS_FIELDS]) : HIDDEN;
  const fields = Object.entries(r)
    .filter(([k, v]) => !skip.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${value(v)}`);
  const err = r.err as { message?: string; stack?: string } | undefined;
  if (err?.message) fields.push(`error=${value(err.message)}`);
  if (level >= 40 && r.requestId) fields.push(`requestId=${r.requestId}`);
  const line = `${clock(r.time)} ${LEVELS[level] ?? 'INFO '} ${[head, ...fields].join(' ')}`.trimEnd();
  return level >= 50 && err?.stack ? `${line}\n${err.stack.replace(/^/gm, '    ')}` : line;
}
