/**
 * NATS stopped for 30 s (ACCORD_FAULT_NATS_OUTAGE_S) under a steady load of consent POSTs, then
 * started again on the same port and store: every event stored is published exactly once on the
 * stream (none lost, none duplicated), every consent answered 201 is among them, and each reaches
 * the webhook.
 */
import { eventually, sleep, startReceiver, type Receiver } from '@accord/testkit';
import { call, consentLoad, drained, duplicates, more201, startFaultStack, THROUGH_FAULTS, type FaultStack } from './fault-stack';

const OUTAGE_MS = Number(process.env.ACCORD_FAULT_NATS_OUTAGE_S ?? 30) * 1000;

describe('NATS stopped, then started again, under a steady load', () => {
  let stack: FaultStack | undefined;
  let rx: Receiver | undefined;
  afterAll(async () => {
    await rx?.close();
    await stack?.stop();
  }, 60_000);

  it(
    'publishes every stored consent exactly once and delivers every consent answered 201 to its webhook',
    async () => {
      stack = await startFaultStack('faultnats');
      const acc = await stack.account('faultnats');
      rx = await startReceiver();
      expect((await call(stack, acc, 'POST', '/webhooks/v0', { token: 'webhooks', json: { url: rx.url, events: ['consent'] } })).status).toBe(201);

      const load = consentLoad(stack, acc, { tag: 'nats', eventsPerRequest: 5, concurrency: 2, pauseMs: 100, maxRequests: 3_000, maxMs: OUTAGE_MS + 120_000 });
      await more201(load.live, 10);
      await stack.stopNats();
      await sleep(OUTAGE_MS);
      await stack.startNats();
      await more201(load.live, 10);
      load.stop();
      const sent = await load.finished;

      const { pending, storedIds, streamed } = await drained(stack, acc.appId);
      expect(pending).toEqual([]); // the outbox drained
      const answered = new Set(sent.answered);
      const delivered = await eventually(
        async () => {
          const got = new Set(rx!.received.map((r) => r.webhookId));
          return sent.answered.every((id) => got.has(id)) && got;
        },
        90_000,
        'every answered event delivered',
        THROUGH_FAULTS,
      );
      const deliveredIds = delivered || new Set(rx.received.map((r) => r.webhookId));
      const figures = {
        outageS: OUTAGE_MS / 1000,
        requests: sent.requests,
        statuses: sent.statuses,
        answered201Events: answered.size,
        stored: storedIds.length,
        published: new Set(streamed).size,
        duplicatedOnStream: Object.keys(duplicates(streamed)).length,
        delivered: deliveredIds.size,
        deliveryDuplicates: rx.received.length - deliveredIds.size,
        lost: sent.answered.filter((id) => !deliveredIds.has(id) || !storedIds.includes(id)).length,
      };
      console.log(`[fault] NATS outage: ${JSON.stringify(figures)}`);

      expect(sent.statuses[201]).toBeGreaterThanOrEqual(20); // the load ran
      expect(sent.answered.filter((id) => !storedIds.includes(id))).toEqual([]); // every 201 is stored
      expect(duplicates(streamed)).toEqual({}); // none twice on the stream
      expect([...streamed].sort()).toEqual(storedIds); // every stored event published
      expect(sent.answered.filter((id) => !deliveredIds.has(id))).toEqual([]); // every 201 delivered
    },
    OUTAGE_MS + 300_000,
  );
});
