import { testEnv } from '@accord/local-stack';
import { buildEvents, stateKey, validateInputs, type ConsentEvent } from '../src/domain/consent';
import { statisticsOf } from '../src/domain/statistics';
import type { ConsentStore } from '../src/app/ports';
import { targetRow } from './statistics';
import { openStore, withStore } from './store';
import { consentInput as input, startService, type RunningService } from '@accord/testkit';

/** An application's statistics as the use case computes them. */
const statsOf = async (s: ConsentStore, accountId: string, appId: string) => statisticsOf(appId, await s.statistics.read(accountId, appId, new Date()));
/** The current events of one subject on one target (the default issuer), newest first. */
const currentOfSubject = async (s: ConsentStore, accountId: string, subject: string, target: string) =>
  (await s.current.ofSubject(accountId, subject, ISSUER, [target], 10)).sort((x, y) => (x.id < y.id ? 1 : -1));

const ISSUER = input().issuer;

/** Expected application counters of `events` by action (no action: null in the store, absent on the wire). */
const actionCounts = (events: Array<{ action?: boolean | null }>) => ({
  accepted: events.filter((e) => e.action === true).length,
  declined: events.filter((e) => e.action === false).length,
  noAction: events.filter((e) => e.action === null || e.action === undefined).length,
});

/** Expected [accepted, declined, noAction] current counters of a target for one newest event. */
const currentOf = (action: boolean | null | undefined): number[] => {
  const out = [0, 0, 0];
  out[action === true ? 0 : action === false ? 1 : 2] = 1;
  return out;
};

describe('40 racing writers against the store itself (no batching: each event its own round trips)', () => {
  let handles: Array<Awaited<ReturnType<typeof openStore>>> = [];
  let repos: ConsentStore[] = [];
  beforeAll(async () => {
    const { mongoUrl } = testEnv('consentraces');
    // four connections, like four replicas
    handles = await Promise.all([0, 1, 2, 3].map(() => openStore(mongoUrl)));
    repos = handles.map((h) => h.store);
  });
  afterAll(async () => Promise.all(handles.map((h) => h.close())));

  it('moves one state to the newest of 40 events and counts every event exactly once', async () => {
    const events = buildEvents(
      'acc-race',
      'app-race',
      validateInputs(Array.from({ length: 40 }, (_, i) => ({ subject: 'racer', issuer: ISSUER, target: 't-one', action: i % 3 === 0 ? null : i % 2 === 0 }))),
    );
    await repos[0]!.events.insert([events], new Date(Date.now() + 60_000));
    // in shuffled order, each writer on its own connection, all at once
    const shuffled = [...events].sort(() => Math.random() - 0.5);
    await Promise.all(
      shuffled.map(async (ev, i) => {
        const repo = repos[i % repos.length]!;
        await Promise.all([repo.current.apply([ev]), repo.statistics.count([ev])]);
      }),
    );
    const newest = events.at(-1)!;
    expect((await currentOfSubject(repos[1]!, 'acc-race', 'racer', 't-one')).map((e) => e.id)).toEqual([newest.id]);
    const stats = await statsOf(repos[2]!, 'acc-race', 'app-race');
    expect(stats).toMatchObject({ total: 40, ...actionCounts(events), distinctSubjects: 1 });
    const row = stats.targets.find((t) => t.target === 't-one')!;
    expect(row.events).toBe(40);
    expect([row.currentAccepted, row.currentDeclined, row.currentNoAction]).toEqual(currentOf(newest.action));
  });

  it('counts 40 racing first events of 40 states on one target counter exactly', async () => {
    const events: ConsentEvent[] = buildEvents(
      'acc-race',
      'app-count',
      validateInputs(Array.from({ length: 40 }, (_, i) => ({ subject: `s-${i}`, issuer: ISSUER, target: 't-many', action: i % 4 !== 0 }))),
    );
    await repos[0]!.events.insert([events], new Date(Date.now() + 60_000));
    await Promise.all(
      events.map(async (ev, i) => {
        const repo = repos[i % repos.length]!;
        await Promise.all([repo.current.apply([ev]), repo.statistics.count([ev])]);
      }),
    );
    const stats = await statsOf(repos[3]!, 'acc-race', 'app-count');
    expect(stats).toMatchObject({ total: 40, accepted: 30, declined: 10, noAction: 0, distinctSubjects: 40 });
    expect(stats.targets).toEqual([targetRow('t-many', { events: 40, currentAccepted: 30, currentDeclined: 10 })]);
  });
});

describe('current states written by Accord 0.1 (flat fields, no `cur`)', () => {
  it('are read and counted as they are, and a newer event replaces them', async () => {
    await withStore(testEnv('consentlegacy').mongoUrl, async ({ store: repo, models }) => {
      const [old, next] = buildEvents(
        'acc-legacy',
        'app-legacy',
        validateInputs([0, 1].map((i) => ({ subject: 'l', issuer: ISSUER, target: 't', action: i === 0 }))),
      );
      const key = stateKey('acc-legacy', 'l', ISSUER, 't', 'default');
      await models.current.collection.insertOne({
        _id: key,
        accountId: 'acc-legacy',
        subject: 'l',
        issuer: ISSUER,
        target: 't',
        scope: 'default',
        eventId: old!.id,
        appId: 'app-legacy',
        action: true,
        token: old!.token,
        createdAt: old!.createdAt,
      } as never);
      const current = () => currentOfSubject(repo, 'acc-legacy', 'l', 't');
      expect(await current()).toEqual([old]);
      // a decision reads the flat form whole (it has no copy to project)
      expect(await repo.current.forDecisions('acc-legacy', [key])).toEqual(new Map([[key, { id: old!.id, action: true }]]));
      expect((await statsOf(repo, 'acc-legacy', 'app-legacy')).targets).toEqual([]); // no counters of 0.1 here
      await repo.statistics.count([next!]);
      expect((await statsOf(repo, 'acc-legacy', 'app-legacy')).targets).toEqual([
        targetRow('t', { events: 1, currentAccepted: 1 }), // the 0.1 state, accepted
      ]);
      await repo.current.apply([next!]);
      expect(await current()).toEqual([next]);
      expect(await repo.current.forDecisions('acc-legacy', [key])).toEqual(new Map([[key, { id: next!.id, action: false }]]));
      await repo.current.apply([old!]); // older: no change
      expect(await current()).toEqual([next]);
      expect((await statsOf(repo, 'acc-legacy', 'app-legacy')).targets).toEqual([targetRow('t', { events: 1, currentDeclined: 1 })]);
    });
  });
});

describe('40 racing writers through three consent replicas', () => {
  const replicas: RunningService<'consent'>[] = [];
  beforeAll(async () => {
    const env = testEnv('consentreplicas');
    for (let i = 0; i < 3; i++) replicas.push(await startService('consent', env, {}));
  });
  afterAll(async () => Promise.all(replicas.map((r) => r.stop())));

  it('keeps one current state (the newest event) and exact counters per application', async () => {
    const acc = 'acc-replicas';
    const apps = ['app-x', 'app-y'];
    const target = 'https://shop.example/replicas';
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        replicas[i % 3]!.client.createConsents({
          accountId: acc,
          appId: apps[i % 2]!,
          events: [input({ subject: 'shared', target, action: i % 5 === 0 ? undefined : i % 3 !== 0 })],
        }),
      ),
    );
    const events = results.map((r) => r.events[0]!).sort((x, y) => (x.id < y.id ? -1 : 1));
    const newest = events.at(-1)!;
    const cur = await replicas[0]!.client.searchConsents({ accountId: acc, subject: 'shared', issuer: ISSUER, target, current: true, scope: 'default' });
    expect(cur.events.map((e) => e.id)).toEqual([newest.id]);

    const stats = await Promise.all(apps.map((appId) => replicas[1]!.client.getStatistics({ accountId: acc, appId })));
    stats.forEach((s, i) => {
      const mine = events.filter((e) => e.appId === apps[i]);
      expect(s).toMatchObject({ total: 20, ...actionCounts(mine), distinctSubjects: 1 });
      const row = s.targets.find((t) => t.target === target)!;
      expect(row.events).toBe(20);
      expect([row.currentAccepted, row.currentDeclined, row.currentNoAction]).toEqual(newest.appId === apps[i] ? currentOf(newest.action) : [0, 0, 0]);
    });
  });
});
