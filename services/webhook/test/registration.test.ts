import { status } from '@grpc/grpc-js';
import { fieldErrorsOf, type FieldError } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { startService, type RunningService } from '@accord/testkit';

jest.setTimeout(60_000);
const t = testEnv('webhookreg');
let svc: RunningService<'webhook'>;
const app = { accountId: 'acc-1', appId: 'app-1' };
const otherApp = { accountId: 'acc-1', appId: 'app-2' };
const otherAccount = { accountId: 'acc-2', appId: 'app-1' };

beforeAll(async () => {
  svc = await startService('webhook', t, { ACCORD_WEBHOOK_SECRET_GRACE_MS: '3600000' });
});
afterAll(() => svc.stop());

async function rejection(p: Promise<unknown>): Promise<{ code: number; fields: FieldError[] }> {
  try {
    await p;
  } catch (err) {
    const e = err as Parameters<typeof fieldErrorsOf>[0];
    return { code: e.code, fields: fieldErrorsOf(e) };
  }
  throw new Error('expected the call to fail');
}

describe('webhook registration', () => {
  it('creates a webhook with an integer id, the caller application and a whsec_ secret the owner can read back', async () => {
    const w = await svc.client.createWebhook({
      ...app,
      url: 'https://hooks.example.com/a',
      events: ['consent'],
      headers: new Map([['Authorization', 'Bearer r1']]),
    });
    expect(Number.isInteger(w.id)).toBe(true);
    expect(w).toMatchObject({
      appId: 'app-1',
      url: 'https://hooks.example.com/a',
      events: ['consent'],
      headers: new Map([['Authorization', 'Bearer r1']]),
      disabled: false,
    });
    expect(w.secret).toMatch(/^whsec_/);
    const again = await svc.client.getWebhook({ ...app, id: w.id });
    expect(again.secret).toBe(w.secret);
    const second = await svc.client.createWebhook({ ...app, url: 'https://hooks.example.com/b', events: ['consent'], headers: new Map() });
    expect(second.id).toBeGreaterThan(w.id);
  });

  it("lists only the caller application's webhooks", async () => {
    const mine = await svc.client.createWebhook({ ...otherApp, url: 'https://hooks.example.com/other', events: ['consent'], headers: new Map() });
    const list = await svc.client.listWebhooks(otherApp);
    expect(list.webhooks.map((w) => w.id)).toEqual([mine.id]);
    const first = await svc.client.listWebhooks(app);
    expect(first.webhooks.map((w) => w.url)).not.toContain('https://hooks.example.com/other');
  });

  it("treats another application's or account's webhook as not found, for every operation", async () => {
    const w = await svc.client.createWebhook({ ...app, url: 'https://hooks.example.com/private', events: ['consent'], headers: new Map() });
    for (const caller of [otherApp, otherAccount]) {
      expect((await rejection(svc.client.getWebhook({ ...caller, id: w.id }))).code).toBe(status.NOT_FOUND);
      expect((await rejection(svc.client.updateWebhook({ ...caller, id: w.id, url: 'https://evil.example.com/' }))).code).toBe(status.NOT_FOUND);
      expect((await rejection(svc.client.deleteWebhook({ ...caller, id: w.id }))).code).toBe(status.NOT_FOUND);
      expect((await rejection(svc.client.rotateWebhookSecret({ ...caller, id: w.id }))).code).toBe(status.NOT_FOUND);
      expect((await rejection(svc.client.listDeliveries({ ...caller, webhookId: w.id }))).code).toBe(status.NOT_FOUND);
      expect((await rejection(svc.client.sendTestEvent({ ...caller, webhookId: w.id }))).code).toBe(status.NOT_FOUND);
    }
    expect((await svc.client.getWebhook({ ...app, id: w.id })).url).toBe('https://hooks.example.com/private');
  });

  it('refuses invalid input with INVALID_ARGUMENT naming each field', async () => {
    const r = await rejection(svc.client.createWebhook({ ...app, url: 'ftp://x', events: ['consnt'], headers: new Map([['webhook-signature', 'forged']]) }));
    expect(r.code).toBe(status.INVALID_ARGUMENT);
    expect(r.fields.map((f) => f.field)).toEqual(['/url', '/events/0', '/headers/webhook-signature']);
    const empty = await rejection(svc.client.createWebhook({ ...app, url: 'https://hooks.example.com/', events: [], headers: new Map() }));
    expect(empty.fields.map((f) => f.field)).toEqual(['/events']);
  });

  it('updates only the fields present and validates them', async () => {
    const w = await svc.client.createWebhook({ ...app, url: 'https://hooks.example.com/u', events: ['consent'], headers: new Map([['X-A', '1']]) });
    const u = await svc.client.updateWebhook({ ...app, id: w.id, url: 'https://hooks.example.com/u2' });
    expect(u).toMatchObject({ url: 'https://hooks.example.com/u2', events: ['consent'], headers: new Map([['X-A', '1']]), secret: w.secret });
    const h = await svc.client.updateWebhook({ ...app, id: w.id, headers: { values: new Map([['X-B', '2']]) } });
    expect(h.headers).toEqual(new Map([['X-B', '2']]));
    const bad = await rejection(svc.client.updateWebhook({ ...app, id: w.id, events: { values: [] } }));
    expect(bad.fields.map((f) => f.field)).toEqual(['/events']);
  });

  it('rotates the secret and reports until when the previous one keeps signing', async () => {
    const w = await svc.client.createWebhook({ ...app, url: 'https://hooks.example.com/r', events: ['consent'], headers: new Map() });
    expect(w.previousSecretExpiresAt).toBeUndefined();
    const before = Date.now();
    const r = await svc.client.rotateWebhookSecret({ ...app, id: w.id });
    expect(r.secret).toMatch(/^whsec_/);
    expect(r.secret).not.toBe(w.secret);
    const expiry = r.previousSecretExpiresAt!.getTime();
    expect(expiry).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1_000);
  });

  it('deletes a webhook, after which it is not found', async () => {
    const w = await svc.client.createWebhook({ ...app, url: 'https://hooks.example.com/d', events: ['consent'], headers: new Map() });
    await svc.client.deleteWebhook({ ...app, id: w.id });
    expect((await rejection(svc.client.getWebhook({ ...app, id: w.id }))).code).toBe(status.NOT_FOUND);
    expect((await rejection(svc.client.deleteWebhook({ ...app, id: w.id }))).code).toBe(status.NOT_FOUND);
  });
});
