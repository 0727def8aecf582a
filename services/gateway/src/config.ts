import { z } from 'zod';
import { addressEnv, baseEnv, DEFAULT_PORTS, loadConfig } from '@accord/common';

export const configShape = {
  ...baseEnv,
  ACCORD_GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  ACCORD_GATEWAY_HOST: z.string().default('0.0.0.0'),
  /** Maximum request body size (JSON and form). */
  ACCORD_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'expected e.g. 1mb or 512kb')
    .default('1mb'),
  /** How long a validated x-api-key is remembered (ms). */
  ACCORD_API_KEY_CACHE_MS: z.coerce.number().int().min(0).default(30_000),
  /** How long the JWKS is cached (ms); an unknown kid refetches sooner. */
  ACCORD_JWKS_CACHE_MS: z.coerce.number().int().min(0).default(300_000),
  /** Deadline of every downstream gRPC call (ms). */
  ACCORD_GRPC_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /**
   * Time a client has to send a whole request, headers and body (ms); a slower one gets 408 and
   * its connection is closed, so slow senders (slowloris) cannot hold connections open.
   */
  ACCORD_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(500).default(30_000),
  /** Trust X-Forwarded-* from this many proxy hops (behind an ingress: 1). */
  ACCORD_TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  ACCORD_OAUTH_ADDR: addressEnv(DEFAULT_PORTS.oauth),
  ACCORD_CONSENT_ADDR: addressEnv(DEFAULT_PORTS.consent),
  ACCORD_DATAPROCESSING_ADDR: addressEnv(DEFAULT_PORTS.dataprocessing),
  ACCORD_WEBHOOK_ADDR: addressEnv(DEFAULT_PORTS.webhook),
};

export type Config = ReturnType<typeof loadConfig<typeof configShape>>;
