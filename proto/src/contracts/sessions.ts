import { z } from 'zod';
import { claim, LIMITS as CONSENT_LIMITS, withoutReplacement } from './consent';
import { componentSchemas, contractRegistry } from './json-schema';

/**
 * The consent sessions contract (POST /consent/v0/sessions): what a backend may ask a session
 * for and what it gets. Subject, issuer and targets are those of the consent events the session
 * may write, so their limits are the consent contract's.
 */

export const LIMITS = {
  subject: CONSENT_LIMITS.subject,
  issuer: CONSENT_LIMITS.issuer,
  target: CONSENT_LIMITS.target,
  groupIdLength: 64,
  /** Targets one session may name. */
  targets: 100,
  /** Session lifetime in seconds: default and largest. */
  ttlDefault: 900,
  ttlMax: 3600,
} as const;

const registry = contractRegistry();

export const ConsentSessionRequest = z
  .strictObject({
    subject: claim(LIMITS.subject, 'The end user the browser acts for.'),
    issuer: claim(LIMITS.issuer, 'The issuer recorded on the consent events.'),
    groupId: z
      .string()
      .min(1)
      .max(LIMITS.groupIdLength)
      .regex(/^[A-Za-z0-9_-]+$/)
      .optional()
      .describe('The group whose consent request and dashboard the browser may read.'),
    targets: z
      .array(withoutReplacement(z.string().min(1).max(LIMITS.target)))
      .min(1)
      .max(LIMITS.targets)
      .optional()
      .describe('Consent targets the browser may record (and, for specification URLs, read). Narrows a group session when both are given.'),
    ttlSeconds: z.int().min(1).max(LIMITS.ttlMax).optional().describe(`Lifetime in seconds (default ${LIMITS.ttlDefault}).`),
  })
  .refine((s) => s.groupId !== undefined || s.targets !== undefined)
  .meta({ anyOf: [{ required: ['groupId'] }, { required: ['targets'] }] });
registry.add(ConsentSessionRequest, { id: 'ConsentSessionRequest' });

export const ConsentSession = z.object({
  sessionToken: z.string().describe('Bearer token for the browser (Authorization: Bearer <sessionToken>, no x-api-key).'),
  expiresAt: z.iso.datetime({ offset: true }),
});
registry.add(ConsentSession, { id: 'ConsentSession' });

/** The OpenAPI component schemas of the session request and answer, by name. */
export const sessionsSchemas = componentSchemas(registry);
