import { Webhook } from 'standardwebhooks';
import { createLogger } from '@accord/common';
import { eventually, sleep, START, startReceiver } from '@accord/testkit';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(90_000);

let stack: Stack;
let acme: Credentials;
let consentToken: string;
let hooksToken: string;
/** A second consent replica on the same database and stream: it sweeps (expiry, renewals) too, nobody writes through it. */
let replica: { stop(): Promise<void> } | undefined;

beforeAll(async () => {
  stack = await startStack('lifecycle', { env: { ACCORD_CONSENT_EXPIRY_SWEEP_MS: '200', ACCORD_CONSENT_RENEWAL_SWEEP_MS: '200' } });
  replica = await START.consent(
    { ...stack.env, ACCORD_SERVICE_KEY: stack.secrets.serviceKeys.consent, GRPC_PORT: '0' },
    createLogger('consent-2', stack.env.LOG_LEVEL),
  );
  acme = await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] });
  consentToken = await stack.token(acme, 'consent');
  hooksToken = await stack.token(acme, 'webhooks');
}, 120_000);
afterAll(async () => {
  await replica?.stop();
  await stack?.stop();
});

const post = (json: unknown) => stack.request('POST', '/consent/v0/consents', { token: consentToken, apiKey: acme.apiKey, json });
const ev = (over: Record<string, unknown> = {}) => ({ subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', ...over });
const search = (q: Record<string, string>) =>
  stack.request('GET', `/consent/v0/consents/search?${new URLSearchParams(q).toString()}`, { token: consentToken, apiKey: acme.apiKey });

describe('consent.expired webhooks', () => {
  test('a lapsed consent shows expired and its consent.expired webhook arrives exactly once (two consent replicas sweeping); a renewed one sends none', async () => {
    const expiredHook = await startReceiver();
    const consentHook = await startReceiver();
    try {
      const reg = await stack.request('POST', '/webhooks/v0', { token: hooksToken, json: { url: expiredHook.url, events: ['consent.expired'] } });
      expect(reg.status).toBe(201);
      expect(reg.body.events).toEqual(['consent.expired']);
      const regConsent = await stack.request('POST', '/webhooks/v0', { token: hooksToken, json: { url: consentHook.url, events: ['consent'] } });
      expect(regConsent.status).toBe(201);

      // renewed before it lapses (a new event without expiry): nothing is announced for it. Only
      // one POST lies between the consent and its renewal, so the window holds on a loaded
      // machine (CI with a cluster build beside it took 3.5 s for two POSTs here).
      const renewedExpiresAt = new Date(Date.now() + 6000).toISOString();
      const renewed = await post(ev({ subject: 'renewed', action: true, expiresAt: renewedExpiresAt }));
      const renewal = await post(ev({ subject: 'renewed', action: false }));
      expect(renewal.status).toBe(201);
      expect(Date.parse(renewal.body.createdAt)).toBeLessThan(Date.parse(renewedExpiresAt));
      const expiresAt = new Date(Date.now() + 4000).toISOString();
      const lapsing = await post(ev({ subject: 'lapsing', action: true, expiresAt }));
      expect(lapsing.status).toBe(201);

      await eventually(() => expiredHook.received.length >= 1, 15_000, 'the consent.expired delivery');
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
      // both replicas keep sweeping: still exactly one delivery a while after both expiries
      await sleep(Math.max(0, Date.parse(renewedExpiresAt) - Date.now()) + 2500);
      expect(expiredHook.bodies()).toEqual([
        {
          type: 'consent.expired',
          text: 'A consent lapsed (its expiresAt has passed)',
          data: expect.objectContaining({ id: lapsing.body.id, subject: 'lapsing', action: true, expiresAt, expired: true, appId: acme.appId }),
        },
      ]);
      const delivered = expiredHook.received[0]!;
      // signed like every delivery (Standard Webhooks)
      const payload = new Webhook(reg.body.secret as string).verify(delivered.body, {
        'webhook-id': delivered.headers['webhook-id'] as string,
        'webhook-timestamp': delivered.headers['webhook-timestamp'] as string,
        'webhook-signature': delivered.headers['webhook-signature'] as string,
      });
      expect(payload).toMatchObject({ type: 'consent.expired' });
      expect(expiredHook.bodies().map((b) => b.data.id)).not.toContain(renewed.body.id);

      // the `consent` webhook got the three consent events and no lapse (opt-in by event type)
      await eventually(() => consentHook.received.length >= 3, 10_000, 'the consent deliveries');
      expect(consentHook.bodies().map((b) => b.type)).toEqual(['consent', 'consent', 'consent']);

      // the current state reads as expired; the renewed one does not
      const cur = await search({ subject: 'lapsing', issuer: 'https://shop.example', target: 'https://shop.example/privacy', current: 'true' });
      expect(cur.body).toEqual([expect.objectContaining({ id: lapsing.body.id, expired: true })]);
      const curRenewed = await search({ subject: 'renewed', issuer: 'https://shop.example', target: 'https://shop.example/privacy', current: 'true' });
      expect(curRenewed.body).toEqual([expect.objectContaining({ id: renewal.body.id })]);
      expect(curRenewed.body[0]).not.toHaveProperty('expired');
    } finally {
      await expiredHook.close();
      await consentHook.close();
    }
  });
});

describe('re-consent on material change', () => {
  test('a material change of a specification flips renewalRequired on current consents to older versions; a text edit does not; statistics count them', async () => {
    const dpToken = await stack.token(acme, 'dataprocessing');
    const dp = (method: string, path: string, json?: unknown) =>
      stack.request(method, `/dataprocessing/v0${path}`, { token: dpToken, apiKey: acme.apiKey, ...(json ? { json } : {}) });
    // consents read a specification remembered for ACCORD_CONSENT_SPEC_CACHE_MS (1 s by default)
    const afterCache = () => sleep(1100);
    const group = await dp('POST', '/dpgroups', { name: 'Newsletter', purpose: 'marketing' });
    const spec = await dp('POST', `/dpgroups/${group.body.id}/specs`, { data: 'e-mail', purpose: 'weekly news', action: 'collect' });
    expect(spec.status).toBe(201);
    expect(spec.body).toMatchObject({ version: 1, reconsentSince: 1 });
    const target = spec.body.target as string;
    const given = await post(ev({ subject: 'reader', target, action: true }));
    expect(given.body.targetVersion).toBe(1);
    const current = async () =>
      (await search({ subject: 'reader', issuer: 'https://shop.example', target, current: 'true' })).body as Array<Record<string, unknown>>;

    // text edits: new versions, not material
    const text = await dp('POST', `/dpspecs/${spec.body.id}/texts`, { value: 'Our weekly news', language: 'en' });
    expect(text.status).toBe(201);
    const edited = await dp('PATCH', `/dpspecs/${spec.body.id}/texts/${text.body.id}`, { value: 'Our weekly news, by e-mail' });
    expect(edited.status).toBe(200);
    expect((await dp('GET', `/dpspecs/${spec.body.id}`)).body).toMatchObject({ version: 3, reconsentSince: 1 });
    await afterCache();
    expect(await current()).toEqual([expect.objectContaining({ id: given.body.id, targetVersion: 1 })]);
    expect((await current())[0]).not.toHaveProperty('renewalRequired');

    // the purpose changes: material
    const changed = await dp('PATCH', `/dpspecs/${spec.body.id}`, { purpose: 'news and partner offers' });
    expect(changed.body).toMatchObject({ version: 4, reconsentSince: 4 });
    await afterCache();
    expect(await current()).toEqual([expect.objectContaining({ id: given.body.id, targetVersion: 1, renewalRequired: true })]);
    const stats = await stack.request('GET', '/consent/v0/consents/statistics', { token: consentToken, apiKey: acme.apiKey });
    expect(stats.body.targets.find((t: { target: string }) => t.target === target)).toMatchObject({ currentAccepted: 1, currentRenewalRequired: 1 });

    // the subject answers again: the new consent names version 4 and is not due
    const again = await post(ev({ subject: 'reader', target, action: true }));
    expect(again.body.targetVersion).toBe(4);
    expect((await current())[0]).toMatchObject({ id: again.body.id });
    expect((await current())[0]).not.toHaveProperty('renewalRequired');

    // an editor marks a change material that is not by its fields: due again
    const marked = await dp('PATCH', `/dpspecs/${spec.body.id}`, { requiresReconsent: true });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ version: 5, reconsentSince: 5 });
    expect(marked.body).not.toHaveProperty('requiresReconsent');
    await afterCache();
    expect((await current())[0]).toMatchObject({ id: again.body.id, targetVersion: 4, renewalRequired: true });
    // the dashboard says which specification needs a new answer
    const dashboard = await dp(
      'GET',
      `/dpgroups/${group.body.id}/dashboard?${new URLSearchParams({ subject: 'reader', issuer: 'https://shop.example' }).toString()}`,
    );
    expect(dashboard.status).toBe(200);
    const item = dashboard.body.items.find((i: { specId: string }) => i.specId === spec.body.id);
    expect(item.scopes).toEqual([expect.objectContaining({ scope: 'default', eventId: again.body.id, targetVersion: 4, renewalRequired: true })]);
  });
});

describe("a subject's export", () => {
  test('its JSON form shows the same current states as search with current=true: renewalRequired and expired included', async () => {
    // an account of its own: its renewal announcements reach no other test's webhooks
    const own = await stack.bootstrap({ account: 'export-lifecycle', app: 'web', scopes: ['consent', 'dataprocessing'] });
    const dpToken = await stack.token(own, 'dataprocessing');
    const token = await stack.token(own, 'consent');
    const dp = (method: string, path: string, json?: unknown) =>
      stack.request(method, `/dataprocessing/v0${path}`, { token: dpToken, apiKey: own.apiKey, ...(json ? { json } : {}) });
    const post = (json: unknown) => stack.request('POST', '/consent/v0/consents', { token, apiKey: own.apiKey, json });
    const search = (q: Record<string, string>) =>
      stack.request('GET', `/consent/v0/consents/search?${new URLSearchParams(q).toString()}`, { token, apiKey: own.apiKey });
    const group = await dp('POST', '/dpgroups', { name: 'Export lifecycle', purpose: 'marketing' });
    const spec = await dp('POST', `/dpgroups/${group.body.id}/specs`, { data: 'e-mail', purpose: 'offers', action: 'collect' });
    const specTarget = spec.body.target as string;
    const subject = 'exported-reader';
    const other = 'https://other.example';
    const lapsing = 'https://shop.example/lapsing';
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    expect((await post(ev({ subject, target: lapsing, action: true, expiresAt }))).status).toBe(201);
    expect((await post(ev({ subject, target: specTarget, action: true }))).status).toBe(201);
    expect((await post(ev({ subject, target: 'https://shop.example/news', action: true }))).status).toBe(201);
    expect((await post(ev({ subject, target: 'https://shop.example/news', action: false }))).status).toBe(201);
    expect((await post(ev({ subject, target: 'https://shop.example/news', scope: 'sms', action: null }))).status).toBe(201);
    expect((await post(ev({ subject, issuer: other, target: specTarget, action: false }))).status).toBe(201);
    // a material change: consents to version 1 are due for renewal
    expect((await dp('PATCH', `/dpspecs/${spec.body.id}`, { purpose: 'offers and partner offers' })).body).toMatchObject({ reconsentSince: 2 });
    // past the lapse and the consent service's remembered specification (ACCORD_CONSENT_SPEC_CACHE_MS, 1 s)
    await sleep(Math.max(1100, Date.parse(expiresAt) - Date.now() + 100));

    const searched: Array<Record<string, unknown>> = [];
    for (const [issuer, target] of [
      ['https://shop.example', specTarget],
      ['https://shop.example', lapsing],
      ['https://shop.example', 'https://shop.example/news'],
      [other, specTarget],
    ]) {
      const res = await search({ subject, issuer: issuer!, target: target!, current: 'true' });
      expect(res.status).toBe(200);
      searched.push(...res.body);
    }
    const exported = await stack.request('GET', `/consent/v0/consents/export?subject=${subject}`, {
      token,
      apiKey: own.apiKey,
      headers: { accept: 'application/json' },
    });
    expect(exported.status).toBe(200);
    const newestFirst = (list: Array<Record<string, unknown>>) => [...list].sort((a, b) => (String(a.id) < String(b.id) ? 1 : -1));
    expect(exported.body.current).toEqual(newestFirst(searched));
    expect(exported.body.current).toHaveLength(5);
    expect(exported.body.current).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ issuer: 'https://shop.example', target: specTarget, targetVersion: 1, renewalRequired: true }),
        expect.objectContaining({ issuer: other, target: specTarget, renewalRequired: true }),
        expect.objectContaining({ target: lapsing, expiresAt, expired: true }),
        expect.objectContaining({ target: 'https://shop.example/news', scope: 'default', action: false }),
      ]),
    );
    expect(exported.body.events).toHaveLength(6);
  });
});

describe('consent.renewal_required webhooks', () => {
  test('a material change sends exactly one signed consent.renewal_required per affected state (two consent replicas); a text edit sends none; a `consent` webhook gets none', async () => {
    const renewalHook = await startReceiver();
    const consentHook = await startReceiver();
    try {
      const dpToken = await stack.token(acme, 'dataprocessing');
      const dp = (method: string, path: string, json?: unknown) =>
        stack.request(method, `/dataprocessing/v0${path}`, { token: dpToken, apiKey: acme.apiKey, ...(json ? { json } : {}) });
      const reg = await stack.request('POST', '/webhooks/v0', { token: hooksToken, json: { url: renewalHook.url, events: ['consent.renewal_required'] } });
      expect(reg.status).toBe(201);
      expect(reg.body.events).toEqual(['consent.renewal_required']);
      const regConsent = await stack.request('POST', '/webhooks/v0', { token: hooksToken, json: { url: consentHook.url, events: ['consent'] } });
      expect(regConsent.status).toBe(201);

      const group = await dp('POST', '/dpgroups', { name: 'Offers', purpose: 'marketing' });
      const spec = await dp('POST', `/dpgroups/${group.body.id}/specs`, { data: 'e-mail', purpose: 'offers', action: 'collect' });
      expect(spec.status).toBe(201);
      const target = spec.body.target as string;
      const given = [];
      for (const subject of ['r-1', 'r-2', 'r-3']) given.push((await post(ev({ subject, target, action: true }))).body);
      expect(given.map((g) => g.targetVersion)).toEqual([1, 1, 1]);
      const elsewhere = await post(ev({ subject: 'r-1', action: true }));
      expect(elsewhere.status).toBe(201);
      const ofSpec = () => renewalHook.bodies().filter((b) => b.data.target === target);

      // a text edit: a new version, not material; nothing announced (several looks of both replicas)
      const text = await dp('POST', `/dpspecs/${spec.body.id}/texts`, { value: 'Our offers', language: 'en' });
      expect(text.status).toBe(201);
      await sleep(1500);
      expect(ofSpec()).toEqual([]);

      // the purpose changes: material (version 3); the update answers without waiting for the fan-out
      const changed = await dp('PATCH', `/dpspecs/${spec.body.id}`, { purpose: 'offers of partners' });
      expect(changed.body).toMatchObject({ version: 3, reconsentSince: 3 });
      await eventually(() => ofSpec().length >= 3, 20_000, 'three consent.renewal_required deliveries');
      // both replicas keep looking: still exactly one per state a while later
      await sleep(2000);
      const bodies = ofSpec();
      expect(bodies).toHaveLength(3);
      expect(bodies.map((b) => b.data.id).sort()).toEqual(given.map((g) => g.id as string).sort());
      for (const b of bodies) {
        expect(b).toEqual({
          type: 'consent.renewal_required',
          text: 'A consent needs renewal (its specification changed materially)',
          data: expect.objectContaining({ target, targetVersion: 1, renewalRequired: true, reconsentSince: 3, action: true, appId: acme.appId }),
        });
      }
      // signed like every delivery (Standard Webhooks), each with its own id
      for (const delivered of renewalHook.received) {
        const payload = new Webhook(reg.body.secret as string).verify(delivered.body, {
          'webhook-id': delivered.headers['webhook-id'] as string,
          'webhook-timestamp': delivered.headers['webhook-timestamp'] as string,
          'webhook-signature': delivered.headers['webhook-signature'] as string,
        });
        expect(payload).toMatchObject({ type: 'consent.renewal_required' });
      }
      expect(new Set(renewalHook.received.map((r) => r.headers['webhook-id'])).size).toBe(renewalHook.received.length);

      // the `consent` webhook got the four consent events and no renewal (opt-in by event type)
      await eventually(() => consentHook.received.length >= 4, 10_000, 'the consent deliveries');
      await sleep(500);
      expect(consentHook.bodies().map((b) => b.type)).toEqual(['consent', 'consent', 'consent', 'consent']);
    } finally {
      await renewalHook.close();
      await consentHook.close();
    }
  });
});
