import { ConflictError, NotFoundError } from '@accord/common';
import { contracts } from '@accord/proto';
import { LIMITS, type SpecRecord, type SpecState, type SpecVersionRecord, type TextRecord, type TextState } from './model';

/**
 * Rules of a specification's life: texts live inside their specification (one per language and
 * type), every change makes a new version, and only the newest 100 previous versions are kept.
 */

/** What a change does to a specification: its new fields and texts (unchanged parts are copied). */
export interface SpecChange {
  state: SpecState;
  texts: TextRecord[];
  nextTextId: number;
  /** The editor marks the change material (a new version even when nothing else changes). */
  requiresReconsent?: boolean;
}

/** A specification's regimes as stored: absent or empty (written before regimes) means the default, opt-in everywhere. */
export function regimesOf(stored: SpecState['regimes'] | null | undefined): SpecState['regimes'] {
  return stored && Object.keys(stored).length ? stored : { ...contracts.regimes.DEFAULT_REGIMES };
}

/** The reconsentSince of the version a change makes (`version`), from the specification before it. */
export function reconsentSinceAfter(spec: SpecRecord, change: SpecChange, version: number): number {
  return change.requiresReconsent || isMaterial(stateOf(spec), change.state) ? version : spec.reconsentSince;
}

export function stateOf(spec: SpecRecord): SpecState {
  return {
    data: spec.data,
    purpose: spec.purpose,
    action: spec.action,
    sensitive: spec.sensitive,
    consentTarget: spec.consentTarget,
    location: spec.location,
    duration: spec.duration,
    legalBasis: spec.legalBasis,
    externalHref: spec.externalHref,
    ...(spec.consentValidityDays != null ? { consentValidityDays: spec.consentValidityDays } : {}),
    regimes: spec.regimes,
    ...(spec.consentMode?.length ? { consentMode: spec.consentMode } : {}),
  };
}

/** What a version sets on its specification: all but the identity (id, account, group) and the creation time. */
export function versionFields(v: SpecVersionRecord): Omit<SpecRecord, 'id' | 'accountId' | 'groupId' | 'createdAt'> {
  return {
    ...v.state,
    texts: v.texts,
    nextTextId: v.nextTextId,
    appId: v.appId,
    updatedAt: v.createdAt,
    version: v.version,
    reconsentSince: v.reconsentSince,
    deletedAt: v.deletedAt,
  };
}

/** A specification as it was at one version. */
export function specAsOf(v: SpecVersionRecord): SpecRecord {
  return { id: v.specId, accountId: v.accountId, groupId: v.groupId, createdAt: v.specCreatedAt, ...versionFields(v) };
}

export function sameState(a: SpecState, b: SpecState): boolean {
  return (
    a.data === b.data &&
    a.purpose === b.purpose &&
    a.action === b.action &&
    a.sensitive === b.sensitive &&
    a.consentTarget === b.consentTarget &&
    a.location === b.location &&
    a.duration === b.duration &&
    a.legalBasis === b.legalBasis &&
    a.externalHref === b.externalHref &&
    (a.consentValidityDays ?? null) === (b.consentValidityDays ?? null) &&
    contracts.regimes.sameRegimes(a.regimes, b.regimes) &&
    (a.consentMode ?? []).join() === (b.consentMode ?? []).join()
  );
}

/**
 * Whether a change of fields is material for the consents given to the specification: what is
 * processed, why, how, on which legal basis, for how long, where, how sensitive it is, or how
 * consent works in a jurisdiction (its regimes: docs/consent.md, Signals and regimes). Other
 * fields (texts, links, whether consent is asked, how long a consent stays valid) are not, unless
 * the editor marks the change `requiresReconsent`.
 */
export function isMaterial(before: SpecState, after: SpecState): boolean {
  return (
    before.purpose !== after.purpose ||
    before.data !== after.data ||
    before.action !== after.action ||
    before.legalBasis !== after.legalBasis ||
    before.duration !== after.duration ||
    before.location !== after.location ||
    before.sensitive !== after.sensitive ||
    !contracts.regimes.sameRegimes(before.regimes, after.regimes)
  );
}

function sameTexts(a: TextRecord[], b: TextRecord[]): boolean {
  return a.length === b.length && a.every((t, i) => t.id === b[i]!.id && t.value === b[i]!.value && t.language === b[i]!.language && t.type === b[i]!.type);
}

/** True when a change would leave the specification as it is (no new version is made then). */
export function isNoop(spec: SpecRecord, change: SpecChange): boolean {
  return sameState(stateOf(spec), change.state) && sameTexts(spec.texts, change.texts);
}

/** Versions below this number are dropped once `newVersion` is current (keeps the newest 100 previous). */
export function oldestKeptVersion(newVersion: number): number {
  return Math.max(1, newVersion - LIMITS.versionsKept);
}

function assertSlotFree(texts: TextRecord[], text: TextState, exceptId?: number): void {
  const clash = texts.find((t) => t.id !== exceptId && t.language === text.language && t.type === text.type);
  if (clash) throw new ConflictError(`the specification already has a "${text.type}" text in language "${text.language}" (text ${clash.id})`);
}

/** Adds texts (validated) to a specification, giving them the next integer ids. */
export function addTexts(
  texts: TextRecord[],
  nextTextId: number,
  added: TextState[],
  now: Date,
): { texts: TextRecord[]; nextTextId: number; created: TextRecord[] } {
  const out = [...texts];
  const created: TextRecord[] = [];
  let next = nextTextId;
  for (const t of added) {
    assertSlotFree(out, t);
    const record: TextRecord = { id: next++, ...t, createdAt: now, updatedAt: now };
    out.push(record);
    created.push(record);
  }
  // A state the request cannot know of (a valid request for a full specification): 409, not 400.
  if (out.length > LIMITS.textsPerSpec) throw new ConflictError(`a specification holds at most ${LIMITS.textsPerSpec} texts`);
  return { texts: out, nextTextId: next, created };
}

export function findText(texts: TextRecord[], textId: number): TextRecord {
  const t = texts.find((x) => x.id === textId);
  if (!t) throw new NotFoundError(`text ${textId} not found`);
  return t;
}

export function replaceText(texts: TextRecord[], textId: number, next: TextState, now: Date): { texts: TextRecord[]; updated: TextRecord } {
  const current = findText(texts, textId);
  assertSlotFree(texts, next, textId);
  const unchanged = current.value === next.value && current.language === next.language && current.type === next.type;
  const updated: TextRecord = unchanged ? current : { ...current, ...next, updatedAt: now };
  return { texts: texts.map((t) => (t.id === textId ? updated : t)), updated };
}

export function removeText(texts: TextRecord[], textId: number): TextRecord[] {
  findText(texts, textId);
  return texts.filter((t) => t.id !== textId);
}

/** Parses a text id from a request: a positive integer, else the text cannot exist. */
export function parseTextId(raw: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw)) throw new NotFoundError(`text ${raw} not found`);
  return Number(raw);
}
