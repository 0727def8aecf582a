import { createLogger } from '@accord/common';
import { deliveryId } from '../domain/delivery';
import { memoryWebhookStore } from '../store/memory/store';
import { DeliveryWorker } from './delivery-worker';
import type { Delivery, SendResult, Sender, WebhookStore } from '../app/ports';
import { Registrations } from '../app/registrations';

// The delivery workers and their lease protocol on the memory store (test/store-contract.test.ts
// holds MongoDB to the same); the receiver is a fake sender.

/** A receiver that answers each POST with the next status of `script` (then 204), after `delayMs`. */
function receiver(script: number[] = [], delayMs = 0) {
  const posts: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  const sender: Sender = {
    async post(url, headers, body): Promise<SendResult> {
      posts.push({ url, headers, body });
      const statusCode = script.shift() ?? 204;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return { statusCode, latencyMs: delayMs, error: '', retryAfterMs: null };
    },
  };
  return { sender, posts };
}

/** Reads until `ok`; gives up after 20 s (a bound for a broken worker, not a speed requirement). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (const end = Date.now() + 20_000; ;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`never reached: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const workers: DeliveryWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});

/** Workers on the store, and one webhook (of application `app`, subscribed to consent.created) whose attempts go to `sender`. */
async function setup(store: WebhookStore, sender: Sender, opts: { leaseMs?: number; schedule?: number[]; headers?: Record<string, string> } = {}) {
  const webhooks = new Registrations(store.webhooks);
  const worker = new DeliveryWorker({
    webhooks,
    deliveries: store.deliveries,
    sender,
    retry: { schedule: opts.schedule ?? [10, 10], jitter: 0 },
    leaseMs: opts.leaseMs ?? 60_000,
    pollMs: 20,
    concurrency: 4,
    logger: createLogger('webhook-test', 'silent'),
  });
  workers.push(worker);
  const hook = await webhooks.create({
    accountId: 'acc',
    appId: 'app',
    url: 'https://receiver.example/',
    events: ['consent.created'],
    headers: opts.headers ?? {},
    secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0',
  });
  return { worker, webhooks, hook };
}

async function queue(store: WebhookStore, webhookId: number, events: string[]): Promise<string[]> {
  const items = events.map((eventId) => ({
    id: deliveryId(eventId, webhookId),
    webhookId,
    accountId: 'acc',
    appId: 'app',
    eventId,
    eventType: 'consent.created',
    body: `{"id":"${eventId}"}`,
  }));
  return store.deliveries.enqueue(items, new Date());
}

const status = (store: WebhookStore, webhookId: number, id: string) => async () => (await store.deliveries.get(webhookId, id)) as Delivery;

describe('delivery workers', () => {
  it('of two replicas sharing the queue send each delivery once, signed, with the webhook headers', async () => {
    const store = memoryWebhookStore();
    const { sender, posts } = receiver();
    const { hook } = await setup(store, sender, { headers: { 'x-team': 'a' } });
    await setup(store, sender); // the second replica (with a webhook of its own, which has nothing to send)
    const ids = await queue(store, hook.id, ['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    workers.forEach((w) => w.start());
    for (const id of ids) await until(status(store, hook.id, id), (d) => d.status === 'succeeded');
    expect(posts.map((p) => JSON.parse(p.body).id).sort()).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    expect(posts[0]!.headers).toMatchObject({
      'x-team': 'a',
      'webhook-id': expect.stringMatching(/^e\d$/),
      'webhook-signature': expect.stringMatching(/^v1,/),
    });
  });

  it('retry a failed attempt on the schedule, and fail it for good once the schedule is used up', async () => {
    const store = memoryWebhookStore();
    const { sender, posts } = receiver([500, 503, 500, 500, 500]);
    const { worker, hook } = await setup(store, sender);
    const [id] = await queue(store, hook.id, ['e1']);
    worker.start();
    const failed = await until(status(store, hook.id, id!), (d) => d.status === 'failed');
    expect(failed).toMatchObject({ failedAttempts: 3, nextAttemptAt: null });
    expect(failed.attempts.map((a) => a.statusCode)).toEqual([500, 503, 500]);
    expect(posts).toHaveLength(3);
    expect(await store.deliveries.queued()).toBe(0);
  });

  it('take over an attempt whose claimer died, once its lease has run out; the late outcome of the first claim does not count', async () => {
    const store = memoryWebhookStore();
    const { sender, posts } = receiver();
    const { worker, hook } = await setup(store, sender, { leaseMs: 100 });
    const [id] = await queue(store, hook.id, ['e1']);
    const now = new Date();
    expect(await store.deliveries.claim(id!, 'dead-worker', now, new Date(now.getTime() + 100))).toBeDefined(); // then the process dies
    worker.start();
    await until(status(store, hook.id, id!), (d) => d.status === 'succeeded');
    expect(posts).toHaveLength(1);
    const late = {
      attempt: { at: new Date(), statusCode: 500, latencyMs: 1, error: '' },
      status: 'pending' as const,
      failedAttempts: 1,
      nextAttemptAt: new Date(),
    };
    expect(await store.deliveries.complete(id!, 'dead-worker', late, new Date())).toBe(false);
    expect((await store.deliveries.get(hook.id, id!))?.status).toBe('succeeded');
  });

  it('disable a webhook whose receiver answers 410 Gone, and abandon its other deliveries without sending them', async () => {
    const store = memoryWebhookStore();
    const { sender, posts } = receiver([410], 20);
    const { worker, webhooks, hook } = await setup(store, sender);
    const [first] = await queue(store, hook.id, ['e1']);
    worker.start();
    await until(status(store, hook.id, first!), (d) => d.status === 'failed');
    expect(await webhooks.get(hook.id)).toMatchObject({ disabled: true, disabledReason: 'the receiver answered 410 Gone' });
    const [second] = await queue(store, hook.id, ['e2']);
    worker.offer([second!]);
    const abandoned = await until(status(store, hook.id, second!), (d) => d.status === 'failed');
    expect(abandoned.attempts).toEqual([{ at: expect.any(Date), statusCode: 0, latencyMs: 0, error: 'webhook disabled: the receiver answered 410 Gone' }]);
    expect(posts).toHaveLength(1);
  });
});
