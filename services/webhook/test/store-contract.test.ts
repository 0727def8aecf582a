/**
 * The webhook store's contract (app/ports.ts), run against both adapters: the memory adapter the
 * unit tests use, and the MongoDB adapter on the CI database. What passes here for one passes for
 * the other, so the use cases and the delivery workers tested against memory behave the same on
 * MongoDB. (node-oidc-provider's adapter test is the model: one suite, any adapter.)
 */
import { connectMongo, syncIndexes } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { contracts } from '@accord/proto';
import { describeStoreContract, memoryAdapter, mongoAdapter, testLogger } from '@accord/testkit';
import type { NewDelivery, Outcome, Webhook } from '../src/app/ports';
import { memoryWebhookStore } from '../src/store/memory/store';
import { webhookStoreOn } from '../src/store/mongo/store';

const adapters = [memoryAdapter(() => memoryWebhookStore()), mongoAdapter('webhookstorecontract', (conn) => webhookStoreOn(conn).store)];

const T0 = new Date('2030-01-01T00:00:00Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

const webhook = (id: number, over: Partial<Webhook> = {}): Webhook => ({
  id,
  accountId: 'acc',
  appId: 'app',
  url: 'https://receiver.example/hook',
  events: ['consent.created'],
  headers: { 'x-team': 'billing', 'x.dotted$name': 'kept' },
  secrets: [{ secret: 'whsec_current', createdAt: T0, expiresAt: null }],
  disabled: false,
  disabledReason: '',
  createdAt: T0,
  updatedAt: T0,
  ...over,
});
const newDelivery = (id: string, over: Partial<NewDelivery> = {}): NewDelivery => ({
  id,
  webhookId: 7,
  accountId: 'acc',
  appId: 'app',
  eventId: `ev-${id}`,
  eventType: 'consent.created',
  body: '{"type":"consent.created"}',
  ...over,
});
const attempt = (statusCode: number, s = 1) => ({ at: at(s), statusCode, latencyMs: 5, error: '' });
const retryAt = (s: number): Outcome => ({ attempt: attempt(503), status: 'pending', failedAttempts: 1, nextAttemptAt: at(s) });
const succeeded: Outcome = { attempt: attempt(204), status: 'succeeded', failedAttempts: 0, nextAttemptAt: null };

describeStoreContract('the webhook store', adapters, (s) => {
  describe('registrations', () => {
    it('take ids once: the highest in use is known, and an id taken is refused', async () => {
      expect(await s.webhooks.lastId()).toBe(0);
      expect(await s.webhooks.insert(webhook(1))).toBe(true);
      expect(await s.webhooks.insert(webhook(3))).toBe(true);
      expect(await s.webhooks.lastId()).toBe(3);
      const racers = await Promise.all([s.webhooks.insert(webhook(4)), s.webhooks.insert(webhook(4, { url: 'https://other.example' }))]);
      expect(racers.sort()).toEqual([false, true]);
    });

    it('are read back whole (any header name), listed per application by id, and found within their application or by id', async () => {
      const [a, b, other] = [webhook(2), webhook(1), webhook(3, { appId: 'app-2' })];
      for (const w of [a, b, other]) await s.webhooks.insert(w);
      expect(await s.webhooks.get(2)).toEqual(a);
      expect(await s.webhooks.get(2, { accountId: 'acc', appId: 'app' })).toEqual(a);
      expect(await s.webhooks.get(2, { accountId: 'acc', appId: 'app-2' })).toBeUndefined();
      expect(await s.webhooks.get(99)).toBeUndefined();
      expect(await s.webhooks.list('acc', 'app')).toEqual([b, a]);
    });

    it('keep a header named __proto__ (or constructor) as a header, in insert and change alike', async () => {
      const headers = JSON.parse('{"__proto__":"v","constructor":"c","x-ok":"1"}') as Record<string, string>;
      await s.webhooks.insert(webhook(1, { headers }));
      expect(Object.entries((await s.webhooks.get(1))!.headers)).toEqual(Object.entries(headers));
      const changed = JSON.parse('{"__proto__":"w"}') as Record<string, string>;
      await s.webhooks.update('acc', 'app', 1, { headers: changed }, at(1));
      expect(Object.entries((await s.webhooks.get(1))!.headers)).toEqual([['__proto__', 'w']]);
    });

    it('change the fields given within their application, answering the webhook after', async () => {
      await s.webhooks.insert(webhook(1));
      const change = { url: 'https://new.example/hook', headers: { 'x-new': '1' }, disabled: true, disabledReason: 'by its owner' };
      expect(await s.webhooks.update('acc', 'app', 1, change, at(5))).toEqual({ ...webhook(1), ...change, updatedAt: at(5) });
      expect(await s.webhooks.update('acc', 'app', 1, { events: ['ping'] }, at(6))).toMatchObject({ url: change.url, events: ['ping'] });
      expect(await s.webhooks.update('acc', 'app-2', 1, { url: 'https://theirs.example' }, at(7))).toBeUndefined();
      expect(await s.webhooks.update('acc', 'app', 2, { url: 'https://none.example' }, at(7))).toBeUndefined();
    });

    it('replace their secrets only while the current one is the one expected', async () => {
      await s.webhooks.insert(webhook(1));
      const secrets = [
        { secret: 'whsec_new', createdAt: at(1), expiresAt: null },
        { secret: 'whsec_current', createdAt: T0, expiresAt: at(3600) },
      ];
      const racers = await Promise.all([
        s.webhooks.replaceSecrets(1, 'whsec_current', secrets, at(1)),
        s.webhooks.replaceSecrets(1, 'whsec_current', secrets, at(1)),
      ]);
      expect(racers.filter((w) => w !== undefined)).toEqual([{ ...webhook(1), secrets, updatedAt: at(1) }]);
      expect(await s.webhooks.replaceSecrets(1, 'whsec_current', secrets, at(2))).toBeUndefined();
    });

    it('are deleted within their application only, once', async () => {
      await s.webhooks.insert(webhook(1));
      expect(await s.webhooks.delete('acc', 'app-2', 1)).toBe(false);
      expect(await s.webhooks.delete('acc', 'app', 1)).toBe(true);
      expect(await s.webhooks.delete('acc', 'app', 1)).toBe(false);
      expect(await s.webhooks.get(1)).toBeUndefined();
    });

    it('subscribers: the enabled webhooks of an application, and of an account by event type', async () => {
      await s.webhooks.insert(webhook(1));
      await s.webhooks.insert(webhook(2, { events: ['consent.created', 'log.tree_head'] }));
      await s.webhooks.insert(webhook(3, { appId: 'app-2', events: ['log.tree_head'] }));
      await s.webhooks.insert(webhook(4, { accountId: 'acc-2', events: ['log.tree_head'] }));
      await s.webhooks.disable(1, 'the receiver answered 410 Gone', at(1));
      expect(await s.webhooks.get(1)).toMatchObject({ disabled: true, disabledReason: 'the receiver answered 410 Gone', updatedAt: at(1) });
      expect(await s.webhooks.enabledOf('acc', 'app')).toEqual([{ id: 2, accountId: 'acc', appId: 'app', events: ['consent.created', 'log.tree_head'] }]);
      expect((await s.webhooks.enabledFor('acc', 'log.tree_head')).map((w) => w.id).sort()).toEqual([2, 3]);
      expect(await s.webhooks.enabledFor('acc', 'ping')).toEqual([]);
    });
  });

  describe('deliveries', () => {
    it('are stored once per id, pending and queued; queued again only while pending', async () => {
      expect(await s.deliveries.enqueue([newDelivery('a'), newDelivery('b', { traceparent: '00-abc-def-01' })], at(0))).toEqual(['a', 'b']);
      expect(await s.deliveries.get(7, 'a')).toEqual({
        ...newDelivery('a'),
        status: 'pending',
        failedAttempts: 0,
        attempts: [],
        nextAttemptAt: at(0),
        createdAt: at(0),
        updatedAt: at(0),
      });
      expect(await s.deliveries.get(8, 'a')).toBeUndefined();
      expect((await s.deliveries.get(7, 'b'))?.traceparent).toBe('00-abc-def-01');
      expect(await s.deliveries.queued()).toBe(2);

      const a = await s.deliveries.claim('a', 'lease-a', at(0), at(60));
      await s.deliveries.complete('a', 'lease-a', succeeded, at(1));
      // the same event again (a NATS message handled twice): the finished one stays finished, the pending one is queued
      expect(await s.deliveries.enqueue([newDelivery('a', { body: 'changed' }), newDelivery('b', { body: 'changed' })], at(2))).toEqual(['b']);
      expect((await s.deliveries.get(7, 'a'))?.body).toBe(a!.body);
      expect((await s.deliveries.get(7, 'b'))?.createdAt).toEqual(at(0));
      expect(await s.deliveries.soonest(10)).toEqual([{ id: 'b', dueAt: at(0) }]);
    });

    it('queue entries are read soonest first, due or not, at most the limit', async () => {
      await s.deliveries.enqueue([newDelivery('a')], at(5));
      await s.deliveries.enqueue([newDelivery('b')], at(1));
      await s.deliveries.enqueue([newDelivery('c')], at(3));
      expect(await s.deliveries.soonest(2)).toEqual([
        { id: 'b', dueAt: at(1) },
        { id: 'c', dueAt: at(3) },
      ]);
    });

    it('a claim takes a due entry once, until the lease ends; then another may take it', async () => {
      await s.deliveries.enqueue([newDelivery('a')], at(0));
      expect(await s.deliveries.claim('a', 'early', at(-1), at(59))).toBeUndefined(); // not due yet
      const racers = await Promise.all([s.deliveries.claim('a', 'one', at(0), at(60)), s.deliveries.claim('a', 'two', at(0), at(60))]);
      expect(racers.filter((d) => d !== undefined)).toHaveLength(1);
      expect(racers.find((d) => d)?.id).toBe('a');
      expect(await s.deliveries.soonest(10)).toEqual([{ id: 'a', dueAt: at(60) }]);
      expect(await s.deliveries.claim('a', 'three', at(59), at(119))).toBeUndefined();
      expect(await s.deliveries.claim('a', 'three', at(60), at(120))).toMatchObject({ id: 'a' });
      expect(await s.deliveries.claim('unknown', 'four', at(200), at(260))).toBeUndefined();
    });

    it('the holder of the lease records its outcome: pending moves the entry to the next attempt, finished removes it', async () => {
      await s.deliveries.enqueue([newDelivery('a'), newDelivery('b')], at(0));
      await s.deliveries.claim('a', 'lease-a', at(0), at(60));
      await s.deliveries.claim('b', 'lease-b', at(0), at(60));
      expect(await s.deliveries.complete('a', 'lease-a', retryAt(5), at(1))).toBe(true);
      expect(await s.deliveries.complete('b', 'lease-b', succeeded, at(1))).toBe(true);
      expect(await s.deliveries.get(7, 'a')).toMatchObject({
        status: 'pending',
        failedAttempts: 1,
        nextAttemptAt: at(5),
        updatedAt: at(1),
        attempts: [attempt(503)],
      });
      expect(await s.deliveries.get(7, 'b')).toMatchObject({ status: 'succeeded', nextAttemptAt: null, attempts: [attempt(204)] });
      expect(await s.deliveries.soonest(10)).toEqual([{ id: 'a', dueAt: at(5) }]);
      expect(await s.deliveries.queued()).toBe(1);
      // the lease is spent: a second outcome under it does not count
      expect(await s.deliveries.complete('a', 'lease-a', succeeded, at(2))).toBe(false);
      expect((await s.deliveries.get(7, 'a'))?.status).toBe('pending');
    });

    it('a worker that lost its lease cannot turn a delivery another worker completed back to pending; its attempt is logged', async () => {
      await s.deliveries.enqueue([newDelivery('a')], at(0));
      await s.deliveries.claim('a', 'slow', at(0), at(60));
      // the slow worker's receiver hangs past its lease; another worker takes the attempt and delivers it
      await s.deliveries.claim('a', 'fast', at(61), at(121));
      expect(await s.deliveries.complete('a', 'fast', succeeded, at(62))).toBe(true);
      expect(await s.deliveries.complete('a', 'slow', retryAt(70), at(63))).toBe(false);
      expect(await s.deliveries.get(7, 'a')).toMatchObject({ status: 'succeeded', nextAttemptAt: null, attempts: [attempt(204), attempt(503)] });
      expect(await s.deliveries.soonest(10)).toEqual([]);
    });

    it('a redelivery schedules a delivery again now, whatever its status, and voids the lease of an attempt in flight', async () => {
      await s.deliveries.enqueue([newDelivery('a'), newDelivery('b')], at(0));
      await s.deliveries.claim('a', 'lease-a', at(0), at(60));
      await s.deliveries.complete('a', 'lease-a', { ...retryAt(5), status: 'failed', failedAttempts: 8, nextAttemptAt: null }, at(1));
      expect(await s.deliveries.redeliver(7, 'a', at(10))).toMatchObject({
        id: 'a',
        status: 'pending',
        failedAttempts: 0,
        nextAttemptAt: at(10),
        updatedAt: at(10),
      });
      await s.deliveries.claim('b', 'lease-b', at(0), at(60));
      await s.deliveries.redeliver(7, 'b', at(10));
      expect(await s.deliveries.complete('b', 'lease-b', succeeded, at(11))).toBe(false);
      expect((await s.deliveries.get(7, 'b'))?.status).toBe('pending');
      expect((await s.deliveries.soonest(10)).sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([
        { id: 'a', dueAt: at(10) },
        { id: 'b', dueAt: at(10) },
      ]);
      expect(await s.deliveries.redeliver(8, 'a', at(12))).toBeUndefined();
      expect(await s.deliveries.redeliver(7, 'nope', at(12))).toBeUndefined();
    });

    it('keep the newest attempts of their log only', async () => {
      const kept = contracts.webhooks.LIMITS.attemptsKept;
      await s.deliveries.enqueue([newDelivery('a')], at(0));
      for (let i = 0; i < kept + 2; i++) {
        await s.deliveries.claim('a', `lease-${i}`, at(i * 100), at(i * 100 + 60));
        await s.deliveries.complete('a', `lease-${i}`, { ...retryAt(i * 100 + 1), attempt: attempt(500 + (i % 10), i) }, at(i * 100));
      }
      const attempts = (await s.deliveries.get(7, 'a'))!.attempts;
      expect(attempts).toHaveLength(kept);
      expect(attempts[0]!.at).toEqual(at(2));
      expect(attempts.at(-1)!.at).toEqual(at(kept + 1));
    });

    it("are listed per webhook newest first after a cursor, and removed with their webhook's queue entries", async () => {
      await s.deliveries.enqueue([newDelivery('b'), newDelivery('c')], at(1));
      await s.deliveries.enqueue([newDelivery('a')], at(2));
      await s.deliveries.enqueue([newDelivery('z', { webhookId: 8 })], at(3));
      const page = await s.deliveries.list(7, 2, null);
      expect(page.map((d) => d.id)).toEqual(['a', 'c']);
      expect((await s.deliveries.list(7, 10, { createdAt: page[1]!.createdAt, id: page[1]!.id })).map((d) => d.id)).toEqual(['b']);
      await s.deliveries.deleteOfWebhook(7);
      expect(await s.deliveries.list(7, 10, null)).toEqual([]);
      expect(await s.deliveries.soonest(10)).toEqual([{ id: 'z', dueAt: at(3) }]);
      expect((await s.deliveries.list(8, 10, null)).map((d) => d.id)).toEqual(['z']);
    });
  });
});

describe('the webhook store (MongoDB), after a race the port cannot replay in order', () => {
  it('a claim of a queue entry whose delivery is gone (a deletion racing with a redelivery) removes the entry', async () => {
    const conn = await connectMongo(testEnv('webhookorphan').mongoUrl, testLogger('t'));
    try {
      const { store, models } = webhookStoreOn(conn);
      await syncIndexes(conn);
      await models.Queue.create({ _id: 'orphan', webhookId: 7, dueAt: at(0), leaseToken: null });
      expect(await store.deliveries.claim('orphan', 'x', at(1), at(61))).toBeUndefined();
      expect(await store.deliveries.soonest(10)).toEqual([]);
    } finally {
      await conn.close();
    }
  });
});
