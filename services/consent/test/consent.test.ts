import { consentv1 } from '@accord/proto';
import { status } from '@grpc/grpc-js';
import { expectGrpcError, fieldErrors, consentInput as input, startService, type RunningService } from '@accord/testkit';
import { targetRow } from './statistics';

let svc: RunningService<'consent'>;
const A = { accountId: 'acc-a', appId: 'app-a1' };
const B = { accountId: 'acc-b', appId: 'app-b1' };

beforeAll(async () => {
  svc = await startService('consent', 'consentcore');
});
afterAll(async () => svc?.stop());

const create = (who: { accountId: string; appId: string }, events: Parameters<typeof input>[0][]) =>
  svc.client.createConsents({ ...who, events: events.map((e) => input(e)) });
/** A search of account A for one subject and target (the default issuer): its whole history, or its current events. */
const searchOf = (who: { subject: string; target: string }, current: boolean) => ({
  accountId: A.accountId,
  subject: who.subject,
  issuer: input().issuer,
  target: who.target,
  current,
});

describe('writing events', () => {
  it('stores one event with a time-ordered hex id, a 6-character token, a millisecond timestamp and scope "default"', async () => {
    const before = Date.now();
    const { events } = await create(A, [{ action: true, source: 'web' }]);
    expect(events).toHaveLength(1);
    const ev = events[0]!;
    expect(ev.id).toMatch(/^[0-9a-f]{32}$/);
    expect(ev.token).toMatch(/^[A-Z0-9]{6}$/);
    expect(ev.scope).toBe('default');
    expect(ev.action).toBe(true);
    expect(ev.source).toBe('web');
    expect(ev.delegate).toBeUndefined();
    expect(ev.appId).toBe(A.appId);
    expect(ev.createdAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(parseInt(ev.id.slice(0, 12), 16)).toBe(ev.createdAt!.getTime());
  });

  it('maps an absent action to null (no action taken) and keeps false as declined', async () => {
    const { events } = await create(A, [{ subject: 'nullish' }, { subject: 'nullish', action: false }]);
    expect(events[0]!.action).toBeUndefined();
    expect(events[1]!.action).toBe(false);
    const got = await svc.client.getConsent({ accountId: A.accountId, id: events[0]!.id });
    expect(got.action).toBeUndefined();
  });

  it('answers an array in request order with strictly increasing ids', async () => {
    const { events } = await create(
      A,
      [1, 2, 3, 4, 5].map((n) => ({ subject: `order-${n}` })),
    );
    expect(events.map((e) => e.subject)).toEqual(['order-1', 'order-2', 'order-3', 'order-4', 'order-5']);
    const ids = events.map((e) => e.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(5);
  });

  it('validates the whole array first and stores nothing when one event is invalid, naming every bad field', async () => {
    const err = await expectGrpcError(
      create(A, [{ subject: 'all-or-nothing' }, { subject: '' }, { subject: 'all-or-nothing', target: 'x'.repeat(2049) }]),
      status.INVALID_ARGUMENT,
    );
    expect(fieldErrors(err)).toEqual([
      { field: '/1/subject', message: 'is required' },
      { field: '/2/target', message: 'must be at most 2048 characters' },
    ]);
    const found = await svc.client.searchConsents(searchOf({ subject: 'all-or-nothing', target: input().target }, false));
    expect(found.events).toEqual([]);
  });

  it('refuses a missing issuer and target and an over-long scope', async () => {
    const err = await expectGrpcError(
      svc.client.createConsents({ ...A, events: [{ subject: 's', issuer: '', target: '', scope: 'x'.repeat(257) }] }),
      status.INVALID_ARGUMENT,
    );
    expect(fieldErrors(err).map((f) => f.field)).toEqual(['/0/issuer', '/0/target', '/0/scope']);
  });

  it('refuses an empty array and more than 1000 events', async () => {
    await expectGrpcError(svc.client.createConsents({ ...A, events: [] }), status.INVALID_ARGUMENT);
    const err = await expectGrpcError(
      create(
        A,
        Array.from({ length: 1001 }, () => ({})),
      ),
      status.INVALID_ARGUMENT,
    );
    expect(err.details).toContain('1000');
  });

  it('requires the account and application of the writer', async () => {
    await expectGrpcError(svc.client.createConsents({ accountId: '', appId: 'x', events: [input()] }), status.INVALID_ARGUMENT);
    await expectGrpcError(svc.client.createConsents({ accountId: 'x', appId: '', events: [input()] }), status.INVALID_ARGUMENT);
  });

  it('offers no way to update or delete an event', () => {
    const methods = Object.keys(consentv1.ConsentServiceService);
    expect(methods.filter((m) => /update|delete|remove|patch|put/i.test(m))).toEqual([]);
  });
});

describe('reading events', () => {
  it('gets an event by id only within its own account', async () => {
    const { events } = await create(A, [{ subject: 'by-id' }]);
    const id = events[0]!.id;
    expect((await svc.client.getConsent({ accountId: A.accountId, id })).subject).toBe('by-id');
    await expectGrpcError(svc.client.getConsent({ accountId: B.accountId, id }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getConsent({ accountId: A.accountId, id: 'not-an-id' }), status.NOT_FOUND);
    await expectGrpcError(svc.client.getConsent({ accountId: A.accountId, id: '0'.repeat(32) }), status.NOT_FOUND);
  });

  it('finds events by token case-insensitively, newest first, only in the own account', async () => {
    const { events } = await create(A, [{ subject: 'by-token' }]);
    const token = events[0]!.token;
    const res = await svc.client.getConsentsByToken({ accountId: A.accountId, token: token.toLowerCase() });
    expect(res.events.map((e) => e.id)).toContain(events[0]!.id);
    const ids = res.events.map((e) => e.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect((await svc.client.getConsentsByToken({ accountId: B.accountId, token })).events).toEqual([]);
    await expectGrpcError(svc.client.getConsentsByToken({ accountId: A.accountId, token: 'AB' }), status.INVALID_ARGUMENT);
  });

  it('search requires subject, issuer and target and names each missing one', async () => {
    const err = await expectGrpcError(
      svc.client.searchConsents({ accountId: A.accountId, subject: '', issuer: 'i', target: '', current: false }),
      status.INVALID_ARGUMENT,
    );
    expect(fieldErrors(err).map((f) => f.field)).toEqual(['subject', 'target']);
  });

  it('search returns every matching event newest first, filtered by scope and source', async () => {
    const who = { subject: 'history', target: 'https://shop.example/dpspec/1' };
    await create(A, [{ ...who, action: true, scope: 'email' }]);
    await create(A, [{ ...who, action: false, scope: 'email', source: 'phone' }]);
    await create(A, [{ ...who, action: true, scope: 'sms' }]);
    const q = searchOf(who, false);
    const all = await svc.client.searchConsents(q);
    expect(all.events.map((e) => [e.scope, e.action ?? null])).toEqual([
      ['sms', true],
      ['email', false],
      ['email', true],
    ]);
    expect(all.nextCursor).toBe('');
    expect((await svc.client.searchConsents({ ...q, scope: 'email' })).events).toHaveLength(2);
    expect((await svc.client.searchConsents({ ...q, source: 'phone' })).events.map((e) => e.action)).toEqual([false]);
    expect((await svc.client.searchConsents({ ...q, accountId: B.accountId })).events).toEqual([]);
  });

  it('current=true with scope answers at most the newest event; without scope the newest of each scope', async () => {
    const who = { subject: 'current', target: 'https://shop.example/terms' };
    const first = await create(A, [
      { ...who, action: true, scope: 'a' },
      { ...who, action: true, scope: 'b' },
    ]);
    const second = await create(A, [{ ...who, action: false, scope: 'a' }]);
    const q = searchOf(who, true);
    const a = await svc.client.searchConsents({ ...q, scope: 'a' });
    expect(a.events.map((e) => e.id)).toEqual([second.events[0]!.id]);
    const each = await svc.client.searchConsents(q);
    expect(each.events.map((e) => e.id)).toEqual([second.events[0]!.id, first.events[1]!.id]);
    expect((await svc.client.searchConsents({ ...q, scope: 'none' })).events).toEqual([]);
  });

  it('current state follows the newest event under concurrent writers', async () => {
    const who = { subject: 'race', target: 'https://shop.example/race' };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i % 2 ? A : { ...A, appId: 'app-a2' }, [{ ...who, action: i % 3 === 0 }])));
    const newest = results
      .map((r) => r.events[0]!.id)
      .sort()
      .at(-1);
    const cur = await svc.client.searchConsents({ ...searchOf(who, true), scope: 'default' });
    expect(cur.events.map((e) => e.id)).toEqual([newest]);
  });

  it('keeps exactly one current state, the newest event, and exact counters when many writers of two apps race on it', async () => {
    const acc = { accountId: 'acc-race' };
    const apps = ['app-r1', 'app-r2'];
    const target = 'https://shop.example/race-stats';
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        create({ ...acc, appId: apps[i % 2]! }, [{ subject: 'racer', target, action: i % 3 === 0 ? undefined : i % 2 === 0 }]),
      ),
    );
    const events = results.map((r) => r.events[0]!).sort((x, y) => (x.id < y.id ? -1 : 1));
    const newest = events.at(-1)!;
    const stats = await Promise.all(apps.map((appId) => svc.client.getStatistics({ ...acc, appId })));
    expect(stats.map((s) => s.total)).toEqual([15, 15]);
    const row = (s: (typeof stats)[number]) => s.targets.find((t) => t.target === target)!;
    expect(stats.map((s) => row(s).events)).toEqual([15, 15]);
    // one state: across both apps exactly one current, the newest event's action, counted for its app
    const current = stats.map((s) => [row(s).currentAccepted, row(s).currentDeclined, row(s).currentNoAction]);
    const expected = [0, 0, 0];
    expected[newest.action === undefined ? 2 : newest.action ? 0 : 1] = 1;
    expect(current[apps.indexOf(newest.appId)]).toEqual(expected);
    expect(current[1 - apps.indexOf(newest.appId)]).toEqual([0, 0, 0]);
  });

  it('pages long histories with limit and a cursor, newest first without gaps or repeats', async () => {
    const who = { subject: 'paged', target: 'https://shop.example/paged' };
    const { events } = await create(
      A,
      Array.from({ length: 25 }, () => ({ ...who, action: true })),
    );
    const expected = events.map((e) => e.id).reverse();
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const page = await svc.client.searchConsents({ ...searchOf(who, false), page: { limit: 10, cursor } });
      seen.push(...page.events.map((e) => e.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(expected);
    await expectGrpcError(
      svc.client.searchConsents({ accountId: A.accountId, subject: 's', issuer: 'i', target: 't', current: false, page: { limit: 1001, cursor: '' } }),
      status.INVALID_ARGUMENT,
    );
    await expectGrpcError(
      svc.client.searchConsents({ accountId: A.accountId, subject: 's', issuer: 'i', target: 't', current: false, page: { limit: 10, cursor: 'zz' } }),
      status.INVALID_ARGUMENT,
    );
  });

  it('GetCurrentStates gives the current event of each (target, scope) of a subject and issuer', async () => {
    const s = { subject: 'dashboard', issuer: 'https://dash.example' };
    await create(A, [
      { ...s, target: 't1', action: true },
      { ...s, target: 't2', action: true },
      { ...s, target: 't1', action: false },
      { ...s, target: 't3', scope: 'x' },
    ]);
    const some = await svc.client.getCurrentStates({ accountId: A.accountId, ...s, targets: ['t1', 't2'] });
    expect(some.events.map((e) => [e.target, e.action ?? null]).sort()).toEqual([
      ['t1', false],
      ['t2', true],
    ]);
    const all = await svc.client.getCurrentStates({ accountId: A.accountId, ...s, targets: [] });
    expect(all.events).toHaveLength(3);
    expect((await svc.client.getCurrentStates({ accountId: B.accountId, ...s, targets: [] })).events).toEqual([]);
  });
});

describe('SearchConsentsBatch (the gateway’s concurrent reads)', () => {
  it('answers each search as SearchConsents would, in order, each in its own account, a bad one with its own failure', async () => {
    const target = 'https://batch.example/policy';
    const [a] = (await create(A, [{ subject: 'batch-a', target, scope: 'email' }])).events;
    const [b] = (await create(B, [{ subject: 'batch-a', target, scope: 'email' }])).events;
    const q = (accountId: string, over: Partial<consentv1.SearchConsentsRequest> = {}) => ({
      accountId,
      subject: 'batch-a',
      issuer: input().issuer,
      target,
      scope: 'email',
      current: true,
      ...over,
    });
    const searches = [
      q(A.accountId),
      q(B.accountId),
      q(A.accountId, { subject: 'nobody' }),
      q(A.accountId, { page: { limit: 0, cursor: 'nope' } }),
      q(A.accountId, { current: false }),
    ];
    const { results } = await svc.client.searchConsentsBatch({ searches });
    const alone = await Promise.allSettled(searches.map((s) => svc.client.searchConsents(s)));
    expect(results.map((r) => r.response?.events.map((e) => e.id))).toEqual([[a!.id], [b!.id], [], undefined, [a!.id]]);
    results.forEach((r, i) => {
      const one = alone[i]!;
      if (one.status === 'fulfilled') expect(r).toEqual({ response: one.value });
      else
        expect(r.failure).toEqual({
          code: status.INVALID_ARGUMENT,
          message: (one.reason as { details: string }).details,
          fields: fieldErrors(one.reason as never),
        });
    });
    expect(results[3]!.failure!.fields).toEqual([{ field: 'cursor', message: 'is not a cursor of this search' }]);
  });

  it('refuses an empty batch and one of more than 1000 searches, naming the field; only the gateway may call it', async () => {
    expect(fieldErrors(await expectGrpcError(svc.client.searchConsentsBatch({ searches: [] }), status.INVALID_ARGUMENT))).toEqual([
      { field: 'searches', message: 'must hold 1 to 1000 searches' },
    ]);
    const one = { accountId: A.accountId, subject: 's', issuer: input().issuer, target: input().target, current: true };
    await expectGrpcError(svc.client.searchConsentsBatch({ searches: Array.from({ length: 1001 }, () => one) }), status.INVALID_ARGUMENT);
    await expectGrpcError(svc.clientAs('dataprocessing').searchConsentsBatch({ searches: [one] }), status.PERMISSION_DENIED);
    await expectGrpcError(svc.clientAs('none').searchConsentsBatch({ searches: [one] }), status.UNAUTHENTICATED);
  });
});

describe('statistics', () => {
  it('counts events by action, distinct subjects, per-target events and current states, and the latest event time, per application', async () => {
    const who = { accountId: 'acc-stats', appId: 'app-s1' };
    const other = { accountId: 'acc-stats', appId: 'app-s2' };
    const t1 = 'https://s.example/t1';
    await create(who, [
      { subject: 'u1', target: t1, action: true },
      { subject: 'u2', target: t1, action: true },
      { subject: 'u1', target: t1, action: false },
      { subject: 'u3', target: 'https://s.example/t2' },
    ]);
    const last = await create(who, [{ subject: 'u2', target: t1, action: true, scope: 'extra' }]);
    // another app of the same account takes over u2's default state on t1
    await create(other, [{ subject: 'u2', target: t1, action: false }]);

    const s = await svc.client.getStatistics(who);
    expect(s).toMatchObject({ appId: 'app-s1', total: 5, accepted: 3, declined: 1, noAction: 1, distinctSubjects: 3 });
    expect(s.latestEventAt).toEqual(last.events[0]!.createdAt);
    expect(s.targets).toEqual([
      targetRow(t1, { events: 4, currentAccepted: 1, currentDeclined: 1 }),
      targetRow('https://s.example/t2', { events: 1, currentNoAction: 1 }),
    ]);
    const o = await svc.client.getStatistics(other);
    expect(o).toMatchObject({ total: 1, declined: 1, distinctSubjects: 1 });
    expect(o.targets).toEqual([targetRow(t1, { events: 1, currentDeclined: 1 })]);
    const none = await svc.client.getStatistics({ accountId: 'acc-none', appId: 'app-none' });
    expect(none).toMatchObject({ total: 0, distinctSubjects: 0, targets: [] });
    expect(none.latestEventAt).toBeUndefined();
  });
});

describe('expiry', () => {
  const who = { accountId: 'acc-exp', appId: 'app-exp' };
  const target = 'https://s.example/expiring';

  it('refuses an expiresAt that is not in the future, naming the field', async () => {
    const err = await expectGrpcError(create(who, [{ target, expiresAt: new Date(Date.now() - 1000) }]), status.INVALID_ARGUMENT);
    expect(fieldErrors(err)).toEqual([{ field: '/0/expiresAt', message: 'must be in the future' }]);
  });

  it('a lapsed consent shows expired: true in current states and counts apart in statistics; history and later renewals do not', async () => {
    // far enough ahead that the call surely arrives before it (the service refuses a past expiresAt), also on a
    // loaded machine; a consent not lapsed yet is `lasting` (an hour ahead), so no check races the clock here
    const expiresAt = new Date(Date.now() + 1500);
    const { events } = await create(who, [
      { subject: 'lapsing', target, action: true, expiresAt },
      { subject: 'lasting', target, action: true, expiresAt: new Date(Date.now() + 3_600_000) },
    ]);
    expect(events[0]!.expiresAt).toEqual(expiresAt);
    const current = (subject: string) => svc.client.searchConsents({ accountId: who.accountId, subject, issuer: input().issuer, target, current: true });
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt.getTime() - Date.now() + 50)));

    const lapsed = (await current('lapsing')).events[0]!;
    expect(lapsed).toMatchObject({ id: events[0]!.id, expired: true, expiresAt });
    expect((await current('lasting')).events[0]!.expired).toBeUndefined();
    const states = await svc.client.getCurrentStates({ accountId: who.accountId, subject: 'lapsing', issuer: input().issuer, targets: [target] });
    expect(states.events[0]!.expired).toBe(true);
    // the event itself is history: no expired flag outside current states
    expect((await svc.client.getConsent({ accountId: who.accountId, id: events[0]!.id })).expired).toBeUndefined();
    expect((await svc.client.getStatistics(who)).targets).toEqual([targetRow(target, { events: 2, currentAccepted: 1, currentExpired: 1 })]);

    // consenting again (without expiry) makes the state current and unexpired
    await create(who, [{ subject: 'lapsing', target, action: true }]);
    expect((await current('lapsing')).events[0]!.expired).toBeUndefined();
    expect((await svc.client.getStatistics(who)).targets[0]).toMatchObject({
      currentAccepted: 2,
      currentExpired: 0,
      currentRenewalRequired: 0,
      currentGpcDeclines: 0,
    });
  });
});

describe('export', () => {
  const who = { accountId: 'acc-export', appId: 'app-x1' };
  const other = { accountId: 'acc-export', appId: 'app-x2' };

  it('pages the account’s events oldest first with a resumable cursor, filtered by application, target, subject and time', async () => {
    const first = await create(who, [
      { subject: 'e1', target: 'https://x.example/a', action: true },
      { subject: 'e2', target: 'https://x.example/b', action: false },
      { subject: 'e1', target: 'https://x.example/b' },
    ]);
    await new Promise((r) => setTimeout(r, 20));
    const middle = new Date();
    await new Promise((r) => setTimeout(r, 20));
    const second = await create(other, [{ subject: 'e1', target: 'https://x.example/a', action: false }]);
    await create({ accountId: 'acc-elsewhere', appId: 'app-x1' }, [{ subject: 'e1' }]);
    const all = [...first.events, ...second.events].map((e) => e.id);

    const pages: string[][] = [];
    for (let cursor = '', n = 0; n < 10; n++) {
      const page = await svc.client.exportConsents({ accountId: who.accountId, cursor, limit: 2, withTotal: false });
      pages.push(page.events.map((e) => e.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(pages.flat()).toEqual(all);
    expect(pages[0]).toHaveLength(2);

    const ids = async (f: Partial<consentv1.ExportConsentsRequest>) =>
      (await svc.client.exportConsents({ accountId: who.accountId, cursor: '', limit: 0, withTotal: false, ...f })).events.map((e) => e.id);
    expect(await ids({ appId: other.appId })).toEqual([second.events[0]!.id]);
    expect(await ids({ target: 'https://x.example/b' })).toEqual([first.events[1]!.id, first.events[2]!.id]);
    expect(await ids({ subject: 'e1' })).toEqual([first.events[0]!.id, first.events[2]!.id, second.events[0]!.id]);
    expect(await ids({ since: middle })).toEqual([second.events[0]!.id]);
    expect(await ids({ until: middle })).toEqual(first.events.map((e) => e.id));
    expect(await ids({ since: first.events[1]!.createdAt, until: middle })).toEqual(
      first.events.filter((e) => e.createdAt! >= first.events[1]!.createdAt!).map((e) => e.id),
    );
  });

  it('estimates the export’s size from the cursor on when asked: counters without time, subject or cursor, else one count with the same filter', async () => {
    const acc = { accountId: 'acc-export-total', appId: 'app-t1' };
    const made = await create(acc, [
      { subject: 't1', target: 'https://t.example/a' },
      { subject: 't2', target: 'https://t.example/a' },
      { subject: 't1', target: 'https://t.example/b' },
    ]);
    const total = async (f: Partial<consentv1.ExportConsentsRequest>) =>
      (await svc.client.exportConsents({ accountId: acc.accountId, cursor: '', limit: 1, withTotal: true, ...f })).total;
    // the statistics counters are written after the events: wait for them
    for (let n = 0; n < 50 && (await total({})) !== 3; n++) await new Promise((r) => setTimeout(r, 50));
    expect(await total({})).toBe(3);
    expect(await total({ appId: acc.appId })).toBe(3);
    expect(await total({ appId: 'app-none' })).toBe(0);
    expect(await total({ target: 'https://t.example/a' })).toBe(2);
    expect(await total({ subject: 't1' })).toBe(2);
    expect(await total({ cursor: made.events[0]!.id })).toBe(2);
    expect(await total({ subject: 't1', cursor: made.events[0]!.id })).toBe(1);
    expect(await total({ since: new Date(Date.now() + 60_000) })).toBe(0);
    expect((await svc.client.exportConsents({ accountId: acc.accountId, cursor: '', limit: 1, withTotal: true, subject: 't1' })).totalExact).toBe(true);
    // not asked: not counted
    expect((await svc.client.exportConsents({ accountId: acc.accountId, cursor: '', limit: 1, withTotal: false })).total).toBeUndefined();
  });

  it('answers one subject’s export whole: its events oldest first with the filters, and the current states they name, newest first', async () => {
    const acc = { accountId: 'acc-export-subject', appId: 'app-s1' };
    const made = await create(acc, [
      { subject: 'd1', target: 'https://d.example/a', action: true },
      { subject: 'd2', target: 'https://d.example/a', action: false },
      { subject: 'd1', target: 'https://d.example/b', action: false },
      { subject: 'd1', target: 'https://d.example/a', action: false },
    ]);
    const [a1, , b1, a2] = made.events;
    const doc = await svc.client.exportSubject({ accountId: acc.accountId, subject: 'd1' });
    expect(doc.events.map((e) => e.id)).toEqual([a1!.id, b1!.id, a2!.id]);
    expect(doc.current.map((e) => e.id)).toEqual([a2!.id, b1!.id]);
    const narrow = await svc.client.exportSubject({ accountId: acc.accountId, subject: 'd1', target: 'https://d.example/b' });
    expect(narrow.events.map((e) => e.id)).toEqual([b1!.id]);
    expect(narrow.current.map((e) => e.id)).toEqual([b1!.id]);
    expect(fieldErrors(await expectGrpcError(svc.client.exportSubject({ accountId: acc.accountId, subject: '' }), status.INVALID_ARGUMENT))[0]!.field).toBe(
      'subject',
    );
  });

  it('refuses a malformed cursor, a page size over 1000 and an until not after since, naming each', async () => {
    const err = await expectGrpcError(
      svc.client.exportConsents({ accountId: who.accountId, cursor: 'nope', limit: 1001, withTotal: false, since: new Date(2000), until: new Date(1000) }),
      status.INVALID_ARGUMENT,
    );
    expect(fieldErrors(err).map((f) => f.field)).toEqual(['limit', 'cursor', 'until']);
  });
});

describe('signals (gRPC callers get the REST rules)', () => {
  /** Made with the IAB encoders (services/consent/src/domain/signals.test.ts): TCF 2.3, CMP 10, purposes 1, 3, 4; LI 2, 7; special feature 1. */
  const TC = 'CQuMEMAQuMEMAAKACAENCWFoALAAAEIAAAYgAAoAAAAA.IAAA.YAAAAAAAAAAA';
  /** uspv1 (sale opt-out Y), usnat (sale and sharing opted out, targeted advertising not), usca (sale opted out). */
  const GPP = 'DBABzYA~1YYN~CEAWAAAAAABA.QA~BAQAAABA.QA';

  it('stores gpc, the decoded TC and GPP strings and the jurisdiction (upper case), and reads them back everywhere', async () => {
    const who = { accountId: 'acc-sig', appId: 'app-sig' };
    const { events } = await create(who, [{ subject: 'sig-1', gpc: true, tcString: TC, gppString: GPP, jurisdiction: 'us-ca', action: true }]);
    const ev = events[0]!;
    expect(ev).toMatchObject({
      gpc: true,
      tcString: TC,
      tcf: { version: 2, policyVersion: 5, cmpId: 10, cmpVersion: 2, purposes: [1, 3, 4], legitimateInterests: [2, 7], specialFeatures: [1] },
      gppString: GPP,
      gpp: { sections: ['uspv1', 'usnat', 'usca'], saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: false },
      jurisdiction: 'US-CA',
    });
    const { gpc, tcString, tcf, gppString, gpp, jurisdiction } = ev;
    const signals = { gpc, tcString, tcf, gppString, gpp, jurisdiction };
    expect(await svc.client.getConsent({ accountId: who.accountId, id: ev.id })).toMatchObject(signals);
    const q = { accountId: who.accountId, subject: 'sig-1', issuer: input().issuer, target: input().target };
    expect((await svc.client.searchConsents({ ...q, current: true })).events[0]).toMatchObject(signals);
    expect((await svc.client.getCurrentStates({ ...q, targets: [] })).events[0]).toMatchObject(signals);
    expect((await svc.client.exportConsents({ accountId: who.accountId, cursor: '', limit: 10, withTotal: false })).events[0]).toMatchObject(signals);
  });

  it('refuses an undecodable, foreign-version or oversized string and an unknown jurisdiction, naming each, storing nothing of the call', async () => {
    const who = { accountId: 'acc-sig-bad', appId: 'app' };
    const err = await expectGrpcError(
      create(who, [
        { subject: 'ok', action: true },
        { subject: 'bad', tcString: 'BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA', gppString: 'garbage' },
        { subject: 'bad', tcString: 'C'.repeat(10_001), jurisdiction: 'ZZ' },
      ]),
      status.INVALID_ARGUMENT,
    );
    expect(fieldErrors(err).map((f) => f.field)).toEqual(['/1/tcString', '/1/gppString', '/2/tcString', '/2/jurisdiction']);
    expect((await svc.client.exportConsents({ accountId: who.accountId, cursor: '', limit: 10, withTotal: false })).events).toEqual([]);
  });

  it('search filters on gpc and jurisdiction, in the history and the current state', async () => {
    const who = { accountId: A.accountId, appId: A.appId };
    const subject = 'sig-filter';
    await create(who, [
      { subject, action: true, jurisdiction: 'DE' },
      { subject, gpc: true, jurisdiction: 'US-CA' },
    ]);
    const q = { accountId: A.accountId, subject, issuer: input().issuer, target: input().target };
    expect((await svc.client.searchConsents({ ...q, current: false, gpc: true })).events.map((e) => e.jurisdiction)).toEqual(['US-CA']);
    expect((await svc.client.searchConsents({ ...q, current: false, jurisdiction: 'de' })).events.map((e) => e.action)).toEqual([true]);
    expect((await svc.client.searchConsents({ ...q, current: true, jurisdiction: 'DE' })).events).toEqual([]);
    expect((await svc.client.searchConsents({ ...q, current: true, gpc: true })).events).toHaveLength(1);
    await expectGrpcError(svc.client.searchConsents({ ...q, current: false, jurisdiction: 'XX' }), status.INVALID_ARGUMENT);
  });

  it('statistics count GPC-driven declines and events by jurisdiction', async () => {
    const who = { accountId: 'acc-sig-stats', appId: 'app' };
    await create(who, [
      { subject: 'u1', gpc: true, jurisdiction: 'US-CA' },
      { subject: 'u2', gpc: true, action: true, jurisdiction: 'US-CA' },
      { subject: 'u3', action: false, jurisdiction: 'DE' },
      { subject: 'u4', action: true },
    ]);
    const s = await svc.client.getStatistics(who);
    expect(s).toMatchObject({ total: 4, gpcDeclines: 1 });
    expect(s.jurisdictions).toEqual([
      { jurisdiction: 'US-CA', events: 2 },
      { jurisdiction: 'DE', events: 1 },
    ]);
    expect(s.targets[0]).toMatchObject({ currentNoAction: 1, currentGpcDeclines: 1, currentAccepted: 2, currentDeclined: 1 });
  });
});
