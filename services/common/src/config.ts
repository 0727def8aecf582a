import { z } from 'zod';
import { grpcTlsEnv } from './grpc-tls';
import { parseServicePeers } from './service-identity';

/** Thrown (instead of exiting) when tests load a bad configuration. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Env vars every service understands. */
export const baseEnv = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` or `pretty` (one human line per record); unset: pretty on a terminal, JSON otherwise (createLogger). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  ACCORD_BASE_URL: z.url().default('http://127.0.0.1:8080'),
};

export const mongoEnv = { MONGO_URL: z.string().min(1).default('mongodb://127.0.0.1:27017/accord') };
export const natsEnv = {
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  /** TLS to NATS (any of them set: TLS required): the CA that signs the server's certificate (PEM file). */
  NATS_TLS_CA_FILE: z.string().min(1).optional(),
  /** A client certificate and its key (PEM files), where the NATS server verifies clients. */
  NATS_TLS_CERT_FILE: z.string().min(1).optional(),
  NATS_TLS_KEY_FILE: z.string().min(1).optional(),
};
export const grpcPortEnv = (port: number) => ({
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(port),
  /** Interface the gRPC server binds: all in a cluster; `npm start` binds loopback only. */
  GRPC_HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * A second port serving only grpc.health.v1, in plaintext (on GRPC_HOST): for the kubelet's gRPC
   * probes, which cannot speak TLS, when the service port is mutual TLS. Unset: none.
   */
  GRPC_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
});
export const addressEnv = (port: number) =>
  z
    .string()
    .regex(/^[^\s:]+:\d+$/, 'expected host:port')
    .default(`127.0.0.1:${port}`);

/** Default gRPC ports, one per service. */
export const DEFAULT_PORTS = { oauth: 50051, consent: 50052, dataprocessing: 50053, webhook: 50054 } as const;

/**
 * Reads the environment once against a typed schema. Every bad variable is listed in one
 * message; the caller (main) exits non-zero on ConfigError.
 */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  const { values, problems } = applyRenamedSettings(shape, emptyToUndefined(env));
  const result = z.object(shape).safeParse(values);
  if (!result.success) throw new ConfigError([...problems, ...result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)]);
  if (problems.length) throw new ConfigError(problems);
  return result.data;
}

/**
 * A setting renamed (every duration is a whole number of milliseconds, its name ending in `_MS`):
 * the old name is still read for one release, converted, with a warning naming the new one
 * (deprecatedSettings). The new name wins when both are set.
 */
export interface RenamedSetting {
  from: string;
  to: string;
  /** The old value as the new one would be written (throws on a bad old value). */
  convert(old: string): string;
}

const secondsToMs = (s: string) => {
  if (!/^\s*\d+\s*$/.test(s)) throw new Error(`expected a whole number of seconds, got "${s}"`);
  return String(Number(s) * 1_000);
};

/** Old names still read (until the release after the rename); docs/operating.md, "Renamed settings". */
export const RENAMED_SETTINGS: readonly RenamedSetting[] = [
  { from: 'ACCORD_ACCESS_TOKEN_TTL', to: 'ACCORD_ACCESS_TOKEN_TTL_MS', convert: secondsToMs },
  { from: 'ACCORD_REFRESH_TOKEN_TTL', to: 'ACCORD_REFRESH_TOKEN_TTL_MS', convert: secondsToMs },
  { from: 'ACCORD_CONSOLE_IDLE_TIMEOUT', to: 'ACCORD_CONSOLE_IDLE_TIMEOUT_MS', convert: secondsToMs },
  { from: 'ACCORD_CONSOLE_ABSOLUTE_TIMEOUT', to: 'ACCORD_CONSOLE_ABSOLUTE_TIMEOUT_MS', convert: secondsToMs },
  { from: 'ACCORD_WEBHOOK_RETRY_SCHEDULE', to: 'ACCORD_WEBHOOK_RETRY_SCHEDULE_MS', convert: (s) => parseDurationList(s).join(',') },
  { from: 'ACCORD_WEBHOOK_SECRET_GRACE', to: 'ACCORD_WEBHOOK_SECRET_GRACE_MS', convert: (s) => String(parseDuration(s)) },
];

/** The renamed settings a shape reads (by their new name). */
export function renamedSettingsOf(shape: z.ZodRawShape): RenamedSetting[] {
  return RENAMED_SETTINGS.filter((r) => r.to in shape);
}

function applyRenamedSettings(shape: z.ZodRawShape, env: Record<string, string | undefined>) {
  const values = { ...env };
  const problems: string[] = [];
  for (const r of renamedSettingsOf(shape)) {
    const old = values[r.from];
    if (old === undefined || values[r.to] !== undefined) continue;
    try {
      values[r.to] = r.convert(old);
    } catch (err) {
      problems.push(`${r.from}: ${(err as Error).message} (renamed ${r.to}, in milliseconds)`);
    }
  }
  return { values, problems };
}

/**
 * One warning per old name set in the environment, naming the new one: main logs them after
 * loadConfig, so that an operator sees what to rename before the old name stops working.
 */
export function deprecatedSettings(shape: z.ZodRawShape, env: NodeJS.ProcessEnv = process.env): Array<{ setting: string; use: string; msg: string }> {
  const set = emptyToUndefined(env);
  return renamedSettingsOf(shape)
    .filter((r) => set[r.from] !== undefined)
    .map((r) => ({
      setting: r.from,
      use: r.to,
      msg:
        set[r.to] !== undefined
          ? `${r.from} is deprecated and ignored: ${r.to} is set (milliseconds); remove ${r.from}`
          : `${r.from} is deprecated: set ${r.to} (milliseconds) instead; the old name is read until the next release`,
    }));
}

/** Logs deprecatedSettings as warnings (each main, right after its logger exists). */
export function warnDeprecatedSettings(shape: z.ZodRawShape, logger: { warn(obj: object, msg: string): void }, env: NodeJS.ProcessEnv = process.env): void {
  for (const { msg, ...fields } of deprecatedSettings(shape, env)) logger.warn(fields, msg);
}

// An empty variable (FOO=) means "not set", so that defaults apply.
function emptyToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) out[k] = v === '' ? undefined : v;
  return out;
}

/** A comma-separated list. */
export const csv = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

/**
 * Durations written like `500ms`, `5s`, `5m`, `2h`, `1d` (a bare number is milliseconds): no
 * setting takes them any more (every duration is `_MS`, whole milliseconds); they convert the old
 * names of RENAMED_SETTINGS, and the defaults written so in contracts.
 */
const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration in ms (see UNITS). */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!m) throw new Error(`invalid duration "${text}" (expected e.g. 500ms, 5s, 5m, 2h, 1d)`);
  return Math.round(Number(m[1]) * UNITS[m[2] ?? 'ms']!);
}

/** A comma-separated list of durations in ms, e.g. a retry schedule `5s,5m,30m,2h`. */
export function parseDurationList(text: string): number[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseDuration);
}

/** A variable holding a non-empty comma-separated list of whole milliseconds (`5000,300000`); `def` when unset. */
export const msListEnv = (def: readonly number[]) =>
  z
    .string()
    .default(def.join(','))
    .transform(
      parsed((s) => {
        const list = s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        if (!list.length) throw new Error('expected at least one duration in milliseconds');
        const bad = list.find((x) => !/^\d+$/.test(x));
        if (bad !== undefined) throw new Error(`expected whole milliseconds, e.g. 5000,300000 (got "${bad}")`);
        return list.map(Number);
      }),
    );

/** A zod transform from a parser that throws: its message becomes the variable's problem. */
function parsed<T>(parse: (s: string) => T) {
  return (s: string, ctx: z.RefinementCtx): T => {
    try {
      return parse(s);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  };
}

/**
 * How a service authenticates gRPC: its own identity key (signs what it sends to Accord's other
 * services) and the public keys of every service identity (who may call as which service).
 */
export const serviceAuthEnv = {
  /** This process's service identity: an EC P-256 private key (PEM). Unset: it calls no other service. */
  ACCORD_SERVICE_KEY: z.string().optional(),
  /** JSON `{"gateway": "<PEM public key or certificate>", …}`: the identities that may call as Accord's services. */
  ACCORD_SERVICE_PEERS: z.string().default('{}').transform(parsed(parseServicePeers)),
  /** Mutual TLS on its gRPC hops (grpc-tls.ts): CA, certificate and key files; unset: plaintext. */
  ...grpcTlsEnv,
};

/** Where a service with platform callers finds the keys of access tokens (the oauth service's JWKS). */
export const platformAuthEnv = {
  ACCORD_OAUTH_ADDR: addressEnv(DEFAULT_PORTS.oauth),
  /** How long the JWKS is cached (ms); an unknown kid refetches sooner. */
  ACCORD_JWKS_CACHE_MS: z.coerce.number().int().min(0).default(300_000),
};
