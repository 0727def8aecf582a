// The web components in a real browser (Debian's Chromium through playwright-core) against the
// real stack: a shop page on its own origin holds only a consent session token.
import path from 'node:path';
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { Accord } from '../clients/sdk/src';
import { startDemo } from '@accord/local-stack';
import { ARTIFACTS, launchChromium, sdkBundle, shopSite, type ShopSite } from './browser';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(60_000);
const ISSUER = 'https://shop.example';

let stack: Stack;
let shop: Credentials;
let browser: Browser;
let site: ShopSite;
let origin: string;
let groupId: string;
let targets: string[];
let backend: Accord;

// The gateway serves the bundle (as built by `npm run build`) from a temporary package directory.
const sdk = sdkBundle();

beforeAll(async () => {
  stack = await startStack('elements', { env: { ACCORD_SDK_BUNDLE: sdk.path } });
  shop = await stack.bootstrap({ account: 'elements-shop', app: 'web', scopes: ['consent', 'dataprocessing'] });
  backend = new Accord({ baseUrl: stack.baseUrl, clientId: shop.clientId, clientSecret: shop.clientSecret, apiKey: shop.apiKey });
  const dp = await stack.token(shop, 'dataprocessing');
  const group = await stack.request('POST', '/dataprocessing/v0/dpgroups', {
    token: dp,
    json: { name: 'Ihre Datenschutz-Einstellungen', description: 'Wählen Sie, wofür wir Ihre Daten verwenden dürfen.' },
  });
  groupId = group.body.id;
  const spec = async (json: Record<string, unknown>) =>
    (await stack.request('POST', `/dataprocessing/v0/dpgroups/${groupId}/specs`, { token: dp, json: { action: 'use', consentTarget: true, ...json } })).body;
  const news = await spec({
    data: 'e-mail',
    purpose: 'newsletter',
    legalBasis: 'CONSENT',
    texts: [
      { value: 'Newsletter per E-Mail', language: 'de' },
      { value: 'E-mail newsletter', language: 'en' },
    ],
  });
  const stats = await spec({
    data: 'page views',
    purpose: 'analytics',
    legalBasis: 'LEGITIMATE_INTEREST',
    texts: [{ value: 'Reichweitenmessung', language: 'de' }],
  });
  await spec({ data: 'orders', purpose: 'billing', legalBasis: 'CONTRACT', consentTarget: false });
  const request = await stack.request('GET', `/dataprocessing/v0/dpgroups/${groupId}/consent-request`, { token: dp });
  targets = request.body.items.map((i: { target: string }) => i.target);
  expect(targets).toEqual([news.id, stats.id].map((id) => expect.stringContaining(id)));

  site = await shopSite('de');
  origin = site.origin;
  await stack.setAllowedOrigins(shop.appId, [origin]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  site?.close();
  await stack?.stop();
  sdk.remove();
});

const session = async (subject: string) => (await backend.createSession({ subject, issuer: ISSUER, groupId })).sessionToken;

/** The shop's page (on its own origin) with the gateway's bundle and some HTML. */
const shopPage = (html: string, spacer = false) => site.page(`${stack.baseUrl}/sdk/accord-elements.js`, html, { spacer });

/** Opens the shop page with one element; its DOM events are collected in window.__accord. */
async function open(tag: string, token: string, attrs = '', spacer = false): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __accord: unknown[] };
    w.__accord = [];
    window.addEventListener('accord-consent', (e) => w.__accord.push((e as CustomEvent).detail));
  });
  const html = `<${tag} group="${groupId}" session-token="${token}" base-url="${stack.baseUrl}" ${attrs}></${tag}>`;
  await page.goto(shopPage(html, spacer));
  return page;
}
const inShadow = (page: Page, tag: string, selector: string) => page.locator(`${tag} >> ${selector}`);
/** The text of the focused control inside the element (a checkbox: its label). */
const focused = (page: Page, tag: string) =>
  page.evaluate((t) => {
    const a = document.querySelector(t)!.shadowRoot!.activeElement;
    return ((a?.tagName === 'INPUT' ? a.closest('label') : a)?.textContent ?? '').trim();
  }, tag);
const current = async (subject: string, target: string) => {
  const { data } = await backend.api.GET('/consent/v0/consents/search', { params: { query: { subject, issuer: ISSUER, target, current: true } } });
  return data?.[0]?.action;
};
async function axeViolations(page: Page) {
  await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const r = await (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

describe('GET /sdk/accord-elements.js', () => {
  test('serves the bundle to any origin with an ETag (304 when unchanged) and immutably under its version', async () => {
    const res = await fetch(`${stack.baseUrl}/sdk/accord-elements.js`, { headers: { origin: 'https://anyone.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/javascript');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toContain('accord-consent-request');
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${stack.baseUrl}/sdk/accord-elements.js`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const pinned = await fetch(`${stack.baseUrl}/sdk/0.1.0/accord-elements.js`);
    expect([pinned.status, pinned.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    const other = await fetch(`${stack.baseUrl}/sdk/9.9.9/accord-elements.js`);
    expect([other.status, other.headers.get('content-type')]).toEqual([404, expect.stringContaining('application/problem+json')]);
  });
});

describe('<accord-consent-request> in Chromium', () => {
  test('renders the group (title, caption, one choice per consent target in German, legal basis) and keyboard-only saving records one event per specification', async () => {
    const page = await open('accord-consent-request', await session('kim'), 'lang="de"');
    const tag = 'accord-consent-request';
    await inShadow(page, tag, 'h2').waitFor();
    expect(await inShadow(page, tag, 'h2').textContent()).toBe('Ihre Datenschutz-Einstellungen');
    expect(await inShadow(page, tag, '[part=caption]').textContent()).toBe('Wählen Sie, wofür wir Ihre Daten verwenden dürfen.');
    expect(await inShadow(page, tag, '[part=label]').allTextContents()).toEqual(['Newsletter per E-Mail', 'Reichweitenmessung']);
    expect(await inShadow(page, tag, '[part=legal-basis]').allTextContents()).toEqual([
      'Rechtsgrundlage: Einwilligung (Art. 6 Abs. 1 lit. a DSGVO)',
      'Rechtsgrundlage: Berechtigtes Interesse (Art. 6 Abs. 1 lit. f DSGVO)',
    ]);
    // Keyboard only: tick the newsletter, leave analytics, then "save choices".
    await page.keyboard.press('Tab');
    expect(await focused(page, tag)).toBe('Newsletter per E-Mail');
    await page.keyboard.press('Space');
    for (const expected of ['Reichweitenmessung', 'Alle akzeptieren', 'Alle ablehnen', 'Auswahl speichern']) {
      await page.keyboard.press('Tab');
      expect(await focused(page, tag)).toBe(expected);
    }
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (window as unknown as { __accord: unknown[] }).__accord.length === 1);
    const [detail] = await page.evaluate(
      () => (window as unknown as { __accord: { events: { target: string; action: boolean; source: string }[] }[] }).__accord,
    );
    expect(detail!.events.map((e) => [e.target, e.action])).toEqual([
      [targets[0], true],
      [targets[1], false],
    ]);
    expect(detail!.events[0]!.source).toBe(`accord-sdk-js/0.1.0 ${origin}/`);
    expect(await inShadow(page, tag, '[role=status]').textContent()).toBe('Ihre Auswahl wurde gespeichert.');
    expect(await current('kim', targets[0]!)).toBe(true);
    expect(await current('kim', targets[1]!)).toBe(false);
    await inShadow(page, tag, 'section').screenshot({ path: path.join(ARTIFACTS, 'accord-consent-request.png') });
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  test('makes no network call before it is visible', async () => {
    const page = await browser.newPage();
    const calls: string[] = [];
    page.on('request', (r) => void (/\/(consent|dataprocessing)\/v0\//.test(r.url()) && calls.push(r.url())));
    const html = `<accord-consent-request group="${groupId}" session-token="${await session('late')}" base-url="${stack.baseUrl}"></accord-consent-request>`;
    await page.goto(shopPage(html, true));
    await page.waitForFunction(() => customElements.get('accord-consent-request') !== undefined);
    await page.waitForTimeout(300);
    expect(calls).toEqual([]);
    await page.locator('accord-consent-request').scrollIntoViewIfNeeded();
    await inShadow(page, 'accord-consent-request', 'h2').waitFor();
    expect(calls.some((u) => u.includes('/consent-request'))).toBe(true);
    await page.close();
  });

  test('a right-to-left language renders right to left', async () => {
    const page = await open('accord-consent-request', await session('rtl'), 'lang="ar"');
    await inShadow(page, 'accord-consent-request', 'h2').waitFor();
    expect(await page.locator('accord-consent-request').evaluate((e) => getComputedStyle(e).direction)).toBe('rtl');
    await page.close();
  });
});

describe('<accord-consent-dashboard> in Chromium', () => {
  test('shows the current states, withdraws one by keyboard (a new event) and shows its history', async () => {
    const token = await session('dana');
    await backend.recordConsent(targets.map((target) => ({ subject: 'dana', issuer: ISSUER, target, action: true })));
    const page = await open('accord-consent-dashboard', token, 'lang="en"');
    const tag = 'accord-consent-dashboard';
    await inShadow(page, tag, 'h2').waitFor();
    expect(await inShadow(page, tag, '[part=legal-basis]').allTextContents()).toEqual([
      'Legal basis: Consent (Art. 6(1)(a) GDPR)',
      'Legal basis: Legitimate interest (Art. 6(1)(f) GDPR)',
    ]);
    expect(await inShadow(page, tag, '[part=state]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.state))).toEqual(['accepted', 'accepted']);
    await page.keyboard.press('Tab');
    expect(await focused(page, tag)).toBe('E-mail newsletter');
    expect(await page.getByRole('switch', { name: 'E-mail newsletter' }).isChecked()).toBe(true);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => (window as unknown as { __accord: unknown[] }).__accord.length === 1);
    expect(await current('dana', targets[0]!)).toBe(false);
    expect(await current('dana', targets[1]!)).toBe(true);
    expect(await inShadow(page, tag, '[part=state]').first().textContent()).toBe('declined');
    // History: the summary follows the switch in focus order.
    await page.keyboard.press('Tab');
    expect(await focused(page, tag)).toBe('History');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('accord-consent-dashboard')!.shadowRoot!.querySelectorAll('details[open] li').length === 2);
    expect(await inShadow(page, tag, 'details[open] li').allTextContents()).toEqual([expect.stringContaining('declined'), expect.stringContaining('accepted')]);
    await inShadow(page, tag, 'section').screenshot({ path: path.join(ARTIFACTS, 'accord-consent-dashboard.png') });
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  test('the page’s session token cannot record consent for another subject', async () => {
    const page = await open('accord-consent-dashboard', await session('eve'));
    const status = await page.evaluate(
      async ([base, token, target]) =>
        (
          await fetch(`${base}/consent/v0/consents`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ subject: 'dana', issuer: 'https://shop.example', target, action: true }),
          })
        ).status,
      [stack.baseUrl, await session('eve'), targets[0]!],
    );
    expect(status).toBe(403);
    expect(await current('dana', targets[0]!)).toBe(false);
    await page.close();
  });
});

describe('the demo shop of npm start', () => {
  test('a newcomer gives consent on /demo/, withdraws it on the dashboard and the events are in the API', async () => {
    const demo = await startDemo({ gatewayUrl: stack.baseUrl, oauthAddr: stack.env.ACCORD_OAUTH_ADDR!, adminToken: stack.env.ACCORD_ADMIN_TOKEN!, port: 0 });
    const page = await browser.newPage();
    try {
      const asDemo = new Accord({ baseUrl: stack.baseUrl, ...demo.credentials });
      const consentRequest = await asDemo.api.GET('/dataprocessing/v0/dpgroups/{group_id}/consent-request', { params: { path: { group_id: demo.groupId } } });
      const [news, stats] = consentRequest.data!.items.map((i) => i.target);
      const now = async (target: string) =>
        (
          await asDemo.api.GET('/consent/v0/consents/search', {
            params: { query: { subject: 'alice', issuer: 'https://demo-shop.example', target, current: true } },
          })
        ).data?.[0]?.action;

      await page.goto(demo.url);
      await page.getByRole('button', { name: 'Accept all' }).click();
      await page.locator('#events').filter({ hasText: '"action": true' }).waitFor();
      expect([await now(news!), await now(stats!)]).toEqual([true, true]);
      const newsletter = page.getByRole('switch', { name: 'Send me the weekly newsletter' });
      await newsletter.waitFor();
      await page.waitForFunction(() => document.querySelector('accord-consent-dashboard')!.shadowRoot!.querySelector('input[role=switch]:checked'));
      await newsletter.click();
      await page.locator('#events').filter({ hasText: '"action": false' }).waitFor();
      expect([await now(news!), await now(stats!)]).toEqual([false, true]);
    } finally {
      await page.close();
      await demo.stop();
    }
  });
});
