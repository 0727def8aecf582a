/**
 * The webhook service killed with SIGKILL while deliveries are queued and in flight (a receiver
 * that answers after 200 ms), then started again: every event reaches the receiver at least once
 * under its webhook-id; duplicates are counted (they are the attempts that were in flight).
 */
import { eventually, sleep, startReceiver, type Receiver } from '@accord/testkit';
import { call, consentLoad, duplicates, startFaultStack, THROUGH_FAULTS, type FaultStack } from './fault-stack';

describe('the webhook service killed with deliveries queued', () => {
  let stack: FaultStack | undefined;
  let rx: Receiver | undefined;
  afterAll(async () => {
    await rx?.close();
    await stack?.stop();
  }, 60_000);

  it('makes every delivery after the restart; the receiver sees each webhook-id at least once', async () => {
    // leases of the killed process expire after 5 s (the timeout is 3 s)
    stack = await startFaultStack('faultwebhook', { env: { ACCORD_WEBHOOK_LEASE_MS: '5000', ACCORD_WEBHOOK_CONCURRENCY: '8' } });
    const acc = await stack.account('faultwebhook');
    rx = await startReceiver(() => ({ status: 204, delayMs: 200 }));
    expect((await call(stack, acc, 'POST', '/webhooks/v0', { token: 'webhooks', json: { url: rx.url, events: ['consent'] } })).status).toBe(201);

    // 40 events per 200 ms of receiver time at most: 400 events queue up for about 2 s
    const sent = await consentLoad(stack, acc, { tag: 'wh', eventsPerRequest: 40, concurrency: 1, maxRequests: 10, maxMs: 60_000 }).finished;
    await eventually(async () => rx!.received.length >= 20, 20_000, '20 deliveries', THROUGH_FAULTS);
    const beforeKill = new Set(rx.received.map((r) => r.webhookId)).size;
    await stack.kill('webhook', 'SIGKILL');
    await sleep(1_000);
    await stack.start('webhook');

    const got = await eventually(
      async () => {
        const ids = new Set(rx!.received.map((r) => r.webhookId));
        return sent.answered.every((id) => ids.has(id)) && ids;
      },
      120_000,
      'every answered event delivered',
      THROUGH_FAULTS,
    );
    const delivered = got || new Set(rx.received.map((r) => r.webhookId));
    const dups = duplicates(rx.received.map((r) => r.webhookId));
    const figures = {
      requests: sent.requests,
      statuses: sent.statuses,
      answered201Events: sent.answered.length,
      deliveredBeforeKill: beforeKill,
      delivered: delivered.size,
      receiverRequests: rx.received.length,
      duplicateIds: Object.keys(dups).length,
      lost: sent.answered.filter((id) => !delivered.has(id)).length,
    };
    console.log(`[fault] webhook SIGKILL: ${JSON.stringify(figures)}`);

    expect(sent.statuses).toEqual({ 201: 10 });
    expect(beforeKill).toBeLessThan(sent.answered.length); // the kill left deliveries queued
    expect(sent.answered.filter((id) => !delivered.has(id))).toEqual([]); // none lost
    // duplicates are the attempts in flight at the kill (at most the concurrency)
    expect(Object.keys(dups).length).toBeLessThanOrEqual(8);
  }, 300_000);
});
