import { status } from '@grpc/grpc-js';
import { freePort } from '@accord/local-stack';
import { consentv1 } from '@accord/proto';
import { expectGrpcError, fieldsOf, startFakeGrpc, startService, type RunningService } from '@accord/testkit';

/** A stand-in consent service implementing only GetCurrentStates; records the requests. */
async function startFakeConsent(getCurrentStates: (req: consentv1.GetCurrentStatesRequest) => Promise<consentv1.GetCurrentStatesResponse>) {
  const calls: consentv1.GetCurrentStatesRequest[] = [];
  const fake = await startFakeGrpc(consentv1.ConsentServiceService, 'accord.consent.v1.ConsentService', {
    async getCurrentStates(req: consentv1.GetCurrentStatesRequest) {
      calls.push(req);
      return getCurrentStates(req);
    },
  });
  return { ...fake, calls };
}

const A = { accountId: 'acc-views', appId: 'app-1' };
let svc: RunningService<'dataprocessing'>;
let fake: Awaited<ReturnType<typeof startFakeConsent>>;

beforeAll(async () => {
  fake = await startFakeConsent(async (req) => ({
    events: req.targets.slice(0, 1).flatMap((target) => [
      {
        id: 'ev-default',
        subject: req.subject,
        issuer: req.issuer,
        target,
        scope: 'default',
        action: true,
        token: 'ABCDEF',
        createdAt: new Date('2026-01-02T00:00:00Z'),
        appId: 'x',
      },
      {
        id: 'ev-ads',
        subject: req.subject,
        issuer: req.issuer,
        target,
        scope: 'ads',
        action: false,
        token: 'ABCDEG',
        createdAt: new Date('2026-01-03T00:00:00Z'),
        appId: 'x',
      },
    ]),
  }));
  svc = await startService('dataprocessing', 'dpviews', { ACCORD_CONSENT_ADDR: fake.address, ACCORD_DEFAULT_LOCATION: 'EEA' });
});
afterAll(async () => {
  await svc?.stop();
  await fake?.stop();
});

async function fixture() {
  const g = await svc.client.createGroup({ ...A, fields: { name: 'Newsletter <3', description: 'News & offers', purpose: 'marketing' } });
  const s1 = await svc.client.createSpec({
    ...A,
    groupId: g.id,
    fields: { data: 'e-mail', purpose: 'send news', action: 'collect' },
    texts: [
      { value: 'Wir senden <script>alert(1)</script> Neuigkeiten.', language: 'de' },
      { value: 'We send news.', language: 'en' },
    ],
  });
  const s2 = await svc.client.createSpec({
    ...A,
    groupId: g.id,
    fields: { data: 'logs', purpose: 'security', action: 'store', consentTarget: false, duration: 30 },
    texts: [],
  });
  const s3 = await svc.client.createSpec({
    ...A,
    groupId: g.id,
    fields: { data: 'clicks', purpose: 'stats', action: 'analyze' },
    texts: [{ value: 'Only English', language: 'en' }],
  });
  return { g, s1, s2, s3 };
}

describe('policy section', () => {
  it('is HTML with URNs in data-ref, texts in the requested language with fallback, and user text escaped', async () => {
    const { g, s1, s2, s3 } = await fixture();
    expect(s1.location).toBe('EEA');
    const { html, language } = await svc.client.getGroupPolicy({ accountId: A.accountId, groupId: g.id, language: 'de', textType: '' });
    expect(language).toBe('de');
    expect(html).toContain(`data-ref="urn:accord:dpgroup:${g.id}"`);
    for (const s of [s1, s2, s3]) expect(html).toContain(`data-ref="urn:accord:dpspec:${s.id}"`);
    expect(html).toContain('Wir senden &lt;script&gt;alert(1)&lt;/script&gt; Neuigkeiten.');
    expect(html).not.toContain('<script>');
    expect(html).toContain('Newsletter &lt;3');
    expect(html).toContain('Only English');
    expect(html).toContain('data-duration-days="30"');
  });

  it('refuses a language that is not ISO 639-1, naming the parameter', async () => {
    const { g } = await fixture();
    const err = await expectGrpcError(
      svc.client.getGroupPolicy({ accountId: A.accountId, groupId: g.id, language: 'deu', textType: '' }),
      status.INVALID_ARGUMENT,
    );
    expect(fieldsOf(err)).toEqual(['lang']);
  });
});

describe('consent request', () => {
  it('has the group name as title, the description as caption and one item per consent-target spec', async () => {
    const { g, s1, s3 } = await fixture();
    const r = await svc.client.getConsentRequest({ accountId: A.accountId, groupId: g.id, language: 'fr', textType: '' });
    expect(r).toMatchObject({ groupId: g.id, title: 'Newsletter <3', caption: 'News & offers', language: 'fr' });
    expect(r.items.map((i) => [i.specId, i.target, i.text?.value])).toEqual([
      [s1.id, s1.target, 'We send news.'],
      [s3.id, s3.target, 'Only English'],
    ]);
  });
});

describe('regimes in the views', () => {
  it('each item answers its regime in the jurisdiction asked, the pre-selection and whether GPC decided it; an unknown code is refused', async () => {
    const g = await svc.client.createGroup({ ...A, fields: { name: 'ads' } });
    const regimes = {
      byJurisdiction: new Map([
        ['US', { model: 'opt-out', gpc: '' }],
        ['US-CA', { model: 'opt-out', gpc: 'opt-out' }],
      ]),
    };
    const s = await svc.client.createSpec({ ...A, groupId: g.id, fields: { data: 'd', purpose: 'ads', action: 'use', regimes }, texts: [] });
    const view = (jurisdiction: string | undefined, gpc: boolean) =>
      svc.client.getConsentRequest({ accountId: A.accountId, groupId: g.id, language: '', textType: '', ...(jurisdiction ? { jurisdiction } : {}), gpc });
    const ca = await view('us-ca', true);
    expect(ca).toMatchObject({ jurisdiction: 'US-CA', gpc: true });
    expect(ca.items[0]).toMatchObject({ specId: s.id, regime: { key: 'US-CA', model: 'opt-out', gpc: 'opt-out' }, preselected: false, gpcApplied: true });
    expect((await view('US-NY', true)).items[0]).toMatchObject({ regime: { key: 'US' }, preselected: true, gpcApplied: false });
    const none = await view(undefined, false);
    expect(none).toMatchObject({ jurisdiction: '', gpc: false });
    expect(none.items[0]).toMatchObject({ regime: { key: '*', model: 'opt-in' }, preselected: false, gpcApplied: false });
    const err = await expectGrpcError(view('XX', false), status.INVALID_ARGUMENT);
    expect(fieldsOf(err)).toEqual(['jurisdiction']);
    // the dashboard: the subject's accept was made without the signal, which now declines in California
    const d = await svc.client.getDashboard({
      accountId: A.accountId,
      groupId: g.id,
      subject: 'u',
      issuer: 'shop',
      language: '',
      textType: '',
      jurisdiction: 'US-CA',
      gpc: true,
    });
    expect(d).toMatchObject({ jurisdiction: 'US-CA', gpc: true });
    expect(d.items[0]).toMatchObject({ state: 'accepted', item: { preselected: false, gpcApplied: true } });
  });
});

describe('dashboard', () => {
  it('shows each consent-target item with the subject’s current consent from the consent service', async () => {
    const { g, s1, s3 } = await fixture();
    const d = await svc.client.getDashboard({ accountId: A.accountId, groupId: g.id, subject: 'user-1', issuer: 'shop', language: 'en', textType: '' });
    expect(fake.calls.at(-1)).toEqual({ accountId: A.accountId, subject: 'user-1', issuer: 'shop', targets: [s1.target, s3.target] });
    expect(d).toMatchObject({ groupId: g.id, title: 'Newsletter <3', subject: 'user-1', issuer: 'shop' });
    expect(d.items.map((i) => [i.item!.specId, i.state, i.scopes.map((s) => `${s.scope}:${s.state}:${s.eventId}`)])).toEqual([
      [s1.id, 'accepted', ['default:accepted:ev-default', 'ads:declined:ev-ads']],
      [s3.id, 'none', []],
    ]);
  });

  it('requires subject and issuer', async () => {
    const { g } = await fixture();
    const err = await expectGrpcError(
      svc.client.getDashboard({ accountId: A.accountId, groupId: g.id, subject: '', issuer: ' ', language: '', textType: '' }),
      status.INVALID_ARGUMENT,
    );
    expect(fieldsOf(err)).toEqual(['subject', 'issuer']);
  });

  it('is UNAVAILABLE when the consent service cannot be reached', async () => {
    const down = await startService('dataprocessing', 'dpviewsdown', {
      ACCORD_CONSENT_ADDR: `127.0.0.1:${await freePort()}`,
      ACCORD_CONSENT_TIMEOUT_MS: '500',
    });
    try {
      const g = await down.client.createGroup({ ...A, fields: { name: 'x' } });
      await down.client.createSpec({ ...A, groupId: g.id, fields: { data: 'd', purpose: 'p', action: 'use' }, texts: [] });
      const err = await expectGrpcError(
        down.client.getDashboard({ accountId: A.accountId, groupId: g.id, subject: 's', issuer: 'i', language: '', textType: '' }),
        status.UNAVAILABLE,
      );
      expect(err.details).toMatch(/consent service/);
    } finally {
      await down.stop();
    }
  });
});
