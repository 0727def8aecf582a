import { z } from 'zod';
import { componentSchemas, contractRegistry } from './json-schema';

/**
 * The consent contract: what a consent event input, an erasure and the consent queries may hold,
 * and the limits of the consent API. One source for the gateway's OpenAPI component schemas
 * (generated from the zod schemas below and enforced on every request) and for the consent
 * service's validator (its LIMITS and page sizes are these).
 */

/** Largest specification version a consent event may name (int32). */
export const MAX_VERSION = 2 ** 31 - 1;

/** Length limits (characters) of the client fields, and the sizes of one request or page. */
export const LIMITS = {
  subject: 1024,
  issuer: 1024,
  target: 2048,
  source: 1024,
  scope: 256,
  delegate: 1024,
  appId: 128,
  /** Events in one create call (POST /consents with an array; a larger one is answered 413). */
  maxBatch: 1000,
  /** Events per search page: default and largest. */
  searchPageDefault: 100,
  searchPageMax: 1000,
  searchCursorLength: 64,
  /** Erasure records per page: default and largest. */
  erasuresPageDefault: 100,
  erasuresPageMax: 1000,
  /** Events per page of an export (the gateway streams and flushes page by page). */
  exportPage: 1000,
  /** Most events in the JSON form of a subject's export (one document in memory); NDJSON has no limit. */
  exportJsonMax: 10_000,
  /** Targets in the statistics (those with the most events). */
  statisticsTargets: 1000,
} as const;

/** Event ids: 32 lowercase hex characters, time-ordered. */
export const EVENT_ID_PATTERN = /^[0-9a-f]{32}$/;

const registry = contractRegistry();

/** A required claim: URI or string, at least one non-blank character. */
const claim = (max: number, description: string) => z.string().min(1).max(max).regex(/\S/).describe(description);
/** An optional text: empty (= absent) or with at least one non-blank character (blank ones are refused). */
const optionalText = (max: number, description: string) => z.string().max(max).regex(/^$|\S/).optional().describe(description);

export const ConsentInput = z
  .strictObject({
    subject: claim(LIMITS.subject, 'Claim for the subject principal (URI or string).'),
    issuer: claim(LIMITS.issuer, 'Claim for the issuer principal (URI or string).'),
    target: claim(LIMITS.target, 'What is consented to, e.g. a policy URL or `{base_url}/dataprocessing/v0/dpspecs/<spec_id>`.'),
    source: optionalText(LIMITS.source, 'Claim for the source of the consent. Empty = absent.'),
    scope: optionalText(LIMITS.scope, 'Section or clause of the target. Absent or empty: `default`.'),
    delegate: optionalText(LIMITS.delegate, 'Principal acting for the subject. Empty = absent.'),
    action: z.boolean().nullable().optional().describe('true: accepted; false: declined or withdrawn; null or absent: no action taken.'),
    targetVersion: z
      .int()
      .min(1)
      .max(MAX_VERSION)
      .optional()
      .describe(
        'Targets naming a specification: the version shown to the subject (from 1 to the current version). Absent: the current version. Refused for unknown specifications.',
      ),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('When the consent lapses (must be in the future). Current states show `expired: true` afterwards.'),
  })
  .meta({
    description: 'The client fields of a consent event. Unknown fields are refused.',
    examples: [{ subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true }],
  });
registry.add(ConsentInput, { id: 'ConsentInput' });

export const ConsentEraseRequest = z.strictObject({
  subject: claim(LIMITS.subject, 'The subject to erase, exactly as written in its events. Not an `erased:` value (those are what erasure writes).')
    .refine((s) => !s.startsWith('erased:'))
    .meta({ not: { pattern: '^erased:' } }),
  issuer: optionalText(LIMITS.issuer, 'Only the events of this issuer. Empty or absent: every issuer.'),
});
registry.add(ConsentEraseRequest, { id: 'ConsentEraseRequest' });

const matching = (max: number, description: string) => z.string().min(1).max(max).describe(description);
const eventIdCursor = () => z.string().regex(EVENT_ID_PATTERN);
const treeSize = () => z.int().min(1);

export const ConsentSearchQuery = z.object({
  subject: matching(LIMITS.subject, 'Subject to match (percent-encode URLs).'),
  issuer: matching(LIMITS.issuer, 'Issuer to match.'),
  target: matching(LIMITS.target, 'Target to match.'),
  source: matching(LIMITS.source, 'Source to match. With current=true: the current event is returned only when it has this source.').optional(),
  scope: matching(LIMITS.scope, 'Scope to match.').optional(),
  current: z
    .boolean()
    .optional()
    .describe(
      'true: only the current (newest) event of each state. With scope: at most one event. Without scope: the newest event of each scope of (subject, issuer, target).',
    ),
  limit: z
    .int()
    .min(1)
    .max(LIMITS.searchPageMax)
    .optional()
    .describe(`Events per page (default ${LIMITS.searchPageDefault}, at most ${LIMITS.searchPageMax}).`),
  cursor: z.string().max(LIMITS.searchCursorLength).optional().describe('Opaque cursor from the `Link: rel="next"` header of the previous page.'),
});
registry.add(ConsentSearchQuery, { id: 'ConsentSearchQuery' });

export const ConsentProofQuery = z.object({
  treeSize: treeSize().optional().describe('Prove against the signed head of this size (it must exist and contain the event) instead of the latest.'),
});
registry.add(ConsentProofQuery, { id: 'ConsentProofQuery' });

export const ConsentConsistencyQuery = z.object({
  first: treeSize().describe('Size of the older tree (a head you hold).'),
  second: treeSize().describe('Size of the newer tree, at most the latest head.'),
});
registry.add(ConsentConsistencyQuery, { id: 'ConsentConsistencyQuery' });

export const ConsentExportQuery = z.object({
  since: z.iso.datetime({ offset: true }).optional().describe('Only events created at or after this time.'),
  until: z.iso.datetime({ offset: true }).optional().describe('Only events created before this time (later than `since`).'),
  appId: matching(LIMITS.appId, 'Only events written by this application of the account.').optional(),
  target: matching(LIMITS.target, 'Only events of this target.').optional(),
  subject: matching(
    LIMITS.subject,
    'Only events of this subject, across targets: the subject’s complete history (an access request, GDPR art. 15).',
  ).optional(),
  cursor: eventIdCursor().optional().describe('Resume: the `id` of the last line received; the export continues with the events after it.'),
});
registry.add(ConsentExportQuery, { id: 'ConsentExportQuery' });

export const ConsentErasuresQuery = z.object({
  limit: z
    .int()
    .min(1)
    .max(LIMITS.erasuresPageMax)
    .optional()
    .describe(`Records per page (default ${LIMITS.erasuresPageDefault}, at most ${LIMITS.erasuresPageMax}).`),
  cursor: eventIdCursor().optional().describe('From the `Link: rel="next"` header of the previous page.'),
});
registry.add(ConsentErasuresQuery, { id: 'ConsentErasuresQuery' });

/** The OpenAPI component schemas of the consent requests, by name. */
export const consentSchemas = componentSchemas(registry);
