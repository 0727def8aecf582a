import {
  accountLimitsEnv,
  ConfigError,
  addressEnv,
  baseEnv,
  DEFAULT_PORTS,
  grpcPortEnv,
  loadConfig,
  mongoEnv,
  natsEnv,
  natsPrefixEnv,
  platformAuthEnv,
  serviceAuthEnv,
} from '@accord/common';
import { z } from 'zod';

export const configShape = {
  ...baseEnv,
  ...mongoEnv,
  ...natsEnv,
  ...natsPrefixEnv,
  ...grpcPortEnv(DEFAULT_PORTS.consent),
  ...serviceAuthEnv,
  ...platformAuthEnv,
  // the account limits of platform callers over gRPC (the gateway's, for REST)
  ...accountLimitsEnv,
  /** Where GetSpecForConsent is called to enrich receipts (graceful when unreachable). */
  ACCORD_DATAPROCESSING_ADDR: addressEnv(DEFAULT_PORTS.dataprocessing),
  /** The IAB TCF Global Vendor List (vendor-list.json) for vendor decisions; unset: vendor decisions are a 400. Re-read when it changes. */
  ACCORD_TCF_GVL: z.string().min(1).optional(),
  /**
   * How long the current version of a specification is remembered for new consents to it (their
   * targetVersion); 0 asks the data processing service on every create call.
   */
  ACCORD_CONSENT_SPEC_CACHE_MS: z.coerce.number().int().min(0).default(1_000),
  /** PEM private key(s) signing receipts (EC P-256 or RSA); the first signs. Ephemeral P-256 when unset. */
  ACCORD_RECEIPT_SIGNING_KEYS: z.string().optional(),
  ACCORD_RECEIPT_JURISDICTION: z.string().min(1).default('EU'),
  ACCORD_RECEIPT_CONTROLLER_NAME: z.string().min(1).default('Accord'),
  ACCORD_RECEIPT_CONTROLLER_CONTACT: z.string().default(''),
  ACCORD_RECEIPT_LANGUAGE: z
    .string()
    .regex(/^[a-z]{2}$/)
    .default('en'),
  /** How often the outbox relay looks for events that are not yet on NATS. */
  ACCORD_CONSENT_OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(2_000),
  /** How long a relay (or the writer) owns an outbox record before another replica may take it. */
  ACCORD_CONSENT_OUTBOX_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often each replica looks for consent events waiting for their log leaf while there are some (idle: backs off to 2 s; a write nudges it sooner). */
  ACCORD_CONSENT_LOG_POLL_MS: z.coerce.number().int().min(10).default(250),
  /** How long one replica sequences an account's log before another may take over (renewed every pass). */
  ACCORD_CONSENT_LOG_LEASE_MS: z.coerce.number().int().min(100).default(1_500),
  /** Most events per signed tree head. */
  ACCORD_CONSENT_LOG_BATCH: z.coerce.number().int().min(1).max(10_000).default(1_000),
  NODE_ENV: z.string().optional(),
  /**
   * Secret of subject erasure: erased subjects (and their sources, delegates) become
   * HMAC-SHA256 hashes under a per-account key derived from it (docs/consent.md, Erasure). Keep it
   * like ACCORD_HASH_KEY (a Secret, never changed once erasures exist); required in production.
   */
  ACCORD_ERASURE_KEY: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)').optional(),
  /**
   * Longest pause between two sweeps for lapsed consents to announce (`consent.expired`); an idle
   * sweep is one database command per replica. A replica that writes a consent expiring sooner
   * sweeps at that time anyway.
   */
  ACCORD_CONSENT_EXPIRY_SWEEP_MS: z.coerce.number().int().min(100).default(5_000),
  /**
   * Pause between two looks for material specification changes to announce as
   * `consent.renewal_required` (each look is one call to the data processing service, one
   * database command there when idle).
   */
  ACCORD_CONSENT_RENEWAL_SWEEP_MS: z.coerce.number().int().min(100).default(10_000),
  /** Most `consent.renewal_required` announcements per second per replica. */
  ACCORD_CONSENT_RENEWAL_RATE: z.coerce.number().int().min(1).default(100),
  /** Deadline of one JetStream publish. */
  ACCORD_CONSENT_PUBLISH_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /**
   * How consent events are written on NATS: `protobuf` (accord.consent.v1.ConsentBusEvent), or
   * `json`, the envelope of earlier releases, while webhook replicas of those releases still run
   * (the first step of a rolling upgrade; docs/consent.md, "Events on NATS").
   */
  ACCORD_CONSENT_EVENT_ENCODING: z.enum(['protobuf', 'json']).default('protobuf'),
  /**
   * Most imported events per second per replica, over all imports (POST /consent/v0/imports;
   * docs/consent.md, Import); 0: no limit beyond the database's pace.
   */
  ACCORD_CONSENT_IMPORT_RATE: z.coerce.number().int().min(0).default(5_000),
};

export type Config = ReturnType<typeof loadConfig<typeof configShape>>;

/** The erasure secret to use, or an error in production when none is configured. */
export function resolveErasureKey(config: Pick<Config, 'ACCORD_ERASURE_KEY' | 'NODE_ENV'>, insecureDefault: string): { key: string; insecureDefault: boolean } {
  if (config.ACCORD_ERASURE_KEY) return { key: config.ACCORD_ERASURE_KEY, insecureDefault: false };
  if (config.NODE_ENV === 'production') throw new ConfigError(['ACCORD_ERASURE_KEY: required when NODE_ENV=production']);
  return { key: insecureDefault, insecureDefault: true };
}
