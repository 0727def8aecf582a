// Google Consent Mode v2 from the web components in a real browser (Debian's Chromium through
// playwright-core) against the real stack: the page's dataLayer is a stub that keeps every
// command, and the test reads the sequence — the floor before anything is known, the defaults per
// region from the specifications' regimes (GPC applied where a regime honours it), the update
// from the stored state on load, on every choice, and after a withdrawal (docs/consent.md, Standards).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Accord } from '../clients/sdk/src';
import { launchChromium, sdkBundle, shopSite, type ShopSite } from './browser';
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
let backend: Accord;
let dp: string;

const sdk = sdkBundle();

beforeAll(async () => {
  stack = await startStack('consentmode', { env: { ACCORD_SDK_BUNDLE: sdk.path } });
  shop = await stack.bootstrap({ account: 'cm-shop', app: 'web', scopes: ['consent', 'dataprocessing'] });
  backend = new Accord({ baseUrl: stack.baseUrl, clientId: shop.clientId, clientSecret: shop.clientSecret, apiKey: shop.apiKey });
  dp = await stack.token(shop, 'dataprocessing');
  groupId = (await stack.request('POST', '/dataprocessing/v0/dpgroups', { token: dp, json: { name: 'Privacy choices', description: 'What we may do.' } })).body
    .id;
  const spec = async (json: Record<string, unknown>) => {
    const res = await stack.request('POST', `/dataprocessing/v0/dpgroups/${groupId}/specs`, { token: dp, json: { action: 'use', ...json } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  };
  // Advertising: opt-in everywhere, opt-out in California where GPC counts as a decline.
  await spec({
    data: 'device identifiers',
    purpose: 'advertising',
    texts: [{ value: 'Personalised ads', language: 'en' }],
    regimes: { '*': { model: 'opt-in' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } },
    consentMode: ['ad_storage', 'ad_user_data', 'ad_personalization'],
  });
  // Measurement: opt-out in the US, GPC ignored.
  await spec({
    data: 'page views',
    purpose: 'analytics',
    texts: [{ value: 'Audience measurement', language: 'en' }],
    regimes: { US: { model: 'opt-out' } },
    consentMode: ['analytics_storage'],
  });
  // Security: nothing to choose anywhere.
  await spec({
    data: 'server logs',
    purpose: 'security',
    texts: [{ value: 'Security logs', language: 'en' }],
    regimes: { '*': { model: 'notice' } },
    consentMode: ['security_storage'],
  });
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

/** A browser profile with or without GPC whose pages have a stub dataLayer (no Google tag is loaded: nothing leaves the machine). */
async function profile(gpc: boolean): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addInitScript((on: boolean) => {
    if (on) Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });
    const w = window as unknown as { dataLayer: unknown[]; __atDomReady: number };
    w.dataLayer = [];
    document.addEventListener('DOMContentLoaded', () => (w.__atDomReady = w.dataLayer.length));
  }, gpc);
  return context;
}

/** The commands the page pushed, each as gtag's arguments (and whether it was an `arguments` object, the only kind gtag.js reads). */
const commands = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { dataLayer: IArguments[] }).dataLayer.map((a) => [Object.prototype.toString.call(a) === '[object Arguments]', ...Array.from(a)]),
  );
const sent = async (page: Page) => (await commands(page)).map(([isArguments, ...rest]) => (isArguments ? rest : ['not arguments', ...rest]));

async function open(context: BrowserContext, tag: string, subject: string, attrs: string): Promise<Page> {
  const page = await context.newPage();
  const html = `<${tag} group="${groupId}" session-token="${await session(subject)}" base-url="${stack.baseUrl}" ${attrs}></${tag}>`;
  await page.goto(site.page(`${stack.baseUrl}/sdk/accord-elements.js`, html, { spacer: true }));
  await page.locator(`${tag} >> h2`).waitFor();
  await page.waitForFunction((t) => !document.querySelector(t)!.hasAttribute('aria-busy'), tag);
  return page;
}

const FLOOR = [
  'consent',
  'default',
  { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied', wait_for_update: 500 },
];
const ALL_DENIED = { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied', security_storage: 'granted' };
/** The defaults of these specifications' regimes: `*`, then the US (measurement opt-out), then California (ads opt-out too, unless GPC). */
const defaults = (gpc: boolean, wait = 500) => [
  ['consent', 'default', { ...ALL_DENIED, wait_for_update: wait }],
  ...(gpc
    ? [['consent', 'default', { ...ALL_DENIED, analytics_storage: 'granted', region: ['US', 'US-CA'], wait_for_update: wait }]]
    : [
        ['consent', 'default', { ...ALL_DENIED, analytics_storage: 'granted', region: ['US'], wait_for_update: wait }],
        [
          'consent',
          'default',
          {
            ad_storage: 'granted',
            ad_user_data: 'granted',
            ad_personalization: 'granted',
            analytics_storage: 'granted',
            security_storage: 'granted',
            region: ['US-CA'],
            wait_for_update: wait,
          },
        ],
      ]),
];
const update = (state: Record<string, string>) => ['consent', 'update', state];
const GRANTED = { ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted', analytics_storage: 'granted', security_storage: 'granted' };

describe('Consent Mode v2 from <accord-consent-request consent-mode>', () => {
  test.each([
    ['DE', false],
    ['US-CA', false],
    ['DE', true],
  ])(
    'in %s with GPC %s: the floor before the page is ready, the regimes’ defaults per region, an update of what needs no choice, then the choice as an update',
    async (jurisdiction, gpc) => {
      const context = await profile(gpc);
      const subject = `cm-${jurisdiction}-${gpc}`;
      const page = await open(context, REQUEST, subject, `consent-mode jurisdiction="${jurisdiction}"`);
      // The element is 3000 px below the fold: with consent-mode it loads at once all the same.
      expect(await page.evaluate(() => (window as unknown as { __atDomReady: number }).__atDomReady)).toBe(1);
      // Nothing chosen yet: the update on load says only what needs no choice.
      expect(await sent(page)).toEqual([FLOOR, ...defaults(gpc), update({ security_storage: 'granted' })]);

      await page.locator(`${REQUEST} >> [part~=accept-all]`).click();
      await page.waitForFunction((n) => (window as unknown as { dataLayer: unknown[] }).dataLayer.length === n, gpc ? 5 : 6);
      expect((await sent(page)).at(-1)).toEqual(update(GRANTED));
      await context.close();
    },
  );

  test('with GPC in California the recorded signal is the stored state: the update on load denies ads and grants the rest only where decided', async () => {
    const context = await profile(true);
    const page = await open(context, REQUEST, 'cm-gpc-ca', 'consent-mode jurisdiction="US-CA" wait-for-update="800"');
    expect(await sent(page)).toEqual([
      [...FLOOR.slice(0, 2), { ...(FLOOR[2] as object), wait_for_update: 800 }],
      ...defaults(true, 800),
      // ads: the GPC signal was recorded (decided, denied); measurement: undecided, its default stands; security: nothing to choose
      update({ ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', security_storage: 'granted' }),
    ]);
    await context.close();
  });

  test('the element’s mapping overrides the specifications’ and the floor names its types', async () => {
    const context = await profile(false);
    const page = await open(context, REQUEST, 'cm-mapped', 'consent-mode="analytics: analytics_storage personalization_storage" jurisdiction="DE"');
    const [floor, star] = await sent(page);
    expect(floor).toEqual(['consent', 'default', { analytics_storage: 'denied', personalization_storage: 'denied', wait_for_update: 500 }]);
    expect(star).toEqual(['consent', 'default', { ...ALL_DENIED, personalization_storage: 'denied', wait_for_update: 500 }]);
    await context.close();
  });
});

describe('Consent Mode v2 from <accord-consent-dashboard consent-mode>', () => {
  test('on load the stored choices are the update; a withdrawal denies what it governed at once, and a reload says the same', async () => {
    const context = await profile(false);
    const request = await open(context, REQUEST, 'cm-dana', 'consent-mode jurisdiction="DE"');
    await request.locator(`${REQUEST} >> [part~=accept-all]`).click();
    await request.waitForFunction(() => (window as unknown as { dataLayer: unknown[] }).dataLayer.length === 6);

    const page = await open(context, DASHBOARD, 'cm-dana', 'consent-mode jurisdiction="DE"');
    expect(await sent(page)).toEqual([FLOOR, ...defaults(false), update(GRANTED)]);

    await page.getByRole('switch', { name: 'Personalised ads' }).uncheck();
    await page.waitForFunction(() => (window as unknown as { dataLayer: unknown[] }).dataLayer.length === 6);
    const withdrawn = { ...GRANTED, ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' };
    expect((await sent(page)).at(-1)).toEqual(update(withdrawn));

    await page.reload();
    await page.waitForFunction(() => (window as unknown as { dataLayer: unknown[] }).dataLayer.length === 5);
    expect((await sent(page)).at(-1)).toEqual(update(withdrawn));
    await context.close();
  });

  test('without consent-mode and without any mapped specification nothing is sent', async () => {
    const dpGroup = (await stack.request('POST', '/dataprocessing/v0/dpgroups', { token: dp, json: { name: 'Plain' } })).body.id as string;
    await stack.request('POST', `/dataprocessing/v0/dpgroups/${dpGroup}/specs`, { token: dp, json: { action: 'use', data: 'e-mail', purpose: 'newsletter' } });
    const context = await profile(false);
    const page = await context.newPage();
    const token = (await backend.createSession({ subject: 'cm-plain', issuer: ISSUER, groupId: dpGroup })).sessionToken;
    await page.goto(
      site.page(`${stack.baseUrl}/sdk/accord-elements.js`, `<${REQUEST} group="${dpGroup}" session-token="${token}" base-url="${stack.baseUrl}"></${REQUEST}>`),
    );
    await page.locator(`${REQUEST} >> h2`).waitFor();
    await page.locator(`${REQUEST} >> [part~=accept-all]`).click();
    await page.waitForFunction((t) => !document.querySelector(t)!.shadowRoot!.querySelector('button[disabled]'), REQUEST);
    expect(await sent(page)).toEqual([]);
    await context.close();
  });
});

describe('Consent Mode types on specifications', () => {
  test('an unknown type is a 400 naming it; known ones are answered on the specification and in the views', async () => {
    const bad = await stack.request('POST', `/dataprocessing/v0/dpgroups/${groupId}/specs`, {
      token: dp,
      json: { action: 'use', data: 'd', purpose: 'p', consentMode: ['ad_storage', 'cookie_storage'] },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.errors)).toContain('/consentMode/1');
    const view = (await stack.request('GET', `/dataprocessing/v0/dpgroups/${groupId}/consent-request`, { token: dp })).body;
    expect(view.items[0]).toMatchObject({
      consentMode: ['ad_storage', 'ad_user_data', 'ad_personalization'],
      regimes: { '*': { model: 'opt-in', gpc: 'ignore' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } },
    });
    const spec = (await stack.request('GET', `/dataprocessing/v0/dpspecs/${view.items[1].specId}`, { token: dp })).body;
    expect(spec.consentMode).toEqual(['analytics_storage']);
    const cleared = await stack.request('PATCH', `/dataprocessing/v0/dpspecs/${spec.id}`, { token: dp, json: { consentMode: null } });
    expect(cleared.body.consentMode).toEqual([]);
  });
});
