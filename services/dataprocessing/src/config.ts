import { z } from 'zod';
import { addressEnv, baseEnv, DEFAULT_PORTS, grpcPortEnv, loadConfig, mongoEnv, accountLimitsEnv, platformAuthEnv, serviceAuthEnv } from '@accord/common';

export const configShape = {
  ...baseEnv,
  ...mongoEnv,
  ...grpcPortEnv(DEFAULT_PORTS.dataprocessing),
  ...serviceAuthEnv,
  ...platformAuthEnv,
  // the account limits of platform callers over gRPC (the gateway's, for REST)
  ...accountLimitsEnv,
  /** The consent service, asked for current consent states by dashboards. */
  ACCORD_CONSENT_ADDR: addressEnv(DEFAULT_PORTS.consent),
  /** Deadline of a consent service call from a dashboard (ms). */
  ACCORD_CONSENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  /** Location of a specification created without one (e.g. an ISO 3166 code, `EU`, `EEA`). */
  ACCORD_DEFAULT_LOCATION: z.string().trim().min(1).max(100).default('EU'),
};

export type Config = ReturnType<typeof loadConfig<typeof configShape>>;
