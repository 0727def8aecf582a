import { status } from '@grpc/grpc-js';
import type { NatsConnection } from 'nats';
import { fieldErrorsOf } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { webhookv1 } from '@accord/proto';
import type { Resolver } from '../src/http/sender';
import { connectTestNats, consentData, eventually, publishEvent, startService, startReceiver, type RunningService } from '@accord/testkit';

jest.setTimeout(60_000);

const app = { accountId: 'acc-s', appId: 'app-s' };
// A DNS of our own: names that exist nowhere else, so a request that arrives proves the sender
// connected to the address it vetted rather than resolving again.
const fakeDns: Record<string, string[]> = {
  'inside.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['93.184.216.34', '10.0.0.7'],
  'receiver.test': ['127.0.0.1'],
};
const resolve: Resolver = async (name) => {
  const addrs = fakeDns[name];
  if (!addrs) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

/** A webhook service on `database` with ACCORD_WEBHOOK_ALLOW_CIDRS `allowCidrs` and the DNS above, up for the tests of the describe block that calls it. */
function webhookService(database: string, allowCidrs: string) {
  const s = { t: testEnv(database), svc: undefined as unknown as RunningService<'webhook'> };
  beforeAll(async () => {
    s.svc = await startService('webhook', s.t, { ACCORD_WEBHOOK_ALLOW_CIDRS: allowCidrs }, { resolve });
  });
  afterAll(() => s.svc.stop());
  return s;
}

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectTestNats(process.env.NATS_URL!);
});
afterAll(() => nc.close());

describe('SSRF protection under the production setting (no allow-list)', () => {
  const hooks = webhookService('webhookssrf', '');

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://[::1]/hook',
    'http://localhost:3000/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://[::ffff:192.168.0.1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://2130706433/', // decimal
    'http://0177.0.0.1/', // octal
    'http://0x7f.0.0.1/', // hexadecimal
    'http://127.1/', // short form
    'http://0.0.0.0/',
    'http://100.64.0.1/', // CGNAT
    'http://[::]/',
  ])('refuses to register %s', async (url) => {
    const err = await hooks.svc.client.createWebhook({ ...app, url, events: ['consent'], headers: new Map() }).then(
      () => null,
      (e: Parameters<typeof fieldErrorsOf>[0]) => e,
    );
    expect(err?.code).toBe(status.INVALID_ARGUMENT);
    expect(fieldErrorsOf(err!).map((f) => f.field)).toEqual(['/url']);
  });

  it('refuses at delivery time a host name that resolves to a private address, and says why', async () => {
    const rx = await startReceiver();
    try {
      const inside = await hooks.svc.client.createWebhook({ ...app, url: `http://inside.test:${rx.port}/hook`, events: ['consent'], headers: new Map() });
      const mixed = await hooks.svc.client.createWebhook({ ...app, url: `http://mixed.test:${rx.port}/hook`, events: ['consent'], headers: new Map() });
      const meta = await hooks.svc.client.createWebhook({ ...app, url: 'http://metadata.test/latest/meta-data/', events: ['consent'], headers: new Map() });
      await publishEvent(nc, hooks.t.natsPrefix, { id: 'evt_ssrf_1', type: 'consent', ...app, data: consentData('evt_ssrf_1') });
      for (const w of [inside, mixed, meta]) {
        await eventually(async () => ((await hooks.svc.client.listDeliveries({ ...app, webhookId: w.id })).deliveries[0]?.attempts.length ?? 0) > 0);
        const [d] = (await hooks.svc.client.listDeliveries({ ...app, webhookId: w.id })).deliveries;
        expect(d!.attempts[0]).toMatchObject({ statusCode: 0 });
        expect(d!.attempts[0]!.error).toMatch(/refused by the SSRF guard/);
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(rx.received).toHaveLength(0);
    } finally {
      await rx.close();
    }
  });
});

describe('SSRF allow-list (npm start setting)', () => {
  const hooks = webhookService('webhookallow', '127.0.0.0/8,::1/128');

  it('connects to the vetted address while sending the URL host name as Host', async () => {
    const rx = await startReceiver();
    try {
      const w = await hooks.svc.client.createWebhook({ ...app, url: `http://receiver.test:${rx.port}/hook?x=1`, events: ['consent'], headers: new Map() });
      await publishEvent(nc, hooks.t.natsPrefix, { id: 'evt_allow_1', type: 'consent', ...app, data: consentData('evt_allow_1') });
      const [r] = await rx.waitFor(1);
      expect(r!.headers.host).toBe(`receiver.test:${rx.port}`);
      await eventually(
        async () =>
          (await hooks.svc.client.listDeliveries({ ...app, webhookId: w.id })).deliveries[0]?.status === webhookv1.DeliveryStatus.DELIVERY_STATUS_SUCCEEDED,
      );
    } finally {
      await rx.close();
    }
  });

  it('does not follow a redirect (to an allowed address or any other): the 3xx is the failed answer of the attempt', async () => {
    const target = await startReceiver();
    const rx = await startReceiver(() => ({ status: 302, headers: { location: `http://127.0.0.1:${target.port}/elsewhere` } }));
    try {
      const w = await hooks.svc.client.createWebhook({ ...app, url: `http://receiver.test:${rx.port}/hook`, events: ['consent'], headers: new Map() });
      await publishEvent(nc, hooks.t.natsPrefix, { id: 'evt_redirect_1', type: 'consent', ...app, data: consentData('evt_redirect_1') });
      await eventually(async () => ((await hooks.svc.client.listDeliveries({ ...app, webhookId: w.id })).deliveries[0]?.attempts.length ?? 0) > 0);
      const [d] = (await hooks.svc.client.listDeliveries({ ...app, webhookId: w.id })).deliveries;
      expect(d!.attempts[0]).toMatchObject({ statusCode: 302 });
      expect(d!.status).not.toBe(webhookv1.DeliveryStatus.DELIVERY_STATUS_SUCCEEDED);
      expect(target.received).toHaveLength(0);
    } finally {
      await rx.close();
      await target.close();
    }
  });

  it('still refuses private ranges the allow-list does not open', async () => {
    const err = await hooks.svc.client
      .createWebhook({ ...app, url: 'http://10.1.2.3/', events: ['consent'], headers: new Map() })
      .catch((e: { code: number }) => e);
    expect((err as { code: number }).code).toBe(status.INVALID_ARGUMENT);
  });
});
