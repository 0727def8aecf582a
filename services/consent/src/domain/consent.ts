import * as crypto from 'node:crypto';
import { createHash, randomInt } from 'node:crypto';
import { InvalidArgumentError, type FieldError } from '@accord/common';
import { contracts } from '@accord/proto';
import { nextEventId } from './event-id';
import { decodeGppString, decodeTcString, SignalError, SIGNAL_LIMITS, type GppFacts, type TcfFacts } from './signals';
import { parseAddtlConsent } from './addtl-consent';

/** What a client may send for one event (the service assigns id, token, createdAt). */
export interface ConsentInput {
  subject: string;
  issuer: string;
  target: string;
  source?: string;
  scope?: string;
  delegate?: string;
  /** true: accepted; false: declined or withdrawn; null: no action taken. */
  action: boolean | null;
  /** The specification version shown to the subject (targets naming a specification). */
  targetVersion?: number;
  /** When the consent lapses (must be later than now). */
  expiresAt?: Date;
  /** Signals (domain/signals.ts): a GPC signal was present; a TC string; a GPP string; where the subject is. */
  gpc?: boolean;
  tcString?: string;
  gppString?: string;
  jurisdiction?: string;
  /** Google's Additional Consent string (domain/addtl-consent.ts), beside the TC string. */
  addtlConsent?: string;
}

/** A stored, immutable consent event. */
export interface ConsentEvent {
  id: string;
  accountId: string;
  appId: string;
  subject: string;
  issuer: string;
  target: string;
  source?: string;
  scope: string;
  delegate?: string;
  action: boolean | null;
  token: string;
  createdAt: Date;
  /** The specification version consented to, when the target names a specification. */
  targetVersion?: number;
  expiresAt?: Date;
  /** Not stored: set on current states read after `expiresAt` (see markExpired). */
  expired?: boolean;
  /** When the subject was erased (subject, source and delegate are keyed hashes since). Not part of the log's leaf. */
  erasedAt?: Date;
  /** Not stored: set on current states consented to a version older than the specification's latest material change (see markRenewals). */
  renewalRequired?: boolean;
  /** Whether a Global Privacy Control signal was present (with `action` null: the signal alone). */
  gpc?: boolean;
  /** An IAB TCF v2 TC string and what it says. */
  tcString?: string;
  tcf?: TcfFacts;
  /** An IAB GPP string and what it says. */
  gppString?: string;
  gpp?: GppFacts;
  /** ISO 3166-1 alpha-2 or ISO 3166-2 code, upper case. */
  jurisdiction?: string;
  /** Google's Additional Consent string, exactly as sent (parsed when stored, and by decisions). */
  addtlConsent?: string;
  /** Imported events only (domain/import.ts): when the event came into this registry; `createdAt` stays its original time. */
  importedAt?: Date;
}

export const DEFAULT_SCOPE = 'default';

/**
 * Length limits (characters) of the client fields, of one POST and of the pages, and the largest
 * specification version: the contract's (@accord/proto contracts/consent.ts), which the gateway's
 * OpenAPI document is generated from.
 */
export const { LIMITS, MAX_VERSION, EVENT_ID_PATTERN } = contracts.consent;
const { longerThan } = contracts;
const { normalizeJurisdiction, JURISDICTION_MESSAGE } = contracts.regimes;

export const REQUIRED_FIELDS = ['subject', 'issuer', 'target'] as const;
export const OPTIONAL_FIELDS = ['source', 'scope', 'delegate'] as const;

export const TOKEN_PATTERN = /^[A-Z0-9]{6}$/;

/**
 * The identifier rule, one for every caller: an identifier (subject, issuer, target, source,
 * scope, delegate) holding U+FFFD is refused, in what is stored and in what is looked up or
 * erased. A gRPC caller's string arrives decoded already: the generated decoders read UTF-8 with
 * a TextDecoder that is not fatal (@bufbuild/protobuf `BinaryReader.string()`), so bytes that are
 * not UTF-8 arrive as U+FFFD, and every encoder (TextEncoder, protobuf's) writes a lone UTF-16
 * surrogate as U+FFFD. Such an identifier may stand for several different ones (`u-\ud800` and
 * `u-\udbff` both arrive as `u-\uFFFD`), and storing it would make two subjects one. The
 * document states the same rule for REST (contracts/consent.ts), and the gateway refuses a lone
 * surrogate in a JSON body before anything is encoded. `holdsReplacement(v)`: refused, with
 * IDENTIFIER_MESSAGE.
 */
export const { holdsReplacement, IDENTIFIER_MESSAGE } = contracts.consent;

/** The identifier rule over named values (absent or empty ones skipped), as field errors at `prefix` + name. */
export function identifierErrors(values: Record<string, string | undefined>, prefix = '/'): FieldError[] {
  const out: FieldError[] = [];
  for (const [name, v] of Object.entries(values)) {
    if (typeof v === 'string' && holdsReplacement(v)) out.push({ field: `${prefix}${name}`, message: IDENTIFIER_MESSAGE });
  }
  return out;
}

/**
 * Checks every input and returns them normalised (empty optional strings mean absent; scope
 * defaults to `default`). All problems of all inputs are reported at once, with JSON-pointer
 * paths relative to the array (`/3/subject`); nothing is stored unless everything is valid.
 */

export function validateInputs(inputs: ConsentInput[], now: number = Date.now()): NormalizedInput[] {
  if (inputs.length === 0) throw InvalidArgumentError.field('/', 'at least one event is required');
  if (inputs.length > LIMITS.maxBatch) throw InvalidArgumentError.field('/', `at most ${LIMITS.maxBatch} events per request`);
  const errors: FieldError[] = [];
  const out: NormalizedInput[] = [];
  // the events of one request often share their TC or GPP string (one subject, several targets): decoded once
  const decodedStrings = new Map<string, unknown>();
  inputs.forEach((input, i) => {
    for (const f of REQUIRED_FIELDS) {
      const v = input[f];
      if (typeof v !== 'string' || v.trim() === '') errors.push({ field: `/${i}/${f}`, message: 'is required' });
      else if (longerThan(v, LIMITS[f])) errors.push({ field: `/${i}/${f}`, message: `must be at most ${LIMITS[f]} characters` });
      else if (holdsReplacement(v)) errors.push({ field: `/${i}/${f}`, message: IDENTIFIER_MESSAGE });
    }
    const normalized: NormalizedInput = {
      subject: input.subject,
      issuer: input.issuer,
      target: input.target,
      scope: DEFAULT_SCOPE,
      action: input.action === true ? true : input.action === false ? false : null,
    };
    for (const f of OPTIONAL_FIELDS) {
      const v = input[f];
      if (v === undefined || v === null || v === '') continue;
      if (typeof v !== 'string') errors.push({ field: `/${i}/${f}`, message: 'must be a string' });
      else if (v.trim() === '') errors.push({ field: `/${i}/${f}`, message: 'must not be blank' });
      else if (longerThan(v, LIMITS[f])) errors.push({ field: `/${i}/${f}`, message: `must be at most ${LIMITS[f]} characters` });
      else if (holdsReplacement(v)) errors.push({ field: `/${i}/${f}`, message: IDENTIFIER_MESSAGE });
      else normalized[f] = v;
    }
    const { targetVersion, expiresAt } = input;
    if (targetVersion !== undefined && targetVersion !== null) {
      if (!Number.isInteger(targetVersion) || targetVersion < 1 || targetVersion > MAX_VERSION)
        errors.push({ field: `/${i}/targetVersion`, message: `must be an integer from 1 to ${MAX_VERSION}` });
      else normalized.targetVersion = targetVersion;
    }
    if (expiresAt !== undefined && expiresAt !== null) {
      if (!(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime())) errors.push({ field: `/${i}/expiresAt`, message: 'must be a date-time' });
      else if (expiresAt.getTime() <= now) errors.push({ field: `/${i}/expiresAt`, message: 'must be in the future' });
      else normalized.expiresAt = expiresAt;
    }
    Object.assign(normalized, validateSignals(input, `/${i}`, errors, decodedStrings));
    out.push(normalized);
  });
  if (errors.length) {
    throw new InvalidArgumentError(errors.length === 1 ? `${errors[0]!.field}: ${errors[0]!.message}` : `${errors.length} invalid fields`, errors);
  }
  return out;
}

/** The signal fields of an event (domain/signals.ts). */
export const SIGNAL_FIELDS = ['gpc', 'tcString', 'tcf', 'gppString', 'gpp', 'jurisdiction', 'addtlConsent'] as const;
export type Signals = Pick<ConsentEvent, (typeof SIGNAL_FIELDS)[number]>;

/**
 * The signals of one input, checked and decoded: `gpc` a boolean; the TC and GPP strings (empty =
 * absent) within their length and decoding with the IAB libraries, kept with what they say; the
 * jurisdiction a code of the ISO lists, upper case. Problems are added to `errors` under `at`.
 */
export function validateSignals(
  input: Pick<ConsentInput, 'gpc' | 'tcString' | 'gppString' | 'jurisdiction' | 'addtlConsent'>,
  at: string,
  errors: FieldError[],
  /** Strings already decoded (by kind and value), and what came of it: the facts or the SignalError. */
  decodedStrings: Map<string, unknown> = new Map(),
): Signals {
  const out: Signals = {};
  const { gpc, tcString, gppString, jurisdiction } = input;
  if (gpc !== undefined && gpc !== null) {
    if (typeof gpc !== 'boolean') errors.push({ field: `${at}/gpc`, message: 'must be a boolean' });
    else out.gpc = gpc;
  }
  const decoded = <T>(field: 'tcString' | 'gppString' | 'addtlConsent', v: unknown, decode: (s: string) => T): T | undefined => {
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') errors.push({ field: `${at}/${field}`, message: 'must be a string' });
    else if (v.length > SIGNAL_LIMITS[field]) errors.push({ field: `${at}/${field}`, message: `must be at most ${SIGNAL_LIMITS[field]} characters` });
    else {
      const key = `${field}\n${v}`;
      if (!decodedStrings.has(key))
        try {
          decodedStrings.set(key, decode(v));
        } catch (err) {
          if (!(err instanceof SignalError)) throw err;
          decodedStrings.set(key, err);
        }
      const got = decodedStrings.get(key);
      if (!(got instanceof SignalError)) return structuredClone(got as T);
      errors.push({ field: `${at}/${field}`, message: got.message });
    }
    return undefined;
  };
  const tcf = decoded('tcString', tcString, decodeTcString);
  if (tcf) Object.assign(out, { tcString, tcf });
  const gpp = decoded('gppString', gppString, decodeGppString);
  if (gpp) Object.assign(out, { gppString, gpp });
  // kept exactly as sent: the parse only says whether it is one
  const isAc = (s: string): true => {
    parseAddtlConsent(s);
    return true;
  };
  if (decoded('addtlConsent', input.addtlConsent, isAc)) out.addtlConsent = input.addtlConsent as string;
  if (jurisdiction !== undefined && jurisdiction !== null && jurisdiction !== '') {
    const code = typeof jurisdiction === 'string' ? normalizeJurisdiction(jurisdiction) : undefined;
    if (!code) errors.push({ field: `${at}/jurisdiction`, message: JURISDICTION_MESSAGE });
    else out.jurisdiction = code;
  }
  return out;
}

/** A client's event after validation: the event's own fields, before ids, token and time are given. */
export type NormalizedInput = Pick<
  ConsentEvent,
  'subject' | 'issuer' | 'target' | 'source' | 'scope' | 'delegate' | 'action' | 'targetVersion' | 'expiresAt' | (typeof SIGNAL_FIELDS)[number]
>;

// --- tokens --------------------------------------------------------------------------------

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Six random upper-case alphanumeric characters (not unique: ~2.2e9 values). */
export function newToken(): string {
  let t = '';
  for (let i = 0; i < 6; i++) t += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return t;
}

/** Builds the stored events for validated inputs, in request order (ids increasing). */
export function buildEvents(accountId: string, appId: string, inputs: NormalizedInput[], now: number = Date.now()): ConsentEvent[] {
  return inputs.map((input) => {
    const { id, createdAt } = nextEventId(now);
    const ev: ConsentEvent = {
      id,
      accountId,
      appId,
      subject: input.subject,
      issuer: input.issuer,
      target: input.target,
      scope: input.scope,
      action: input.action,
      token: newToken(),
      createdAt,
    };
    if (input.source !== undefined) ev.source = input.source;
    if (input.delegate !== undefined) ev.delegate = input.delegate;
    if (input.targetVersion !== undefined) ev.targetVersion = input.targetVersion;
    if (input.expiresAt !== undefined) ev.expiresAt = input.expiresAt;
    return withSignals(ev, input);
  });
}

/** The fields an event may have beside its signals. */
type EventOptionalFields = Pick<ConsentEvent, 'source' | 'delegate' | 'targetVersion' | 'expiresAt' | 'importedAt'>;

/** Copies to `out` the optional fields `from` has beside its signals (absent ones stay absent): the stored document's and the message's. */
export function copyOptionalFields(out: EventOptionalFields, from: EventOptionalFields): void {
  if (from.source !== undefined) out.source = from.source;
  if (from.delegate !== undefined) out.delegate = from.delegate;
  if (from.targetVersion !== undefined) out.targetVersion = from.targetVersion;
  if (from.expiresAt !== undefined) out.expiresAt = from.expiresAt;
  if (from.importedAt !== undefined) out.importedAt = from.importedAt;
}

/** `ev` with the signal fields `from` has (absent ones stay absent). */
export function withSignals<E extends Signals>(ev: E, from: Signals): E {
  if (from.gpc !== undefined) ev.gpc = from.gpc;
  if (from.tcString !== undefined && from.tcf) Object.assign(ev, { tcString: from.tcString, tcf: from.tcf });
  if (from.gppString !== undefined && from.gpp) Object.assign(ev, { gppString: from.gppString, gpp: from.gpp });
  if (from.jurisdiction !== undefined) ev.jurisdiction = from.jurisdiction;
  if (from.addtlConsent !== undefined) ev.addtlConsent = from.addtlConsent;
  return ev;
}

/**
 * Whether a consent to a specification version is due for renewal: the specification changed
 * materially after that version (`reconsentSince`, the latest material version, is later).
 * Events without a version (other targets, older events) never are.
 */
/** Expiry: an event whose expiresAt is not later than `at` (ms since epoch) has expired; one without never does. */
export function hasExpired(expiresAt: Date | null | undefined, at: number): boolean {
  return !!expiresAt && expiresAt.getTime() <= at;
}

export function needsRenewal(targetVersion: number | undefined, reconsentSince: number | undefined): boolean {
  return targetVersion !== undefined && reconsentSince !== undefined && targetVersion < reconsentSince;
}

/**
 * Newest event wins, one rule everywhere: the event created later (`createdAt`) is newer, and of
 * two created in the same millisecond the one with the larger id. `createdAt` is when the subject
 * acted, which for an imported event (docs/consent.md, Import) is its original time, not the time
 * of the import: an old event imported today never replaces a newer live one.
 *
 * Every event id begins with its `createdAt` millisecond (domain/event-id.ts: `nextEventId` for
 * new events, `importedEventId` for imported ones), so ordering by id is this same order: the
 * stores use the id for it (indexes, the MongoDB adapter's `$max: {cur}` with `id` first, id
 * bounds of decisions at a past `at`). True when `ev` replaces `than` (none: it does).
 */
export function supersedes(ev: EventOrder, than: EventOrder | undefined): boolean {
  return !than || compareNewest(ev, than) > 0;
}

/** What the order of events reads: when each was created, and its id (the tiebreak). */
export type EventOrder = Pick<ConsentEvent, 'id' | 'createdAt'>;

/** The order of `supersedes` as a comparator: positive when `a` is newer than `b`. */
export function compareNewest(a: EventOrder, b: EventOrder): number {
  const d = a.createdAt.getTime() - b.createdAt.getTime();
  if (d !== 0) return d;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Sorts newest first (`supersedes`'s order). */
export const newestFirst = (a: EventOrder, b: EventOrder): number => compareNewest(b, a);

/** The newest of these events per consent state (`supersedes`), by state key. */
export function newestPerState<E extends Pick<ConsentEvent, 'id' | 'createdAt' | 'accountId' | 'subject' | 'issuer' | 'target' | 'scope'>>(
  events: Iterable<E>,
): Map<string, E> {
  const newest = new Map<string, E>();
  for (const ev of events) {
    const key = stateKey(ev.accountId, ev.subject, ev.issuer, ev.target, ev.scope);
    if (supersedes(ev, newest.get(key))) newest.set(key, ev);
  }
  return newest;
}

/** Key of the consent state a (subject, issuer, target, scope) is in, within an account. */
export function stateKey(accountId: string, subject: string, issuer: string, target: string, scope: string): string {
  return hashKey([accountId, subject, issuer, target, scope]);
}

/** SHA-256 in hex: the one-shot crypto.hash where Node has it (20.12+; a third of the time of a Hash object, several per stored event), else a Hash. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => createHash('sha256').update(text).digest('hex');

export function hashKey(parts: string[]): string {
  return sha256Hex(JSON.stringify(parts)).slice(0, 40);
}
