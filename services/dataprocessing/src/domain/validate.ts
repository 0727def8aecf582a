import ISO6391 from 'iso-639-1';
import { InvalidArgumentError, type FieldError } from '@accord/common';
import { contracts } from '@accord/proto';
import {
  ACTIONS,
  CONSENT_MODE_TYPES,
  LEGAL_BASES,
  LIMITS,
  TEXT_TYPES,
  type Action,
  type ConsentModeType,
  type GroupState,
  type LegalBasis,
  type SpecState,
  type TextState,
  type TextType,
} from './model';

/**
 * Validation and update rules for groups, specifications and texts. Inputs mirror the proto
 * messages: every field optional (absent = not supplied). Enums, limits and field lists are the
 * contract's (@accord/proto contracts/dataprocessing.ts), whose zod schemas the gateway enforces
 * on REST requests; the rules here hold for every caller, gRPC included (trimming, lengths in
 * characters rather than UTF-16 units, http(s) only, defaults). Field paths are the REST JSON
 * pointers (`/legalBasis`), so that gRPC and REST callers see the same errors.
 */

export interface GroupInput {
  name?: string | undefined;
  description?: string | undefined;
  purpose?: string | undefined;
}

export interface SpecInput {
  data?: string | undefined;
  purpose?: string | undefined;
  action?: string | undefined;
  sensitive?: boolean | undefined;
  consentTarget?: boolean | undefined;
  location?: string | undefined;
  duration?: number | undefined;
  legalBasis?: string | undefined;
  externalHref?: string | undefined;
  consentValidityDays?: number | undefined;
  /** As sent (the proto RegimeMap; absent or empty: the default); checked by contracts/regimes.ts. */
  regimes?: { byJurisdiction: Record<string, { model?: string; gpc?: string }> } | undefined;
  /** Google Consent Mode v2 types (absent or empty: none). */
  consentMode?: string[] | undefined;
}

export interface TextInput {
  value?: string | undefined;
  language?: string | undefined;
  type?: string | undefined;
}

export const { GROUP_FIELDS, SPEC_FIELDS, TEXT_FIELDS } = contracts.dataprocessing;
const LANGUAGE_CODE_MESSAGE = contracts.dataprocessing.LANGUAGE_CODE_MESSAGE;

class Collector {
  readonly errors: FieldError[] = [];
  add(field: string, message: string): void {
    this.errors.push({ field, message });
  }
  throwIfAny(prefix = ''): void {
    if (!this.errors.length) return;
    const fields = this.errors.map((e) => ({ field: prefix + e.field, message: e.message }));
    throw new InvalidArgumentError(fields.map((e) => `${e.field}: ${e.message}`).join('; '), fields);
  }
}

function optionalText(c: Collector, field: string, value: string | undefined, max: number): string {
  if (value === undefined) return '';
  if (value.length > max && [...value].length > max) c.add(`/${field}`, `must be at most ${max} characters`);
  return value.trim();
}

function requiredText(c: Collector, field: string, value: string | undefined, max: number): string {
  if (value === undefined || value.trim() === '') {
    c.add(`/${field}`, 'is required');
    return '';
  }
  return optionalText(c, field, value, max);
}

/** The update mask names only known fields. */
function checkMask(mask: readonly string[], known: readonly string[]): void {
  const unknown = mask.filter((m) => !known.includes(m));
  if (unknown.length) throw InvalidArgumentError.field('/updateMask', `unknown field(s): ${unknown.join(', ')}`);
}

/** Every call names its account; writes also name the application (`appId` present, then not empty). */
export function requireCaller(req: { accountId: string; appId?: string }): void {
  const fields: FieldError[] = [];
  if (!req.accountId) fields.push({ field: 'accountId', message: 'is required' });
  if (req.appId !== undefined && !req.appId) fields.push({ field: 'appId', message: 'is required' });
  if (fields.length) throw new InvalidArgumentError(fields.map((f) => `${f.field}: ${f.message}`).join('; '), fields);
}

export function validateGroup(input: GroupInput): GroupState {
  const c = new Collector();
  const state: GroupState = {
    name: optionalText(c, 'name', input.name, LIMITS.nameLength),
    description: optionalText(c, 'description', input.description, LIMITS.descriptionLength),
    purpose: optionalText(c, 'purpose', input.purpose, LIMITS.purposeLength),
  };
  c.throwIfAny();
  return state;
}

/** The group after an update: fields named in the mask take the input's value (absent = reset to ''). */
export function updateGroup(current: GroupState, input: GroupInput, mask: readonly string[]): GroupState {
  checkMask(mask, GROUP_FIELDS);
  const merged: GroupInput = { ...current };
  for (const f of mask as (keyof GroupInput)[]) merged[f] = input[f];
  return validateGroup(merged);
}

/** An absolute http(s) URL. */
export function isAbsoluteHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const u = new URL(value);
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
}

export function validateSpec(input: SpecInput, defaults: { location: string }): SpecState {
  const c = new Collector();
  const data = requiredText(c, 'data', input.data, LIMITS.dataLength);
  const purpose = requiredText(c, 'purpose', input.purpose, LIMITS.purposeLength);

  let action: Action = 'collect';
  if (input.action === undefined) c.add('/action', 'is required');
  else if (!(ACTIONS as readonly string[]).includes(input.action)) c.add('/action', `must be one of ${ACTIONS.join(', ')}`);
  else action = input.action as Action;

  let location = defaults.location;
  if (input.location !== undefined) {
    location = input.location.trim();
    if (location === '') c.add('/location', 'must not be empty');
    else if ([...location].length > LIMITS.locationLength) c.add('/location', `must be at most ${LIMITS.locationLength} characters`);
  }

  let duration: number | null = null;
  if (input.duration !== undefined) {
    if (!Number.isInteger(input.duration) || input.duration < 1 || input.duration > LIMITS.durationDays)
      c.add('/duration', `must be a whole number of days from 1 to ${LIMITS.durationDays}`);
    else duration = input.duration;
  }

  let legalBasis: LegalBasis | null = null;
  if (input.legalBasis !== undefined) {
    if (!(LEGAL_BASES as readonly string[]).includes(input.legalBasis)) c.add('/legalBasis', `must be one of ${LEGAL_BASES.join(', ')}`);
    else legalBasis = input.legalBasis as LegalBasis;
  }

  let externalHref: string | null = null;
  if (input.externalHref !== undefined) {
    if (input.externalHref.length > LIMITS.urlLength) c.add('/externalHref', `must be at most ${LIMITS.urlLength} characters`);
    else if (!isAbsoluteHttpUrl(input.externalHref)) c.add('/externalHref', 'must be an absolute http(s) URL');
    else externalHref = input.externalHref;
  }

  let consentValidityDays: number | null = null;
  if (input.consentValidityDays !== undefined) {
    if (!Number.isInteger(input.consentValidityDays) || input.consentValidityDays < 1 || input.consentValidityDays > LIMITS.durationDays)
      c.add('/consentValidityDays', `must be a whole number of days from 1 to ${LIMITS.durationDays}`);
    else consentValidityDays = input.consentValidityDays;
  }

  const { regimes, errors: regimeErrors } = contracts.regimes.normalizeRegimes(
    input.regimes && Object.keys(input.regimes.byJurisdiction).length ? gpcOmitted(input.regimes.byJurisdiction) : undefined,
  );
  for (const e of regimeErrors) c.add(`/regimes${e.field}`, e.message);

  const consentMode = new Set<ConsentModeType>();
  (input.consentMode ?? []).forEach((t, i) => {
    if ((CONSENT_MODE_TYPES as readonly string[]).includes(t)) consentMode.add(t as ConsentModeType);
    else c.add(`/consentMode/${i}`, `must be one of ${CONSENT_MODE_TYPES.join(', ')}`);
  });

  c.throwIfAny();
  return {
    ...(consentValidityDays !== null ? { consentValidityDays } : {}),
    regimes,
    ...(consentMode.size ? { consentMode: CONSENT_MODE_TYPES.filter((t) => consentMode.has(t)) } : {}),
    data,
    purpose,
    action,
    sensitive: input.sensitive ?? false,
    consentTarget: input.consentTarget ?? true,
    location,
    duration,
    legalBasis,
    externalHref,
  };
}

/** Regimes as proto3 carries them: an unset `gpc` arrives as '' (absent, so the default). */
function gpcOmitted(r: Record<string, { model?: string; gpc?: string }>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, v && typeof v === 'object' && v.gpc === '' ? Object.fromEntries(Object.entries(v).filter(([f]) => f !== 'gpc')) : v]),
  );
}

/** The specification's fields after an update (mask semantics as for groups; absent = default). */
export function updateSpec(current: SpecState, input: SpecInput, mask: readonly string[], defaults: { location: string }): SpecState {
  checkMask(mask, SPEC_FIELDS);
  const merged: SpecInput = {
    data: current.data,
    purpose: current.purpose,
    action: current.action,
    sensitive: current.sensitive,
    consentTarget: current.consentTarget,
    location: current.location,
    duration: current.duration ?? undefined,
    legalBasis: current.legalBasis ?? undefined,
    externalHref: current.externalHref ?? undefined,
    consentValidityDays: current.consentValidityDays ?? undefined,
    regimes: { byJurisdiction: current.regimes },
    consentMode: current.consentMode ?? [],
  };
  for (const f of mask as (keyof SpecInput)[]) (merged as Record<string, unknown>)[f] = input[f];
  return validateSpec(merged, defaults);
}

/** Normalises a language code (case-insensitive) or returns null when it is not ISO 639-1. */
export function normalizeLanguage(value: string): string | null {
  const code = value.trim().toLowerCase();
  return ISO6391.validate(code) ? code : null;
}

export function validateText(input: TextInput, prefix = ''): TextState {
  const c = new Collector();
  const value = requiredText(c, 'value', input.value, LIMITS.textLength);
  let language = '';
  if (input.language === undefined || input.language.trim() === '') c.add('/language', 'is required');
  else {
    const code = normalizeLanguage(input.language);
    if (!code) c.add('/language', LANGUAGE_CODE_MESSAGE);
    else language = code;
  }
  let type: TextType = 'default';
  if (input.type !== undefined) {
    if (!(TEXT_TYPES as readonly string[]).includes(input.type)) c.add('/type', `must be one of ${TEXT_TYPES.join(', ')}`);
    else type = input.type as TextType;
  }
  c.throwIfAny(prefix);
  return { value, language, type };
}

export function updateText(current: TextState, input: TextInput, mask: readonly string[]): TextState {
  checkMask(mask, TEXT_FIELDS);
  const merged: TextInput = { ...current };
  for (const f of mask as (keyof TextInput)[]) merged[f] = input[f];
  return validateText(merged);
}

/** Validates a query parameter holding an optional language code. */
export function languageParam(value: string, param = 'lang'): string {
  if (value === '') return '';
  const code = normalizeLanguage(value);
  if (!code) throw InvalidArgumentError.field(param, LANGUAGE_CODE_MESSAGE);
  return code;
}

/** Validates a query parameter holding an optional jurisdiction (ISO 3166-1 alpha-2 or 3166-2); upper case, undefined when empty. */
export function jurisdictionParam(value: string, param = 'jurisdiction'): string | undefined {
  if (value === '') return undefined;
  const code = contracts.regimes.normalizeJurisdiction(value);
  if (!code) throw InvalidArgumentError.field(param, contracts.regimes.JURISDICTION_MESSAGE);
  return code;
}

export function textTypeParam(value: string, param = 'type'): TextType {
  if (value === '') return 'default';
  if (!(TEXT_TYPES as readonly string[]).includes(value)) throw InvalidArgumentError.field(param, `must be one of ${TEXT_TYPES.join(', ')}`);
  return value as TextType;
}
