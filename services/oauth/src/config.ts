import { baseEnv, ConfigError, DEFAULT_PORTS, grpcPortEnv, loadConfig, mongoEnv, serviceAuthEnv } from '@accord/common';
import { z } from 'zod';

/** Used when ACCORD_HASH_KEY is unset outside production. Anyone can read it: never deploy it. */
export const INSECURE_DEVELOPMENT_HASH_KEY = 'accord-INSECURE-development-hash-key-do-not-use-in-production';

export const configShape = {
  ...baseEnv,
  ...mongoEnv,
  ...grpcPortEnv(DEFAULT_PORTS.oauth),
  ...serviceAuthEnv,
  NODE_ENV: z.string().optional(),
  /** Guards the admin RPCs (metadata `authorization: Bearer <token>`); unset = admin RPCs disabled. */
  ACCORD_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Master secret for credential hashes (HMAC-SHA256) and API key encryption; required in production. */
  ACCORD_HASH_KEY: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)').optional(),
  /** PEM private key(s), EC P-256 or RSA; the first signs, all are published. Unset = ephemeral key. */
  ACCORD_TOKEN_SIGNING_KEYS: z.string().optional(),
  /** Access token lifetime (ms, whole seconds: `expires_in` is in seconds); was ACCORD_ACCESS_TOKEN_TTL, in seconds. */
  ACCORD_ACCESS_TOKEN_TTL_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(86_400_000)
    .multipleOf(1_000, 'must be whole seconds (a multiple of 1000)')
    .default(3_600_000),
  /**
   * Lifetime of a refresh token family (ms, whole seconds), from its client_credentials grant
   * (refreshes do not extend it); was ACCORD_REFRESH_TOKEN_TTL, in seconds.
   */
  ACCORD_REFRESH_TOKEN_TTL_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(31_536_000_000)
    .multipleOf(1_000, 'must be whole seconds (a multiple of 1000)')
    .default(2_592_000_000),
  /**
   * How long a replica may answer the token endpoint from its cached copy of an application, in
   * milliseconds (0 = no cache). A secret rotated on another replica stops working there after
   * at most this long; on the replica that rotated it, at once.
   */
  ACCORD_CLIENT_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
};

export type Config = ReturnType<typeof loadConfig<typeof configShape>>;

/** The hash key to use, or an error in production when none is configured. */
export function resolveHashKey(config: Pick<Config, 'ACCORD_HASH_KEY' | 'NODE_ENV'>): { key: string; insecureDefault: boolean } {
  if (config.ACCORD_HASH_KEY) return { key: config.ACCORD_HASH_KEY, insecureDefault: false };
  if (config.NODE_ENV === 'production') throw new ConfigError(['ACCORD_HASH_KEY: required when NODE_ENV=production']);
  return { key: INSECURE_DEVELOPMENT_HASH_KEY, insecureDefault: true };
}
