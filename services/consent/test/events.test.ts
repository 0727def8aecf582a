import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { connect, type NatsConnection } from 'nats';
import { eventSubject, streamName, type EventEnvelope } from '@accord/common';
import { CONSENT_BUS_CONTENT_TYPE, consentBusEventEnvelope, consentEventJson, decodeConsentBusEvent, isConsentBusContentType } from '@accord/proto';
import { findBinary, freePort, itWithBinary, spawnLogged, stopChild, testEnv, waitForPort } from '@accord/local-stack';
import { Consents } from '../src/app/consents';
import { buildEvents, validateInputs } from '../src/domain/consent';
import type { ConsentStore } from '../src/app/ports';
import { withStore } from './store';
import { consentInput as input, startService, eventually, type RunningService } from '@accord/testkit';

const A = { accountId: 'acc-ev', appId: 'app-ev' };

interface StreamMessage {
  subject: string;
  msgId: string | undefined;
  contentType: string | undefined;
  envelope: EventEnvelope<Record<string, unknown>>;
}

async function streamMessages(nc: NatsConnection, prefix: string): Promise<StreamMessage[]> {
  const jsm = await nc.jetstreamManager();
  const info = await jsm.streams.info(streamName(prefix));
  const out: StreamMessage[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const m = await jsm.streams.getMessage(streamName(prefix), { seq });
    const contentType = m.header?.get('Content-Type');
    const envelope = isConsentBusContentType(contentType)
      ? consentBusEventEnvelope(decodeConsentBusEvent(m.data))
      : m.json<EventEnvelope<Record<string, unknown>>>();
    out.push({ subject: m.subject, msgId: m.header?.get('Nats-Msg-Id'), contentType, envelope });
  }
  return out;
}

/**
 * A Consents use case over `store` whose current-state step is `apply`, with a relay stand-in
 * that records what the writer hands over for publishing, and the warnings it logs; its events are
 * due for the relay after `leaseMs`.
 */
function writerWith(store: ConsentStore, apply: ConsentStore['current']['apply'], leaseMs: number) {
  const published: string[] = [];
  const warnings: unknown[] = [];
  const relay = { publishStored: (evs: { id: string }[]) => void published.push(...evs.map((e) => e.id)) };
  const consents = new Consents(
    { ...store, current: { ...store.current, apply } },
    relay,
    {
      keys: [],
      settings: { baseUrl: 'https://accord.example' } as never,
      specs: { lookup: async () => undefined, current: async () => undefined, asOf: async () => undefined },
    },
    { warn: (...args: unknown[]) => void warnings.push(args) },
    undefined,
    '',
    { publishLeaseMs: leaseMs },
  );
  return { consents, published, warnings };
}

describe('events on NATS', () => {
  let svc: RunningService<'consent'>;
  let nc: NatsConnection;
  beforeAll(async () => {
    svc = await startService('consent', 'consentevents');
    nc = await connect({ servers: svc.env.natsUrl });
  });
  afterAll(async () => {
    await svc?.stop();
    await nc?.close();
  });

  it('publishes every stored event once as a binary ConsentBusEvent on the account/app subject with Nats-Msg-Id = event id', async () => {
    const { events } = await svc.client.createConsents({
      ...A,
      events: [input({ action: true, source: 'web' }), input({ subject: 'u2', delegate: 'agent-7' })],
    });
    const msgs = await eventually(async () => {
      const m = await streamMessages(nc, svc.env.natsPrefix);
      return m.length >= 2 && m;
    });
    expect(msgs).toHaveLength(2);
    const first = msgs.find((m) => m.msgId === events[0]!.id)!;
    expect(first.subject).toBe(eventSubject(svc.env.natsPrefix, 'consent', A.accountId, A.appId));
    expect(msgs.map((m) => m.contentType)).toEqual([CONSENT_BUS_CONTENT_TYPE, CONSENT_BUS_CONTENT_TYPE]);
    expect(first.envelope).toEqual({
      id: events[0]!.id,
      type: 'consent',
      accountId: A.accountId,
      appId: A.appId,
      occurredAt: events[0]!.createdAt!.toISOString(),
      data: {
        id: events[0]!.id,
        subject: 'user-1',
        issuer: input().issuer,
        target: input().target,
        source: 'web',
        scope: 'default',
        action: true,
        token: events[0]!.token,
        createdAt: events[0]!.createdAt!.toISOString(),
        appId: A.appId,
      },
    });
    const second = msgs.find((m) => m.msgId === events[1]!.id)!;
    expect(second.envelope.data).toMatchObject({ action: null, delegate: 'agent-7' });
    expect(second.envelope.data).not.toHaveProperty('source');
    // webhook data is the gRPC answer rendered as REST renders it
    expect(first.envelope.data).toEqual(consentEventJson(events[0]!));
    expect(second.envelope.data).toEqual(consentEventJson(events[1]!));
  });

  it('publishes events whose writer died after storing them, and moves their current states first', async () => {
    await withStore(svc.env.mongoUrl, async ({ store }) => {
      const dead = buildEvents(A.accountId, A.appId, validateInputs([{ subject: 'crashed', issuer: 'i', target: 't', action: true }]));
      // A writer that died right after storing: nothing projected or published, due in 200 ms.
      await store.events.insert([dead], new Date(Date.now() + 200));

      await eventually(async () => (await store.outbox.pending()).count === 0, 20_000, 'relay to publish');
      const ids = (await streamMessages(nc, svc.env.natsPrefix)).map((m) => m.msgId);
      expect(ids.filter((id) => id === dead[0]!.id)).toHaveLength(1);
      const cur = await svc.client.searchConsents({ accountId: A.accountId, subject: 'crashed', issuer: 'i', target: 't', current: true });
      expect(cur.events.map((e) => e.id)).toEqual([dead[0]!.id]);
    });
  });

  it('answers the stored events when their current states cannot be applied, and the relay applies and publishes them later', async () => {
    await withStore(svc.env.mongoUrl, async ({ store }) => {
      const { consents, published, warnings } = writerWith(store, () => Promise.reject(new Error('database hiccup')), 300);
      const [ev] = await consents.create(A.accountId, A.appId, [{ subject: 'hiccup', issuer: 'i', target: 't', action: true }]);
      expect(ev!.id).toMatch(/^[0-9a-f]{32}$/);
      expect(await store.events.findById(A.accountId, ev!.id)).toMatchObject({ subject: 'hiccup' });
      expect(warnings).toHaveLength(1);
      expect(published).toEqual([]); // left to the relay, which re-applies the current state first

      await eventually(async () => (await streamMessages(nc, svc.env.natsPrefix)).some((m) => m.msgId === ev!.id), 20_000, 'relay to publish');
      const cur = await svc.client.searchConsents({ accountId: A.accountId, subject: 'hiccup', issuer: 'i', target: 't', current: true });
      expect(cur.events.map((e) => e.id)).toEqual([ev!.id]);
    });
  });

  it("answers the stored events before the caller's deadline while their current states are still being applied, and publishes after", async () => {
    await withStore(svc.env.mongoUrl, async ({ store }) => {
      let finish!: () => void;
      const { consents, published } = writerWith(store, (evs) => new Promise<void>((res) => (finish = () => void store.current.apply(evs).then(res))), 30_000);
      // a caller that stops waiting in 1.2 s: the answer must leave before (1 s margin)
      const [ev] = await consents.create(A.accountId, A.appId, [{ subject: 'late', issuer: 'i', target: 't', action: false }], Date.now() + 1200);
      expect(await store.events.findById(A.accountId, ev!.id)).toMatchObject({ subject: 'late', action: false });
      expect(published).toEqual([]);
      finish();
      await consents.drain();
      expect(published).toEqual([ev!.id]);
      const cur = await svc.client.searchConsents({ accountId: A.accountId, subject: 'late', issuer: 'i', target: 't', current: true });
      expect(cur.events.map((e) => e.id)).toEqual([ev!.id]);
    });
  });

  it('hands every due event to exactly one of three racing relays', async () => {
    // a database of its own: the running service's relay must not take part
    await withStore(testEnv('consentclaims').mongoUrl, async ({ store }) => {
      const evs = buildEvents('acc-claim', 'app', validateInputs(Array.from({ length: 50 }, () => ({ subject: 's', issuer: 'i', target: 't', action: true }))));
      await store.events.insert(
        evs.map((e) => [e]),
        new Date(Date.now() - 1000),
      ); // already due: up for grabs
      const until = () => new Date(Date.now() + 60_000);
      const claims = await Promise.all(['r1', 'r2', 'r3'].map((claim) => store.outbox.claimDue(claim, new Date(), until(), 100)));
      const claimed = claims.flat().map((e) => e.id);
      expect(claimed.sort()).toEqual(evs.map((e) => e.id).sort()); // each once, none left out
      expect(await store.outbox.claimDue('r4', new Date(), until(), 100)).toEqual([]); // leased now
    });
  });
});

describe('events while NATS is down', () => {
  const bin = findBinary('nats-server');
  let child: ChildProcess | undefined;
  let svc: RunningService<'consent'> | undefined;
  let port: number;
  const storeDir = mkdtempSync(join(tmpdir(), 'consent-nats-'));
  const startNats = async () => {
    child = spawnLogged(bin!, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {});
    await waitForPort(port, '127.0.0.1', 20_000, child);
  };
  afterAll(async () => {
    await svc?.stop();
    if (child) await stopChild(child);
  });

  itWithBinary(bin, 'nats-server')('stores events while NATS is stopped and has every one of them on the stream after it restarts', async () => {
    port = await freePort();
    await startNats();
    const env = { ...testEnv('consentoutage'), natsUrl: `nats://127.0.0.1:${port}` };
    svc = await startService('consent', env, { ACCORD_CONSENT_PUBLISH_TIMEOUT_MS: '500' });
    const before = await svc.client.createConsents({ ...A, events: [input({ subject: 'before' })] });

    await stopChild(child!);
    const during: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { events } = await svc.client.createConsents({ ...A, events: [input({ subject: `during-${i}` }), input({ subject: `during-${i}b` })] });
      during.push(...events.map((e) => e.id));
    }
    await new Promise((r) => setTimeout(r, 1500));
    await startNats();

    const nc = await connect({ servers: env.natsUrl });
    try {
      const expected = [before.events[0]!.id, ...during].sort();
      const msgs = await eventually(
        async () => {
          const m = await streamMessages(nc, env.natsPrefix).catch(() => []);
          return m.length >= expected.length && m;
        },
        40_000,
        'all events on the stream',
      );
      expect(msgs.map((m) => m.msgId).sort()).toEqual(expected);
    } finally {
      await nc.close();
    }
  });
});
