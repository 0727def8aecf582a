import mongoose from 'mongoose';
import { testEnv } from '@accord/local-stack';
import { DeliveryStore, type AttemptOutcome } from '../src/store/delivery-store';
import { defineModels } from '../src/store/models';

const LEASE_MS = 60_000;
const attempt = (statusCode: number): AttemptOutcome['attempt'] => ({ at: new Date(), statusCode, latencyMs: 5, error: '' });

describe('delivery outcomes and leases', () => {
  let conn: mongoose.Connection;
  let store: DeliveryStore;
  let models: ReturnType<typeof defineModels>;
  beforeAll(async () => {
    conn = await mongoose.createConnection(testEnv('deliverystore').mongoUrl).asPromise();
    models = defineModels(conn);
    store = new DeliveryStore(models);
  });
  afterAll(async () => {
    await conn?.close();
  });

  const enqueue = async (eventId: string) => {
    const [id] = await store.enqueue([{ webhookId: 7, accountId: 'a', appId: 'p', eventId, eventType: 'consent', body: '{}' }]);
    return id!;
  };

  it('a worker that lost its lease cannot turn a delivery another worker completed back to pending', async () => {
    const id = await enqueue('ev-lost-lease');
    const a = (await store.claim(LEASE_MS, 1, [id])).claimed;
    expect(a).not.toBeNull();
    // A's lease expires (its receiver hung); B claims the attempt and delivers it.
    const later = new Date(Date.now() + LEASE_MS + 1_000);
    const b = (await store.claim(LEASE_MS, 100, [], later)).claimed;
    expect(b?.delivery._id).toBe(id);
    expect(await store.complete(id, b!.leaseToken, { attempt: attempt(204), status: 'succeeded', nextAttemptAt: null }, 0)).toBe(true);
    // A's attempt finally fails; it would schedule a retry.
    const retryAt = new Date(Date.now() + 5_000);
    expect(await store.complete(id, a!.leaseToken, { attempt: attempt(500), status: 'pending', nextAttemptAt: retryAt }, 1)).toBe(false);

    const record = await store.get(7, id);
    expect(record?.status).toBe('succeeded');
    expect(record?.nextAttemptAt).toBeNull();
    expect(record?.attempts.map((x) => x.statusCode)).toEqual([204, 500]); // A's attempt is logged, not counted
    expect(await models.Queue.countDocuments({ _id: id })).toBe(0);
  });

  it('a worker that lost its lease to a redelivery leaves the redelivery pending and queued', async () => {
    const id = await enqueue('ev-redelivered');
    const a = (await store.claim(LEASE_MS, 1, [id])).claimed;
    await store.redeliver(7, id);
    expect(await store.complete(id, a!.leaseToken, { attempt: attempt(204), status: 'succeeded', nextAttemptAt: null }, 0)).toBe(false);
    expect((await store.get(7, id))?.status).toBe('pending');
    expect(await models.Queue.countDocuments({ _id: id })).toBe(1);
  });

  it('the worker holding the lease records its outcome and moves the queue entry on', async () => {
    const id = await enqueue('ev-held-lease');
    const a = (await store.claim(LEASE_MS, 1, [id])).claimed;
    const retryAt = new Date(Date.now() + 5_000);
    expect(await store.complete(id, a!.leaseToken, { attempt: attempt(503), status: 'pending', nextAttemptAt: retryAt }, 1)).toBe(true);
    const record = await store.get(7, id);
    expect(record).toMatchObject({ status: 'pending', failedAttempts: 1, leaseToken: null });
    expect((await models.Queue.findById(id).lean())?.dueAt.getTime()).toBe(retryAt.getTime());
  });
  it('claims a delivery again whose claimer died between its lease insert and the queue update, once that lease is over', async () => {
    // a database of its own: claims below take any due entry
    const own = await mongoose.createConnection(testEnv('deliveryorphan').mongoUrl).asPromise();
    try {
      const m = defineModels(own);
      const s = new DeliveryStore(m);
      const [id] = await s.enqueue([{ webhookId: 7, accountId: 'a', appId: 'p', eventId: 'ev-orphan', eventType: 'consent', body: '{}' }]);
      const t0 = new Date();
      await m.Lease.create({ _id: `${id}#1`, deliveryId: id, createdAt: t0 }); // then SIGKILL
      expect((await s.claim(LEASE_MS, 10, [], new Date(t0.getTime() + 1_000))).claimed).toBeNull(); // its lease still runs
      const after = new Date(t0.getTime() + LEASE_MS + 1_000);
      let got = (await s.claim(LEASE_MS, 10, [], after)).claimed;
      for (let i = 0; i < 3 && !got; i++) got = (await s.claim(LEASE_MS, 10, [], after)).claimed;
      expect(got?.delivery._id).toBe(id);
      expect(got?.leaseToken).toBe(`${id}#2`);
      expect((await s.claim(LEASE_MS, 10, [], after)).claimed).toBeNull(); // and it is leased now
    } finally {
      await own.close();
    }
  });
});
