import { contracts } from '@accord/proto';
import { errorResponses } from './common';
import { ref, type OpenApiFragment } from './types';

/** /consent/v0/imports: importing consent history with its original times (docs/consent.md, Import). */
const { LIMITS } = contracts.consent;
const security = [{ bearer: [], apiKey: [] }];

const ImportError = {
  type: 'object',
  additionalProperties: false,
  required: ['line', 'field', 'detail'],
  properties: {
    line: { type: 'integer', minimum: 1, description: 'The line, counted from 1 (with CSV, line 1 is the header row).' },
    field: { type: 'string', description: 'The field (NDJSON) or column (CSV) the problem is in; empty for the whole line.' },
    detail: { type: 'string' },
  },
};

const ConsentImport = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'state', 'read', 'stored', 'duplicates', 'refused', 'errors'],
  description: 'An import and its progress, stored by the consent service (any gateway replica answers it).',
  properties: {
    id: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    state: { type: 'string', enum: ['running', 'done', 'failed'] },
    read: { type: 'integer', minimum: 0, description: 'Event lines read (a CSV header row is not counted).' },
    stored: { type: 'integer', minimum: 0, description: 'Events stored by this import.' },
    duplicates: {
      type: 'integer',
      minimum: 0,
      description: 'Valid lines stored before (same `externalId`, or the same content, in this account): not stored again.',
    },
    refused: { type: 'integer', minimum: 0, description: 'Lines refused (see `errors`).' },
    errors: { type: 'array', maxItems: 1000, items: ref('ConsentImportError'), description: 'The first 1,000 problems, in line order.' },
    failure: {
      type: 'string',
      description: 'Why the import failed (`state` failed): the connection closed before the body ended, the daily event limit, a bad CSV header row.',
    },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
  examples: [
    {
      id: '019ac4d5e6f7a1b2c3d4e5f60718293a',
      state: 'done',
      read: 3,
      stored: 2,
      duplicates: 0,
      refused: 1,
      errors: [{ line: 2, field: 'createdAt', detail: 'must not be later than now' }],
    },
  ],
};

export const consentImportsOpenApi: OpenApiFragment = {
  paths: {
    '/consent/v0/imports': {
      post: {
        tags: ['consent'],
        operationId: 'importConsents',
        summary: 'Import consent history with its original times (NDJSON in the export’s form, or CSV), streamed; idempotent per line.',
        description:
          'The body is read line by line as it arrives (any number of lines; never held whole). `application/x-ndjson`: one JSON object per line in the form of ' +
          '`GET /consent/v0/consents/export` (so an export imports as it is; `id`, `appId`, `tcf`, `gpp`, `expired`, `renewalRequired` and `importedAt` are ignored, other unknown fields refused), ' +
          'plus an optional `externalId`. `text/csv`: a header row naming the columns (required: subject, issuer, target, action, createdAt; optional: scope, source, delegate, targetVersion, ' +
          'expiresAt, gpc, tcString, gppString, jurisdiction, token, externalId), then one event per line (RFC 4180 quotes; a record on one line; `action` true, false or empty = null). ' +
          'Each line is checked as POST /consents checks an event, except that `createdAt` is required and kept (an ISO 8601 date-time, never later than now), `expiresAt` must be later than `createdAt`, ' +
          `\`token\` is kept when it has the token form, and the specification version is taken as sent. A line longer than ${LIMITS.importLine} characters is refused. ` +
          'A stored event keeps `createdAt` and gains `importedAt`; current states and decisions order events by `createdAt`, so an old imported event never replaces a newer one. ' +
          'Imported events get their log leaf (with `importedAt`) and count in the statistics; they are not delivered to webhooks. ' +
          'NDJSON link lines (`"type": "subject.linked"`, the export’s lines with `links=true`: `issuer`, `identity`, `subject` or null, `createdAt`, optional `externalId`) import linked identities ' +
          'the same way: original `createdAt`, `importedAt`, once per key, a log leaf, no webhook, counted in the progress like events; each obeys the link rules against the links stored by then ' +
          '(identifiers as POST /consent/v0/subjects/links checks them; a link that would chain is that line’s error naming `identity` or `subject`). ' +
          'Idempotent: a line is stored once per account by its `externalId`, or else by the hash of its content; posting the same file again, or resuming after a dropped connection, ' +
          'stores nothing twice (`duplicates`). Stored events count against the account’s daily event limit; the operator sets the pace (`ACCORD_CONSENT_IMPORT_RATE`). ' +
          'Answered `202` once the body is read, with the import (`Location`: its progress at GET /consent/v0/imports/{id}, readable while the body is still being sent).',
        security,
        requestBody: {
          required: true,
          content: {
            'application/x-ndjson': {
              schema: {
                type: 'string',
                description: 'One ConsentEvent JSON object per line (or a ConsentExportLinkLine, `type: "subject.linked"`), with optional `externalId`.',
              },
            },
            'text/csv': { schema: { type: 'string', description: 'A header row, then one event per line.' } },
          },
        },
        responses: {
          '202': {
            description: 'The import, its body read: `done` (or `failed` with the reason).',
            headers: { Location: { description: 'The import’s progress.', schema: { type: 'string', format: 'uri' } } },
            content: { 'application/json': { schema: ref('ConsentImport') } },
          },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '503': errorResponses['503'],
        },
      },
    },
    '/consent/v0/imports/{id}': {
      get: {
        tags: ['consent'],
        operationId: 'getImport',
        summary: 'An import’s progress: state, counts and the first 1,000 errors by line and field.',
        security,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } }],
        responses: {
          '200': { description: 'The import.', content: { 'application/json': { schema: ref('ConsentImport') } } },
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '404': errorResponses['404'],
          '503': errorResponses['503'],
        },
      },
    },
  },
  schemas: { ConsentImport, ConsentImportError: ImportError },
};
