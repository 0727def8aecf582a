import { z } from 'zod';
import { componentSchemas, contractRegistry } from './json-schema';
import { Jurisdiction } from './regimes';

/**
 * The consent contract: what a consent event input, an erasure and the consent queries may hold,
 * what the consent API answers (events, erasure records, receipts, log heads and proofs,
 * exports, statistics), and the limits of the consent API. One source for the gateway's OpenAPI
 * component schemas (generated from the zod schemas below, enforced on every request and checked
 * against every e2e answer), for the type of the REST JSON of an event (`consentEventJson`) and
 * for the consent service's validator (its LIMITS and page sizes are these).
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
  /** An IAB TCF v2 TC string and an IAB GPP string (characters; real ones are a few hundred). */
  tcString: 10_000,
  gppString: 10_000,
  /** Google's Additional Consent string (characters; ATP ids, a few per hundred characters). */
  addtlConsent: 10_000,
  /** Events in one create call (POST /consents with an array; a larger one is answered 413). */
  maxBatch: 1000,
  /** Events per search page: default and largest. */
  searchPageDefault: 100,
  searchPageMax: 1000,
  /** Erasure records per page: default and largest. */
  erasuresPageDefault: 100,
  erasuresPageMax: 1000,
  /** Events per page of an export (the gateway streams and flushes page by page). */
  exportPage: 1000,
  /** Most events in the JSON form of a subject's export (one document in memory); NDJSON has no limit. */
  exportJsonMax: 10_000,
  /** Targets in the statistics (those with the most events). */
  statisticsTargets: 1000,
  /** Imports (POST /consent/v0/imports): the longest line (characters; a longer one is refused), and lines per batch to the consent service. */
  importLine: 32_768,
  importBatch: 1000,
} as const;

/** Event ids: 32 lowercase hex characters, time-ordered. */
export const EVENT_ID_PATTERN = /^[0-9a-f]{32}$/;

const registry = contractRegistry();

/**
 * U+FFFD, the replacement character, is what a UTF-8 decoder writes for bytes that are not UTF-8
 * (a gRPC caller's string, a percent-escape in a form or query) and what a UTF-8 encoder writes for
 * a lone UTF-16 surrogate (`"u-\ud800"` and `"u-\udbff"` both go over gRPC as `u-\uFFFD`). An
 * identifier holding it may therefore stand for several different ones, and two subjects would
 * become one: identifiers (subject, issuer, target, source, scope, delegate, and what a query
 * matches against them) never hold it. The document says so (the patterns below, so the gateway
 * refuses it with a 400 naming the field) and the consent service refuses it from any caller
 * (domain/consent.ts `identifierProblem`): one rule, whatever the transport.
 */
export const REPLACEMENT_CHARACTER = '\uFFFD';
export const holdsReplacement = (v: string): boolean => v.includes(REPLACEMENT_CHARACTER);
export const IDENTIFIER_MESSAGE =
  'must not hold U+FFFD, the replacement character a decoder writes for text that was not valid UTF-8 (or held a lone UTF-16 surrogate): an identifier is stored exactly as sent';
/** At least one non-blank character, and no U+FFFD (linear: the blank prefix and the first other character cannot overlap). */
const CLAIM_PATTERN = /^\s*[^\s\uFFFD][^\uFFFD]*$/;
/** The same, or empty. */
const OPTIONAL_CLAIM_PATTERN = /^(?:\s*[^\s\uFFFD][^\uFFFD]*)?$/;
const NO_REPLACEMENT_PATTERN = /^[^\uFFFD]*$/;

/** The string, refusing U+FFFD (REPLACEMENT_CHARACTER) with the reason. */
export const withoutReplacement = (s: z.ZodString): z.ZodString => s.regex(NO_REPLACEMENT_PATTERN).meta({ 'x-error-message': IDENTIFIER_MESSAGE });

/** A required claim: URI or string, at least one non-blank character, no U+FFFD (also a session's subject and issuer). */
export const claim = (max: number, description: string) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(CLAIM_PATTERN)
    .meta({ 'x-error-message': `must hold a non-blank character, and ${IDENTIFIER_MESSAGE}` })
    .describe(description);
/** The signal fields of an event input (JSON), also the form's descriptions. */
const signalDescriptions = {
  gpc: 'Whether a Global Privacy Control signal was present (`Sec-GPC: 1`). With `action` null: the signal observed with no explicit choice (a GPC-driven decline where the regime honours GPC; docs/consent.md, Signals and regimes). Absent: not known; the request header `Sec-GPC: 1` sets it to true on every event of the request that does not say.',
  tcString: `An IAB TCF v2 TC string (TCF 2.0–2.3) the subject's choice was made with, decoded when stored (\`tcf\`): one that does not decode, or of another framework version, is refused. At most ${LIMITS.tcString} characters; empty = absent.`,
  addtlConsent: `Google's Additional Consent string (AC, the CMP API's \`addtlConsent\`), beside the TC string: the Google Ad Tech Providers not on the IAB's Global Vendor List. Version 2 \`2~<consented ids>~dv.<disclosed ids>\` or version 1 \`1~<consented ids>\` (ids dot-separated positive integers, either list may be empty); anything else is refused. Kept exactly as sent. At most ${LIMITS.addtlConsent} characters; empty = absent.`,
  gppString: `An IAB Global Privacy Platform string, decoded when stored (\`gpp\`): one that does not decode is refused. At most ${LIMITS.gppString} characters; empty = absent.`,
  jurisdiction:
    'Where the subject is, as an ISO 3166-1 alpha-2 (`DE`) or ISO 3166-2 (`US-CA`) code from the ISO lists; stored upper case. It chooses the regime of a specification target.',
} as const;

/** An optional identifier: empty (= absent) or with at least one non-blank character (blank ones are refused), no U+FFFD. */
const optionalText = (max: number, description: string) =>
  z
    .string()
    .max(max)
    .regex(OPTIONAL_CLAIM_PATTERN)
    .meta({ 'x-error-message': `must be empty or hold a non-blank character, and ${IDENTIFIER_MESSAGE}` })
    .optional()
    .describe(description);

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
    gpc: z.boolean().optional().describe(signalDescriptions.gpc),
    tcString: z.string().max(LIMITS.tcString).optional().describe(signalDescriptions.tcString),
    addtlConsent: z.string().max(LIMITS.addtlConsent).optional().describe(signalDescriptions.addtlConsent),
    gppString: z.string().max(LIMITS.gppString).optional().describe(signalDescriptions.gppString),
    jurisdiction: Jurisdiction.optional().describe(signalDescriptions.jurisdiction),
  })
  .meta({
    description: 'The client fields of a consent event. Unknown fields are refused.',
    examples: [{ subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true }],
  });
registry.add(ConsentInput, { id: 'ConsentInput' });

/** The body of POST /consents: one event, or 1 to LIMITS.maxBatch of them (more is a 413). */
export const ConsentCreateRequest = z.xor([ConsentInput, z.array(ConsentInput).min(1).max(LIMITS.maxBatch)]);
registry.add(ConsentCreateRequest, { id: 'ConsentCreateRequest' });

/** Form fields (one event): absent or empty optional fields are absent, as the gateway reads the form. */
const formText = (max: number) => optionalText(max, 'As in ConsentInput.');

export const ConsentFormRequest = z
  .strictObject({
    subject: claim(LIMITS.subject, 'As in ConsentInput.'),
    issuer: claim(LIMITS.issuer, 'As in ConsentInput.'),
    target: claim(LIMITS.target, 'As in ConsentInput.'),
    source: formText(LIMITS.source),
    scope: formText(LIMITS.scope),
    delegate: formText(LIMITS.delegate),
    action: z.enum(['true', 'false', 'null', '']).optional().describe('Empty or `null`: no action taken.'),
    targetVersion: z
      .string()
      .regex(/^([1-9][0-9]{0,9})?$/)
      .optional()
      .describe('As in ConsentInput, in decimal digits; empty: absent.'),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.string().max(0)])
      .optional()
      .describe('As in ConsentInput; empty: absent.'),
    gpc: z.enum(['true', 'false', '']).optional().describe('As in ConsentInput; empty: absent.'),
    tcString: z.string().max(LIMITS.tcString).optional().describe('As in ConsentInput; empty: absent.'),
    addtlConsent: z.string().max(LIMITS.addtlConsent).optional().describe('As in ConsentInput; empty: absent.'),
    gppString: z.string().max(LIMITS.gppString).optional().describe('As in ConsentInput; empty: absent.'),
    jurisdiction: z
      .union([Jurisdiction, z.string().max(0)])
      .optional()
      .describe('As in ConsentInput; empty: absent.'),
  })
  .describe('One event as form fields; every value is a string.');
registry.add(ConsentFormRequest, { id: 'ConsentFormRequest' });

export const ConsentEraseRequest = z.strictObject({
  subject: claim(LIMITS.subject, 'The subject to erase, exactly as written in its events. Not an `erased:` value (those are what erasure writes).')
    .refine((s) => !s.startsWith('erased:'))
    .meta({ not: { pattern: '^erased:' } }),
  issuer: optionalText(LIMITS.issuer, 'Only the events of this issuer. Empty or absent: every issuer.'),
});
registry.add(ConsentEraseRequest, { id: 'ConsentEraseRequest' });

/** A value matched against stored identifiers: one holding U+FFFD names none exactly (see REPLACEMENT_CHARACTER). */
const matching = (max: number, description: string) => withoutReplacement(z.string().min(1).max(max)).describe(description);
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
  cursor: eventIdCursor()
    .optional()
    .describe('From the `Link: rel="next"` header of the previous page: the id of its last event (the search continues with older ones).'),
  gpc: z
    .boolean()
    .optional()
    .describe(
      'Only events recorded with this `gpc` (true: with a GPC signal; false: those that say there was none). With current=true: the current event is returned only when it matches.',
    ),
  jurisdiction: Jurisdiction.optional().describe('Only events recorded in this jurisdiction (exactly this code). With current=true: as `gpc`.'),
  linked: z
    .boolean()
    .optional()
    .describe(
      'Linked identities (POST /consent/v0/subjects/links): without current, true merges the histories of the subject and of every identity linked to it, newest first (each event names its own subject). current=true always resolves across links: the newest event of any of them per scope.',
    ),
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

/** `format=jsonld`: a record's W3C DPV JSON-LD view (contracts/dpv.ts), as `Accept: application/ld+json` asks. */
export const recordFormat = () =>
  z
    .enum(['jsonld'])
    .optional()
    .describe(
      '`jsonld`: answer in W3C DPV JSON-LD (ISO/IEC TS 27560, `application/ld+json`), as `Accept: application/ld+json` asks; see docs/consent.md, *ISO/IEC TS 27560 in DPV*.',
    );

export const RecordFormatQuery = z.object({ format: recordFormat() });
registry.add(RecordFormatQuery, { id: 'RecordFormatQuery' });

/** The JSON-LD answers: one object, its `@context` first (the vocabularies' prefixes), then the record. */
export const DpvJsonLd = z
  .looseObject({
    '@context': z.record(z.string(), z.string()).describe('The prefixes of the vocabularies used: dpv, eu-gdpr, pd, loc, dct, rdf, xsd.'),
    '@id': z.string(),
    '@type': z.string().describe('`dpv:ConsentRecord`, `dpv:ConsentReceipt` or `dpv:Process` (a specification).'),
  })
  .describe('A record in W3C DPV JSON-LD (DPV 2.x) per the DPV guide for ISO/IEC TS 27560 consent records and receipts; the mapping is in docs/consent.md.');
registry.add(DpvJsonLd, { id: 'DpvJsonLd' });

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
  format: recordFormat(),
  links: z
    .boolean()
    .optional()
    .describe(
      'NDJSON only: true adds the account’s link events (linked identities) as lines of their own, `{"type": "subject.linked", …}` (ConsentExportLinkLine), among the events by id, so that an import into another Accord rebuilds the links too. Filtered by since, until, appId (the linking application) and subject (links naming it as identity or subject); not with target (400) nor with format=jsonld (400). Default false: every line is a consent event.',
    ),
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

// --- answers ------------------------------------------------------------------------------

const dateTime = () => z.iso.datetime({ offset: true });
/** A SHA-256 hash of the consent log, standard padded base64. */
const base64Hash = () =>
  z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/)
    .describe('SHA-256, standard padded base64.');

/** What Accord keeps of a TC string beside it: searchable facts, not the vendor lists. */
export const TcfFacts = z
  .object({
    version: z.int().describe('TC string format version (2 for TCF 2.0 to 2.3).'),
    policyVersion: z.int().describe('TCF policy version (4: TCF 2.2, 5: TCF 2.3).'),
    cmpId: z.int().describe('The consent management platform that made the string.'),
    cmpVersion: z.int(),
    purposes: z.array(z.int()).describe('Purposes consented to (ids, ascending).'),
    legitimateInterests: z.array(z.int()).describe('Purposes whose legitimate interest was not objected to (ids, ascending).'),
    specialFeatures: z.array(z.int()).describe('Special features opted in to (ids, ascending).'),
  })
  .meta({ description: 'Facts decoded from `tcString` when the event was stored (IAB @iabtechlabtcf/core).' });
registry.add(TcfFacts, { id: 'ConsentTcfFacts' });

export const GppFacts = z
  .object({
    sections: z
      .array(z.string())
      .describe('The sections present, by their GPP API prefix (`tcfeuv2`, `uspv1`, `usnat`, `usca`, …), in the order of the string.'),
    saleOptOut: z
      .boolean()
      .optional()
      .describe('US sections: true when any opts out of the sale of personal data, false when they say the subject did not; absent when none applies.'),
    sharingOptOut: z.boolean().optional().describe('Same, for sharing (cross-context behavioural advertising).'),
    targetedAdvertisingOptOut: z.boolean().optional().describe('Same, for targeted advertising.'),
  })
  .meta({ description: 'Facts decoded from `gppString` when the event was stored (IAB @iabgpp/cmpapi).' });
registry.add(GppFacts, { id: 'ConsentGppFacts' });

/** The example event of the document (its ConsentEvent schema and the consent operations). */
export const EXAMPLE_EVENT = {
  id: '0193a5c2f1e8000000a1b2c3d4e5f601',
  subject: 'https://shop.example/users/42',
  issuer: 'https://shop.example',
  target: 'https://accord.example/dataprocessing/v0/dpspecs/6740d0c1a2b3c4d5e6f70812',
  source: 'https://shop.example/signup',
  scope: 'default',
  action: true,
  token: 'K7Q2ZP',
  createdAt: '2026-11-20T10:15:30.123Z',
  appId: 'app_3f9c1e',
} as const;

/** The example erasure record of the document. */
export const EXAMPLE_ERASURE = {
  id: '0193a5c2f1e8a1b2c3d4e5f60718293a',
  subjectHash: 'erased:zFpU1QiRQX_3H5eWujjb26cw0e4v0WZ0hxT65F3vjDE',
  appId: 'app_3f9c1e',
  clientId: 'cli_8d2f0a',
  erasedAt: '2026-11-23T11:38:09.218Z',
  events: 7,
  states: 6,
} as const;

/**
 * A consent event as the REST API answers it (and as webhooks, the NDJSON export and the log
 * leaf carry it): the type of `consentEventJson`'s result is this schema's, so the JSON built
 * and the JSON documented cannot differ.
 */
export const ConsentEvent = z
  .object({
    id: z
      .string()
      .regex(EVENT_ID_PATTERN)
      .describe('32 lowercase hex characters, time-ordered: ids sort like createdAt, ties in the same millisecond deterministically.'),
    subject: z.string(),
    issuer: z.string(),
    target: z.string(),
    source: z.string().optional().describe('Present when sent.'),
    scope: z.string(),
    delegate: z.string().optional().describe('Present when sent.'),
    action: z.boolean().nullable(),
    token: z
      .string()
      .regex(/^[A-Z0-9]{6}$/)
      .describe('Short random token for humans; not unique.'),
    createdAt: dateTime().describe('ISO 8601 UTC with milliseconds.'),
    appId: z.string().describe('The application that wrote the event.'),
    targetVersion: z.int().optional().describe('The specification version consented to; present when the target names a specification.'),
    expiresAt: dateTime().optional().describe('When the consent lapses; present when set.'),
    expired: z
      .boolean()
      .optional()
      .describe('Current states only (search with current=true): present and true when `expiresAt` has passed. The state is then no longer a consent.'),
    erasedAt: dateTime()
      .optional()
      .describe('Present when the subject was erased: `subject` (and `source`, `delegate`) are keyed hashes (`erased:…`) since. Not part of the log leaf.'),
    renewalRequired: z
      .boolean()
      .optional()
      .describe(
        'Current states only (search with current=true): present and true when the target names a specification that changed materially after the version consented to (`targetVersion` is older than the specification’s `reconsentSince`): ask the subject again. Computed when read (the specification is remembered up to ACCORD_CONSENT_SPEC_CACHE_MS, 1 s).',
      ),
    gpc: z.boolean().optional().describe('Present when sent (or set by `Sec-GPC: 1`): whether a Global Privacy Control signal was present.'),
    tcString: z.string().optional().describe('Present when sent: the IAB TCF TC string.'),
    tcf: TcfFacts.optional().describe('With `tcString`: what it says.'),
    addtlConsent: z.string().optional().describe('Present when sent: Google’s Additional Consent string, as sent.'),
    gppString: z.string().optional().describe('Present when sent: the IAB GPP string.'),
    gpp: GppFacts.optional().describe('With `gppString`: what it says.'),
    jurisdiction: z.string().optional().describe('Present when sent: ISO 3166-1 alpha-2 or ISO 3166-2 code, upper case.'),
    importedAt: dateTime()
      .optional()
      .describe(
        'Imported events only (POST /consent/v0/imports): when the event came into this registry. `createdAt` stays the original time the subject acted, which orders the event (the newest `createdAt` is the current state).',
      ),
  })
  .meta({ description: 'An immutable consent event.', examples: [EXAMPLE_EVENT] });
registry.add(ConsentEvent, { id: 'ConsentEvent' });

/** The REST JSON of a consent event (the type `consentEventJson` returns). */
export type ConsentEventJson = z.input<typeof ConsentEvent>;

export const ConsentErasure = z
  .object({
    id: z.string().regex(EVENT_ID_PATTERN).describe('Time-ordered id of the record.'),
    subjectHash: z
      .string()
      .regex(/^erased:[A-Za-z0-9_-]{43}$/)
      .describe('What the subject became in the events: its keyed hash.'),
    issuer: z.string().optional().describe('Present when the erasure was narrowed to one issuer.'),
    appId: z.string().describe('The application whose token asked.'),
    clientId: z.string().describe('The OAuth client that asked.'),
    erasedAt: dateTime(),
    events: z.int().min(0).describe('Events whose personal data this erasure replaced (0 when nothing was left).'),
    states: z.int().min(0).describe('Current states moved to the erased subject.'),
  })
  .meta({ description: 'The record of one erasure, kept without the subject in clear.', examples: [EXAMPLE_ERASURE] });
registry.add(ConsentErasure, { id: 'ConsentErasure' });

export const ConsentReceipt = z.object({
  receipt: z.string().describe('Compact JWS (JWT) with Kantara Consent Receipt v1.1.0 claims.'),
});
registry.add(ConsentReceipt, { id: 'ConsentReceipt' });

export const ConsentTreeHead = z.object({
  treeSize: treeSize().describe('Leaves (events) in the tree.'),
  rootHash: base64Hash(),
  timestamp: dateTime(),
  signature: z.string().describe('Compact JWS over {treeSize, rootHash, timestamp, account} (RFC 8785 JSON).'),
});
registry.add(ConsentTreeHead, { id: 'ConsentTreeHead' });

export const ConsentInclusionProof = z.object({
  leafIndex: z.int().min(0),
  treeSize: treeSize(),
  leafHash: base64Hash(),
  auditPath: z.array(base64Hash()).describe('Sibling hashes from the leaf up (RFC 9162 §2.1.3.1 order).'),
});
registry.add(ConsentInclusionProof, { id: 'ConsentInclusionProof' });

export const ConsentConsistencyProof = z.object({
  first: z.int(),
  second: z.int(),
  proof: z.array(base64Hash()),
});
registry.add(ConsentConsistencyProof, { id: 'ConsentConsistencyProof' });

/** Linked identities (contracts/links.ts): one link event as answered, here because a subject's export holds them too. */
const EXAMPLE_LINK = {
  id: '0193f2a1b4c70000001a2b3c4d5e6f70',
  appId: 'app_3f9c1e',
  issuer: 'https://shop.example',
  identity: 'device-7f3a9c',
  subject: 'user-42',
  createdAt: '2026-11-20T10:15:30.123Z',
};

export const SubjectLink = z
  .object({
    id: z.string().regex(EVENT_ID_PATTERN).describe('Time-ordered id of the link event.'),
    appId: z.string().describe('The application whose token linked.'),
    issuer: z.string(),
    identity: z.string(),
    subject: z.string().nullable().describe('null: this event unlinked the identity.'),
    createdAt: dateTime(),
    importedAt: dateTime()
      .optional()
      .describe('Imported links only (POST /consent/v0/imports): when the link came into this registry; `createdAt` is its original time.'),
    erasedAt: dateTime().optional().describe('When an erasure replaced identity and subject by keyed hashes.'),
  })
  .meta({ description: 'One link event as stored.', examples: [EXAMPLE_LINK] });
registry.add(SubjectLink, { id: 'SubjectLink' });

/** The `type` of a link line in the NDJSON export (`links=true`) and the import: consent event lines never carry `type`. */
export const LINK_LINE_TYPE = 'subject.linked';

export const ConsentExportLinkLine = SubjectLink.extend({
  type: z.literal(LINK_LINE_TYPE).describe('Tells a link line from a consent event line, which never has `type`.'),
}).meta({
  description:
    'A line of the NDJSON export with `links=true` that is a link event (linked identities): the link as answered, with `type: "subject.linked"`. The import reads it back (`issuer`, `identity`, `subject`, `createdAt`, optional `externalId`).',
  examples: [{ type: LINK_LINE_TYPE, ...EXAMPLE_LINK }],
});
registry.add(ConsentExportLinkLine, { id: 'ConsentExportLinkLine' });

export const ConsentSubjectExport = z
  .object({
    subject: z.string(),
    events: z.array(ConsentEvent).describe('The subject’s events across targets (within the filters), oldest first.'),
    current: z
      .array(ConsentEvent)
      .describe(
        'The subject’s current states for each (issuer, target, scope) those events name, newest first, exactly as search with current=true answers them (its newest event, with `expired` and `renewalRequired`), whatever the filters.',
      ),
    links: z
      .array(SubjectLink)
      .optional()
      .describe('Linked identities: every link event that names the subject, as identity or as subject (any issuer), newest first. Absent when there is none.'),
  })
  .describe('One subject’s export (GDPR art. 15 access request).');
registry.add(ConsentSubjectExport, { id: 'ConsentSubjectExport' });

const count = (description: string) => z.int().describe(description);

export const ConsentStatistics = z.object({
  appId: z.string(),
  total: count('Events written by the application.'),
  accepted: count('Of which action true.'),
  declined: count('Of which action false.'),
  noAction: count('Of which action null.'),
  distinctSubjects: count('Distinct subjects in the events of the application.'),
  gpcDeclines: count(
    'Of all events, those that record a Global Privacy Control signal with no explicit choice (`gpc: true`, `action: null`): the GPC-driven declines.',
  ),
  jurisdictions: z
    .array(z.object({ jurisdiction: z.string(), events: count('Events of the application recorded in this jurisdiction.') }))
    .describe(
      `Events by the jurisdiction they were recorded in (at most the ${LIMITS.statisticsTargets} with the most events, most first); events without one are not counted here.`,
    ),
  latestEventAt: dateTime().nullable().describe('createdAt of the newest event; null when none.'),
  targets: z
    .array(
      z.object({
        target: z.string(),
        events: count('Events of the application for this target.'),
        currentAccepted: count('Consent states of this target whose current event, written by this application, is action true.'),
        currentDeclined: count('Same, action false.'),
        currentNoAction: count('Same, action null.'),
        currentExpired: count(
          'Current states of this target, written by this application, whose `expiresAt` has passed (counted here and not under their action).',
        ),
        currentRenewalRequired: count(
          'Current states of this target (a specification), written by this application, consented to a version older than its latest material change (`renewalRequired`; also counted under their action or `currentExpired`). 0 for other targets.',
        ),
        currentGpcDeclines: count(
          'Current states of this target, written by this application, whose current event is a GPC signal with no explicit choice (also counted under `currentNoAction` or `currentExpired`).',
        ),
      }),
    )
    .describe(`Per target (at most the ${LIMITS.statisticsTargets} with the most events, most first).`),
});
registry.add(ConsentStatistics, { id: 'ConsentStatistics' });

// --- decisions ----------------------------------------------------------------------------

/** Items in one decisions call. */
export const DECISIONS_MAX = 10_000;

/** Why a decision is what it is (docs/consent.md, Decisions). These names are a contract. */
export const DECISION_BASES = [
  'consent',
  'declined',
  'no-consent',
  'expired',
  'renewal-required',
  'opt-out',
  'gpc',
  'not-required',
  'tcf-consent',
  'tcf-legitimate-interest',
  'tcf-refused',
  'tcf-restricted',
  'no-tc-string',
  'ac-consent',
  'ac-refused',
  'ac-not-disclosed',
  'no-ac-string',
] as const;
/** TCF vendor decisions: GVL vendor ids and TCF 2.3 purpose ids. */
export const TCF_LIMITS = { vendorMax: 65_535, purposeMax: 11 } as const;
/** Google ATP decisions (Additional Consent): ATP ids are positive int32s. */
export const AC_LIMITS = { atpVendorMax: 2 ** 31 - 1 } as const;

const decisionItemFields = {
  subject: claim(LIMITS.subject, 'The subject, exactly as in its events.'),
  issuer: claim(LIMITS.issuer, 'The issuer.'),
  target: claim(
    LIMITS.target,
    'The target: a URL, or a specification (`{base_url}/dataprocessing/v0/dpspecs/<id>`, `urn:accord:dpspec:<id>`), whose legal basis and regimes then apply.',
  ),
  scope: optionalText(LIMITS.scope, 'Section or clause of the target. Absent or empty: `default`.'),
  jurisdiction: Jurisdiction.optional().describe(
    "Where the subject is, when its current event does not say (the event's own jurisdiction wins): chooses the specification's regime. Absent: `*`.",
  ),
  gpc: z
    .boolean()
    .optional()
    .describe(
      'true: a Global Privacy Control signal is on now (e.g. the request being served carries `Sec-GPC: 1`): where the regime honours GPC it declines, unless the current choice was made with the signal on.',
    ),
  vendor: z
    .int()
    .min(1)
    .max(TCF_LIMITS.vendorMax)
    .optional()
    .describe(
      'An IAB TCF vendor (its Global Vendor List id), with `purpose`: the answer comes from the TC string of the current event (docs/consent.md, Standards). Needs the operator’s GVL (ACCORD_TCF_GVL); without one, 400.',
    ),
  purpose: z.int().min(1).max(TCF_LIMITS.purposeMax).optional().describe('A TCF purpose id (1–11), with `vendor`.'),
  atpVendor: z
    .int()
    .min(1)
    .max(AC_LIMITS.atpVendorMax)
    .optional()
    .describe(
      'A Google Ad Tech Provider (its ATP id), not with `vendor` or `purpose`: the answer comes from the Additional Consent string (`addtlConsent`) of the current event (docs/consent.md, Standards). Needs no GVL.',
    ),
};

export const DecisionItem = z.strictObject(decisionItemFields).meta({
  description: 'One question: may this be processed for this subject, issuer, target and scope?',
  examples: [{ subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', scope: 'newsletter' }],
});
registry.add(DecisionItem, { id: 'DecisionItem' });

export const DecisionRequest = z
  .strictObject({
    at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        'The moment judged: what was true then (the newest event created at or before it; expiry judged then). Absent: now. Never in the future (400).',
      ),
    items: z.array(DecisionItem).min(1).max(DECISIONS_MAX).describe(`1 to ${DECISIONS_MAX} questions, answered in the same order.`),
  })
  .meta({ description: 'A batch of decisions.' });
registry.add(DecisionRequest, { id: 'DecisionRequest' });

export const DecisionQuery = z.object({
  ...decisionItemFields,
  gpc: z
    .boolean()
    .optional()
    .describe(decisionItemFields.gpc.description ?? ''),
  at: z.iso.datetime({ offset: true }).optional().describe('As in DecisionRequest.'),
});
registry.add(DecisionQuery, { id: 'DecisionQuery' });

export const Decision = z
  .object({
    subject: z.string(),
    issuer: z.string(),
    target: z.string(),
    scope: z.string(),
    allowed: z.boolean().describe('Whether the processing may go ahead.'),
    basis: z
      .enum(DECISION_BASES)
      .describe(
        'Why: `consent` (a current accept), `declined` (a current decline or withdrawal), `no-consent` (no event, or only `action: null`, under opt-in), `expired` (the accept lapsed), `renewal-required` (accepted a version older than the specification’s latest material change), `opt-out` (allowed: opt-out regime, no decline), `gpc` (refused by an honoured Global Privacy Control signal), `not-required` (a specification whose legal basis is not CONSENT, or a `notice` regime) With `vendor` and `purpose`, from the TC string of the current event: `tcf-consent` (purpose and vendor consent), `tcf-legitimate-interest` (legitimate interest, not objected to), `tcf-refused` (neither, the vendor not disclosed, or not in the GVL for that purpose), `tcf-restricted` (a publisher restriction forbids it), `no-tc-string` (the current event carries none). With `atpVendor`, from the Additional Consent string of the current event: `ac-consent` (the ATP is consented), `ac-refused` (disclosed to the subject without consent; with a version 1 string, not consented), `ac-not-disclosed` (not in the string at all), `no-ac-string` (the current event carries none).',
      ),
    eventId: z.string().regex(EVENT_ID_PATTERN).optional().describe('The state’s newest event as of `at`, when it has one: what the decision rests on.'),
    identity: z
      .string()
      .optional()
      .describe(
        'Subjects with linked identities (POST /consent/v0/subjects/links): the identity whose event decided — the subject itself or one linked to it as of `at`.',
      ),
    targetVersion: z.int().optional().describe('That event’s specification version, when it has one.'),
    expiresAt: dateTime().optional().describe('When that event lapses (or lapsed), when it does.'),
    regime: z
      .object({ key: z.string(), model: z.enum(['opt-in', 'opt-out', 'notice']), gpc: z.enum(['ignore', 'opt-out']) })
      .optional()
      .describe('Specification targets that need consent: the regime applied and the key it was found under (`US-CA`, `US`, `*`).'),
    vendor: z.int().optional().describe('Items that asked for a TCF vendor: the vendor asked.'),
    purpose: z.int().optional().describe('Items that asked for a TCF vendor: the purpose asked.'),
    gvlVersion: z.int().optional().describe('Items that asked for a TCF vendor: the Global Vendor List version the answer used.'),
    atpVendor: z.int().optional().describe('Items that asked for a Google ATP: the ATP id asked.'),
    evidence: z
      .object({
        receipt: z.string().describe('GET: the event’s signed consent receipt.'),
        proof: z.string().describe('GET: the event’s inclusion proof in the signed consent log.'),
      })
      .optional()
      .describe('With `eventId`: where the evidence is.'),
  })
  .meta({
    description: 'One decision.',
    examples: [
      {
        subject: 'user-1',
        issuer: 'https://shop.example',
        target: 'https://shop.example/privacy',
        scope: 'newsletter',
        allowed: true,
        basis: 'consent',
        eventId: EXAMPLE_EVENT.id,
        evidence: {
          receipt: `https://accord.example/consent/v0/consents/${EXAMPLE_EVENT.id}/receipt`,
          proof: `https://accord.example/consent/v0/consents/${EXAMPLE_EVENT.id}/proof`,
        },
      },
    ],
  });
registry.add(Decision, { id: 'Decision' });

export const DecisionAnswer = z.object({
  at: dateTime().describe('The moment judged.'),
  decisions: z.array(Decision).describe('In the order asked.'),
});
registry.add(DecisionAnswer, { id: 'DecisionAnswer' });

/** The REST JSON of one decision. */
export type DecisionJson = z.input<typeof Decision>;

/** The OpenAPI component schemas of the consent requests and answers, by name. */
export const consentSchemas = componentSchemas(registry);
