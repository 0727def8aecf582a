import { connect, type NatsConnection } from 'nats';
import type { Connection } from 'mongoose';
import { streamName, type EventEnvelope } from '@accord/common';
import { consentBusEventEnvelope, decodeConsentBusEvent, isConsentBusContentType } from '@accord/proto';
import { testEnv } from '@accord/local-stack';
import { buildEvents, validateInputs, type ConsentEvent } from '../src/domain/consent';
import { EXPIRED_EVENT, ExpirySweeper } from '../src/events/expiry-sweeper';
import type { ConsentStore } from '../src/app/ports';
import { EXPIRY_ANNOUNCED, type Models } from '../src/store/mongo/models';
import { openStore } from './store';
import { consentInput as input, sleep, startService, eventually } from '@accord/testkit';

const A = { accountId: 'acc-exp', appId: 'app-exp' };
const silent = { warn: () => undefined };
/** A lease the next statement surely runs within, also on a loaded machine. */
const LEASE_MS = 1500;

/** A JetStream stand-in: records what is published (by message id, as the stream would de-duplicate), optionally failing. */
function fakeStream(fail: () => boolean = () => false) {
  const published: Array<{ subject: string; msgId: string; env: EventEnvelope<Record<string, unknown>> }> = [];
  return {
    published,
    js: {
      publish: async (subject: string, data: Uint8Array, o?: { msgID?: string }) => {
        await sleep(Math.random() * 5);
        if (fail()) throw new Error('nats down');
        published.push({ subject, msgId: o!.msgID!, env: consentBusEventEnvelope(decodeConsentBusEvent(data)) });
        return {} as never;
      },
    },
  };
}

/** Events of distinct states (or of one state when `subject` is fixed), lapsing at `expiresAt`. */
function events(n: number, expiresAt: Date, over: { subject?: string; at?: number } = {}): ConsentEvent[] {
  const evs = buildEvents(
    A.accountId,
    A.appId,
    validateInputs(Array.from({ length: n }, (_, i) => ({ subject: over.subject ?? `s-${i}`, issuer: 'i', target: 't', action: true }))),
    over.at,
  );
  // stored as a client would have sent it earlier (the API refuses an expiresAt in the past)
  return evs.map((e) => ({ ...e, expiresAt }));
}

describe('consent.expired sweeper (against the CI database)', () => {
  let conn: Connection;
  let store: ConsentStore;
  let models: Models;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ conn, store, models, close } = await openStore(testEnv('consentexpiry').mongoUrl));
  });
  afterAll(async () => close?.());
  beforeEach(async () => {
    await conn.db!.collection('consent_current').deleteMany({});
    await conn.db!.collection('consent_events').deleteMany({});
  });

  async function write(evs: ConsentEvent[]) {
    await store.events.insert([evs], new Date(Date.now() + 60_000));
    await store.current.apply(evs);
  }

  test('eight sweepers racing announce each lapsed state exactly once, with its event', async () => {
    const lapsed = events(120, new Date(Date.now() - 1000));
    const later = events(5, new Date(Date.now() + 3_600_000)).map((e) => ({ ...e, subject: `later-${e.subject}` }));
    await write([...lapsed, ...later]);
    const stream = fakeStream();
    const sweepers = Array.from(
      { length: 8 },
      () => new ExpirySweeper(store.expiry, stream.js, { prefix: 'x', intervalMs: 1000, leaseMs: 30_000, publishTimeoutMs: 1000, logger: silent, batch: 7 }),
    );
    await Promise.all(sweepers.flatMap((s) => [s.runOnce(), s.runOnce()]));
    expect(stream.published).toHaveLength(120);
    expect(new Set(stream.published.map((p) => p.msgId)).size).toBe(120);
    expect(stream.published.map((p) => p.env.data.id).sort()).toEqual(lapsed.map((e) => e.id).sort());
    const one = stream.published[0]!;
    expect(one.subject).toBe(`x.events.${EXPIRED_EVENT}.${A.accountId}.${A.appId}`);
    expect(one.env).toMatchObject({ type: EXPIRED_EVENT, accountId: A.accountId, appId: A.appId, data: { expired: true, action: true } });
    // nothing left: a further sweep (and one long after) announces nothing more... until the later ones lapse
    expect(await sweepers[0]!.runOnce()).toBe(0);
    expect(await sweepers[1]!.runOnce(new Date(Date.now() + 7_200_000))).toBe(5);
  });

  test('the same event applied again after its announcement (a late projection, the relay) does not queue it again', async () => {
    const [ev] = events(1, new Date(Date.now() - 1000));
    await write([ev!]);
    const stream = fakeStream();
    const sweeper = new ExpirySweeper(store.expiry, stream.js, { prefix: 'x', intervalMs: 1000, leaseMs: 30_000, publishTimeoutMs: 1000, logger: silent });
    expect(await sweeper.runOnce()).toBe(1);
    await store.current.apply([ev!]);
    const doc = await conn.db!.collection('consent_current').findOne({});
    expect(doc!.cur.id).toBe(ev!.id);
    expect(new Date(doc!.cur.xq).getTime()).toBe(EXPIRY_ANNOUNCED.getTime());
    expect(await sweeper.runOnce()).toBe(0);
    expect(stream.published).toHaveLength(1);
  });

  test('a state renewed before it lapses announces nothing for the old consent; a renewal that lapses is announced on its own', async () => {
    const t0 = Date.now();
    const [old] = events(1, new Date(t0 + 60_000), { subject: 'renewed', at: t0 });
    await write([old!]);
    const [renewal] = events(1, new Date(t0 + 120_000), { subject: 'renewed', at: t0 + 5 });
    await write([renewal!]);
    const stream = fakeStream();
    const sweeper = new ExpirySweeper(store.expiry, stream.js, { prefix: 'x', intervalMs: 1000, leaseMs: 30_000, publishTimeoutMs: 1000, logger: silent });
    expect(await sweeper.runOnce(new Date(t0 + 90_000))).toBe(0);
    expect(await sweeper.runOnce(new Date(t0 + 150_000))).toBe(1);
    expect(stream.published[0]!.env.data.id).toBe(renewal!.id);
    // a renewal without expiry after the lapse: never announced
    const [forever] = events(1, new Date(0), { subject: 'renewed', at: t0 + 10 });
    delete forever!.expiresAt;
    await write([forever!]);
    expect(await sweeper.runOnce(new Date(t0 + 10 ** 10))).toBe(0);
  });

  test('an idle sweep costs one database command; a local hint sweeps when the consent lapses without waiting for the interval', async () => {
    const calls: string[] = [];
    /** Commands whose answer has arrived. */
    let answered = 0;
    const coll = models.current.collection;
    for (const op of ['updateMany', 'find', 'findOne', 'bulkWrite', 'aggregate', 'countDocuments'] as const) {
      const orig = (coll[op] as (...a: unknown[]) => unknown).bind(coll);
      jest.spyOn(coll, op).mockImplementation(((...args: unknown[]) => {
        calls.push(op);
        const out = orig(...args);
        if (out instanceof Promise) void out.finally(() => answered++).catch(() => undefined);
        return out;
      }) as never);
    }
    try {
      const stream = fakeStream();
      const sweeper = new ExpirySweeper(store.expiry, stream.js, { prefix: 'x', intervalMs: 60_000, leaseMs: 30_000, publishTimeoutMs: 1000, logger: silent });
      expect(await sweeper.runOnce()).toBe(0);
      expect(calls).toEqual(['updateMany']);

      // started: one sweep now, the next in a minute; a consent written here lapsing in 300 ms is announced then
      calls.length = 0;
      answered = 0;
      sweeper.start();
      // its first sweep is over (an idle sweep is one command, answered), so none of its commands
      // can land among the hinted sweep's, however slow the machine
      await eventually(async () => calls.length === 1 && answered === 1, 10_000, 'the first sweep');
      const [ev] = events(1, new Date(Date.now() + 300), { subject: 'hinted' });
      await write([ev!]);
      calls.length = 0;
      sweeper.sweepWhenDue([ev!]);
      await eventually(async () => stream.published.length === 1, 3000, 'the hinted sweep');
      expect(Date.now()).toBeGreaterThanOrEqual(ev!.expiresAt!.getTime());
      expect(stream.published[0]!.env.data.id).toBe(ev!.id);
      // claim, read of the claim, mark
      expect(calls).toEqual(['updateMany', 'find', 'bulkWrite']);
      await sweeper.stop();
    } finally {
      jest.restoreAllMocks();
    }
  });

  test('a sweeper that dies after claiming, or cannot publish, leaves the state to another after the lease (none lost)', async () => {
    await write(events(3, new Date(Date.now() - 1000)));
    // claimed, then the process died: nothing published, nothing marked (a lease long enough that
    // the next sweep surely runs within it, also on a loaded machine)
    expect(await store.expiry.claimLapsed('dead-claim', new Date(), new Date(Date.now() + LEASE_MS), 100)).toHaveLength(3);
    const stream = fakeStream();
    const other = new ExpirySweeper(store.expiry, stream.js, { prefix: 'x', intervalMs: 1000, leaseMs: LEASE_MS, publishTimeoutMs: 1000, logger: silent });
    expect(await other.runOnce()).toBe(0);
    await sleep(LEASE_MS + 100);
    expect(await other.runOnce()).toBe(3);
    // NATS down: left claimed, announced by the next sweep after the lease
    await write(events(2, new Date(Date.now() - 1000)).map((e) => ({ ...e, subject: `down-${e.subject}` })));
    let down = true;
    const flaky = fakeStream(() => down);
    const s2 = new ExpirySweeper(store.expiry, flaky.js, { prefix: 'x', intervalMs: 1000, leaseMs: LEASE_MS, publishTimeoutMs: 1000, logger: silent });
    expect(await s2.runOnce()).toBe(0);
    down = false;
    expect(await s2.runOnce()).toBe(0);
    await sleep(LEASE_MS + 100);
    expect(await s2.runOnce()).toBe(2);
    expect(flaky.published).toHaveLength(2);
  });
});

describe('consent.expired on the event stream, two consent replicas', () => {
  test('a consent written through one replica is announced once when it lapses, while both sweep', async () => {
    const env = testEnv('consentexpirystream');
    const sweepEnv = { ACCORD_CONSENT_EXPIRY_SWEEP_MS: '100' };
    const one = await startService('consent', env, sweepEnv);
    const two = await startService('consent', env, sweepEnv);
    const nc: NatsConnection = await connect({ servers: env.natsUrl });
    try {
      const expiresAt = new Date(Date.now() + 2500);
      const res = await one.client.createConsents({ ...A, events: [input({ subject: 'lapsing', action: true, expiresAt })] });
      const id = res.events[0]!.id;
      await two.client.createConsents({ ...A, events: [input({ subject: 'lasting', action: true })] });
      const jsm = await nc.jetstreamManager();
      const expired = async () => {
        const info = await jsm.streams.info(streamName(env.natsPrefix));
        const out: Array<EventEnvelope<{ id: string }>> = [];
        for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
          const m = await jsm.streams.getMessage(streamName(env.natsPrefix), { seq }).catch(() => undefined);
          const e =
            m && isConsentBusContentType(m.header?.get('Content-Type'))
              ? (consentBusEventEnvelope(decodeConsentBusEvent(m.data)) as EventEnvelope<{ id: string }>)
              : undefined;
          if (e?.type === EXPIRED_EVENT) out.push(e);
        }
        return out;
      };
      // never before it lapses (a lower bound of time: a loaded machine cannot break it)
      await eventually(async () => (await expired()).length > 0, 10_000, 'consent.expired');
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
      await sleep(1000);
      const all = await expired();
      expect(all).toHaveLength(1);
      expect(all[0]!.data.id).toBe(id);
    } finally {
      await nc.close();
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});
