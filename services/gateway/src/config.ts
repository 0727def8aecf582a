import { z } from 'zod';
import { addressEnv, baseEnv, DEFAULT_PORTS, grpcTlsEnv, loadConfig, serviceAuthEnv } from '@accord/common';
import { limitsEnv } from './limits/config';

export const configShape = {
  ...baseEnv,
  /** The gateway's service identity (ACCORD_SERVICE_KEY): every call it makes proves it, for the account the request authenticated. */
  ACCORD_SERVICE_KEY: serviceAuthEnv.ACCORD_SERVICE_KEY,
  /** Mutual TLS to the services (its certificate names spiffe://accord/gateway); unset: plaintext. */
  ...grpcTlsEnv,
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
  /**
   * An import (POST /consent/v0/imports) is not bound by ACCORD_REQUEST_TIMEOUT_MS (its body may
   * be millions of lines): it fails when no byte of its body arrives for this long (ms) while the
   * gateway waits for one.
   */
  ACCORD_IMPORT_IDLE_TIMEOUT_MS: z.coerce.number().int().min(500).default(30_000),
  /** Trust X-Forwarded-* from this many proxy hops (behind an ingress: 1). */
  ACCORD_TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  /**
   * A request header that a CDN or ingress in front of the gateway sets to the client's country or
   * region (e.g. CF-IPCountry): the jurisdiction of consent views that do not name one. Unset: no
   * header is read (a client's copy is never trusted).
   */
  ACCORD_GEO_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'expected an HTTP header name, e.g. CF-IPCountry')
    .optional(),
  /** The web components bundle served at /sdk/accord-elements.js (default: the built @accord/sdk package). */
  ACCORD_SDK_BUNDLE: z.string().default(''),
  /** Console sessions end after this long without a request (idle timeout; ms, whole seconds); was ACCORD_CONSOLE_IDLE_TIMEOUT, in seconds. */
  ACCORD_CONSOLE_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(86_400_000)
    .multipleOf(1_000, 'must be whole seconds (a multiple of 1000)')
    .default(1_800_000),
  /** Console sessions end this long after sign-in, whatever the activity (absolute timeout; ms, whole seconds); was ACCORD_CONSOLE_ABSOLUTE_TIMEOUT, in seconds. */
  ACCORD_CONSOLE_ABSOLUTE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(2_592_000_000)
    .multipleOf(1_000, 'must be whole seconds (a multiple of 1000)')
    .default(43_200_000),
  /** The built console (index.html and its assets); default: the @accord/console workspace. Empty string = no console pages. */
  ACCORD_CONSOLE_DIR: z.string().optional(),
  /** OpenID Connect sign-in to the console: the identity provider's issuer URL (unset: only console links). */
  ACCORD_CONSOLE_OIDC_ISSUER: z.string().url().optional(),
  ACCORD_CONSOLE_OIDC_CLIENT_ID: z.string().optional(),
  /** Empty: a public client (PKCE only). */
  ACCORD_CONSOLE_OIDC_CLIENT_SECRET: z.string().optional(),
  ACCORD_CONSOLE_OIDC_SCOPES: z.string().default('openid email profile'),
  /** A claim naming the account(s) a new user joins (string or array of account names); unset: only members bound to their subject. */
  ACCORD_CONSOLE_OIDC_ACCOUNT_CLAIM: z.string().optional(),
  /** Role of a member created from the account claim. */
  ACCORD_CONSOLE_OIDC_ROLE: z.enum(['owner', 'developer', 'viewer']).default('viewer'),
  /** The demo shop, linked from the start page (GET /) when set; `npm start` sets it. */
  ACCORD_DEMO_URL: z.url().optional(),
  ACCORD_OAUTH_ADDR: addressEnv(DEFAULT_PORTS.oauth),
  ACCORD_CONSENT_ADDR: addressEnv(DEFAULT_PORTS.consent),
  ACCORD_DATAPROCESSING_ADDR: addressEnv(DEFAULT_PORTS.dataprocessing),
  ACCORD_WEBHOOK_ADDR: addressEnv(DEFAULT_PORTS.webhook),
  ...limitsEnv,
};

export type Config = ReturnType<typeof loadConfig<typeof configShape>>;
