import { InvalidArgumentError } from '@accord/common';
import { consentEventJson } from '@accord/proto';
import { eventMessage } from './wire';
import {
  buildEvents,
  EVENT_ID_PATTERN,
  LIMITS,
  needsRenewal,
  newestFirst,
  newestPerState,
  newToken,
  stateKey,
  supersedes,
  validateInputs,
  type ConsentInput,
} from './consent';
import { idFloor, idMatchesTime, idTime, importedEventId, nextEventId, timeOrderedId } from './event-id';
import { leafJson } from './log';
import { markLifecycle } from './decision';

const ok: ConsentInput = { subject: 's', issuer: 'i', target: 't', action: true };

function fieldsOf(fn: () => unknown): Array<{ field: string; message: string }> {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    return (err as InvalidArgumentError).fields;
  }
  throw new Error('expected InvalidArgumentError');
}

describe('validateInputs', () => {
  test.each(['subject', 'issuer', 'target', 'source', 'scope', 'delegate'] as const)(
    'refuses a %s holding U+FFFD (what a lone surrogate, or bytes that were not UTF-8, arrive as), naming it',
    (field) => {
      const errors = fieldsOf(() => validateInputs([ok, { ...ok, [field]: `x-\uFFFD` }]));
      expect(errors).toEqual([{ field: `/1/${field}`, message: expect.stringMatching(/^must not hold U\+FFFD/) }]);
    },
  );

  it('defaults scope to "default" and treats empty optional strings as absent', () => {
    expect(validateInputs([{ ...ok, scope: '', source: '', delegate: '' }])).toEqual([
      { subject: 's', issuer: 'i', target: 't', scope: 'default', action: true },
    ]);
  });

  it('keeps null and false actions apart', () => {
    expect(
      validateInputs([
        { ...ok, action: null },
        { ...ok, action: false },
      ]).map((e) => e.action),
    ).toEqual([null, false]);
  });

  it('requires subject, issuer and target, refusing blank values, with array paths', () => {
    expect(fieldsOf(() => validateInputs([ok, { subject: ' ', issuer: '', target: '', action: null }]))).toEqual([
      { field: '/1/subject', message: 'is required' },
      { field: '/1/issuer', message: 'is required' },
      { field: '/1/target', message: 'is required' },
    ]);
  });

  it('enforces the length limits of every field', () => {
    const long = (n: number) => 'x'.repeat(n + 1);
    const fields = fieldsOf(() =>
      validateInputs([
        {
          subject: long(LIMITS.subject),
          issuer: long(LIMITS.issuer),
          target: long(LIMITS.target),
          source: long(LIMITS.source),
          scope: long(LIMITS.scope),
          delegate: long(LIMITS.delegate),
          action: true,
        },
      ]),
    ).map((f) => f.field);
    expect(fields).toEqual(['/0/subject', '/0/issuer', '/0/target', '/0/source', '/0/scope', '/0/delegate']);
    expect(validateInputs([{ ...ok, target: 'x'.repeat(LIMITS.target) }])).toHaveLength(1);
  });

  it('refuses an empty batch and one larger than the maximum', () => {
    expect(fieldsOf(() => validateInputs([]))[0]!.field).toBe('/');
    expect(fieldsOf(() => validateInputs(Array.from({ length: LIMITS.maxBatch + 1 }, () => ok)))[0]!.message).toContain(String(LIMITS.maxBatch));
    expect(validateInputs(Array.from({ length: LIMITS.maxBatch }, () => ok))).toHaveLength(LIMITS.maxBatch);
  });
});

describe('targetVersion and expiresAt', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('keeps a positive integer targetVersion and a future expiresAt', () => {
    const expiresAt = new Date(now + 1000);
    expect(validateInputs([{ ...ok, targetVersion: 3, expiresAt }], now)[0]).toMatchObject({ targetVersion: 3, expiresAt });
  });

  it('refuses a targetVersion that is not a positive int32 and an expiresAt that is not in the future, naming each field', () => {
    expect(
      fieldsOf(() =>
        validateInputs(
          [
            { ...ok, targetVersion: 0 },
            { ...ok, targetVersion: 1.5 },
            { ...ok, targetVersion: 2 ** 31 },
            { ...ok, expiresAt: new Date(now) },
            { ...ok, expiresAt: new Date('nonsense') },
          ],
          now,
        ),
      ).map((f) => f.field),
    ).toEqual(['/0/targetVersion', '/1/targetVersion', '/2/targetVersion', '/3/expiresAt', '/4/expiresAt']);
  });

  it('carries both into the stored event and its log leaf', () => {
    const [ev] = buildEvents('acc', 'app', validateInputs([{ ...ok, targetVersion: 2, expiresAt: new Date(now + 60_000) }], now), now);
    expect(leafJson(ev!)).toMatchObject({ targetVersion: 2, expiresAt: '2026-01-01T00:01:00.000Z' });
    const [plain] = buildEvents('acc', 'app', validateInputs([ok], now), now);
    expect(leafJson(plain!)).not.toHaveProperty('targetVersion');
    expect(leafJson(plain!)).not.toHaveProperty('expiresAt');
  });

  it('marks current states expired from their expiresAt on, and only those', () => {
    const evs = buildEvents('acc', 'app', validateInputs([{ ...ok, expiresAt: new Date(now + 10) }, ok], now), now);
    expect(markLifecycle(evs, now + 9, () => undefined).map((e) => e.expired)).toEqual([undefined, undefined]);
    expect(markLifecycle(evs, now + 10, () => undefined).map((e) => e.expired)).toEqual([true, undefined]);
  });
});

describe('event ids', () => {
  it('are 32 lowercase hex characters starting with the creation millisecond', () => {
    const { id, createdAt } = nextEventId(1_700_000_000_123);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(idTime(id)).toEqual(createdAt);
  });

  it('bound time ranges: the floor of a millisecond sorts after every id of the one before and before every id of its own', () => {
    const t = 1_700_000_000_500;
    const floor = idFloor(t);
    expect(floor).toBe(t.toString(16).padStart(12, '0') + '0'.repeat(20));
    expect(timeOrderedId(new Date(t - 1)) < floor).toBe(true);
    expect(timeOrderedId(new Date(t)) >= floor).toBe(true);
    expect(idTime(timeOrderedId(new Date(t))).getTime()).toBe(t);
  });

  it('strictly increase within one millisecond and when the clock steps back', () => {
    const t = Date.now() + 10_000;
    const ids = [nextEventId(t), nextEventId(t), nextEventId(t), nextEventId(t - 5_000)].map((x) => x.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
  });

  it('sort like createdAt across milliseconds', () => {
    const a = nextEventId(Date.now() + 20_000);
    const b = nextEventId(Date.now() + 20_001);
    expect(a.id < b.id).toBe(true);
    expect(a.createdAt < b.createdAt).toBe(true);
  });
});

describe('tokens and events', () => {
  it('tokens are six upper-case alphanumeric characters and vary', () => {
    const tokens = Array.from({ length: 200 }, newToken);
    for (const t of tokens) expect(t).toMatch(/^[A-Z0-9]{6}$/);
    expect(new Set(tokens).size).toBeGreaterThan(190);
  });

  it('builds events in request order with the writer account and app, and renders the REST JSON', () => {
    const evs = buildEvents(
      'acc',
      'app',
      validateInputs([
        { ...ok, source: 'web' },
        { ...ok, action: null, delegate: 'agent' },
      ]),
    );
    expect(evs[0]!.id < evs[1]!.id).toBe(true);
    const rest = (e: (typeof evs)[number]) => consentEventJson(eventMessage(e));
    expect(rest(evs[0]!)).toEqual({
      id: evs[0]!.id,
      subject: 's',
      issuer: 'i',
      target: 't',
      source: 'web',
      scope: 'default',
      action: true,
      token: evs[0]!.token,
      createdAt: evs[0]!.createdAt.toISOString(),
      appId: 'app',
    });
    // new events: the REST answer and the log leaf are the same object (receipts verify against the answer)
    for (const e of evs) expect(rest(e)).toEqual(leafJson(e));
    expect(rest(evs[1]!)).not.toHaveProperty('source');
    expect(rest(evs[1]!)).toMatchObject({ action: null, delegate: 'agent' });
    expect(rest(evs[0]!).createdAt).toMatch(/\.\d{3}Z$/);
  });

  it("an event's message holds its optional fields when they are set, and none of them when they are not", () => {
    const [plain] = buildEvents('acc', 'app', validateInputs([ok]));
    const optional = {
      source: 'web',
      delegate: 'agent',
      targetVersion: 3,
      expiresAt: new Date('2030-01-01T00:00:00Z'),
      importedAt: new Date('2026-01-02T00:00:00Z'),
    };
    expect(eventMessage({ ...plain!, ...optional })).toMatchObject(optional);
    for (const f of Object.keys(optional)) expect(eventMessage(plain!)).not.toHaveProperty(f);
  });

  it('state keys separate fields unambiguously', () => {
    expect(stateKey('a', 'b', 'c', 'd', 'e')).not.toBe(stateKey('a', 'bc', '', 'd', 'e'));
    expect(stateKey('a', 'b', 'c', 'd', 'e')).toBe(stateKey('a', 'b', 'c', 'd', 'e'));
  });
});

describe('renewal on material change', () => {
  test('a consent is due when the version consented to is older than the latest material one', () => {
    expect(needsRenewal(1, 2)).toBe(true);
    expect(needsRenewal(2, 2)).toBe(false);
    expect(needsRenewal(3, 2)).toBe(false);
    // no version (other targets, older events) or no known material version: never due
    expect(needsRenewal(undefined, 2)).toBe(false);
    expect(needsRenewal(1, undefined)).toBe(false);
  });

  test('current states are flagged by their target, others left as they are', () => {
    const evs = buildEvents(
      'acc',
      'app',
      validateInputs([
        { subject: 's', issuer: 'i', target: 'urn:accord:dpspec:a', action: true },
        { subject: 's', issuer: 'i', target: 'other', action: true },
      ]),
    );
    evs[0]!.targetVersion = 1;
    evs[1]!.targetVersion = 1;
    const marked = markLifecycle(evs, Date.now(), (t) => (t === 'urn:accord:dpspec:a' ? 2 : undefined));
    expect(marked.map((e) => e.renewalRequired)).toEqual([true, undefined]);
    expect(evs[0]).not.toHaveProperty('renewalRequired');
  });
});

describe('newest event wins', () => {
  const at = (id: string) => new Date(Date.UTC(2026, 0, 1) + parseInt(id, 16));
  const ev = (id: string, scope = 's', createdAt = at(id)) => ({ id, createdAt, accountId: 'a', subject: 'u', issuer: 'i', target: 't', scope });
  it('the larger (newer) id replaces a state’s current event, whatever the order of arrival', () => {
    expect(supersedes(ev('02'), ev('01'))).toBe(true);
    expect(supersedes(ev('01'), ev('02'))).toBe(false);
    expect(supersedes(ev('01'), ev('01'))).toBe(false);
    expect(supersedes(ev('01'), undefined)).toBe(true);
  });
  it('a batch keeps the newest event of each state', () => {
    const newest = newestPerState([ev('03'), ev('05'), ev('04'), ev('01', 'other')]);
    expect([...newest.values()].map((e) => e.id).sort()).toEqual(['01', '05']);
  });
  it('the event created later wins, whatever its id: an old event imported today never replaces a newer one', () => {
    const live = ev('01', 's', new Date('2026-01-02T00:00:00Z'));
    const imported = ev('ff', 's', new Date('2019-05-01T00:00:00Z'));
    expect(supersedes(imported, live)).toBe(false);
    expect(supersedes(live, imported)).toBe(true);
    expect([...newestPerState([live, imported]).values()].map((e) => e.id)).toEqual(['01']);
    // the same millisecond: the id decides
    const t = new Date('2026-01-02T00:00:00Z');
    expect(supersedes(ev('02', 's', t), ev('01', 's', t))).toBe(true);
    expect([ev('01', 's', t), ev('02', 's', t), imported].sort(newestFirst).map((e) => e.id)).toEqual(['02', '01', 'ff']);
  });
  it('an imported event’s id begins with its original creation time, so ids order events as supersedes does', () => {
    const old = new Date('2019-05-01T12:34:56.789Z');
    const id = importedEventId(old);
    expect(EVENT_ID_PATTERN.test(id)).toBe(true);
    expect(idTime(id)).toEqual(old);
    expect(idMatchesTime(id, old)).toBe(true);
    const live = nextEventId();
    expect(idMatchesTime(live.id, live.createdAt)).toBe(true);
    expect(id < live.id).toBe(true);
    expect(supersedes({ id, createdAt: old }, live)).toBe(false);
  });
});
