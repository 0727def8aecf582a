import { buildConsentRequest, buildDashboard, escapeHtml, renderPolicySection } from './views';
import type { GroupRecord, SpecRecord } from './model';

const at = new Date('2026-01-01T00:00:00Z');
const group: GroupRecord = {
  id: 'a'.repeat(24),
  accountId: 'acc',
  appId: 'app',
  name: 'Newsletter <b>',
  description: 'We "write" & send',
  purpose: 'marketing',
  createdAt: at,
  updatedAt: at,
  deletedAt: null,
};
const spec = (id: string, over: Partial<SpecRecord> = {}): SpecRecord => ({
  id,
  accountId: 'acc',
  groupId: group.id,
  appId: 'app',
  data: 'e-mail',
  purpose: 'send news',
  action: 'collect',
  sensitive: false,
  consentTarget: true,
  location: 'EU',
  duration: null,
  legalBasis: 'CONSENT',
  externalHref: null,
  regimes: { '*': { model: 'opt-in', gpc: 'ignore' } },
  texts: [],
  nextTextId: 1,
  version: 1,
  reconsentSince: 1,
  createdAt: at,
  updatedAt: at,
  deletedAt: null,
  ...over,
});
const opts = { baseUrl: 'https://accord.example', language: 'de', type: 'default' as const };

describe('policy section', () => {
  const s1 = spec('b'.repeat(24), {
    texts: [
      { id: 1, value: '<script>alert("x")</script>', language: 'de', type: 'default', createdAt: at, updatedAt: at },
      { id: 2, value: 'English', language: 'en', type: 'default', createdAt: at, updatedAt: at },
    ],
    externalHref: 'https://example.com/?a=1&b="2"',
  });
  const s2 = spec('c'.repeat(24), { texts: [{ id: 1, value: 'Only English', language: 'en', type: 'default', createdAt: at, updatedAt: at }] });
  const html = renderPolicySection(group, [s1, s2], opts);

  it('carries the URNs of the group and of each specification in data-ref', () => {
    expect(html).toContain(`data-ref="urn:accord:dpgroup:${group.id}"`);
    expect(html).toContain(`data-ref="urn:accord:dpspec:${s1.id}"`);
    expect(html).toContain(`data-ref="urn:accord:dpspec:${s2.id}"`);
  });

  it('makes a <script> in a text inert and escapes every user text', () => {
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('Newsletter &lt;b&gt;');
    expect(html).toContain('We &quot;write&quot; &amp; send');
    expect(html).toContain('href="https://example.com/?a=1&amp;b=&quot;2&quot;"');
  });

  it('shows texts in the requested language, falling back with the lang attribute telling which', () => {
    expect(html).toMatch(new RegExp(`urn:accord:dpspec:${s2.id}"[^>]*lang="en"`));
    expect(html).toContain('Only English');
    expect(html).not.toContain('>English<');
  });

  it('escapes all five special characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('consent request and dashboard', () => {
  const s1 = spec('b'.repeat(24));
  const s2 = spec('c'.repeat(24), { consentTarget: false });
  const s3 = spec('d'.repeat(24));
  const req = buildConsentRequest(group, [s1, s2, s3], opts);

  it('has the group name as title, its description as caption, one item per consent target', () => {
    expect(req.title).toBe(group.name);
    expect(req.caption).toBe(group.description);
    expect(req.items.map((i) => i.specId)).toEqual([s1.id, s3.id]);
    expect(req.items[0]!.target).toBe(`https://accord.example/dataprocessing/v0/dpspecs/${s1.id}`);
  });

  it('dashboard: the default scope gives the state; every scope is listed; no event is "none"', () => {
    const items = buildDashboard(req, [
      { id: 'e1', target: req.items[0]!.target, scope: 'marketing', action: false },
      { id: 'e2', target: req.items[0]!.target, scope: 'default', action: true },
      { id: 'e3', target: 'https://other', scope: 'default', action: true },
    ]);
    expect(items[0]!.state).toBe('accepted');
    expect(items[0]!.scopes.map((s) => [s.scope, s.state])).toEqual([
      ['default', 'accepted'],
      ['marketing', 'declined'],
    ]);
    expect(items[1]!.state).toBe('none');
    expect(buildDashboard(req, [{ id: 'e4', target: req.items[1]!.target, scope: 'default' }])[1]!.state).toBe('no_action');
  });

  it('dashboard: says which specifications need a new answer (the version consented to, and renewalRequired)', () => {
    const items = buildDashboard(req, [
      { id: 'e1', target: req.items[0]!.target, scope: 'default', action: true, targetVersion: 1, renewalRequired: true },
      { id: 'e2', target: req.items[1]!.target, scope: 'default', action: true, targetVersion: 2 },
    ]);
    expect(items[0]!.scopes[0]).toMatchObject({ eventId: 'e1', targetVersion: 1, renewalRequired: true });
    expect(items[1]!.scopes[0]).toMatchObject({ eventId: 'e2', targetVersion: 2 });
    expect(items[1]!.scopes[0]).not.toHaveProperty('renewalRequired');
  });
});

describe('regimes in the consent request and dashboard', () => {
  const regimes = { '*': { model: 'opt-in', gpc: 'ignore' }, US: { model: 'opt-out', gpc: 'ignore' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } } as const;
  const s1 = spec('e'.repeat(24), { regimes });
  const s2 = spec('f'.repeat(24));
  const view = (jurisdiction: string | undefined, gpc: boolean) => buildConsentRequest(group, [s1, s2], { ...opts, jurisdiction, gpc });

  it('each item answers its regime in the jurisdiction (most specific key) and what the UI pre-selects there', () => {
    const ca = view('US-CA', false);
    expect(ca).toMatchObject({ jurisdiction: 'US-CA', gpc: false });
    expect(ca.items.map((i) => [i.regime, i.preselected, i.gpcApplied])).toEqual([
      [{ key: 'US-CA', model: 'opt-out', gpc: 'opt-out' }, true, false],
      [{ key: '*', model: 'opt-in', gpc: 'ignore' }, false, false],
    ]);
    expect(view('US-TX', false).items[0]!.regime.key).toBe('US');
    expect(view(undefined, false).items[0]!.regime).toEqual({ key: '*', model: 'opt-in', gpc: 'ignore' });
  });

  it('a GPC signal declines where the regime honours it, and nowhere else', () => {
    expect(view('US-CA', true).items.map((i) => [i.preselected, i.gpcApplied])).toEqual([
      [false, true],
      [false, false],
    ]);
    // US (not California): opt-out, GPC ignored: still pre-selected
    expect(view('US-TX', true).items[0]).toMatchObject({ preselected: true, gpcApplied: false });
  });

  it('dashboard: an explicit choice made with the signal on stands; one made before it gives way to it', () => {
    const req = view('US-CA', true);
    const target = req.items[0]!.target;
    const withSignal = buildDashboard(req, [{ id: 'e1', target, scope: 'default', action: true, gpc: true }]);
    expect(withSignal[0]!.item).toMatchObject({ preselected: true, gpcApplied: false });
    expect(withSignal[0]!.scopes[0]).toMatchObject({ gpc: true });
    const before = buildDashboard(req, [{ id: 'e1', target, scope: 'default', action: true }]);
    expect(before[0]!.item).toMatchObject({ preselected: false, gpcApplied: true });
    // the signal off again: the choice shows
    expect(buildDashboard(view('US-CA', false), [{ id: 'e1', target, scope: 'default', action: true }])[0]!.item).toMatchObject({
      preselected: true,
      gpcApplied: false,
    });
    // a recorded signal (no action, gpc) keeps declining
    expect(buildDashboard(view('US-CA', false), [{ id: 'e2', target, scope: 'default', gpc: true }])[0]!.item).toMatchObject({
      preselected: false,
      gpcApplied: true,
    });
  });
});
