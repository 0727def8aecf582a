import mongoose from 'mongoose';
import type { NatsConnection } from 'nats';
import { testEnv } from '@accord/local-stack';
import { connectTestNats, consentData, publishEvent, startService, startReceiver } from '@accord/testkit';

jest.setTimeout(90_000);

const app = { accountId: 'acc-r', appId: 'app-r' };
let seq = 0;
const consent = () => {
  const id = `evt${Date.now().toString(16)}${(seq++).toString(16).padStart(4, '0')}`;
  return { id, type: 'consent', ...app, data: consentData(id) };
};
const idsOf = (rx: { received: Array<{ headers: Record<string, unknown> }> }) => rx.received.map((r) => String(r.headers['webhook-id']));
/**
 * These tests are about restarts and replicas, not timeouts: an attempt gets 15 s (the
 * receivers answer in 50 ms). With the component tests' 2 s, a loaded machine, where the
 * receiver in this process answers late, timed attempts out and retried them, which read as an
 * attempt sent twice, or ran out of retries, which read as an event lost.
 */
const UNHURRIED = { ACCORD_WEBHOOK_TIMEOUT_MS: '15000' };

/** What the running test opened (receivers, replicas, connections): closed after it, last opened first, whether it passed or not. */
const opened: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});
const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const rx = await startReceiver(...args);
  opened.push(() => rx.close());
  return rx;
};
/** A replica of the webhook service on `t`, stopped after the test unless the test stopped it. */
const replica = async (t: ReturnType<typeof testEnv>, env: Record<string, string> = {}) => {
  const svc = await startService('webhook', t, env);
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= svc.stop());
  opened.push(stop);
  return { ...svc, stop };
};

describe('delivery survives restarts and runs on several replicas', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connectTestNats(process.env.NATS_URL!);
  });
  afterAll(() => nc.close());

  it('loses nothing when the webhook service restarts mid-queue, including events published while it is down', async () => {
    const t = testEnv('webhookrestart');
    const rx = await receiver(() => ({ status: 200, delayMs: 50 }));
    const a = await replica(t, { ...UNHURRIED, ACCORD_WEBHOOK_CONCURRENCY: '2' });
    await a.client.createWebhook({ ...app, url: rx.url, events: ['consent'], headers: new Map() });
    const events = Array.from({ length: 30 }, consent);
    for (const e of events) await publishEvent(nc, t.natsPrefix, e);
    await rx.waitFor(3);
    await a.stop();
    const during = Array.from({ length: 10 }, consent);
    for (const e of during) await publishEvent(nc, t.natsPrefix, e);
    expect(rx.received.length).toBeLessThan(40); // the restart really happened mid-queue
    await replica(t, UNHURRIED);
    const all = [...events, ...during].map((e) => e.id);
    const deadline = Date.now() + 60_000;
    while (!all.every((id) => idsOf(rx).includes(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(all.filter((id) => !idsOf(rx).includes(id))).toEqual([]);
  });

  it('shares the queue between two replicas without sending any attempt twice', async () => {
    const t = testEnv('webhookreplicas');
    const rx = await receiver();
    const a = await replica(t, UNHURRIED);
    await replica(t, UNHURRIED);
    await a.client.createWebhook({ ...app, url: rx.url, events: ['consent'], headers: new Map() });
    const events = Array.from({ length: 40 }, consent);
    for (const e of events) await publishEvent(nc, t.natsPrefix, e);
    await rx.waitFor(40, 30_000);
    await new Promise((r) => setTimeout(r, 800));
    const ids = idsOf(rx);
    expect(ids).toHaveLength(40);
    expect(new Set(ids)).toEqual(new Set(events.map((e) => e.id)));
  });

  it('sends the next event to a webhook registered through another replica after this one cached the subscribers', async () => {
    const t = testEnv('webhookcache');
    const first = await receiver();
    const second = await receiver();
    const a = await replica(t);
    await a.client.createWebhook({ ...app, url: first.url, events: ['consent'], headers: new Map() });
    await publishEvent(nc, t.natsPrefix, consent());
    await first.waitFor(1); // replica a has now cached the application's subscribers
    const b = await replica(t);
    await b.client.createWebhook({ ...app, url: second.url, events: ['consent'], headers: new Map() });
    await b.stop(); // only replica a consumes from here on
    const next = consent();
    await publishEvent(nc, t.natsPrefix, next);
    await second.waitFor(1);
    expect(idsOf(second)).toEqual([next.id]);
    await first.waitFor(2);
  });

  it('takes over an attempt whose lease a crashed replica left behind, once the lease expires', async () => {
    const t = testEnv('webhooklease');
    const rx = await receiver();
    const a = await replica(t);
    const conn = await mongoose.createConnection(t.mongoUrl).asPromise();
    opened.push(() => conn.close());
    const w = await a.client.createWebhook({ ...app, url: rx.url, events: ['consent'], headers: new Map() });
    const now = Date.now();
    const id = 'dlv_crashed_replica_lease';
    // What a replica that claimed the attempt and then died leaves behind: the entry due at its lease's end, under its token.
    await conn.db!.collection('webhook_deliveries').insertOne({
      _id: id as never,
      webhookId: w.id,
      accountId: app.accountId,
      appId: app.appId,
      eventId: 'evt_crashed',
      eventType: 'consent',
      body: JSON.stringify({ type: 'consent', data: consentData('evt_crashed') }),
      status: 'pending',
      failedAttempts: 0,
      attempts: [],
      nextAttemptAt: new Date(now),
      createdAt: new Date(now),
      updatedAt: new Date(now),
      leaseToken: 'lease-of-the-dead-replica',
    });
    await conn
      .db!.collection('webhook_delivery_queue')
      .insertOne({ _id: id as never, webhookId: w.id, dueAt: new Date(now + 1_500), leaseToken: 'lease-of-the-dead-replica' });
    const [r] = await rx.waitFor(1, 10_000);
    expect(r!.headers['webhook-id']).toBe('evt_crashed');
    expect(r!.at - now).toBeGreaterThanOrEqual(1_400);
  });
});
