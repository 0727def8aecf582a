import { headers as natsHeaders, type NatsConnection } from 'nats';
import { Webhook } from 'standardwebhooks';
import { eventSubject } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { CONSENT_BUS_CONTENT_TYPE, consentEventJson, encodeConsentBusEvent, webhookv1, type consentv1 } from '@accord/proto';
import { connectTestNats, consentData, eventually, publishEvent, startService, startReceiver, type Receiver, type RunningService } from '@accord/testkit';

jest.setTimeout(60_000);
const t = testEnv('webhookdlv');
let svc: RunningService<'webhook'>;
let nc: NatsConnection;
const app = { accountId: 'acc-1', appId: 'app-1' };
let seq = 0;
const eventId = () => `evt${Date.now().toString(16)}${(seq++).toString(16).padStart(4, '0')}`;
const consent = (id = eventId(), who = app) => ({ id, type: 'consent', ...who, data: consentData(id) });

beforeAll(async () => {
  svc = await startService('webhook', t);
  nc = await connectTestNats(t.natsUrl);
});
afterAll(async () => {
  await nc.close();
  await svc.stop();
});

/** A receiver answering as `respond` says, behind a webhook of `app` for consent events; closed when `body` ends, passed or failed. */
async function withConsentWebhook(respond: Parameters<typeof startReceiver>[0], body: (rx: Receiver, w: webhookv1.Webhook) => Promise<void>): Promise<void> {
  const rx = await startReceiver(respond);
  try {
    await body(rx, await svc.client.createWebhook({ ...app, url: rx.url, events: ['consent'], headers: new Map() }));
  } finally {
    await rx.close();
  }
}

const { DELIVERY_STATUS_SUCCEEDED, DELIVERY_STATUS_FAILED } = webhookv1.DeliveryStatus;

/** The deliveries of webhook `w`, newest first. */
const deliveriesOf = async (w: webhookv1.Webhook) => (await svc.client.listDeliveries({ ...app, webhookId: w.id })).deliveries;

/** Publishes a consent event of `app` and waits until `rx` has had `n` requests: the requests. */
async function publishAndReceive(rx: Receiver, n: number) {
  await publishEvent(nc, t.natsPrefix, consent());
  return rx.waitFor(n);
}

/** Waits `ms`, then expects `rx` to have had exactly `n` requests: nothing more came meanwhile. */
async function receivedOnly(rx: Receiver, n: number, ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
  expect(rx.received).toHaveLength(n);
}

/** Waits until the newest delivery of `w` is in `status`. */
const newestBecomes = (w: webhookv1.Webhook, status: webhookv1.DeliveryStatus) => eventually(async () => (await deliveriesOf(w))[0]?.status === status);

describe('webhook delivery', () => {
  it('POSTs each consent event, signed per Standard Webhooks, with the custom headers', async () => {
    const rx = await startReceiver();
    try {
      const w = await svc.client.createWebhook({
        ...app,
        url: rx.url,
        events: ['consent'],
        headers: new Map([
          ['Authorization', 'Bearer receiver-token'],
          ['X-Tenant', 'shop'],
        ]),
      });
      const e = consent();
      await publishEvent(nc, t.natsPrefix, e);
      const [r] = await rx.waitFor(1);
      expect(r!.headers['content-type']).toBe('application/json');
      expect(r!.headers.authorization).toBe('Bearer receiver-token');
      expect(r!.headers['x-tenant']).toBe('shop');
      expect(r!.headers['webhook-id']).toBe(e.id);
      const payload = new Webhook(w.secret).verify(r!.body, r!.headers as Record<string, string>);
      expect(payload).toEqual({ type: 'consent', text: 'A consent event was recorded', data: e.data });
      await newestBecomes(w, DELIVERY_STATUS_SUCCEEDED);
      const [d] = await deliveriesOf(w);
      expect(d).toMatchObject({ eventId: e.id, eventType: 'consent', webhookId: w.id });
      expect(d!.attempts).toHaveLength(1);
      expect(d!.attempts[0]).toMatchObject({ statusCode: 204, error: '' });
    } finally {
      await rx.close();
    }
  });

  it('delivers a binary ConsentBusEvent (what the consent service publishes) with data rendered as REST renders the event, and a JSON envelope of an earlier release as it was published', async () => {
    const rx = await startReceiver();
    const who = { accountId: 'acc-bus', appId: 'app-bus' };
    try {
      const w = await svc.client.createWebhook({ ...who, url: rx.url, events: ['consent', 'consent.renewal_required'], headers: new Map() });
      const ev: consentv1.ConsentEvent = {
        id: eventId(),
        subject: 'user-1',
        issuer: 'https://shop.example',
        target: 'https://shop.example/privacy',
        scope: 'default',
        delegate: 'agent',
        token: 'ABC123',
        createdAt: new Date('2026-11-20T10:15:01.123Z'),
        appId: who.appId,
        targetVersion: 1,
        expiresAt: new Date('2027-01-01T00:00:00Z'),
      };
      const binary = async (m: Parameters<typeof encodeConsentBusEvent>[0]) => {
        const h = natsHeaders();
        h.set('Nats-Msg-Id', m.id);
        h.set('Content-Type', CONSENT_BUS_CONTENT_TYPE);
        await nc.jetstream().publish(eventSubject(t.natsPrefix, m.type, m.accountId, m.appId), encodeConsentBusEvent(m), { headers: h });
      };
      await binary({ id: ev.id, type: 'consent', ...who, occurredAt: ev.createdAt, event: ev });
      const renewalId = eventId();
      await binary({
        id: renewalId,
        type: 'consent.renewal_required',
        ...who,
        occurredAt: new Date(),
        event: { ...ev, renewalRequired: true },
        reconsentSince: 2,
      });
      const legacy = consent(eventId(), who);
      await publishEvent(nc, t.natsPrefix, legacy);
      await rx.waitFor(3);
      const bodies = rx.received.map(
        (r) => new Webhook(w.secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, unknown> },
      );
      const byId = (id: string) => rx.received.findIndex((r) => r.headers['webhook-id'] === id);
      expect(bodies[byId(ev.id)]).toEqual({ type: 'consent', text: 'A consent event was recorded', data: consentEventJson(ev) });
      expect(bodies[byId(ev.id)]!.data).toMatchObject({ action: null, delegate: 'agent', targetVersion: 1, expiresAt: '2027-01-01T00:00:00.000Z' });
      expect(bodies[byId(renewalId)]!.data).toEqual({ ...consentEventJson(ev), renewalRequired: true, reconsentSince: 2 });
      expect(bodies[byId(legacy.id)]!.data).toEqual(legacy.data);
    } finally {
      await rx.close();
    }
  });

  it("does not send an application's events to another application's webhook", async () => {
    const mine = await startReceiver();
    const theirs = await startReceiver();
    try {
      await svc.client.createWebhook({ ...app, url: mine.url, events: ['consent'], headers: new Map() });
      await svc.client.createWebhook({ accountId: 'acc-1', appId: 'app-other', url: theirs.url, events: ['consent'], headers: new Map() });
      await svc.client.createWebhook({ accountId: 'acc-other', appId: 'app-1x', url: theirs.url, events: ['consent'], headers: new Map() });
      const e = consent();
      await publishEvent(nc, t.natsPrefix, e);
      await mine.waitFor(1);
      await receivedOnly(theirs, 0, 500);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('delivers an account-wide log.tree_head to the subscribed webhooks of every application of the account, and to nobody else', async () => {
    const appA = await startReceiver();
    const appB = await startReceiver();
    const others = await startReceiver();
    try {
      await svc.client.createWebhook({ accountId: 'acc-heads', appId: 'app-a', url: appA.url, events: ['log.tree_head'], headers: new Map() });
      const wb = await svc.client.createWebhook({
        accountId: 'acc-heads',
        appId: 'app-b',
        url: appB.url,
        events: ['consent', 'log.tree_head'],
        headers: new Map(),
      });
      // opt-in: a consent-only webhook of the account, and another account's head webhook, get nothing
      await svc.client.createWebhook({ accountId: 'acc-heads', appId: 'app-c', url: others.url, events: ['consent'], headers: new Map() });
      await svc.client.createWebhook({ accountId: 'acc-other-heads', appId: 'app-a', url: others.url, events: ['log.tree_head'], headers: new Map() });
      const id = eventId();
      const data = { treeSize: 3, rootHash: Buffer.alloc(32, 7).toString('base64'), timestamp: new Date().toISOString(), signature: 'a.b.c' };
      // as the consent service publishes it: no application, subject `<prefix>.events.log.tree_head.<account>._`
      const envelope = { id, type: 'log.tree_head', accountId: 'acc-heads', appId: '', occurredAt: data.timestamp, data };
      await nc.jetstream().publish(`${t.natsPrefix}.events.log.tree_head.acc-heads._`, new TextEncoder().encode(JSON.stringify(envelope)), { msgID: id });
      const [a] = await appA.waitFor(1);
      const [b] = await appB.waitFor(1);
      expect(JSON.parse(a!.body)).toEqual({ type: 'log.tree_head', text: 'The consent log of the account has a new signed tree head', data });
      expect(b!.headers['webhook-id']).toBe(id);
      new Webhook(wb.secret).verify(b!.body, b!.headers as Record<string, string>);
      await receivedOnly(others, 0, 500);
    } finally {
      await appA.close();
      await appB.close();
      await others.close();
    }
  });

  it('retries a failing receiver until it succeeds, with the same webhook-id and a fresh timestamp', async () => {
    await withConsentWebhook(
      (_r, n) => ({ status: n < 3 ? 500 : 200 }),
      async (rx, w) => {
        const e = consent();
        await publishEvent(nc, t.natsPrefix, e);
        const got = await rx.waitFor(3);
        expect(got.map((r) => r.headers['webhook-id'])).toEqual([e.id, e.id, e.id]);
        for (const r of got) expect(new Webhook(w.secret).verify(r.body, r.headers as Record<string, string>)).toMatchObject({ type: 'consent' });
        // Schedule 200ms, 400ms (no jitter in this config).
        expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(180);
        expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(380);
        await newestBecomes(w, DELIVERY_STATUS_SUCCEEDED);
        const [d] = await deliveriesOf(w);
        expect(d!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
        expect(d!.attempts[0]!.error).toBe('unexpected status 500');
      },
    );
  });

  it('counts an answer slower than the timeout as a failure and retries', async () => {
    await withConsentWebhook(
      (_r, n) => (n === 1 ? { status: 200, delayMs: 2_600 } : { status: 200 }),
      async (rx, w) => {
        const e = consent();
        await publishEvent(nc, t.natsPrefix, e);
        const got = await rx.waitFor(2);
        expect(got[1]!.headers['webhook-id']).toBe(e.id);
        await newestBecomes(w, DELIVERY_STATUS_SUCCEEDED);
        const [d] = await deliveriesOf(w);
        expect(d!.attempts[0]).toMatchObject({ statusCode: 0, error: 'timed out after 2000 ms' });
        expect(d!.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(1_900);
        expect(d!.attempts[1]).toMatchObject({ statusCode: 200 });
      },
    );
  });

  it('honours Retry-After when it asks for more than the schedule', async () => {
    await withConsentWebhook(
      (_r, n) => (n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 }),
      async (rx) => {
        const got = await publishAndReceive(rx, 2);
        expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(1_900);
      },
    );
  });

  it('marks a delivery failed after the last scheduled attempt and keeps it', async () => {
    await withConsentWebhook(
      () => ({ status: 500 }),
      async (rx, w) => {
        await publishAndReceive(rx, 3);
        await newestBecomes(w, DELIVERY_STATUS_FAILED);
        await receivedOnly(rx, 3, 700); // 1 + two scheduled retries
        const [d] = await deliveriesOf(w);
        expect(d!.attempts).toHaveLength(3);
        expect(d!.nextAttemptAt).toBeUndefined();
      },
    );
  });

  it('disables the webhook when the receiver answers 410 Gone', async () => {
    await withConsentWebhook(
      () => ({ status: 410 }),
      async (rx, w) => {
        await publishAndReceive(rx, 1);
        await eventually(async () => (await svc.client.getWebhook({ ...app, id: w.id })).disabled);
        await publishEvent(nc, t.natsPrefix, consent());
        await receivedOnly(rx, 1, 800);
        expect((await svc.client.getWebhook({ ...app, id: w.id })).disabledReason).toMatch(/410/);
        const re = await svc.client.updateWebhook({ ...app, id: w.id, disabled: false });
        expect(re.disabled).toBe(false);
      },
    );
  });

  it('sends nothing more to a deleted webhook, not even pending retries', async () => {
    // The retry waits 2 s (Retry-After), so the deletion surely comes before it.
    await withConsentWebhook(
      () => ({ status: 500, headers: { 'retry-after': '2' } }),
      async (rx, w) => {
        await publishAndReceive(rx, 1);
        await svc.client.deleteWebhook({ ...app, id: w.id });
        await publishEvent(nc, t.natsPrefix, consent());
        await receivedOnly(rx, 1, 2_500);
      },
    );
  });

  it('signs with both the new and the previous secret after a rotation', async () => {
    await withConsentWebhook(undefined, async (rx, w) => {
      const rotated = await svc.client.rotateWebhookSecret({ ...app, id: w.id });
      const [r] = await publishAndReceive(rx, 1);
      expect((r!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
      expect(new Webhook(w.secret).verify(r!.body, r!.headers as Record<string, string>)).toBeTruthy();
      expect(new Webhook(rotated.secret).verify(r!.body, r!.headers as Record<string, string>)).toBeTruthy();
    });
  });

  it('sends a signed ping through the test endpoint, and redelivers a delivery with the same webhook-id', async () => {
    await withConsentWebhook(undefined, async (rx, w) => {
      const d = await svc.client.sendTestEvent({ ...app, webhookId: w.id });
      expect(d.eventType).toBe('ping');
      const [r] = await rx.waitFor(1);
      expect(new Webhook(w.secret).verify(r!.body, r!.headers as Record<string, string>)).toMatchObject({ type: 'ping', data: { webhookId: w.id } });
      await newestBecomes(w, DELIVERY_STATUS_SUCCEEDED);
      await svc.client.redeliverDelivery({ ...app, webhookId: w.id, deliveryId: d.id });
      const got = await rx.waitFor(2);
      expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
      await eventually(async () => (await deliveriesOf(w))[0]?.attempts.length === 2);
    });
  });

  it('handles the same event arriving twice (a JetStream redelivery) as one delivery', async () => {
    await withConsentWebhook(undefined, async (rx, w) => {
      const e = consent();
      await publishEvent(nc, t.natsPrefix, e);
      await rx.waitFor(1);
      await newestBecomes(w, DELIVERY_STATUS_SUCCEEDED);
      // Same envelope under another Nats-Msg-Id, as when a message is redelivered after a crash.
      await publishEvent(nc, t.natsPrefix, { ...e, id: e.id, occurredAt: new Date().toISOString() }, `${e.id}-again`);
      await receivedOnly(rx, 1, 1_000);
      expect(await deliveriesOf(w)).toHaveLength(1);
    });
  });

  it('pages through deliveries newest first', async () => {
    await withConsentWebhook(undefined, async (rx, w) => {
      const ids = [consent(), consent(), consent()];
      for (const e of ids) await publishEvent(nc, t.natsPrefix, e);
      await rx.waitFor(3);
      const p1 = await svc.client.listDeliveries({ ...app, webhookId: w.id, page: { limit: 2, cursor: '' } });
      expect(p1.deliveries).toHaveLength(2);
      expect(p1.nextCursor).not.toBe('');
      const p2 = await svc.client.listDeliveries({ ...app, webhookId: w.id, page: { limit: 2, cursor: p1.nextCursor } });
      expect(p2.deliveries).toHaveLength(1);
      expect(p2.nextCursor).toBe('');
      expect(new Set([...p1.deliveries, ...p2.deliveries].map((d) => d.eventId))).toEqual(new Set(ids.map((e) => e.id)));
    });
  });
});
