/**
 * "Answered 201 ⇔ stored, published, logged" on the MongoDB adapter: an insert that really fails
 * half-way on the database (a duplicate id in the middle of an ordered insert), settled by the
 * write path and, when its clean-up fails too, by the relay. The memory adapter's unit tests
 * (src/app/consents.test.ts, src/events/outbox-relay.test.ts) cover every other fault.
 */
import type { JetStreamClient } from 'nats';
import { testEnv } from '@accord/local-stack';
import { decodeConsentBusEvent } from '@accord/proto';
import { testLogger } from '@accord/testkit';
import { Consents } from '../src/app/consents';
import type { ConsentStore } from '../src/app/ports';
import { buildEvents, validateInputs, type ConsentEvent } from '../src/domain/consent';
import { OutboxRelay } from '../src/events/outbox-relay';
import { withStore } from './store';

const A = { accountId: 'acc-faults', appId: 'app' };
const input = (subject: string) => ({ subject, issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true });

/**
 * The store, with an insert that fails half-way on the database itself: the second event of the
 * second request is sent with the id of an event already stored, so the ordered insert stops
 * there with E11000. `withdraw` fails when `withdrawFails`.
 */
function faultyStore(store: ConsentStore, taken: string, opts: { withdrawFails?: boolean } = {}): ConsentStore {
  return {
    ...store,
    events: {
      ...store.events,
      insert: (requests, pubAt) =>
        store.events.insert(
          requests.map((r, i) => (i === 1 ? r.map((e, k) => (k === 1 ? { ...e, id: taken } : e)) : r)),
          pubAt,
        ),
      withdraw: (ids) => (opts.withdrawFails ? Promise.reject(new Error('connection lost')) : store.events.withdraw(ids)),
    },
  };
}

function writer(store: ConsentStore, publishLeaseMs = 30_000) {
  const published: string[] = [];
  const consents = new Consents(
    store,
    { publishStored: (evs) => void published.push(...evs.map((e) => e.id)) },
    {
      keys: [],
      settings: { baseUrl: 'https://accord.example' } as never,
      specs: { lookup: async () => undefined, current: async () => undefined, asOf: async () => undefined },
    },
    testLogger('t'),
    undefined,
    '',
    { publishLeaseMs },
  );
  return { consents, published };
}

const threeCalls = (c: Consents) =>
  Promise.allSettled([
    c.create(A.accountId, A.appId, [input('first'), input('first')]),
    c.create(A.accountId, A.appId, [input('cut'), input('cut'), input('cut')]),
    c.create(A.accountId, A.appId, [input('after')]),
  ]);

async function subjectsStored(store: ConsentStore): Promise<string[]> {
  return (await store.events.exportPage({ accountId: A.accountId, limit: 100 })).map((e) => e.subject);
}

describe('an insert that fails half-way on the database', () => {
  it('answers the calls stored whole, fails the others, and withdraws what the cut one stored', () =>
    withStore(testEnv('writefaults').mongoUrl, async ({ store, models }) => {
      const [taken] = buildEvents(A.accountId, A.appId, validateInputs([input('taken')]));
      await store.events.insert([[taken!]], new Date(Date.now() + 60_000));
      const { consents, published } = writer(faultyStore(store, taken!.id));
      const [first, cut, after] = await threeCalls(consents);
      expect(first!.status).toBe('fulfilled');
      expect(cut).toMatchObject({ status: 'rejected', reason: { code: 11000 } });
      expect(after!.status).toBe('rejected');
      await consents.drain();
      const answered = (first as PromiseFulfilledResult<ConsentEvent[]>).value;
      expect(published).toEqual(answered.map((e) => e.id));
      expect(await subjectsStored(store)).toEqual(['taken', 'first', 'first']);
      // on the database: the cut call's stored event is gone, its last id and the third call's are tombstones
      const docs = await models.events.find({ subject: 'cut' }).lean().exec();
      expect(docs).toEqual([]);
      expect(await models.events.countDocuments({ gone: { $exists: true } }).exec()).toBe(2);
    }));

  it('keeps the cut call unseen when its clean-up fails too, and the relay withdraws it instead of publishing it', () =>
    withStore(testEnv('writefaultsrelay').mongoUrl, async ({ store, models }) => {
      const [taken] = buildEvents(A.accountId, A.appId, validateInputs([input('taken')]));
      await store.events.insert([[taken!]], new Date(Date.now() + 60_000));
      // events due for the relay at once: nobody publishes them but the relay below
      const { consents } = writer(faultyStore(store, taken!.id, { withdrawFails: true }), -1000);
      const [first, cut] = await threeCalls(consents);
      expect(first!.status).toBe('fulfilled');
      expect(cut!.status).toBe('rejected');
      await consents.drain();
      expect(await models.events.countDocuments({ subject: 'cut' }).exec()).toBe(1);
      expect(await subjectsStored(store)).toEqual(['taken', 'first', 'first']);
      expect((await store.logQueue.pending(A.accountId, 100)).events.map((e) => e.subject)).toEqual(['taken', 'first', 'first']);

      const sent: string[] = [];
      const js = { publish: async (_s: string, data: Uint8Array) => void sent.push(decodeConsentBusEvent(data).event!.subject) } as unknown as JetStreamClient;
      const relay = new OutboxRelay(store, js, { prefix: 'x', leaseMs: 1000, pollMs: 1000, publishTimeoutMs: 1000, logger: testLogger('t') });
      await relay.runOnce();
      await relay.stop();
      expect(sent.sort()).toEqual(['first', 'first']);
      expect(await models.events.countDocuments({ subject: 'cut' }).exec()).toBe(0);
    }));
});
