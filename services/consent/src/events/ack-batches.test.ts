import { headers as natsHeaders, type Msg, type NatsConnection } from 'nats';
import { createLogger } from '@accord/common';
import { buildEvents, validateInputs } from '../domain/consent';
import { memoryConsentStore } from '../store/memory/store';
import { AckBatchPublisher, ackOf } from './ack-batches';
import { OutboxRelay } from './outbox-relay';

type Answer = 'ack' | 'refused' | 'silent';

/** A NATS connection whose JetStream answers each message as `answer` says (the real one: test/ack-batches.test.ts). */
function fakeNats(answer: (msgId: string) => Answer) {
  let deliver: ((err: Error | null, msg: Msg) => void) | undefined;
  const published: Array<{ subject: string; msgId: string; reply: string }> = [];
  const reply = (subject: string, body: unknown) => {
    const data = new TextEncoder().encode(JSON.stringify(body));
    deliver!(null, { subject, data, headers: undefined, json: () => JSON.parse(new TextDecoder().decode(data)) } as unknown as Msg);
  };
  const nc = {
    subscribe: (_subject: string, o: { callback: (err: Error | null, msg: Msg) => void }) => ((deliver = o.callback), { unsubscribe: () => undefined }),
    publish: (subject: string, _data: Uint8Array, o: { reply: string; headers: ReturnType<typeof natsHeaders> }) => {
      const msgId = o.headers.get('Nats-Msg-Id');
      published.push({ subject, msgId, reply: o.reply });
      const a = answer(msgId);
      const seq = published.length;
      if (a === 'ack') setImmediate(() => reply(o.reply, { stream: 'S', seq }));
      if (a === 'refused') setImmediate(() => reply(o.reply, { error: { code: 400, err_code: 10060, description: 'expected stream does not match' } }));
    },
  } as unknown as NatsConnection;
  return { nc, published };
}

const send = (pub: AckBatchPublisher, id: string, timeout = 5_000) =>
  pub.publish('x.events.consent.a.b', new Uint8Array([1]), { msgID: id, timeout, headers: natsHeaders() });

describe('JetStream acknowledgements awaited per batch', () => {
  it('publishes each message with its own reply subject under one inbox and Nats-Msg-Id = its id', async () => {
    const { nc, published } = fakeNats(() => 'ack');
    const pub = new AckBatchPublisher(nc);
    const acks = await Promise.all(['a', 'b', 'c'].map((id) => send(pub, id)));
    expect(published.map((p) => p.msgId)).toEqual(['a', 'b', 'c']);
    expect(new Set(published.map((p) => p.reply)).size).toBe(3);
    expect(new Set(published.map((p) => p.reply.slice(0, p.reply.lastIndexOf('.')))).size).toBe(1);
    expect(acks.map((a) => a.seq)).toEqual([1, 2, 3]);
  });

  it('fails, within its batch, only the messages refused or not acknowledged in time', async () => {
    const { nc } = fakeNats((id) => (id === 'refused' ? 'refused' : id === 'silent' ? 'silent' : 'ack'));
    let results: PromiseSettledResult<unknown>[];
    // The clock is the test's: a loaded machine that stalls this process past the timeout between the
    // publication and its acknowledgement (answered on the next turn) must not fail the acknowledged one.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const pub = new AckBatchPublisher(nc);
      const settled = Promise.allSettled(['ok', 'refused', 'silent'].map((id) => send(pub, id, 50)));
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      jest.advanceTimersByTime(49);
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      expect(await Promise.race([settled.then(() => 'settled'), new Promise((r) => setImmediate(() => r('waiting')))])).toBe('waiting');
      jest.advanceTimersByTime(1);
      results = await settled;
    } finally {
      jest.useRealTimers();
    }
    expect(results!.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect((results![1] as PromiseRejectedResult).reason.message).toMatch(/refused the message: expected stream does not match \(10060\)/);
    expect((results![2] as PromiseRejectedResult).reason.message).toMatch(/did not acknowledge the message within 50 ms/);
  });

  it('rejects what still waits when closed', async () => {
    const { nc } = fakeNats(() => 'silent');
    const pub = new AckBatchPublisher(nc);
    const p = send(pub, 'a');
    pub.close();
    await expect(p).rejects.toThrow(/closed before its acknowledgement/);
  });

  it('reads a 503 status (no stream on the subject) and a reply that is no acknowledgement as failures', () => {
    const status = { data: new Uint8Array(), headers: { code: 503 }, json: () => ({}) } as unknown as Msg;
    expect(ackOf(status)).toEqual(new Error('no JetStream stream takes this subject (no responders)'));
    const other = { data: new TextEncoder().encode('{"x":1}'), json: () => ({ x: 1 }) } as unknown as Msg;
    expect(ackOf(other)).toBeInstanceOf(Error);
  });

  it('leaves an event JetStream did not acknowledge unmarked; the relay publishes it again later and marks it then', async () => {
    const store = memoryConsentStore();
    let answer: Answer = 'silent';
    const { nc, published } = fakeNats(() => answer);
    const relay = new OutboxRelay(store, new AckBatchPublisher(nc), {
      prefix: 'x',
      leaseMs: 30,
      pollMs: 1000,
      publishTimeoutMs: 30,
      logger: createLogger('test', 'silent'),
    });
    const [ev] = buildEvents('acc', 'app', validateInputs([{ subject: 's', issuer: 'i', target: 't', action: true }]));
    await store.events.insert([[ev!]], new Date(Date.now() - 1));
    expect(await relay.runOnce()).toBe(1);
    expect(published.map((p) => p.msgId)).toEqual([ev!.id]);
    expect(await store.outbox.pending()).toMatchObject({ count: 1 });
    answer = 'ack';
    // due again once the retry time has passed
    for (let i = 0; i < 100 && (await store.outbox.pending()).count; i++) {
      await new Promise((r) => setTimeout(r, 20));
      await relay.runOnce();
    }
    await relay.stop();
    // published again (at least once more: a process stalled past the 30 ms timeout before the
    // acknowledgement's turn times that publication out too, and the relay sends it once more)
    expect(published.length).toBeGreaterThanOrEqual(2);
    expect(new Set(published.map((p) => p.msgId))).toEqual(new Set([ev!.id]));
    expect(await store.outbox.pending()).toEqual({ count: 0, oldestStoredAt: null });
  });
});
