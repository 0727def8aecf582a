import { connect, headers as natsHeaders, type NatsConnection } from 'nats';
import { ensureEventStream, streamName } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { AckBatchPublisher } from '../src/events/ack-batches';

/** The publisher against NATS's JetStream: what the stream stores and what it answers. */
describe('JetStream acknowledgements awaited per batch', () => {
  const env = testEnv('ackbatches');
  let nc: NatsConnection;
  let pub: AckBatchPublisher;
  beforeAll(async () => {
    nc = await connect({ servers: env.natsUrl });
    await ensureEventStream(await nc.jetstreamManager(), env.natsPrefix);
    pub = new AckBatchPublisher(nc);
  });
  afterAll(async () => {
    pub?.close();
    await nc?.close();
  });

  const send = (subject: string, id: string, timeout = 5_000) =>
    pub.publish(subject, new TextEncoder().encode(id), { msgID: id, timeout, headers: natsHeaders() });

  it('stores each message of a batch once, with its Nats-Msg-Id, and answers each with its own acknowledgement', async () => {
    const subject = `${env.natsPrefix}.events.consent.acc.app`;
    const ids = Array.from({ length: 50 }, (_, i) => `batch-${i}`);
    // one turn of the event loop: one batch, the last id published twice
    const acks = await Promise.all([...ids, ids[49]!].map((id) => send(subject, id)));
    expect(acks.map((a) => a.stream)).toEqual(Array(51).fill(streamName(env.natsPrefix)));
    expect(new Set(acks.slice(0, 50).map((a) => a.seq)).size).toBe(50);
    expect(acks[50]).toMatchObject({ duplicate: true, seq: acks[49]!.seq });
    // published again in a later batch (as the relay does after a lost acknowledgement): de-duplicated
    expect(await send(subject, ids[0]!)).toMatchObject({ duplicate: true, seq: acks[0]!.seq });
    const jsm = await nc.jetstreamManager();
    expect((await jsm.streams.info(streamName(env.natsPrefix))).state.messages).toBe(50);
    const first = await jsm.streams.getMessage(streamName(env.natsPrefix), { seq: acks[0]!.seq });
    expect(first.header.get('Nats-Msg-Id')).toBe('batch-0');
    expect(new TextDecoder().decode(first.data)).toBe('batch-0');
  });

  it('rejects a message no stream takes, and only that one of its batch', async () => {
    const results = await Promise.allSettled([send(`${env.natsPrefix}.events.consent.acc.app`, 'kept'), send('nostream.events.x', 'lost')]);
    expect(results[0]).toMatchObject({ status: 'fulfilled' });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/no responders/) }) });
  });
});
