import { contracts } from '@accord/proto';
import { errorResponses } from './common';
import { queryParameters } from './params';
import { ref, type OpenApiFragment } from './types';

/**
 * /consent/v0: paths, parameters, status codes, examples and prose. The request and answer
 * schemas (the JSON, array and form bodies, ConsentEvent, erasure, proofs, statistics, the
 * queries) and the limits are generated from the contract, @accord/proto's contracts/consent.ts.
 */
const { LIMITS, EXAMPLE_EVENT: exampleEvent, EXAMPLE_ERASURE: exampleErasure, consentSchemas } = contracts.consent;
const CONSENT_MAX_BATCH = LIMITS.maxBatch;
const EXPORT_JSON_MAX_DOC = LIMITS.exportJsonMax;
type QuerySchema = { properties: Record<string, Record<string, unknown>>; required?: readonly string[] };

const security = [{ bearer: [], apiKey: [] }];

/** The JSON-LD view of a record (docs/consent.md, *ISO/IEC TS 27560 in DPV*): its query parameter, media type and 406. */
export const formatParameter = queryParameters(consentSchemas.RecordFormatQuery as QuerySchema);
export const jsonLdContent = { 'application/ld+json': { schema: ref('DpvJsonLd') } };
export const notAcceptable = {
  description:
    'JSON-LD was asked (`Accept: application/ld+json` or `format=jsonld`) for something W3C DPV has no term for (a specification’s `CUSTOM` legal basis, a location that is not EU, EEA or an ISO 3166 code); `errors` names each field. Ask for application/json.',
  content: { 'application/problem+json': { schema: ref('Problem') } },
};
/** One page of a paged list (search, erasures): a JSON array of `item`, and the next page's URL in a Link header. */
const pageOf = (item: string, description: string, examples: Record<string, { value: unknown }>) => ({
  description,
  headers: { Link: { description: 'Next page: `<url>; rel="next"`.', schema: { type: 'string' } } },
  content: { 'application/json': { schema: { type: 'array', items: ref(item) }, examples } },
});
const jsonLdNote =
  ' With `Accept: application/ld+json` (preferred to application/json) or `format=jsonld`: the ISO/IEC TS 27560 record in W3C DPV JSON-LD (DPV 2.x, `@context` first), the specification shown included (docs/consent.md, *ISO/IEC TS 27560 in DPV*).';

export const consentOpenApi: OpenApiFragment = {
  tags: [
    {
      name: 'consent',
      description:
        "Immutable consent events: write, read, search, current state, signed receipts (JWS, Kantara Consent Receipt v1.1.0 fields) and statistics. Every request needs a bearer token with scope `consent` and the `x-api-key` of the token's account; every read is confined to that account.",
    },
  ],
  paths: {
    '/consent/v0/consents': {
      post: {
        tags: ['consent'],
        operationId: 'createConsents',
        summary: 'Record one consent event, or an array of them (all or nothing).',
        description:
          `Accepts one event object, a JSON array of 1 to ${CONSENT_MAX_BATCH} event objects, or form fields (application/x-www-form-urlencoded, one event; ` +
          '`action` is `true`, `false`, `null`, or absent = null; any other value is a 400). ' +
          'Required: subject, issuer, target. Optional: source, scope (default `default`), delegate, action (absent = null: no action taken), ' +
          'targetVersion and expiresAt. When the target names a data processing specification (`{base_url}/dataprocessing/v0/dpspecs/<id>` or ' +
          '`urn:accord:dpspec:<id>`), the event records the version the subject was shown: `targetVersion` when sent (400 naming `targetVersion` ' +
          'when the specification has no such version yet, or is unknown), else the current version. `expiresAt` (in the future, else 400) makes the consent lapse then. ' +
          'Unknown fields are refused (400, naming the field); the service assigns id, token and createdAt and refuses them when sent. ' +
          'An array is validated whole before anything is stored; the answer is the stored events in request order (ids increase in that order). ' +
          `More than ${CONSENT_MAX_BATCH} events: 413. One object answers the stored event with a Location header. ` +
          'A 201 means stored. Current state and statistics include the events when the answer leaves, unless applying them would outlast the request deadline; ' +
          'then they follow right after. The `consent` events are published to NATS from a durable outbox, right after the answer. ' +
          'Signals (docs/consent.md, Signals and regimes): `gpc`, `tcString` (IAB TCF v2), `gppString` (IAB GPP) and `jurisdiction` (ISO 3166-1 alpha-2 or ISO 3166-2) are kept with the event, ' +
          'the strings with what they say (`tcf`, `gpp`); a string that does not decode, a TCF v1 string, one over 10,000 characters or an unknown jurisdiction is a 400 naming the field (`/tcString`, `/0/gppString`). ' +
          "`addtlConsent` (Google's Additional Consent string, `2~<consented ATP ids>~dv.<disclosed ATP ids>` or version 1 `1~<consented ATP ids>`) is kept exactly as sent beside the TC string; any other form is a 400 naming `/addtlConsent`. " +
          '`Sec-GPC: 1` sets `gpc: true` on every event of the request that does not say. An event with `gpc: true` and no action records the signal with no explicit choice (a GPC-driven decline where the regime honours GPC).',
        security,
        parameters: [
          {
            name: 'Sec-GPC',
            in: 'header',
            required: false,
            description:
              'Global Privacy Control: `1` (sent by the browser while the signal is on) sets `gpc: true` on every event of the request whose body does not say; other values are ignored.',
            schema: { type: 'string' },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('ConsentCreateRequest'),
              examples: {
                one: { value: { subject: exampleEvent.subject, issuer: exampleEvent.issuer, target: exampleEvent.target, action: true } },
                many: {
                  value: [
                    { subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', scope: 'newsletter', action: true },
                    { subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', scope: 'profiling', action: false },
                  ],
                },
              },
            },
            'application/x-www-form-urlencoded': {
              schema: ref('ConsentFormRequest'),
              examples: { form: { value: 'subject=user-1&issuer=https%3A%2F%2Fshop.example&target=https%3A%2F%2Fshop.example%2Fprivacy&action=true' } },
            },
          },
        },
        responses: {
          '201': {
            description: 'Stored: the event (object body) or the events in request order (array body).',
            headers: { Location: { description: 'URL of the stored event (single-object bodies only).', schema: { type: 'string' } } },
            content: {
              'application/json': {
                schema: { oneOf: [ref('ConsentEvent'), { type: 'array', items: ref('ConsentEvent') }] },
                examples: { one: { value: exampleEvent }, many: { value: [exampleEvent] } },
              },
            },
          },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '405': {
            description: 'Events cannot be changed or deleted (PUT, PATCH, DELETE); `Allow` lists the methods.',
            content: { 'application/problem+json': { schema: ref('Problem') } },
          },
          '413': {
            description: `More than ${CONSENT_MAX_BATCH} events, or a body above the size limit.`,
            content: { 'application/problem+json': { schema: ref('Problem') } },
          },
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/consents/{id}': {
      get: {
        tags: ['consent'],
        operationId: 'getConsent',
        summary: 'One consent event by id.',
        description: 'Events are immutable: PUT, PATCH and DELETE answer 405 with `Allow: GET, HEAD`. An id of another account is a 404.' + jsonLdNote,
        security,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } }, ...formatParameter],
        responses: {
          '200': {
            description: 'The event (or its DPV record).',
            content: { 'application/json': { schema: ref('ConsentEvent'), examples: { event: { value: exampleEvent } } }, ...jsonLdContent },
          },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '404': errorResponses['404'],
          '406': notAcceptable,
          '405': { description: 'Events cannot be changed or deleted.', content: { 'application/problem+json': { schema: ref('Problem') } } },
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/consents/{id}/receipt': {
      get: {
        tags: ['consent'],
        operationId: 'getConsentReceipt',
        summary: 'A signed consent receipt for an event.',
        description:
          '`receipt` is a compact JWS (typ JWT, ES256 or RS256) whose key is in /.well-known/jwks.json under its `kid`. Claims follow the Kantara Initiative Consent Receipt Specification v1.1.0 ' +
          '(version, jurisdiction, consentTimestamp, collectionMethod, consentReceiptID, publicKey, language, piiPrincipalId, piiControllers, policyUrl, services[].purposes[], sensitive, spiCat), ' +
          'plus iss, sub, iat, jti and an `accord` claim with the event (action, scope, token, issuer, target, source, delegate, createdAt, spec). ' +
          'When the target is a data processing specification URL (or urn:accord:dpspec:<id>), purpose, data category, legal basis and sensitivity come from that specification; ' +
          'an unknown, foreign or unreachable specification gives a receipt from the event alone. See docs/consent.md for the full mapping.' +
          ' With `Accept: application/ld+json` or `format=jsonld`: a `dpv:ConsentReceipt` in W3C DPV JSON-LD holding the event’s record (`dpv:hasRecordOfActivity`) and the signed receipt (`dct:hasFormat`).',
        security,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } }, ...formatParameter],
        responses: {
          '200': {
            description: 'The receipt.',
            content: {
              'application/json': {
                schema: ref('ConsentReceipt'),
                examples: { receipt: { value: { receipt: 'eyJhbGciOiJFUzI1NiIsImtpZCI6Ii4uLiIsInR5cCI6IkpXVCJ9.eyJ2ZXJzaW9uIjoiS0ktQ1ItdjEuMS4wIn0.c2ln' } } },
              },
              ...jsonLdContent,
            },
          },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '404': errorResponses['404'],
          '406': notAcceptable,
          '410': {
            description:
              'The subject of this event was erased (POST /consent/v0/subjects/erase): a receipt names its subject, so none is issued any more. The event (redacted) and its log proof remain.',
            content: { 'application/problem+json': { schema: ref('Problem') } },
          },
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/consents/{id}/proof': {
      get: {
        tags: ['consent'],
        operationId: 'getConsentProof',
        summary: "Inclusion proof of an event in the account's consent log (RFC 9162 §2.1.3).",
        description:
          "The audit path from the event's leaf to the root of the latest signed tree head, or of the head of `treeSize`. The leaf is SHA-256(0x00 ‖ RFC 8785 JSON of the event exactly as POST /consents answered it). " +
          'Verify offline with `npx @accord/verify` (docs/consent-log.md). Every event is sequenced within about 2 s of its 201; before that the answer is 409 with `Retry-After`.',
        security,
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
          ...queryParameters(consentSchemas.ConsentProofQuery as QuerySchema),
        ],
        responses: {
          '200': { description: 'The proof.', content: { 'application/json': { schema: ref('ConsentInclusionProof') } } },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '404': errorResponses['404'],
          '409': {
            description: 'The event is not sequenced yet; retry after `Retry-After` seconds.',
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
            content: { 'application/problem+json': { schema: ref('Problem') } },
          },
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/log/tree-head': {
      get: {
        tags: ['consent'],
        operationId: 'getConsentLogTreeHead',
        summary: "The latest signed tree head of the account's consent log.",
        description:
          '`signature` is a compact JWS (protected header `alg` ES256 or RS256, `kid` of a key in /.well-known/jwks.json, `typ` `accord-tree-head+jws`) whose payload is the RFC 8785 JSON of `{treeSize, rootHash, timestamp, account}` of this head. 404 while no event has been sequenced.',
        security,
        responses: {
          '200': { description: 'The head.', content: { 'application/json': { schema: ref('ConsentTreeHead') } } },
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '404': errorResponses['404'],
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/log/consistency': {
      get: {
        tags: ['consent'],
        operationId: 'getConsentLogConsistency',
        summary: 'Consistency proof between two sizes of the consent log (RFC 9162 §2.1.4).',
        description:
          'Shows that the tree of `first` leaves is a prefix of the tree of `second` leaves: two signed heads whose proof fails are evidence of a fork. Empty when first = second.',
        security,
        parameters: queryParameters(consentSchemas.ConsentConsistencyQuery as QuerySchema),
        responses: {
          '200': { description: 'The proof.', content: { 'application/json': { schema: ref('ConsentConsistencyProof') } } },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/consents/token/{token}': {
      get: {
        tags: ['consent'],
        operationId: 'getConsentByToken',
        summary: 'The consent event with a short token.',
        description:
          'Tokens are not unique. When several events of the account share the token, the newest is returned. Case-insensitive. A token of another account is a 404.',
        security,
        parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9]{6}$' }, example: 'K7Q2ZP' }],
        responses: {
          '200': {
            description: 'The newest event with this token.',
            content: { 'application/json': { schema: ref('ConsentEvent'), examples: { event: { value: exampleEvent } } } },
          },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '404': errorResponses['404'],
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/consents/search': {
      get: {
        tags: ['consent'],
        operationId: 'searchConsents',
        summary: 'Events of a subject, issuer and target, newest first; optionally only the current ones.',
        description:
          'Always a JSON array, newest first (by id, which orders like createdAt). subject, issuer and target are required (400 naming each missing one). ' +
          `Long results are paged: \`limit\` (default ${LIMITS.searchPageDefault}, max ${LIMITS.searchPageMax}) and a \`Link: <…>; rel="next"\` header carrying the cursor of the next page; no header on the last page. Unknown query parameters are ignored.`,
        security,
        parameters: queryParameters(consentSchemas.ConsentSearchQuery as QuerySchema),
        responses: {
          '200': pageOf('ConsentEvent', 'Matching events, newest first.', { events: { value: [exampleEvent] } }),
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/decisions': {
      post: {
        tags: ['consent'],
        operationId: 'decide',
        summary: 'May I process this? A batch of decisions, with the evidence they rest on.',
        description:
          `For each item (1 to ${contracts.consent.DECISIONS_MAX}, answered in order): \`allowed\` and its \`basis\`, from the newest event of the item's (subject, issuer, target, scope) created at or before \`at\` (default now; a past moment answers what was true then; a future one is a 400), ` +
          "judged by the one rule of docs/consent.md (*Decisions*): expiry at `at`, renewal after a material change of the target's specification, the specification's legal basis (the specification as it was at `at`: the version current then) and its regime for the event's jurisdiction (else the item's `jurisdiction`, else `*`), and Global Privacy Control where the regime honours it. " +
          'A decision resting on an event names it (`eventId`) with its evidence: the signed receipt and the inclusion proof in the consent log. Another account’s events never count. ' +
          'An item may instead ask for an IAB TCF `vendor` and `purpose` (from the TC string of the current event), or for a Google Ad Tech Provider (`atpVendor`, from its Additional Consent string): docs/consent.md, Standards. ' +
          'Every problem is a 400 naming the item and field (`/items/17/subject`). A batch costs a bounded number of database commands whatever its size; the request body must also fit ACCORD_BODY_LIMIT (1 MB by default).',
        security,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('DecisionRequest'),
              examples: {
                now: { value: { items: [{ subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', scope: 'newsletter' }] } },
                then: {
                  value: {
                    at: '2026-03-03T09:00:00Z',
                    items: [{ subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', scope: 'newsletter' }],
                  },
                },
              },
            },
          },
        },
        responses: {
          '200': { description: 'The decisions, in the order asked.', content: { 'application/json': { schema: ref('DecisionAnswer') } } },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '413': errorResponses['413'],
          '503': errorResponses['503'],
        },
      },
      get: {
        tags: ['consent'],
        operationId: 'decideOne',
        summary: 'May I process this? One decision (as POST, for one item).',
        description: 'The query names one item (subject, issuer, target required; scope, jurisdiction, gpc) and optionally `at`. Problems name the parameter.',
        security,
        parameters: queryParameters(consentSchemas.DecisionQuery as QuerySchema),
        responses: {
          '200': { description: 'The decision.', content: { 'application/json': { schema: ref('Decision') } } },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/consents/export': {
      get: {
        tags: ['consent'],
        operationId: 'exportConsents',
        summary: 'Stream the account’s events as NDJSON, oldest first, with filters; resumable; gzip when asked; one subject as JSON.',
        description:
          'One consent event (as ConsentEvent) per line, `application/x-ndjson`, oldest first (by id, which orders like createdAt), streamed page by page from the database, ' +
          'so memory stays constant whatever the number of events. Filters: since, until, appId, target, subject (one subject’s complete history across targets). ' +
          'An interrupted export resumes with `cursor` = the `id` of the last complete line received. Events written while an export runs appear when they sort after its position. ' +
          'A problem (400) is answered before the first line; a failure after it ends the stream early (resume with the cursor). ' +
          `With \`Accept-Encoding: gzip\` the body is gzip-compressed (\`Content-Encoding: gzip\`), flushed after every page of ${LIMITS.exportPage} events so progress stays visible. ` +
          '`X-Total-Count` estimates the events from the cursor on, for progress (see its description). ' +
          `With \`subject\` and \`Accept: application/json\`: one JSON document (ConsentSubjectExport) with the subject’s events and current states (an access request, GDPR art. 15), ` +
          `at most ${EXPORT_JSON_MAX_DOC} events (413 beyond, use NDJSON); without \`subject\`, or with \`cursor\`, the JSON form is a 400. NDJSON is the default (no Accept, \`*/*\`). ` +
          'With `format=jsonld` or `Accept: application/ld+json`: NDJSON still, each line the event’s ISO/IEC TS 27560 record in W3C DPV JSON-LD (DpvJsonLd, `@context` first) instead of a ConsentEvent; ' +
          'a withdrawal is told from a refusal by the events before it in the stream (without since, appId and cursor the stream holds them; otherwise a `false` with no earlier event in the stream is `dpv:ConsentStatusInvalidForProcessing`), ' +
          'and a specification DPV cannot say gives the record from the event alone (a stream cannot answer 406). ' +
          'With `links=true` (NDJSON only): the account’s link events (linked identities) too, as lines of their own among the events by id, each the link as answered with `"type": "subject.linked"` (ConsentExportLinkLine; ' +
          'consent event lines never carry `type`), filtered by since, until, appId (the linking application) and subject (links naming it as identity or subject); the cursor resumes both. ' +
          'POST /consent/v0/imports reads such a file back, links included. Without it every line is a consent event, as before.',
        security,
        parameters: queryParameters(consentSchemas.ConsentExportQuery as QuerySchema),
        responses: {
          '200': {
            description: 'The events, one JSON object per line (NDJSON), or one subject’s export as one JSON document.',
            headers: {
              'X-Total-Count': {
                description:
                  'Estimated number of events in the export from the cursor on, for progress bars; not a contract (events written meanwhile add to the stream). ' +
                  'Without since, until, subject or cursor it comes from the statistics counters (one read per application, never a scan of the events). ' +
                  'Otherwise it is one count with the same filter on the export’s index, given 1 s at most; past that, the counters again (an upper bound: ' +
                  'time, subject and cursor not applied). Exact in the JSON form.',
                schema: { type: 'integer', minimum: 0 },
              },
              'Content-Encoding': { description: '`gzip` when the request accepted it.', schema: { type: 'string', enum: ['gzip'] } },
              Vary: { description: '`Accept, Accept-Encoding`.', schema: { type: 'string' } },
            },
            content: {
              'application/x-ndjson': {
                schema: { oneOf: [ref('ConsentEvent'), ref('ConsentExportLinkLine')] },
                description: 'One line: a ConsentEvent, or with `links=true` also a ConsentExportLinkLine (`type: "subject.linked"`).',
              },
              'application/json': { schema: ref('ConsentSubjectExport') },
            },
          },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '413': {
            description: `JSON form only: the subject has more than ${EXPORT_JSON_MAX_DOC} events with these filters; \`errors\` names \`subject\`. Export it as NDJSON.`,
            content: { 'application/problem+json': { schema: ref('Problem') } },
          },
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/subjects/erase': {
      post: {
        tags: ['consent'],
        operationId: 'eraseSubject',
        summary: "Erase a subject's personal data from every event of the account (GDPR art. 17), keeping the events as evidence.",
        description:
          'In every event of the account with this subject (of `issuer` only, when sent), the subject, and the `source` and `delegate` when present, are replaced by keyed hashes ' +
          '(`erased:` + base64url HMAC-SHA256 under a per-account key derived from the installation secret `ACCORD_ERASURE_KEY`); the events keep their id, action, createdAt, issuer, target, scope, token, ' +
          'targetVersion, expiresAt and appId, and gain `erasedAt`. Current states move with them; statistics keep their counts. Afterwards search, current states, export and ' +
          'GetCurrentStates by the subject find nothing; GET by id and by token answer the redacted event; receipts of erased events answer 410; log proofs stay valid (docs/consent-log.md). ' +
          'Answers the erasure record, which is kept (GET /consent/v0/subjects/erasures) without the subject in clear. Idempotent: erasing again answers `events: 0`. ' +
          'Events of the subject written after the erasure are new data (erase again to erase them).',
        security,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('ConsentEraseRequest'),
              examples: {
                subject: { value: { subject: 'https://shop.example/users/42' } },
                issuer: { value: { subject: 'user-1', issuer: 'https://shop.example' } },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'The erasure record.',
            content: { 'application/json': { schema: ref('ConsentErasure'), examples: { erasure: { value: exampleErasure } } } },
          },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '405': { description: 'Only POST.', content: { 'application/problem+json': { schema: ref('Problem') } } },
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/subjects/erasures': {
      get: {
        tags: ['consent'],
        operationId: 'listErasures',
        summary: 'The erasure records of the account, newest first.',
        description:
          'One record per POST /consent/v0/subjects/erase of any application of the account: who asked (appId, clientId), when, the keyed hash the subject became, and how many events and current states changed. ' +
          'Never the subject in clear. Paged like search: `limit` and a `Link: <…>; rel="next"` header.',
        security,
        parameters: queryParameters(consentSchemas.ConsentErasuresQuery as QuerySchema),
        responses: {
          '200': pageOf('ConsentErasure', 'Erasure records, newest first.', { erasures: { value: [exampleErasure] } }),
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/consents/statistics': {
      get: {
        tags: ['consent'],
        operationId: 'getConsentStatistics',
        summary: 'Statistics of the application of the access token.',
        description:
          'Counters maintained on write (constant-time read). Counts cover the events written by this application. A consent state is (subject, issuer, target, scope); ' +
          'it counts for the application that wrote its current (newest) event. `gpcDeclines` counts the events that record a Global Privacy Control signal with no explicit choice (`gpc: true`, no action), ' +
          '`jurisdictions` the events by the jurisdiction they were recorded in, `currentGpcDeclines` (per target) the states whose current event is such a signal.',
        security,
        responses: {
          '200': {
            description: 'The statistics.',
            content: {
              'application/json': {
                schema: ref('ConsentStatistics'),
                examples: {
                  stats: {
                    value: {
                      appId: 'app_3f9c1e',
                      total: 5,
                      accepted: 3,
                      declined: 1,
                      noAction: 1,
                      distinctSubjects: 3,
                      latestEventAt: '2026-11-20T10:15:30.123Z',
                      targets: [
                        {
                          target: 'https://shop.example/privacy',
                          events: 5,
                          currentAccepted: 2,
                          currentDeclined: 1,
                          currentNoAction: 0,
                          currentExpired: 0,
                          currentRenewalRequired: 0,
                        },
                      ],
                    },
                  },
                },
              },
            },
          },
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '503': errorResponses['503'],
        },
      },
    },
  },
  schemas: consentSchemas,
};
