import { Webhook } from 'standardwebhooks';
import { eventually, sleep, startReceiver } from '@accord/testkit';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(90_000);

let stack: Stack;
let acme: Credentials;
let acmeOther: Credentials;
let globex: Credentials;
const tokens: Record<string, { consent: string; webhooks: string }> = {};

beforeAll(async () => {
  stack = await startStack('webhooks');
  acme = await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent', 'webhooks'] });
  acmeOther = await stack.bootstrap({ account: 'acme', app: 'mobile', scopes: ['consent', 'webhooks'] });
  globex = await stack.bootstrap({ account: 'globex', app: 'api', scopes: ['consent', 'webhooks'] });
  for (const c of [acme, acmeOther, globex]) tokens[c.appId] = { consent: await stack.token(c, 'consent'), webhooks: await stack.token(c, 'webhooks') };
}, 120_000);
afterAll(async () => stack?.stop());

const hooks = (c: Credentials, method: string, path: string, json?: unknown) =>
  stack.request(method, `/webhooks/v0${path}`, { token: tokens[c.appId]!.webhooks, json });
const postConsent = (c: Credentials, over: Record<string, unknown> = {}) =>
  stack.request('POST', '/consent/v0/consents', {
    token: tokens[c.appId]!.consent,
    apiKey: c.apiKey,
    json: { subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true, ...over },
  });

describe('/webhooks/v0 registration', () => {
  test('registers a webhook for the token application and reads it back with its secret', async () => {
    const res = await hooks(acme, 'POST', '', { url: 'https://hooks.example.com/a', events: ['consent'], headers: { Authorization: 'Bearer x' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      appId: acme.appId,
      url: 'https://hooks.example.com/a',
      events: ['consent'],
      headers: { Authorization: 'Bearer x' },
      disabled: false,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(res.headers.get('location')).toMatch(new RegExp(`/webhooks/v0/${res.body.id}$`));
    const one = await hooks(acme, 'GET', `/${res.body.id}`);
    expect(one.body.secret).toBe(res.body.secret);
    const list = await hooks(acme, 'GET', '');
    expect(list.body.map((w: { id: number }) => w.id)).toContain(res.body.id);
    expect(list.body[0].secret).toBeUndefined();
  });

  test("answers 404 for another application's webhook and lists only the caller's", async () => {
    const res = await hooks(acme, 'POST', '', { url: 'https://hooks.example.com/private', events: ['consent'] });
    for (const other of [acmeOther, globex]) {
      expect((await hooks(other, 'GET', `/${res.body.id}`)).status).toBe(404);
      expect((await hooks(other, 'PATCH', `/${res.body.id}`, { url: 'https://evil.example.com/' })).status).toBe(404);
      expect((await hooks(other, 'DELETE', `/${res.body.id}`)).status).toBe(404);
      expect((await hooks(other, 'GET', '')).body.map((w: { id: number }) => w.id)).not.toContain(res.body.id);
    }
  });

  test('refuses invalid registrations with a 400 problem naming the field', async () => {
    const bad = async (body: unknown, field: string) => {
      const res = await hooks(acme, 'POST', '', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    await bad({ url: 'not-a-url', events: ['consent'] }, '/url');
    await bad({ url: 'ftp://example.com/', events: ['consent'] }, '/url');
    await bad({ url: 'https://hooks.example.com/', events: [] }, '/events');
    await bad({ url: 'https://hooks.example.com/', events: ['consnt'] }, '/events/0');
    await bad({ url: 'https://hooks.example.com/', events: ['consent'], headers: { 'webhook-signature': 'v1,forged' } }, '/headers/webhook-signature');
    await bad({ url: 'https://hooks.example.com/', events: ['consent'], headers: { Host: 'x' } }, '/headers/Host');
    await bad({ url: 'https://hooks.example.com/' }, '/events');
    expect((await hooks(acme, 'GET', '/abc')).status).toBe(400);
  });

  test('needs a token with scope webhooks', async () => {
    expect((await stack.request('GET', '/webhooks/v0')).status).toBe(401);
    expect((await stack.request('GET', '/webhooks/v0', { token: tokens[acme.appId]!.consent })).status).toBe(403);
  });

  test('rotates the secret: deliveries then carry a signature for the new and the old secret', async () => {
    const rx = await startReceiver();
    try {
      const w = (await hooks(acme, 'POST', '', { url: rx.url, events: ['consent'] })).body;
      const rotated = await hooks(acme, 'POST', `/${w.id}/secret/rotate`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(w.secret);
      expect(Date.parse(rotated.body.previousSecretExpiresAt)).toBeGreaterThan(Date.now());
      const test = await hooks(acme, 'POST', `/${w.id}/test`);
      expect(test.status).toBe(202);
      expect(test.body).toMatchObject({ eventType: 'ping', status: 'pending' });
      const [r] = await rx.waitFor(1);
      for (const secret of [w.secret, rotated.body.secret])
        expect(new Webhook(secret).verify(r!.body, r!.headers as Record<string, string>)).toMatchObject({ type: 'ping' });
    } finally {
      await rx.close();
      await sleep(0);
    }
  });
});

describe('delivery through the stack', () => {
  test('a consent posted to /consent/v0/consents reaches the receiver signed, with the custom headers', async () => {
    const rx = await startReceiver();
    try {
      const w = (await hooks(acme, 'POST', '', { url: rx.url, events: ['consent'], headers: { Authorization: 'Bearer receiver-token' } })).body;
      const posted = await postConsent(acme, { subject: 'signed-user' });
      expect(posted.status).toBe(201);
      const got = await rx.waitFor(1);
      const r = got.find((x) => x.body.includes('signed-user'))!;
      expect(r.headers.authorization).toBe('Bearer receiver-token');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toEqual(expect.any(String));
      const payload = new Webhook(w.secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
      expect(payload.type).toBe('consent');
      expect(payload.data).toMatchObject({ id: posted.body.id, subject: 'signed-user', token: posted.body.token, action: true, scope: 'default' });
    } finally {
      await rx.close();
    }
  });

  test("a delivered webhook's data is exactly GET /consent/v0/consents/{id} of the same event (plain, and with every optional field; consent.expired adds expired: true)", async () => {
    const rx = await startReceiver();
    try {
      const w = (await hooks(globex, 'POST', '', { url: rx.url, events: ['consent', 'consent.expired'] })).body;
      const plain = await postConsent(globex, { subject: 'same-as-rest-plain' });
      // far enough ahead that the POST surely arrives before it, also on a loaded machine
      const expiresAt = new Date(Date.now() + 3_000).toISOString();
      const full = await postConsent(globex, {
        subject: 'same-as-rest-full',
        action: false,
        source: 'https://shop.example/signup',
        delegate: 'parent-of-subject',
        scope: 'newsletter',
        targetVersion: 3,
        expiresAt,
      });
      const none = await postConsent(globex, { subject: 'same-as-rest-no-action', action: null });
      for (const r of [plain, full, none]) expect(r.status).toBe(201);
      await rx.waitFor(4, 30_000);
      const delivered = rx.received.map(
        (r) => new Webhook(w.secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, unknown> },
      );
      for (const posted of [plain, full, none]) {
        const answer = await stack.request('GET', `/consent/v0/consents/${posted.body.id}`, { token: tokens[globex.appId]!.consent, apiKey: globex.apiKey });
        expect(answer.status).toBe(200);
        const consent = delivered.find((d) => d.type === 'consent' && d.data.id === posted.body.id);
        expect(consent?.data).toEqual(answer.body);
      }
      const fullAnswer = (await stack.request('GET', `/consent/v0/consents/${full.body.id}`, { token: tokens[globex.appId]!.consent, apiKey: globex.apiKey }))
        .body;
      expect(fullAnswer).toMatchObject({ source: 'https://shop.example/signup', delegate: 'parent-of-subject', targetVersion: 3, expiresAt, action: false });
      expect(delivered.find((d) => d.type === 'consent' && d.data.id === none.body.id)?.data.action).toBeNull();
      const expired = delivered.find((d) => d.type === 'consent.expired');
      expect(expired?.data).toEqual({ ...fullAnswer, expired: true });
    } finally {
      await rx.close();
    }
  });

  test("another application's webhook receives nothing of this application's consents", async () => {
    const mine = await startReceiver();
    const theirs = await startReceiver();
    try {
      await hooks(acmeOther, 'POST', '', { url: mine.url, events: ['consent'] });
      await hooks(acme, 'POST', '', { url: theirs.url, events: ['consent'] });
      await hooks(globex, 'POST', '', { url: theirs.url, events: ['consent'] });
      await postConsent(acmeOther, { subject: 'mobile-only' });
      await mine.waitFor(1);
      await sleep(1_000);
      expect(theirs.received.filter((r) => r.body.includes('mobile-only'))).toHaveLength(0);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  test('a receiver that fails first is retried and then succeeds with the same webhook-id; the attempts are listed', async () => {
    const rx = await startReceiver((_r, n) => ({ status: n === 1 ? 503 : 200 }));
    try {
      const w = (await hooks(globex, 'POST', '', { url: rx.url, events: ['consent'] })).body;
      await postConsent(globex, { subject: 'retry-user' });
      const [first, second] = await rx.waitFor(2);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(700); // schedule 1s ± 20 %
      expect(new Webhook(w.secret).verify(second!.body, second!.headers as Record<string, string>)).toBeTruthy();
      type Listed = Array<{ status: string; attempts: Array<{ statusCode: number | null }> }>;
      const deliveries = await eventually(
        async () => {
          const listed = (await hooks(globex, 'GET', `/${w.id}/deliveries`)).body as Listed;
          return listed[0]?.status === 'succeeded' && listed;
        },
        30_000,
        'the delivery recorded as succeeded',
      );
      expect(deliveries[0]).toMatchObject({ status: 'succeeded', eventType: 'consent', eventId: first!.headers['webhook-id'] });
      expect(deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
    } finally {
      await rx.close();
    }
  });

  test('a deleted webhook receives nothing more', async () => {
    const rx = await startReceiver();
    try {
      const w = (await hooks(acme, 'POST', '', { url: rx.url, events: ['consent'] })).body;
      await postConsent(acme, { subject: 'before-delete' });
      await rx.waitFor(1);
      expect((await hooks(acme, 'DELETE', `/${w.id}`)).status).toBe(204);
      expect((await hooks(acme, 'GET', `/${w.id}`)).status).toBe(404);
      await postConsent(acme, { subject: 'after-delete' });
      await sleep(1_500);
      expect(rx.received.filter((r) => r.body.includes('after-delete'))).toHaveLength(0);
    } finally {
      await rx.close();
    }
  });

  test('redelivers a delivery on request with the same webhook-id, and pages deliveries with Link', async () => {
    const rx = await startReceiver();
    try {
      const w = (await hooks(acme, 'POST', '', { url: rx.url, events: ['consent'] })).body;
      for (const s of ['page-1', 'page-2', 'page-3']) await postConsent(acme, { subject: s });
      await rx.waitFor(3);
      const page1 = await hooks(acme, 'GET', `/${w.id}/deliveries?limit=2`);
      expect(page1.status).toBe(200);
      expect(page1.body).toHaveLength(2);
      const next = /<([^>]+)>; rel="next"/.exec(page1.headers.get('link') ?? '')![1]!;
      const page2 = await stack.request('GET', new URL(next).pathname + new URL(next).search, { token: tokens[acme.appId]!.webhooks });
      expect(page2.body).toHaveLength(1);
      const d = page2.body[0];
      const again = await hooks(acme, 'POST', `/${w.id}/deliveries/${d.id}/redeliver`);
      expect(again.status).toBe(202);
      const got = await rx.waitFor(4);
      expect(got[3]!.headers['webhook-id']).toBe(d.eventId);
    } finally {
      await rx.close();
    }
  });

  test('a webhook service restart mid-queue loses nothing', async () => {
    const rx = await startReceiver();
    try {
      await hooks(globex, 'POST', '', { url: rx.url, events: ['consent'] });
      const subjects = Array.from({ length: 12 }, (_, i) => `restart-${i}`);
      for (const s of subjects.slice(0, 6)) await postConsent(globex, { subject: s });
      await stack.stopService('webhook');
      for (const s of subjects.slice(6)) expect((await postConsent(globex, { subject: s })).status).toBe(201);
      await stack.startService('webhook');
      const deadline = Date.now() + 30_000;
      const missing = () => subjects.filter((s) => !rx.received.some((r) => r.body.includes(`"${s}"`)));
      while (missing().length && Date.now() < deadline) await sleep(100);
      expect(missing()).toEqual([]);
    } finally {
      await rx.close();
    }
  });
});

describe('SSRF guard under the production setting (no allow-list)', () => {
  let closed: Stack;
  beforeAll(async () => {
    closed = await startStack('webhookssrf', { env: { ACCORD_WEBHOOK_ALLOW_CIDRS: '' } });
  }, 120_000);
  afterAll(async () => closed?.stop());

  test('a URL pointing at a loopback, private or metadata address is refused', async () => {
    const app = await closed.bootstrap({ account: 'acme', app: 'web', scopes: ['webhooks'] });
    const token = await closed.token(app, 'webhooks');
    for (const url of [
      'http://127.0.0.1:9000/hook',
      'http://localhost/hook',
      'http://10.0.0.8/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
    ]) {
      const res = await closed.request('POST', '/webhooks/v0', { token, json: { url, events: ['consent'] } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: '/url', message: expect.stringMatching(/refused/) })]);
    }
  });
});
