import { InvalidArgumentError, OutcomeUnknownError, UnavailableError } from '@accord/common';
import type { ConsentEvent, ConsentInput } from '../domain/consent';
import type { SpecDetails } from '../domain/receipt';
import { memoryConsentStore, type MemoryConsentStore } from '../store/memory/store';
import { Consents, EXPORT_COUNT_MS } from './consents';
import type { ConsentStore, SpecSource } from './ports';

const BASE = 'https://accord.example';
const A = { accountId: 'acc', appId: 'app' };
const input = (over: Partial<ConsentInput> = {}): ConsentInput => ({
  subject: 's',
  issuer: 'https://shop.example',
  target: 'https://shop.example/privacy',
  action: true,
  ...over,
});
const specTarget = (id: string) => `${BASE}/dataprocessing/v0/dpspecs/${id}`;
const tick = () => new Promise((r) => setImmediate(r));

/** The use cases over a memory store (or a variant of it), recording what they publish, warn and nudge. */
function setUp(
  opts: {
    store?: MemoryConsentStore;
    wrap?: (s: MemoryConsentStore) => ConsentStore;
    specs?: Partial<Record<string, Partial<SpecDetails>>> | 'unavailable';
    /** What `asOf` answers (the specifications as they were at the moment asked). */
    specsThen?: Partial<Record<string, Partial<SpecDetails>>>;
  } = {},
) {
  const store = opts.store ?? memoryConsentStore();
  const published: string[] = [];
  const warnings: string[] = [];
  let nudges = 0;
  const specs: Pick<SpecSource, 'lookup' | 'current' | 'asOf'> = {
    lookup: async () => undefined,
    current: async (_acc, specId) => {
      if (opts.specs === 'unavailable') throw new UnavailableError('data processing service unavailable');
      const s = opts.specs?.[specId];
      return s && ({ id: specId, ...s } as SpecDetails);
    },
    asOf: async (_acc, specId) => {
      const s = opts.specsThen?.[specId];
      return s && ({ id: specId, ...s } as SpecDetails);
    },
  };
  const consents = new Consents(
    opts.wrap ? opts.wrap(store) : store,
    { publishStored: (evs) => void published.push(...evs.map((e) => e.id)) },
    { keys: [], settings: { baseUrl: BASE } as never, specs },
    { warn: (_obj: unknown, msg?: string) => void warnings.push(msg ?? '') },
    { nudge: () => void nudges++, anchor: async () => undefined },
    '',
    { publishLeaseMs: 30_000 },
  );
  return { consents, store, published, warnings, nudges: () => nudges };
}

/** Everything a reader could see of these events: by id, in the history, the export, the log's queue, the outbox. */
async function visible(store: ConsentStore, evs: Array<{ id: string }>): Promise<string[]> {
  const ids = new Set(evs.map((e) => e.id));
  const seen = new Set<string>();
  for (const e of evs) if (await store.events.findById(A.accountId, e.id)) seen.add(e.id);
  for (const e of await store.events.exportPage({ accountId: A.accountId, limit: 1000 })) if (ids.has(e.id)) seen.add(e.id);
  for (const e of (await store.logQueue.pending(A.accountId, 1000)).events) if (ids.has(e.id)) seen.add(e.id);
  return [...seen].sort();
}

describe('Consents.create: the write path', () => {
  it('stores, applies the current states and counts with three store calls, answers the events, then publishes and nudges the log', async () => {
    const { consents, store, published, nudges } = setUp();
    const [ev] = await consents.create(A.accountId, A.appId, [input()]);
    // answered before published: the publication's work is not on the answer's path
    expect(published).toEqual([]);
    expect(store.calls.sort()).toEqual(['current.apply', 'events.insert', 'statistics.count']);
    expect(ev).toMatchObject({ ...A, subject: 's', scope: 'default', action: true });
    expect(await store.events.findById(A.accountId, ev!.id)).toEqual(ev);
    expect(await store.current.ofSubject(A.accountId, 's', 'https://shop.example', [], 10)).toEqual([ev]);
    expect((await store.statistics.read(A.accountId, A.appId, new Date())).app.total).toBe(1);
    await consents.drain();
    expect(published).toEqual([ev!.id]);
    expect(nudges()).toBe(1);
  });

  it('writes the calls of one turn together: one insert, one current-state write and one counter write for three calls', async () => {
    const { consents, store } = setUp();
    const answers = await Promise.all([
      consents.create(A.accountId, A.appId, [input({ subject: 'a' })]),
      consents.create(A.accountId, A.appId, [input({ subject: 'b' }), input({ subject: 'c' })]),
      consents.create(A.accountId, 'app-2', [input({ subject: 'd' })]),
    ]);
    expect(answers.map((evs) => evs.map((e) => e.subject))).toEqual([['a'], ['b', 'c'], ['d']]);
    expect(store.calls.filter((c) => c === 'events.insert')).toHaveLength(1);
    expect(store.calls.filter((c) => c === 'current.apply')).toHaveLength(1);
    expect(store.calls.filter((c) => c === 'statistics.count')).toHaveLength(1);
  });

  it('refuses invalid input, every field at fault named, before touching the store', async () => {
    const { consents, store } = setUp();
    const err = await consents.create(A.accountId, A.appId, [input(), input({ subject: '', expiresAt: new Date(Date.now() - 1) })]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).fields.map((f) => f.field)).toEqual(['/1/subject', '/1/expiresAt']);
    await expect(consents.create(A.accountId, '', [input()])).rejects.toMatchObject({ fields: [{ field: 'app_id' }] });
    expect(store.calls).toEqual([]);
  });

  describe('binding to the specification a target names', () => {
    it('gives the current version to inputs without one, and an expiry from the validity days', async () => {
      const before = Date.now();
      const { consents } = setUp({ specs: { sp1: { version: 3, consentValidityDays: 2 } } });
      const [ev, other] = await consents.create(A.accountId, A.appId, [input({ target: specTarget('sp1') }), input()]);
      expect(ev!.targetVersion).toBe(3);
      expect(ev!.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 2 * 86_400_000);
      expect(other!.targetVersion).toBeUndefined();
      expect(other!.expiresAt).toBeUndefined();
    });

    it('refuses a version later than the current one, or a version of an unknown specification, naming the field', async () => {
      const { consents, store } = setUp({ specs: { sp1: { version: 3 } } });
      await expect(consents.create(A.accountId, A.appId, [input({ target: specTarget('sp1'), targetVersion: 4 })])).rejects.toMatchObject({
        fields: [{ field: '/0/targetVersion', message: expect.stringMatching(/later than the specification's current version 3/) }],
      });
      await expect(consents.create(A.accountId, A.appId, [input(), input({ target: specTarget('nope'), targetVersion: 1 })])).rejects.toMatchObject({
        fields: [{ field: '/1/targetVersion' }],
      });
      expect(store.calls).toEqual([]);
      expect((await consents.create(A.accountId, A.appId, [input({ target: specTarget('sp1'), targetVersion: 2 })]))[0]!.targetVersion).toBe(2);
    });

    it('stores the events without a version when the data processing service cannot answer, with a warning', async () => {
      const { consents, warnings } = setUp({ specs: 'unavailable' });
      const [ev] = await consents.create(A.accountId, A.appId, [input({ target: specTarget('sp1') })]);
      expect(ev!.targetVersion).toBeUndefined();
      expect(warnings.some((w) => /specification versions not checked/.test(w))).toBe(true);
    });
  });

  describe('the deadline rule: stored is stored', () => {
    it('answers before the caller stops waiting while the current states are still being applied, and publishes once they are', async () => {
      let finish!: () => void;
      const { consents, store, published, warnings } = setUp({
        wrap: (s) => ({ ...s, current: { ...s.current, apply: (evs) => new Promise<void>((res) => (finish = () => void s.current.apply(evs).then(res))) } }),
      });
      // a caller that stops waiting in 1.1 s: the answer must leave before (1 s margin)
      const [ev] = await consents.create(A.accountId, A.appId, [input()], Date.now() + 1100);
      expect(await store.events.findById(A.accountId, ev!.id)).toEqual(ev);
      expect(warnings).toContain('consent: answering before the current states are applied (deadline near); they follow shortly');
      expect(published).toEqual([]);
      finish();
      await consents.drain();
      expect(published).toEqual([ev!.id]);
    });

    it.each(['current.apply', 'statistics.count'])(
      'answers the stored events when %s fails, and leaves their publication to the relay (which applies the current states again)',
      async (method) => {
        const { consents, store, published, warnings } = setUp();
        store.faults.fail(method);
        const [ev] = await consents.create(A.accountId, A.appId, [input()]);
        expect(await store.events.findById(A.accountId, ev!.id)).toEqual(ev);
        await consents.drain();
        expect(published).toEqual([]);
        expect(warnings).toContain('consent: current states not applied; the outbox relay applies them after the lease');
        expect(await store.outbox.pending()).toMatchObject({ count: 1 });
      },
    );
  });

  describe('answered ⇔ stored, published and logged, when the insert fails', () => {
    /** Three calls of one batch: 2, 3 and 1 events. */
    const calls = (c: Consents) =>
      Promise.allSettled([
        c.create(A.accountId, A.appId, [input({ subject: 'first' }), input({ subject: 'first' })]),
        c.create(A.accountId, A.appId, [input({ subject: 'cut' }), input({ subject: 'cut' }), input({ subject: 'cut' })]),
        c.create(A.accountId, A.appId, [input({ subject: 'last' })]),
      ]);

    it('fails every call and stores nothing when the insert stores nothing', async () => {
      const { consents, store, published, nudges } = setUp();
      store.faults.fail('events.insert', { error: new Error('insert refused') });
      const results = await calls(consents);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect((results[0] as PromiseRejectedResult).reason).toEqual(new Error('insert refused'));
      expect(await store.events.exportPage({ accountId: A.accountId, limit: 10 })).toEqual([]);
      expect(await store.logQueue.accounts()).toEqual([]);
      await consents.drain();
      expect(published).toEqual([]);
      expect(nudges()).toBe(0);
    });

    it('answers the calls stored whole, fails the one cut in half and those after it, and nothing of the failed ones is ever seen, published or logged', async () => {
      const { consents, store, published } = setUp();
      // the ordered insert stops inside the second call (first 2 events + 1 of the second's 3)
      store.faults.fail('events.insert', { after: 3, error: new Error('connection reset') });
      const [first, cut, last] = await calls(consents);
      expect(first!.status).toBe('fulfilled');
      expect(cut).toEqual({ status: 'rejected', reason: new Error('connection reset') });
      expect(last).toEqual({ status: 'rejected', reason: new Error('connection reset') });
      const answered = (first as PromiseFulfilledResult<ConsentEvent[]>).value;
      expect(await visible(store, answered)).toEqual(answered.map((e) => e.id).sort());
      // the answered call is applied, counted and published as usual
      expect((await store.statistics.read(A.accountId, A.appId, new Date())).app.total).toBe(2);
      await consents.drain();
      expect(published).toEqual(answered.map((e) => e.id));
      // the cut call's stored event was withdrawn; its last id and the third call's are fenced
      expect(store.calls).toEqual(expect.arrayContaining(['events.fence', 'events.withdraw']));
      const all = await store.events.exportPage({ accountId: A.accountId, limit: 10 });
      expect(all.map((e) => e.subject)).toEqual(['first', 'first']);
    });

    it('lets a client retry a failed call without storing its consent twice', async () => {
      const { consents, store } = setUp();
      store.faults.fail('events.insert', { after: 1 });
      const inputs = [input({ subject: 'retry' }), input({ subject: 'retry', scope: 'sms' })];
      await expect(consents.create(A.accountId, A.appId, inputs)).rejects.toThrow();
      await consents.create(A.accountId, A.appId, inputs);
      const stored = await store.events.history({
        accountId: A.accountId,
        subject: 'retry',
        issuer: 'https://shop.example',
        target: 'https://shop.example/privacy',
        limit: 10,
      });
      expect(stored.map((e) => e.scope).sort()).toEqual(['default', 'sms']);
      expect(await store.events.exportPage({ accountId: A.accountId, limit: 10 })).toHaveLength(2);
    });

    it('keeps the cut call unseen when its stored part cannot be withdrawn, until the relay withdraws it', async () => {
      const { consents, store, warnings } = setUp();
      store.faults.fail('events.insert', { after: 3 });
      store.faults.fail('events.withdraw');
      const [first, cut] = await calls(consents);
      expect(first!.status).toBe('fulfilled');
      expect(cut!.status).toBe('rejected');
      expect(warnings).toContain('consent: events of a failed insert not withdrawn; they stay unread and the relay withdraws them');
      expect((await store.events.exportPage({ accountId: A.accountId, limit: 10 })).map((e) => e.subject)).toEqual(['first', 'first']);
      expect((await store.logQueue.pending(A.accountId, 10)).events.map((e) => e.subject)).toEqual(['first', 'first']);
    });

    it('answers "outcome unknown" when the database cannot even say what was stored; a call is then stored whole or not at all', async () => {
      const { consents, store, published } = setUp();
      store.faults.fail('events.insert', { after: 3, error: new Error('network timeout') });
      store.faults.fail('events.fence', { error: new Error('server selection timed out') });
      const results = await calls(consents);
      for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(OutcomeUnknownError);
      await consents.drain();
      expect(published).toEqual([]);
      // the first call is stored whole (found by a search); the cut one is seen nowhere
      expect((await store.events.exportPage({ accountId: A.accountId, limit: 10 })).map((e) => e.subject)).toEqual(['first', 'first']);
    });

    it('answers the calls the database reports stored, even when the insert itself reported a failure', async () => {
      const { consents, store } = setUp();
      // every event went in, then the answer was lost
      store.faults.fail('events.insert', { after: 6, error: new Error('socket closed') });
      const results = await calls(consents);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      await tick();
      expect(await store.events.exportPage({ accountId: A.accountId, limit: 10 })).toHaveLength(6);
    });
  });
});

describe('Consents reads', () => {
  it('searches the current states (with and without a scope) and the history, a page at a time', async () => {
    const { consents } = setUp();
    const [a, b, c] = await consents.create(A.accountId, A.appId, [
      input({ scope: 'email' }),
      input({ scope: 'sms' }),
      input({ scope: 'email', action: false }),
    ]);
    const q = { accountId: A.accountId, subject: 's', issuer: 'https://shop.example', target: 'https://shop.example/privacy' };
    expect((await consents.search({ ...q, current: true })).events.map((e) => e.id)).toEqual([c!.id, b!.id]);
    expect((await consents.search({ ...q, current: true, scope: 'email' })).events.map((e) => e.id)).toEqual([c!.id]);
    const page1 = await consents.search({ ...q, current: false, limit: 2 });
    expect(page1).toEqual({ events: [c, b], next: b!.id });
    expect(await consents.search({ ...q, current: false, limit: 2, cursor: page1.next! })).toEqual({ events: [a] });
  });

  it('reads the current states of concurrent searches with a scope in one lookup per account, each answered its own, and never in a lookup sent before it', async () => {
    const lookups: Array<{ accountId: string; keys: number }> = [];
    const { consents } = setUp({
      wrap: (s) => ({
        ...s,
        current: { ...s.current, byKeys: (accountId, keys) => (lookups.push({ accountId, keys: keys.length }), s.current.byKeys(accountId, keys)) },
      }),
    });
    const B = { accountId: 'acc-b', appId: 'app-b' };
    const [s1, s2] = await consents.create(A.accountId, A.appId, [input({ subject: 's1', scope: 'email' }), input({ subject: 's2', scope: 'email' })]);
    const [b1] = await consents.create(B.accountId, B.appId, [input({ subject: 's1', scope: 'email' })]);
    const q = (accountId: string, subject: string) => ({
      accountId,
      subject,
      issuer: 'https://shop.example',
      target: 'https://shop.example/privacy',
      scope: 'email',
      current: true,
    });
    const answers = await Promise.all([
      consents.search(q(A.accountId, 's1')),
      consents.search(q(A.accountId, 's2')),
      consents.search(q(A.accountId, 'nobody')),
      consents.search(q(B.accountId, 's1')),
    ]);
    expect(answers.map((a) => a.events.map((e) => e.id))).toEqual([[s1!.id], [s2!.id], [], [b1!.id]]);
    expect(lookups.sort((x, y) => x.accountId.localeCompare(y.accountId))).toEqual([
      { accountId: A.accountId, keys: 3 },
      { accountId: B.accountId, keys: 1 },
    ]);
    // a search that starts after a write was answered sees it, though a lookup is in flight meanwhile
    const inFlight = consents.search(q(A.accountId, 's1'));
    const [s1b] = await consents.create(A.accountId, A.appId, [input({ subject: 's1', scope: 'email', action: false })]);
    await inFlight;
    expect((await consents.search(q(A.accountId, 's1'))).events.map((e) => e.id)).toEqual([s1b!.id]);
  });

  it("estimates an export's size from the counters, inexact, when the count does not answer within its time budget", async () => {
    const { consents } = setUp({
      // a count that never answers (millions of events; a server that ignores maxTimeMS)
      wrap: (s) => ({ ...s, events: { ...s.events, count: () => new Promise<undefined>(() => undefined) } }),
    });
    const evs = await consents.create(A.accountId, A.appId, [
      input({ subject: 'a' }),
      input({ subject: 'b' }),
      input({ subject: 'a', target: 'https://other' }),
    ]);
    // without subject, time bounds or cursor: the counters, exact
    expect((await consents.exportPage({ accountId: A.accountId, withTotal: true })).total).toEqual({ total: 3, exact: true });
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const bySubject = consents.exportPage({ accountId: A.accountId, subject: 'a', withTotal: true });
      const byTarget = consents.exportPage({ accountId: A.accountId, target: 'https://other', cursor: evs[0]!.id, withTotal: true });
      await jest.advanceTimersByTimeAsync(EXPORT_COUNT_MS + 100);
      // the counters ignore subject and cursor: an upper bound
      expect((await bySubject).total).toEqual({ total: 3, exact: false });
      expect((await byTarget).total).toEqual({ total: 1, exact: false });
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('Consents.decide', () => {
  const item = (subject: string, over: Record<string, unknown> = {}) => ({
    subject,
    issuer: 'https://shop.example',
    target: 'https://shop.example/privacy',
    ...over,
  });

  it('answers 1,000 items now with one store call, in the order asked, repeated keys alike', async () => {
    const { consents, store } = setUp();
    await consents.create(A.accountId, A.appId, [input({ subject: 'yes' }), input({ subject: 'no', action: false })]);
    store.calls.length = 0;
    const items = Array.from({ length: 1000 }, (_, i) => item(['yes', 'no', `n-${i}`][i % 3]!));
    const out = await consents.decide(A.accountId, items);
    // an account without links: one probe for links, then none for a while (app/links.ts LINKLESS_RECHECK_MS)
    expect(store.calls).toEqual(['links.any', 'current.forDecisions']);
    store.calls.length = 0;
    await consents.decide(A.accountId, items);
    expect(store.calls).toEqual(['current.forDecisions']);
    expect(out.decisions.slice(0, 3).map((d) => [d.subject, d.allowed, d.basis])).toEqual([
      ['yes', true, 'consent'],
      ['no', false, 'declined'],
      ['n-2', false, 'no-consent'],
    ]);
    expect(out.decisions).toHaveLength(1000);
  });

  it('answers a past moment with at most one more call, only for states whose current event is newer', async () => {
    const { consents, store } = setUp();
    const [first] = await consents.create(A.accountId, A.appId, [input({ subject: 'a' }), input({ subject: 'b', action: false })]);
    await new Promise((r) => setTimeout(r, 5));
    const at = new Date();
    await new Promise((r) => setTimeout(r, 5));
    await consents.create(A.accountId, A.appId, [input({ subject: 'a', action: false })]);
    store.calls.length = 0;
    const out = await consents.decide(A.accountId, [item('a'), item('b'), item('c')], at);
    expect(store.calls).toEqual(['links.any', 'current.forDecisions', 'events.newestBefore']);
    expect(out.at).toEqual(at);
    expect(out.decisions.map((d) => [d.basis, d.event?.id])).toEqual([
      ['consent', first!.id],
      ['declined', out.decisions[1]!.event!.id],
      ['no-consent', undefined],
    ]);
    // nothing newer than `at`: the current states answer alone
    store.calls.length = 0;
    await consents.decide(A.accountId, [item('b'), item('c')], at);
    expect(store.calls).toEqual(['current.forDecisions']);
  });

  it('judges a past moment by the specification as it was then: its material changes and its legal basis', async () => {
    const specs: Record<string, Partial<SpecDetails>> = { s1: { version: 1, legalBasis: 'CONSENT' }, s2: { version: 1, legalBasis: 'CONSENT' } };
    const specsThen: Record<string, Partial<SpecDetails>> = {};
    const { consents } = setUp({ specs, specsThen });
    const [e1, e2] = await consents.create(A.accountId, A.appId, [
      input({ target: specTarget('s1'), targetVersion: 1 }),
      input({ target: specTarget('s2'), targetVersion: 1 }),
    ]);
    await new Promise((r) => setTimeout(r, 5));
    const then = new Date();
    // strictly later (a decision asked in the same millisecond as `at` is one about now)
    await new Promise((r) => setTimeout(r, 5));
    // later: s1 changed materially (version 3 asks again), s2 became a contract's processing
    Object.assign(specs, { s1: { version: 3, legalBasis: 'CONSENT', reconsentSince: 3 }, s2: { version: 2, legalBasis: 'CONTRACT' } });
    Object.assign(specsThen, { s1: { version: 1, legalBasis: 'CONSENT' }, s2: { version: 1, legalBasis: 'CONSENT' } });
    const items = [item('s', { target: specTarget('s1') }), item('s', { target: specTarget('s2') })];
    const basis = (out: Awaited<ReturnType<Consents['decide']>>) => out.decisions.map((d) => [d.basis, d.event?.id]);
    expect(basis(await consents.decide(A.accountId, items))).toEqual([
      ['renewal-required', e1!.id],
      ['not-required', e2!.id],
    ]);
    expect(basis(await consents.decide(A.accountId, items, then))).toEqual([
      ['consent', e1!.id],
      ['consent', e2!.id],
    ]);
    // a specification made after the moment: its target decides as a plain one then
    delete specsThen.s1;
    expect(basis(await consents.decide(A.accountId, items.slice(0, 1), then))).toEqual([['consent', e1!.id]]);
  });

  it('refuses a future moment, an empty or oversized batch and bad items, naming each', async () => {
    const { consents } = setUp();
    const fields = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidArgumentError);
      return (err as InvalidArgumentError).fields.map((f) => f.field);
    };
    expect(await fields(consents.decide(A.accountId, [item('a')], new Date(Date.now() + 60_000)))).toEqual(['/at']);
    expect(await fields(consents.decide(A.accountId, []))).toEqual(['/items']);
    expect(
      await fields(
        consents.decide(
          A.accountId,
          Array.from({ length: 10_001 }, () => item('a')),
        ),
      ),
    ).toEqual(['/items']);
    expect(await fields(consents.decide(A.accountId, [item('a'), item(''), item('c', { scope: ' ', jurisdiction: 'ZZ', gpc: 'yes' })]))).toEqual([
      '/items/1/subject',
      '/items/2/scope',
      '/items/2/jurisdiction',
      '/items/2/gpc',
    ]);
  });

  it('fails rather than guess when the specifications cannot be read', async () => {
    const { consents } = setUp({ specs: 'unavailable' });
    await expect(consents.decide(A.accountId, [item('a', { target: specTarget('s1') })])).rejects.toBeInstanceOf(UnavailableError);
  });
});
