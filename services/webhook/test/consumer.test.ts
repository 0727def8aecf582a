import { Socket } from 'node:net';
import type { NatsConnection } from 'nats';
import { ensureEventStream, eventSubject, streamName } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { connectTestNats, eventually } from '@accord/testkit';
import { consumerName, startEventConsumer } from '../src/events/consumer';

jest.setTimeout(60_000);
const t = testEnv('webhookacks');
const logger = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof startEventConsumer>[0]['logger'];

/** The consumer against nats-server: every handled message acknowledged, in far fewer writes than messages. */
describe('the event consumer acknowledges per turn', () => {
  let pub: NatsConnection;
  let sub: NatsConnection;
  beforeAll(async () => {
    pub = await connectTestNats(t.natsUrl);
    sub = await connectTestNats(t.natsUrl);
    await ensureEventStream(await pub.jetstreamManager(), t.natsPrefix);
  });
  afterAll(async () => {
    await sub?.close();
    await pub?.close();
  });

  it('acknowledges every handled message (none pending, none redelivered), in fewer socket writes than messages', async () => {
    const handled = new Set<string>();
    const consumer = await startEventConsumer({
      nc: sub,
      prefix: t.natsPrefix,
      logger,
      handle: async (e) => {
        await Promise.resolve();
        handled.add(e.id);
      },
    });
    const js = pub.jetstream();
    const n = 200;
    const write = jest.spyOn(Socket.prototype, 'write');
    try {
      // bursts of five, as the consent service publishes a batch's events in one turn
      for (let i = 0; i < n; i += 5) {
        await Promise.all(
          [0, 1, 2, 3, 4].map((k) => {
            const id = `ack-${i + k}`;
            const envelope = { id, type: 'consent', accountId: 'acc', appId: 'app', occurredAt: new Date().toISOString(), data: {} };
            return js.publish(eventSubject(t.natsPrefix, 'consent', 'acc', 'app'), new TextEncoder().encode(JSON.stringify(envelope)), { msgID: id });
          }),
        );
      }
      await eventually(() => handled.size === n, 20_000, `${n} messages handled`);
      const jsm = await pub.jetstreamManager();
      const settled = await eventually(
        async () => {
          const info = await jsm.consumers.info(streamName(t.natsPrefix), consumerName(t.natsPrefix));
          return info.num_ack_pending === 0 && info;
        },
        20_000,
        'every message acknowledged',
      );
      expect(settled).toMatchObject({ num_ack_pending: 0, num_pending: 0, num_redelivered: 0, delivered: { consumer_seq: n } });
      // both connections' writes: the publisher's (a burst of five in one) and the consumer's
      // acknowledgements; one write per acknowledgement alone would be n
      expect(write.mock.calls.length).toBeLessThan(n * 0.75);
    } finally {
      write.mockRestore();
      await consumer.stop();
    }
  });
});
