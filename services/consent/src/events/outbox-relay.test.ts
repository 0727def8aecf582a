import type { JetStreamClient } from 'nats';
import { createLogger } from '@accord/common';
import { decodeConsentBusEvent } from '@accord/proto';
import { buildEvents, validateInputs, type ConsentEvent } from '../domain/consent';
import { memoryConsentStore } from '../store/memory/store';
import { OutboxRelay } from './outbox-relay';

const event = (subject: string) => ({ subject, issuer: 'i', target: 't', action: true });

function setUp() {
  const store = memoryConsentStore();
  const sent: string[] = [];
  let down = false;
  const js = {
    publish: async (_subject: string, data: Uint8Array) => {
      if (down) throw new Error('nats down');
      sent.push(decodeConsentBusEvent(data).id);
      return {};
    },
  } as unknown as JetStreamClient;
  const relay = new OutboxRelay(store, js, { prefix: 'x', leaseMs: 1000, pollMs: 1000, publishTimeoutMs: 100, logger: createLogger('test', 'silent') });
  return { store, relay, sent, natsDown: (v: boolean) => (down = v) };
}

/** A request whose writer's insert stored only its first event and was never answered (the writer died, or could not withdraw it). */
async function cutInHalf(store: ReturnType<typeof memoryConsentStore>): Promise<ConsentEvent[]> {
  const req = buildEvents('acc', 'app', validateInputs([event('cut'), event('cut'), event('cut')]));
  store.faults.fail('events.insert', { after: 1 });
  await expect(store.events.insert([req], new Date(Date.now() - 1))).rejects.toThrow();
  return req;
}

describe('the outbox relay', () => {
  it('publishes the due events of dead writers once, after applying their current states', async () => {
    const { store, relay, sent } = setUp();
    const evs = buildEvents('acc', 'app', validateInputs([event('a'), event('b')]));
    await store.events.insert([evs], new Date(Date.now() - 1));
    expect(await relay.runOnce()).toBe(2);
    await relay.stop();
    expect(sent).toEqual(evs.map((e) => e.id));
    expect(await store.outbox.pending()).toEqual({ count: 0, oldestStoredAt: null });
    expect(await store.current.ofSubject('acc', 'a', 'i', ['t'], 10)).toEqual([evs[0]]);
    expect(await relay.runOnce()).toBe(0);
  });

  it('never publishes an event of a request stored in part: it fences the request and withdraws what was stored', async () => {
    const { store, relay, sent } = setUp();
    const req = await cutInHalf(store);
    const [whole] = buildEvents('acc', 'app', validateInputs([event('whole')]));
    await store.events.insert([[whole!]], new Date(Date.now() - 1));
    expect(await relay.runOnce()).toBe(2);
    await relay.stop();
    expect(sent).toEqual([whole!.id]);
    expect(await store.outbox.pending()).toMatchObject({ count: 0 });
    // gone, and the request can never complete
    expect(await store.logQueue.isPending('acc', req[0]!.id)).toBe(false);
    expect(Object.fromEntries(await store.events.fence([req[2]!.id]))).toEqual({ [req[2]!.id]: 'fenced' });
    expect(await store.current.ofSubject('acc', 'cut', 'i', ['t'], 10)).toEqual([]);
  });

  it('publishes events whose request turns out to be stored whole after all', async () => {
    const { store, relay, sent } = setUp();
    const req = buildEvents('acc', 'app', validateInputs([event('late'), event('late')]));
    store.faults.fail('events.insert', { after: 1 });
    await expect(store.events.insert([req], new Date(Date.now() - 1))).rejects.toThrow();
    // the request's last event arrives (an insert that was still under way)
    await store.events.insert([[req[1]!]], new Date(Date.now() - 1));
    expect(await relay.runOnce()).toBe(2);
    await relay.stop();
    expect(sent.sort()).toEqual(req.map((e) => e.id).sort());
  });

  it('leaves a request it cannot settle (the database does not answer) for the next lease, unpublished', async () => {
    const { store, relay, sent } = setUp();
    const req = await cutInHalf(store);
    store.faults.fail('events.fence');
    expect(await relay.runOnce()).toBe(1);
    expect(sent).toEqual([]);
    expect(await store.logQueue.isPending('acc', req[0]!.id)).toBe(true);
    // due again after the lease
    expect(await relay.runOnce()).toBe(0);
    await relay.stop();
  });

  it('defers what NATS did not acknowledge, and publishes it on a later round', async () => {
    const { store, relay, sent, natsDown } = setUp();
    const evs = buildEvents('acc', 'app', validateInputs([event('a')]));
    await store.events.insert([evs], new Date(Date.now() - 1));
    natsDown(true);
    expect(await relay.runOnce()).toBe(1);
    expect(sent).toEqual([]);
    natsDown(false);
    expect(await store.outbox.pending()).toMatchObject({ count: 1 });
    await relay.stop();
  });
});
