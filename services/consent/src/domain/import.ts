/**
 * Importing consent history with its original times (docs/consent.md, Import): what a line is,
 * in either format, what makes it valid, the key that stores it once, and the events it becomes.
 * The rules only; the job and its storage are app/imports.ts's and the store's.
 */
import { createHash } from 'node:crypto';
import { InvalidArgumentError, type FieldError } from '@accord/common';
import { LIMITS, newToken, TOKEN_PATTERN, validateInputs, withSignals, type ConsentEvent, type ConsentInput } from './consent';
import { importedEventId } from './event-id';
import { validateLink, type LinkInput } from './link';

export const IMPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The first errors of an import that are kept (lines counted from 1). */
export const MAX_IMPORT_ERRORS = 1000;
/** The longest `externalId`. */
export const MAX_EXTERNAL_ID = 200;
/** Lines one ImportLines call takes (the gateway sends LIMITS.importBatch), and the longest line (the contract's). */
export const MAX_IMPORT_BATCH = 1000;
export const MAX_IMPORT_LINE = LIMITS.importLine;

/** One problem of one line: its number, the field (empty: the whole line) and what is wrong. */
export interface ImportError {
  line: number;
  field: string;
  detail: string;
}

/** An import job as stored (app/ports.ts ImportStore). */
export interface ImportJob {
  id: string;
  accountId: string;
  appId: string;
  format: ImportFormat;
  state: 'running' | 'done' | 'failed';
  read: number;
  stored: number;
  duplicates: number;
  refused: number;
  errors: ImportError[];
  /** CSV: the header row's columns (from line 1). */
  columns?: string[];
  failure?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A job as it starts: running, nothing read yet. */
export function newImportJob(id: string, accountId: string, appId: string, format: ImportFormat, at: Date): ImportJob {
  return { id, accountId, appId, format, state: 'running', read: 0, stored: 0, duplicates: 0, refused: 0, errors: [], createdAt: at, updatedAt: at };
}

/** An imported event as stored: the event, and the key that makes it unique in its account. */
export interface ImportedEvent extends ConsentEvent {
  importedAt: Date;
  /** The account, then `x:` + the line's externalId, or `h:` + the SHA-256 of its content (importKey). */
  importKey: string;
}

/** The columns of the CSV form: the required ones first. */
export const CSV_REQUIRED = ['subject', 'issuer', 'target', 'action', 'createdAt'] as const;
export const CSV_OPTIONAL = [
  'scope',
  'source',
  'delegate',
  'targetVersion',
  'expiresAt',
  'gpc',
  'tcString',
  'gppString',
  'jurisdiction',
  'token',
  'externalId',
] as const;
const CSV_COLUMNS = new Set<string>([...CSV_REQUIRED, ...CSV_OPTIONAL]);

/**
 * Fields of Accord's own export lines (ConsentEvent's JSON) that an import reads; the others of
 * that form are answers the registry computes (`id`, `appId` of the writer, `tcf`, `gpp`,
 * `expired`, `renewalRequired`, `importedAt`) and are ignored, so an export imports as it is.
 */
const NDJSON_READ = new Set<string>([...CSV_REQUIRED, ...CSV_OPTIONAL]);
const NDJSON_IGNORED = new Set(['id', 'appId', 'tcf', 'gpp', 'expired', 'renewalRequired', 'importedAt']);

/** The columns of a CSV header row; throws InvalidArgumentError naming each bad column. */
export function csvHeader(text: string): string[] {
  const cells = csvCells(text);
  if (!cells) throw InvalidArgumentError.field('', 'the header row is not valid CSV');
  const columns = cells.map((c) => c.trim());
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const c of columns) {
    if (!CSV_COLUMNS.has(c)) errors.push({ field: c, message: `is not a column of the import (${[...CSV_COLUMNS].join(', ')})` });
    else if (seen.has(c)) errors.push({ field: c, message: 'appears twice' });
    seen.add(c);
  }
  for (const r of CSV_REQUIRED) if (!seen.has(r)) errors.push({ field: r, message: 'is a required column' });
  if (errors.length) throw new InvalidArgumentError(`the header row: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors);
  return columns;
}

/** The cells of one CSV record on one line (RFC 4180 quoting, `""` for a quote); undefined when the quoting is broken. */
export function csvCells(text: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) return undefined;
        cell += text.slice(i, q);
        if (text[q + 1] === '"') {
          cell += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      if (i < text.length && text[i] !== ',') return undefined;
    } else {
      const c = text.indexOf(',', i);
      cell = c < 0 ? text.slice(i) : text.slice(i, c);
      if (cell.includes('"')) return undefined;
      i = c < 0 ? text.length : c;
    }
    out.push(cell);
    if (i >= text.length) return out;
    i++; // the comma
  }
}

/**
 * The `type` of a link line: the NDJSON export with `links=true` writes each link event as a line
 * `{"type": "subject.linked", …the link as answered}`; consent event lines never carry `type`.
 */
export const LINK_LINE_TYPE = 'subject.linked';
/** Fields of a link line that an import reads, and those it ignores (the registry's: its id, the linking application, importedAt). */
const LINK_READ = new Set(['type', 'issuer', 'identity', 'subject', 'createdAt', 'externalId']);
const LINK_IGNORED = new Set(['id', 'appId', 'importedAt']);

/** A line's record, as the JSON object of an NDJSON line would be (`link`: a link line), or its problems. */
type Parsed = { record: Record<string, unknown>; link?: true } | { errors: Array<Pick<ImportError, 'field' | 'detail'>> };

/** One NDJSON line: one JSON object in Accord's export form (a consent event, or a link with `type`), with an optional `externalId`. */
export function ndjsonRecord(text: string): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { errors: [{ field: '', detail: 'is not valid JSON' }] };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { errors: [{ field: '', detail: 'must be a JSON object' }] };
  const record: Record<string, unknown> = {};
  const errors: Array<Pick<ImportError, 'field' | 'detail'>> = [];
  if ('type' in v) {
    if ((v as { type: unknown }).type !== LINK_LINE_TYPE)
      return { errors: [{ field: 'type', detail: `must be "${LINK_LINE_TYPE}" (a link line) or absent (a consent event)` }] };
    for (const [k, val] of Object.entries(v)) {
      if (LINK_READ.has(k)) record[k] = val;
      else if (k === 'erasedAt')
        errors.push({ field: k, detail: 'erased links are not imported (their names are keyed hashes of the registry they come from)' });
      else if (!LINK_IGNORED.has(k)) errors.push({ field: k, detail: 'is not a field of an imported link' });
    }
    return errors.length ? { errors } : { record, link: true };
  }
  for (const [k, val] of Object.entries(v)) {
    if (NDJSON_READ.has(k)) record[k] = val;
    else if (k === 'erasedAt')
      errors.push({ field: k, detail: 'erased events are not imported (their subject is a keyed hash of the registry they come from)' });
    else if (!NDJSON_IGNORED.has(k)) errors.push({ field: k, detail: 'is not a field of an imported event' });
  }
  return errors.length ? { errors } : { record };
}

/** One CSV line under the header's columns: empty cells are absent; `action` true, false or empty/null; `gpc` true or false; `targetVersion` an integer. */
export function csvRecord(text: string, columns: string[]): Parsed {
  const cells = csvCells(text);
  if (!cells) return { errors: [{ field: '', detail: 'is not valid CSV (quotes)' }] };
  if (cells.length !== columns.length) return { errors: [{ field: '', detail: `has ${cells.length} cells; the header has ${columns.length}` }] };
  const record: Record<string, unknown> = {};
  const errors: Array<Pick<ImportError, 'field' | 'detail'>> = [];
  columns.forEach((c, i) => {
    const cell = cells[i]!;
    if (c === 'action') {
      const a = cell.trim().toLowerCase();
      if (a === 'true') record.action = true;
      else if (a === 'false') record.action = false;
      else if (a === '' || a === 'null') record.action = null;
      else errors.push({ field: c, detail: 'must be true, false, null or empty' });
      return;
    }
    if (cell === '') return;
    if (c === 'gpc') {
      if (cell === 'true' || cell === 'false') record.gpc = cell === 'true';
      else errors.push({ field: c, detail: 'must be true or false' });
    } else if (c === 'targetVersion') {
      if (/^\d{1,9}$/.test(cell)) record.targetVersion = Number(cell);
      else errors.push({ field: c, detail: 'must be a whole number' });
    } else record[c] = cell;
  });
  return errors.length ? { errors } : { record };
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function dateTime(v: unknown): Date | undefined {
  if (typeof v !== 'string' || !DATE_TIME.test(v)) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/**
 * The key that stores a line once in its account: the account, then the line's externalId (`x:`),
 * or the SHA-256 of its record (`h:`, keys sorted, so the same content gives the same key).
 */
export function importKey(accountId: string, record: Record<string, unknown>): string {
  if (typeof record.externalId === 'string') return `${accountId}/x:${record.externalId}`;
  const sorted = Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${accountId}/h:${createHash('sha256').update(JSON.stringify(sorted)).digest('base64url')}`;
}

/**
 * One record checked and made the event it imports: the fields as POST /consents checks them
 * (domain/consent.ts `validateInputs`), except that `createdAt` is required and kept (an ISO
 * date-time not later than `now`), `expiresAt` must be later than `createdAt` (it may have
 * passed), `token` is kept when it has the token's form (else a new one), and the specification
 * version is taken as sent (history is not re-bound to today's versions). The id begins with
 * `createdAt` (importedEventId), which is what orders the event among the others.
 */
export function importedEvent(
  record: Record<string, unknown>,
  accountId: string,
  appId: string,
  importedAt: Date,
): { event: ImportedEvent } | { errors: Array<Pick<ImportError, 'field' | 'detail'>> } {
  const errors: Array<Pick<ImportError, 'field' | 'detail'>> = [];
  const createdAt = dateTime(record.createdAt);
  if (record.createdAt === undefined || record.createdAt === null || record.createdAt === '') errors.push({ field: 'createdAt', detail: 'is required' });
  else if (!createdAt) errors.push({ field: 'createdAt', detail: 'must be an ISO 8601 date-time with a time zone' });
  else if (createdAt.getTime() > importedAt.getTime()) errors.push({ field: 'createdAt', detail: 'must not be later than now' });
  const { externalId, token } = record;
  if (externalId !== undefined && (typeof externalId !== 'string' || externalId === '' || externalId.length > MAX_EXTERNAL_ID))
    errors.push({ field: 'externalId', detail: `must be a string of 1 to ${MAX_EXTERNAL_ID} characters` });
  if (token !== undefined && token !== null && typeof token !== 'string') errors.push({ field: 'token', detail: 'must be a string' });
  if (!('action' in record)) errors.push({ field: 'action', detail: 'is required (true, false or null)' });
  else if (record.action !== true && record.action !== false && record.action !== null) errors.push({ field: 'action', detail: 'must be true, false or null' });
  let expiresAt: Date | undefined;
  if (record.expiresAt !== undefined && record.expiresAt !== null) {
    expiresAt = dateTime(record.expiresAt);
    if (!expiresAt) errors.push({ field: 'expiresAt', detail: 'must be an ISO 8601 date-time with a time zone' });
  }
  const input = { ...record, expiresAt } as unknown as ConsentInput;
  let normalized: ReturnType<typeof validateInputs>[number] | undefined;
  try {
    // expiresAt must be later than the event's own time, not than the import's
    normalized = validateInputs([input], createdAt?.getTime() ?? importedAt.getTime())[0];
  } catch (err) {
    if (!(err instanceof InvalidArgumentError)) throw err;
    for (const e of err.fields) {
      const field = e.field.replace(/^\/0\/?/, '');
      if (!errors.some((x) => x.field === field)) errors.push({ field, detail: e.message });
    }
  }
  if (errors.length || !normalized || !createdAt) return { errors };
  const event: ImportedEvent = {
    id: importedEventId(createdAt),
    accountId,
    appId,
    subject: normalized.subject,
    issuer: normalized.issuer,
    target: normalized.target,
    scope: normalized.scope,
    action: normalized.action,
    token: typeof token === 'string' && TOKEN_PATTERN.test(token) ? token : newToken(),
    createdAt,
    importedAt,
    importKey: importKey(accountId, record),
  };
  if (normalized.source !== undefined) event.source = normalized.source;
  if (normalized.delegate !== undefined) event.delegate = normalized.delegate;
  if (normalized.targetVersion !== undefined) event.targetVersion = normalized.targetVersion;
  if (normalized.expiresAt !== undefined) event.expiresAt = normalized.expiresAt;
  return { event: withSignals(event, normalized) };
}

/**
 * One link line checked (docs/consent.md, Import): the link's names as POST /subjects/links checks
 * them (`validateLink`: `subject` null unlinks), `createdAt` as an event's (required, not later
 * than `now`), `externalId` as an event's; its key (`importKey`, over the line's read fields,
 * `type` included, so a link never shares a key with an event). The no-chain rule needs the
 * stored links: app/links.ts `importLink` checks it.
 */
export function importedLinkInput(
  record: Record<string, unknown>,
  accountId: string,
  importedAt: Date,
): { link: LinkInput; createdAt: Date; importKey: string } | { errors: Array<Pick<ImportError, 'field' | 'detail'>> } {
  const errors: Array<Pick<ImportError, 'field' | 'detail'>> = [];
  const createdAt = createdAtOf(record.createdAt, importedAt, errors);
  const { externalId } = record;
  if (externalId !== undefined && (typeof externalId !== 'string' || externalId === '' || externalId.length > MAX_EXTERNAL_ID))
    errors.push({ field: 'externalId', detail: `must be a string of 1 to ${MAX_EXTERNAL_ID} characters` });
  let link: LinkInput | undefined;
  try {
    link = validateLink(record);
  } catch (err) {
    if (!(err instanceof InvalidArgumentError)) throw err;
    errors.push(...err.fields.map((f) => ({ field: f.field, detail: f.message })));
  }
  if (errors.length || !link || !createdAt) return { errors };
  return { link, createdAt, importKey: importKey(accountId, record) };
}

/** `createdAt` of an imported link line (as importedEvent checks an event's): required, an ISO 8601 date-time with a zone, not later than `now`; the problem pushed, else the date. */
function createdAtOf(v: unknown, now: Date, errors: Array<Pick<ImportError, 'field' | 'detail'>>): Date | undefined {
  const createdAt = dateTime(v);
  if (v === undefined || v === null || v === '') errors.push({ field: 'createdAt', detail: 'is required' });
  else if (!createdAt) errors.push({ field: 'createdAt', detail: 'must be an ISO 8601 date-time with a time zone' });
  else if (createdAt.getTime() > now.getTime()) errors.push({ field: 'createdAt', detail: 'must not be later than now' });
  else return createdAt;
  return undefined;
}

/** The counts of a batch and the errors it adds, capped so that a job keeps the first MAX_IMPORT_ERRORS. */
export function cappedErrors(job: Pick<ImportJob, 'errors'>, more: ImportError[]): ImportError[] {
  return more.slice(0, Math.max(0, MAX_IMPORT_ERRORS - job.errors.length));
}

/** A job with its errors in line order, the first MAX_IMPORT_ERRORS (batches sent side by side may store a few more, in any order). */
export function firstErrors<J extends Pick<ImportJob, 'errors'>>(job: J): J {
  return { ...job, errors: [...job.errors].sort((a, b) => a.line - b.line).slice(0, MAX_IMPORT_ERRORS) };
}
