// The web components and Global Privacy Control in a real browser (Debian's Chromium through
// playwright-core) against the real stack: regimes per jurisdiction decide what is pre-selected,
// a visible line says when the browser's signal was applied, an explicit choice overrides it, and
// the signal is recorded once per subject, target and version (docs/consent.md, Signals and
// regimes). The signal is injected as Chromium has none: navigator.globalPrivacyControl.
import path from 'node:path';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Accord } from '../clients/sdk/src';
import { ARTIFACTS, launchChromium, sdkBundle, shopSite, type ShopSite } from './browser';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(60_000);
const ISSUER = 'https://shop.example';
const REQUEST = 'accord-consent-request';
const DASHBOARD = 'accord-consent-dashboard';

let stack: Stack;
let shop: Credentials;
let browser: Browser;
let site: ShopSite;
let groupId: string;
/** Opt-in everywhere, opt-out in California where GPC counts as a decline. */
let newsletter: { target: string; version: number };
/** Opt-in everywhere, opt-out in the US, GPC ignored (no "GPC consent" invented). */
let analytics: { target: string; version: number };
let backend: Accord;

const sdk = sdkBundle();

beforeAll(async () => {
  stack = await startStack('elementsgpc', { env: { ACCORD_SDK_BUNDLE: sdk.path } });
  shop = await stack.bootstrap({ account: 'gpc-shop', app: 'web', scopes: ['consent', 'dataprocessing'] });
  backend = new Accord({ baseUrl: stack.baseUrl, clientId: shop.clientId, clientSecret: shop.clientSecret, apiKey: shop.apiKey });
  const dp = await stack.token(shop, 'dataprocessing');
  groupId = (await stack.request('POST', '/dataprocessing/v0/dpgroups', { token: dp, json: { name: 'Privacy choices', description: 'What we may do.' } })).body
    .id;
  const spec = async (json: Record<string, unknown>) => {
    const res = await stack.request('POST', `/dataprocessing/v0/dpgroups/${groupId}/specs`, {
      token: dp,
      json: { action: 'use', consentTarget: true, ...json },
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body as { id: string; version: number };
  };
  await spec({
    data: 'e-mail',
    purpose: 'newsletter',
    texts: [{ value: 'E-mail newsletter', language: 'en' }],
    regimes: { '*': { model: 'opt-in' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } },
  });
  await spec({ data: 'page views', purpose: 'analytics', texts: [{ value: 'Audience measurement', language: 'en' }], regimes: { US: { model: 'opt-out' } } });
  await spec({ data: 'server logs', purpose: 'security', texts: [{ value: 'Security logs', language: 'en' }], regimes: { '*': { model: 'notice' } } });
  const items = (await stack.request('GET', `/dataprocessing/v0/dpgroups/${groupId}/consent-request`, { token: dp })).body.items as Array<{
    target: string;
    version: number;
  }>;
  [newsletter, analytics] = items.map((i) => ({ target: i.target, version: i.version }));

  site = await shopSite('en');
  await stack.setAllowedOrigins(shop.appId, [site.origin]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  site?.close();
  await stack?.stop();
  sdk.remove();
});

const session = async (subject: string) => (await backend.createSession({ subject, issuer: ISSUER, groupId })).sessionToken;

/** A browser profile (its own localStorage) with or without the GPC signal; the elements' DOM events collected in window.__accord. */
async function profile(gpc: boolean): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addInitScript((on: boolean) => {
    if (on) Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });
    const w = window as unknown as { __accord: Array<{ type: string; events: unknown[] }> };
    w.__accord = [];
    for (const type of ['accord-consent', 'accord-gpc', 'accord-error'])
      window.addEventListener(type, (e) => w.__accord.push({ type, ...((e as CustomEvent).detail ?? {}) }));
  }, gpc);
  return context;
}

/** Waits until the element has loaded, rendered and recorded what it records on load (it is aria-busy until then). */
async function loaded(page: Page, tag: string): Promise<void> {
  await page.locator(`${tag} >> h2`).waitFor();
  await page.waitForFunction((t) => !document.querySelector(t)!.hasAttribute('aria-busy'), tag);
}
/** Opens the shop page with one element, loaded. */
async function open(context: BrowserContext, tag: string, subject: string, attrs = ''): Promise<Page> {
  const page = await context.newPage();
  const html = `<${tag} group="${groupId}" session-token="${await session(subject)}" base-url="${stack.baseUrl}" ${attrs}></${tag}>`;
  await page.goto(site.page(`${stack.baseUrl}/sdk/accord-elements.js`, html));
  await loaded(page, tag);
  return page;
}
/** What the element showed per item: label, checked (null: no choice), and the GPC line. */
async function shown(page: Page, tag: string) {
  return page.evaluate((t) => {
    const root = document.querySelector(t)!.shadowRoot!;
    return {
      items: [...root.querySelectorAll('li[part~=item]')].map((li) => {
        const input = li.querySelector('input');
        return [li.querySelector('[part=label]')!.textContent, input ? input.checked : null];
      }),
      gpcLine: root.querySelector('[part=gpc]')?.textContent ?? null,
      states: [...root.querySelectorAll('[part=state]')].map((s) => (s as HTMLElement).dataset.state),
    };
  }, tag);
}
const domEvents = (page: Page) => page.evaluate(() => (window as unknown as { __accord: Array<{ type: string; events?: unknown[] }> }).__accord);
/** The subject's events for a target, newest first. */
async function history(subject: string, target: string) {
  const { data } = await backend.api.GET('/consent/v0/consents/search', { params: { query: { subject, issuer: ISSUER, target } } });
  return (data ?? []) as unknown as Array<{ action: boolean | null; gpc?: boolean; jurisdiction?: string; targetVersion?: number }>;
}
async function axeViolations(page: Page) {
  await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const r = await (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

describe('<accord-consent-request> with regimes', () => {
  test.each([
    ['DE', false],
    ['DE', true],
  ])('in an opt-in jurisdiction (%s, GPC %s) nothing is pre-selected, no GPC line is shown and nothing is recorded on view', async (jurisdiction, gpc) => {
    const context = await profile(gpc);
    const page = await open(context, REQUEST, `optin-${gpc}`, `jurisdiction="${jurisdiction}"`);
    expect(await shown(page, REQUEST)).toEqual({
      items: [
        ['E-mail newsletter', false],
        ['Audience measurement', false],
        ['Security logs', null],
      ],
      gpcLine: null,
      states: [],
    });
    expect(await domEvents(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  test('in an opt-out jurisdiction without GPC both choices are pre-selected and nothing is recorded on view', async () => {
    const context = await profile(false);
    const page = await open(context, REQUEST, 'optout-plain', 'jurisdiction="us-ca"');
    expect((await shown(page, REQUEST)).items).toEqual([
      ['E-mail newsletter', true],
      ['Audience measurement', true],
      ['Security logs', null],
    ]);
    expect((await shown(page, REQUEST)).gpcLine).toBeNull();
    expect(await domEvents(page)).toEqual([]);
    expect(await history('optout-plain', newsletter.target)).toEqual([]);
    await context.close();
  });

  test('in an opt-out jurisdiction with GPC the signal declines where the regime honours it, says so, and is recorded once per subject, target and version', async () => {
    const context = await profile(true);
    const page = await open(context, REQUEST, 'gpc-kim', 'jurisdiction="US-CA" lang="de"');
    const view = await shown(page, REQUEST);
    expect(view.items).toEqual([
      ['E-mail newsletter', false], // US-CA honours GPC
      ['Audience measurement', true], // US: opt-out, GPC ignored
      ['Security logs', null],
    ]);
    expect(view.gpcLine).toBe('Das Global-Privacy-Control-Signal Ihres Browsers wurde angewendet.');
    const [signal] = await domEvents(page);
    expect(signal).toMatchObject({ type: 'accord-gpc', events: [{ target: newsletter.target, action: null, gpc: true, jurisdiction: 'US-CA' }] });
    expect(await history('gpc-kim', newsletter.target)).toEqual([
      expect.objectContaining({ action: null, gpc: true, jurisdiction: 'US-CA', targetVersion: newsletter.version }),
    ]);
    expect(await history('gpc-kim', analytics.target)).toEqual([]);
    await page.locator(`${REQUEST} >> section`).screenshot({ path: path.join(ARTIFACTS, 'accord-consent-request-gpc.png') });
    expect(await axeViolations(page)).toEqual([]);

    // The next page views, in this browser (localStorage) and in a fresh one (the view answers), record nothing more.
    const dashboardReads: string[] = [];
    page.on('request', (r) => void (r.url().includes('/dashboard') && dashboardReads.push(r.url())));
    await page.reload();
    await loaded(page, REQUEST);
    expect(dashboardReads).toEqual([]); // this browser remembers: no question at all
    const other = await profile(true);
    const again = await open(other, REQUEST, 'gpc-kim', 'jurisdiction="US-CA"');
    expect((await shown(again, REQUEST)).gpcLine).toBe('Your browser’s Global Privacy Control signal was applied.');
    expect(await domEvents(page)).toEqual([]);
    expect(await domEvents(again)).toEqual([]);
    expect(await history('gpc-kim', newsletter.target)).toHaveLength(1);

    // An explicit choice overrides the signal: it is recorded with it (gpc: true) and no signal follows.
    await page.locator(`${REQUEST} >> input`).first().check();
    await page.locator(`${REQUEST} >> [part~=save]`).click();
    await page.waitForFunction(() => (window as unknown as { __accord: unknown[] }).__accord.length === 1);
    expect((await history('gpc-kim', newsletter.target))[0]).toMatchObject({
      action: true,
      gpc: true,
      jurisdiction: 'US-CA',
      targetVersion: newsletter.version,
    });
    const dashboard = await open(other, DASHBOARD, 'gpc-kim', 'jurisdiction="US-CA"');
    expect((await shown(dashboard, DASHBOARD)).items.slice(0, 2)).toEqual([
      ['E-mail newsletter', true],
      ['Audience measurement', true],
    ]);
    expect((await shown(dashboard, DASHBOARD)).gpcLine).toBeNull();
    expect(await domEvents(dashboard)).toEqual([]);
    expect(await history('gpc-kim', newsletter.target)).toHaveLength(2);
    await context.close();
    await other.close();
  });
});

describe('<accord-consent-dashboard> with regimes', () => {
  test('with GPC in an opt-out jurisdiction an accept made without the signal is declined by it, once, and switching it on again overrides it', async () => {
    await backend.recordConsent(
      [newsletter, analytics].map((t) => ({ subject: 'gpc-dana', issuer: ISSUER, target: t.target, action: true, jurisdiction: 'US-CA' })) as never,
    );
    const context = await profile(true);
    const page = await open(context, DASHBOARD, 'gpc-dana', 'jurisdiction="US-CA"');
    const view = await shown(page, DASHBOARD);
    expect(view.items).toEqual([
      ['E-mail newsletter', false],
      ['Audience measurement', true],
      ['Security logs', null],
    ]);
    expect(view.gpcLine).toBe('Your browser’s Global Privacy Control signal was applied.');
    expect(view.states).toEqual(['gpc', 'accepted']);
    expect((await history('gpc-dana', newsletter.target))[0]).toMatchObject({ action: null, gpc: true, jurisdiction: 'US-CA' });
    // The switch is described by the GPC line, for screen readers too.
    const described = await page.evaluate(() => {
      const root = document.querySelector('accord-consent-dashboard')!.shadowRoot!;
      const ids = root.querySelector('input[role=switch]')!.getAttribute('aria-describedby')!.split(' ');
      return ids.map((id) => root.getElementById(id)?.textContent ?? '').join(' | ');
    });
    expect(described).toContain('Global Privacy Control signal was applied');
    expect(await axeViolations(page)).toEqual([]);
    await page.locator(`${DASHBOARD} >> section`).screenshot({ path: path.join(ARTIFACTS, 'accord-consent-dashboard-gpc.png') });

    await page.reload();
    await loaded(page, DASHBOARD);
    expect((await shown(page, DASHBOARD)).states).toEqual(['gpc', 'accepted']);
    expect(await domEvents(page)).toEqual([]);
    expect(await history('gpc-dana', newsletter.target)).toHaveLength(2);

    await page.getByRole('switch', { name: 'E-mail newsletter' }).check();
    await page.waitForFunction(() => (window as unknown as { __accord: unknown[] }).__accord.length === 1);
    expect((await history('gpc-dana', newsletter.target))[0]).toMatchObject({ action: true, gpc: true });
    expect((await shown(page, DASHBOARD)).states[0]).toBe('accepted');
    await context.close();
  });

  test('without GPC the opt-out jurisdiction pre-selects what the subject has not declined, and the opt-in one only what was accepted', async () => {
    await backend.recordConsent({ subject: 'plain-lee', issuer: ISSUER, target: analytics.target, action: false } as never);
    const context = await profile(false);
    const optOut = await open(context, DASHBOARD, 'plain-lee', 'jurisdiction="US-CA"');
    expect((await shown(optOut, DASHBOARD)).items.slice(0, 2)).toEqual([
      ['E-mail newsletter', true],
      ['Audience measurement', false],
    ]);
    const optIn = await open(context, DASHBOARD, 'plain-lee', 'jurisdiction="DE"');
    expect((await shown(optIn, DASHBOARD)).items.slice(0, 2)).toEqual([
      ['E-mail newsletter', false],
      ['Audience measurement', false],
    ]);
    expect([await domEvents(optOut), await domEvents(optIn)]).toEqual([[], []]);
    await context.close();
  });
});
