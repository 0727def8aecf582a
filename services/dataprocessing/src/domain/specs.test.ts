import { ConflictError, NotFoundError } from '@accord/common';
import {
  addTexts,
  isMaterial,
  oldestKeptVersion,
  parseTextId,
  reconsentSinceAfter,
  regimesOf,
  removeText,
  replaceText,
  specAsOf,
  versionFields,
} from './specs';
import type { SpecRecord, SpecState, SpecVersionRecord, TextRecord } from './model';

const now = new Date('2026-01-01T00:00:00Z');

/** The state of a newsletter specification. */
const newsletter: SpecState = {
  data: 'e-mail',
  purpose: 'news',
  action: 'collect',
  sensitive: false,
  consentTarget: true,
  location: 'EU',
  duration: 30,
  legalBasis: 'CONSENT',
  externalHref: null,
  regimes: { '*': { model: 'opt-in', gpc: 'ignore' } },
};

describe('texts of a specification', () => {
  it('get increasing integer ids that are never reused', () => {
    const a = addTexts(
      [],
      1,
      [
        { value: 'a', language: 'en', type: 'default' },
        { value: 'b', language: 'de', type: 'default' },
      ],
      now,
    );
    expect(a.created.map((t) => t.id)).toEqual([1, 2]);
    const removed = removeText(a.texts, 2);
    const b = addTexts(removed, a.nextTextId, [{ value: 'c', language: 'fr', type: 'default' }], now);
    expect(b.created[0]!.id).toBe(3);
  });

  it('hold one text per language and type', () => {
    const a = addTexts([], 1, [{ value: 'a', language: 'en', type: 'default' }], now);
    expect(() => addTexts(a.texts, a.nextTextId, [{ value: 'b', language: 'en', type: 'default' }], now)).toThrow(ConflictError);
    expect(addTexts(a.texts, a.nextTextId, [{ value: 'b', language: 'en', type: 'short' }], now).texts).toHaveLength(2);
  });

  it('are limited to 100 per specification (a conflict with the state: 409)', () => {
    const many = Array.from({ length: 100 }, (_, i): TextRecord => ({
      id: i + 1,
      value: 'v',
      language: 'en',
      type: 'default',
      createdAt: now,
      updatedAt: now,
    }));
    expect(() =>
      addTexts(
        many.map((t, i) => ({ ...t, language: `l${i}` })),
        101,
        [{ value: 'x', language: 'en', type: 'short' }],
        now,
      ),
    ).toThrow(ConflictError);
  });

  it('replace keeps id and creation time, and cannot take another text’s language and type', () => {
    const a = addTexts(
      [],
      1,
      [
        { value: 'a', language: 'en', type: 'default' },
        { value: 'b', language: 'de', type: 'default' },
      ],
      now,
    );
    const later = new Date('2026-02-01T00:00:00Z');
    const r = replaceText(a.texts, 1, { value: 'A', language: 'en', type: 'default' }, later);
    expect(r.updated).toMatchObject({ id: 1, value: 'A', createdAt: now, updatedAt: later });
    expect(() => replaceText(a.texts, 1, { value: 'A', language: 'de', type: 'default' }, later)).toThrow(ConflictError);
    expect(() => replaceText(a.texts, 9, { value: 'A', language: 'en', type: 'default' }, later)).toThrow(NotFoundError);
  });

  it('ids in requests must be positive integers', () => {
    expect(parseTextId('12')).toBe(12);
    for (const bad of ['0', '-1', 'abc', '1.5', '01']) expect(() => parseTextId(bad)).toThrow(NotFoundError);
  });
});

describe('version history', () => {
  it('keeps the newest 100 previous versions', () => {
    // current version 102 (after 101 updates): previous versions 2..101 are kept
    expect(oldestKeptVersion(102)).toBe(2);
    expect(oldestKeptVersion(101)).toBe(1);
    expect(oldestKeptVersion(2)).toBe(1);
  });
});

describe('material changes (re-consent)', () => {
  const base = newsletter;
  const spec = { ...base, reconsentSince: 3 } as unknown as SpecRecord;

  it.each([
    ['purpose', { purpose: 'sell' }],
    ['data', { data: 'phone' }],
    ['action', { action: 'share' }],
    ['legal basis', { legalBasis: 'LEGITIMATE_INTEREST' }],
    ['duration', { duration: 365 }],
    ['location', { location: 'US' }],
    ['sensitivity', { sensitive: true }],
    ['regimes (a jurisdiction added)', { regimes: { '*': { model: 'opt-in', gpc: 'ignore' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } } }],
    ['regimes (the GPC rule of one)', { regimes: { '*': { model: 'opt-in', gpc: 'opt-out' } } }],
  ] as const)('a change of %s is material', (_, change) => {
    expect(isMaterial(base, { ...base, ...change })).toBe(true);
    expect(reconsentSinceAfter(spec, { state: { ...base, ...change }, texts: [], nextTextId: 1 }, 7)).toBe(7);
  });

  it.each([
    ['the external link', { externalHref: 'https://example.com/p' }],
    ['whether consent is asked', { consentTarget: false }],
    ['how long a consent stays valid', { consentValidityDays: 30 }],
    ['nothing (a text edit)', {}],
  ] as const)('a change of %s is not, unless the editor marks it', (_, change) => {
    expect(isMaterial(base, { ...base, ...change })).toBe(false);
    expect(reconsentSinceAfter(spec, { state: { ...base, ...change }, texts: [], nextTextId: 1 }, 7)).toBe(3);
    expect(reconsentSinceAfter(spec, { state: { ...base, ...change }, texts: [], nextTextId: 1, requiresReconsent: true }, 7)).toBe(7);
  });
});

describe('a version record and its specification', () => {
  const created = new Date('2025-06-01T00:00:00Z');
  const text: TextRecord = { id: 1, value: 'We send news', language: 'en', type: 'default', createdAt: created, updatedAt: created };
  const v: SpecVersionRecord = {
    specId: 's1',
    accountId: 'acc',
    version: 3,
    createdAt: now,
    appId: 'app-2',
    state: newsletter,
    groupId: 'g1',
    texts: [text],
    nextTextId: 2,
    specCreatedAt: created,
    reconsentSince: 2,
    deletedAt: null,
  };

  it('is the specification as it was: created when the first version was, updated when this one was made, by its application', () => {
    expect(specAsOf(v)).toEqual({
      id: 's1',
      accountId: 'acc',
      groupId: 'g1',
      ...v.state,
      texts: [text],
      nextTextId: 2,
      version: 3,
      reconsentSince: 2,
      appId: 'app-2',
      createdAt: created,
      updatedAt: now,
      deletedAt: null,
    });
  });

  it('sets everything but the identity and the creation time when a specification is rolled forward to it', () => {
    const fields = versionFields(v);
    for (const fixed of ['id', 'accountId', 'groupId', 'createdAt']) expect(fields).not.toHaveProperty(fixed);
    expect(fields).toMatchObject({ version: 3, reconsentSince: 2, updatedAt: now, appId: 'app-2', deletedAt: null, data: 'e-mail' });
  });
});

describe('regimes as stored', () => {
  it('a specification written before regimes (none, or an empty map) is opt-in everywhere', () => {
    expect(regimesOf(undefined)).toEqual({ '*': { model: 'opt-in', gpc: 'ignore' } });
    expect(regimesOf({})).toEqual({ '*': { model: 'opt-in', gpc: 'ignore' } });
    const set: SpecState['regimes'] = { '*': { model: 'opt-out', gpc: 'opt-out' } };
    expect(regimesOf(set)).toBe(set);
  });
});
