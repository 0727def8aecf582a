import type { Connection } from 'mongoose';
import type { EventEnvelope } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { consentBusEventEnvelope, decodeConsentBusEvent } from '@accord/proto';
import { buildEvents, validateInputs, type ConsentEvent } from '../src/domain/consent';
import { RENEWAL_EVENT, RenewalAnnouncer, renewalBusEvent, targetsOf, type RenewalOptions } from '../src/events/renewal-announcer';
import type { ConsentStore, PendingRenewal } from '../src/app/ports';
import { openStore } from './store';
import { sleep } from '@accord/testkit';

const A = { accountId: 'acc-rn', appId: 'app-rn' };
const SPEC = 'spec-rn-1';
const URL = `https://accord.example/dataprocessing/v0/dpspecs/${SPEC}`;
const silent = { warn: () => undefined };
const LEASE = 30_000;

/** A JetStream stand-in: records what is published with its message id; `fail(n)` makes the n-th publish (from 1) throw. */
function fakeStream(fail: (n: number) => boolean = () => false) {
  const published: Array<{ subject: string; msgId: string; env: EventEnvelope<Record<string, unknown>> }> = [];
  let n = 0;
  return {
    published,
    msgIds: () => new Set(published.map((p) => p.msgId)),
    js: {
      publish: async (subject: string, data: Uint8Array, o?: { msgID?: string }) => {
        await sleep(Math.random() * 3);
        if (fail(++n)) throw new Error('nats down');
        published.push({ subject, msgId: o!.msgID!, env: consentBusEventEnvelope(decodeConsentBusEvent(data)) });
        return {} as never;
      },
    },
  };
}

/** The data processing service's signal: pending until acknowledged for that version. */
function fakeSignals(version: number) {
  const pending: PendingRenewal[] = [{ accountId: A.accountId, specId: SPEC, version, target: URL }];
  const acks: number[] = [];
  return {
    pending,
    acks,
    signals: {
      pending: async () => [...pending],
      ack: async (specId: string, v: number) => {
        acks.push(v);
        const i = pending.findIndex((p) => p.specId === specId && p.version === v);
        if (i >= 0) pending.splice(i, 1);
      },
    },
  };
}

/** One event per state (`s-<i>`), to `target`, consented to `targetVersion`. */
function events(n: number, targetVersion: number, over: { target?: string; prefix?: string } = {}): ConsentEvent[] {
  const evs = buildEvents(
    A.accountId,
    A.appId,
    validateInputs(Array.from({ length: n }, (_, i) => ({ subject: `${over.prefix ?? 's'}-${i}`, issuer: 'i', target: over.target ?? URL, action: true }))),
  );
  return evs.map((e) => ({ ...e, targetVersion }));
}

const options = (over: Partial<RenewalOptions> = {}): RenewalOptions => ({
  prefix: 'x',
  intervalMs: 1000,
  leaseMs: LEASE,
  publishTimeoutMs: 1000,
  ratePerSecond: 10_000,
  logger: silent,
  batch: 10,
  ...over,
});

describe('consent.renewal_required fan-out (against the CI database)', () => {
  let conn: Connection;
  let repo: ConsentStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ conn, store: repo, close } = await openStore(testEnv('consentrenewaljobs').mongoUrl));
  });
  afterAll(async () => close?.());
  beforeEach(async () => {
    for (const c of ['consent_current', 'consent_events', 'consent_renewal_jobs']) await conn.db!.collection(c).deleteMany({});
  });

  async function write(evs: ConsentEvent[]) {
    await repo.events.insert([evs], new Date(Date.now() + 60_000));
    await repo.current.apply(evs);
  }

  test('two replicas racing announce each affected state exactly once, then acknowledge; states at the new version and other targets are left out', async () => {
    const affected = [...events(30, 1), ...events(7, 1, { target: `urn:accord:dpspec:${SPEC}`, prefix: 'urn' })];
    await write([...affected, ...events(5, 2, { prefix: 'new' }), ...events(4, 1, { target: 'https://shop.example/privacy', prefix: 'other' })]);
    const stream = fakeStream();
    const dp = fakeSignals(2);
    const replicas = [
      new RenewalAnnouncer(repo.renewals, dp.signals, stream.js, options()),
      new RenewalAnnouncer(repo.renewals, dp.signals, stream.js, options()),
    ];
    await Promise.all(replicas.flatMap((r) => [r.runOnce(), r.runOnce()]));
    expect(stream.published).toHaveLength(affected.length);
    expect(stream.msgIds().size).toBe(affected.length);
    expect(stream.published.map((p) => p.env.data.id).sort()).toEqual(affected.map((e) => e.id).sort());
    expect(stream.published[0]!.subject).toBe(`x.events.${RENEWAL_EVENT}.${A.accountId}.${A.appId}`);
    expect(stream.published[0]!.env).toMatchObject({ type: RENEWAL_EVENT, data: { renewalRequired: true, reconsentSince: 2, targetVersion: 1 } });
    expect(dp.pending).toEqual([]);
    expect(dp.acks).toContain(2);
    // nothing more on a later look
    await replicas[0]!.runOnce();
    expect(stream.published).toHaveLength(affected.length);
  });

  test('a replica that dies mid-job leaves it to be continued after the lease from the last recorded page, not restarted', async () => {
    const affected = events(50, 1);
    await write(affected);
    const dp = fakeSignals(2);
    // the 25th publish fails: pages 1 and 2 (10 states each) are recorded, page 3 is not
    const dying = fakeStream((n) => n >= 25);
    const first = new RenewalAnnouncer(repo.renewals, dp.signals, dying.js, options());
    await first.runOnce();
    expect(dp.acks).toEqual([]);
    const job = await conn.db!.collection('consent_renewal_jobs').findOne({ _id: `${SPEC}:2` as never });
    expect(job).toMatchObject({ announced: 20, done: false, owner: first.owner });

    // another replica: nothing while the lease holds
    const stream = fakeStream();
    const second = new RenewalAnnouncer(repo.renewals, dp.signals, stream.js, options());
    expect(await second.runOnce()).toBe(0);
    expect(stream.published).toHaveLength(0);
    // after the lease it continues after the 20 recorded states
    const later = () => new Date(Date.now() + LEASE + 1000);
    expect(await second.runOnce(later)).toBe(30);
    const keysOfFirstPages = new Set(dying.published.slice(0, 20).map((p) => p.msgId));
    expect(stream.published.filter((p) => keysOfFirstPages.has(p.msgId))).toEqual([]);
    // together (JetStream de-duplicates by message id): each state once
    expect(new Set([...dying.msgIds(), ...stream.msgIds()]).size).toBe(50);
    expect(dp.acks).toEqual([2]);
    // the replica that came back finds the job done: nothing more
    expect(await first.runOnce(later)).toBe(0);
  });

  test('states re-consented to the new version before the fan-out reaches them are not announced', async () => {
    const affected = events(20, 1);
    await write(affected);
    // half of the subjects answer again, to version 2
    const renewed = events(10, 2);
    await write(renewed);
    const stream = fakeStream();
    const dp = fakeSignals(2);
    await new RenewalAnnouncer(repo.renewals, dp.signals, stream.js, options()).runOnce();
    const announcedSubjects = stream.published.map((p) => p.env.data.subject).sort();
    expect(announcedSubjects).toEqual(
      affected
        .slice(10)
        .map((e) => e.subject)
        .sort(),
    );
  });

  test('keeps to the configured rate', async () => {
    await write(events(12, 1));
    const stream = fakeStream();
    const started = Date.now();
    await new RenewalAnnouncer(repo.renewals, fakeSignals(2).signals, stream.js, options({ ratePerSecond: 20 })).runOnce();
    expect(stream.published).toHaveLength(12);
    // 12 announcements at 20/s: the last one no sooner than 11 gaps of 50 ms after the first
    expect(Date.now() - started).toBeGreaterThanOrEqual(540);
  });
});

describe('renewal envelope', () => {
  test('one message id per state and material version', () => {
    const [e] = events(1, 1);
    const s = { key: 'k1', event: e! };
    const at = new Date('2026-01-01T00:00:00Z');
    const env = consentBusEventEnvelope(renewalBusEvent(s, 2, at));
    expect(env).toMatchObject({ type: RENEWAL_EVENT, occurredAt: '2026-01-01T00:00:00.000Z', data: { id: e!.id, renewalRequired: true, reconsentSince: 2 } });
    expect(renewalBusEvent(s, 2, new Date()).id).toBe(env.id);
    expect(renewalBusEvent(s, 3, at).id).not.toBe(env.id);
    expect(renewalBusEvent({ ...s, key: 'k2' }, 2, at).id).not.toBe(env.id);
    expect(targetsOf({ specId: SPEC, target: `${URL}/` })).toEqual([URL, `${URL}/`, `urn:accord:dpspec:${SPEC}`, `urn:accord:dpspec:${SPEC}/`]);
  });
});
