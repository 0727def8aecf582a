/**
 * The console in a real browser (Debian's Chromium through playwright-core), driven as a person
 * would: sign in with a console link, create an application and see its secret once, create a
 * token and use it, register a webhook and see a delivery, and a viewer who can change nothing.
 * Screenshots of each page go to .ci/artifacts/ (git-ignored).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { consoleLink, startReceiver, type Receiver } from '@accord/testkit';
import { ARTIFACTS, launchChromium } from './browser';
import { startStack, type Stack } from './harness';

// Each test makes several round trips through the stack; a loaded shared machine needs more than jest's 5 s.
jest.setTimeout(60_000);

let stack: Stack;
let browser: Browser;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startStack('consolebrowser');
  await stack.bootstrap({ account: 'acme', app: 'website', scopes: ['consent', 'dataprocessing', 'webhooks'] });
  browser = await launchChromium();
  receiver = await startReceiver();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
});

async function signedIn(member: string, role: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('dialog', (d) => void d.accept());
  const link = await consoleLink(stack, 'acme', member, role);
  await page.goto(`${stack.baseUrl}/console/#link=${link}`);
  await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `console-${name}.png`), fullPage: true });

test('an owner signs in with a console link, creates an application and sees its secret once', async () => {
  const page = await signedIn('olivia', 'owner');
  expect(page.url()).not.toContain('link='); // the token leaves the address bar at once
  await expect(page.getByTestId('account').textContent()).resolves.toBe('acme');
  await shot(page, 'applications');

  // Keyboard only: focus the name field, type, tick nothing more, submit with Enter.
  await page.getByLabel('Name').focus();
  await page.keyboard.type('checkout');
  await page.keyboard.press('Enter');
  const secret = page.locator('[data-secret="Client secret"]');
  await secret.waitFor();
  const value = await secret.inputValue();
  expect(value).toMatch(/^cs_/);
  await page.getByRole('row', { name: /checkout/ }).waitFor();
  await shot(page, 'application-created');

  await page.reload();
  await page.getByRole('row', { name: /checkout/ }).waitFor();
  expect(await page.content()).not.toContain(value);
  await page.close();
}, 120_000);

test('a token created in the console works against the API, and its refresh family can be revoked', async () => {
  const page = await signedIn('olivia', 'owner');
  await page.getByRole('link', { name: 'Tokens' }).click();
  await page.getByRole('heading', { name: 'Create a token' }).waitFor();
  await page.getByRole('checkbox', { name: 'consent' }).uncheck();
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = await page.locator('[data-secret="Access token"]').inputValue();
  const res = await stack.request('GET', '/dataprocessing/v0/dpgroups', { token });
  expect(res.status).toBe(200);
  await page.getByRole('button', { name: 'Revoke' }).first().waitFor();
  await shot(page, 'tokens');
  await page.getByRole('button', { name: 'Revoke' }).first().click();
  await page.getByText('Token family revoked.').waitFor();
  await page.close();
}, 120_000);

test('a webhook registered in the console receives a test event, shown in its delivery log', async () => {
  const page = await signedIn('olivia', 'owner');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByText('No webhooks for this application yet.').waitFor();
  await page.getByLabel('Receiver URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Register webhook' }).click();
  await page.locator('[data-secret="Signing secret"]').waitFor();
  await page.getByRole('button', { name: 'Send test event' }).click();
  // The log shows the delivery once the webhook service has made it (poll with the Refresh button, bounded).
  const delivered = page.locator('tr[data-delivery="succeeded"]');
  for (let i = 0; i < 30 && !(await delivered.count()); i++) {
    await page.waitForTimeout(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
  }
  await delivered.first().waitFor();
  await expect(delivered.first().textContent()).resolves.toContain('204');
  expect(receiver.received.length).toBeGreaterThanOrEqual(1);
  await shot(page, 'webhooks');
  await page.close();
}, 120_000);

test('the API key page shows the key masked and rotates it with a grace period', async () => {
  const page = await signedIn('olivia', 'owner');
  await page.getByRole('link', { name: 'API key' }).click();
  const masked = await page.getByTestId('masked-key').textContent();
  expect(masked).toMatch(/^ak_….{4}$/);
  await shot(page, 'api-key');
  await page.getByRole('button', { name: 'Rotate API key' }).click();
  const key = await page.locator('[data-secret="API key"]').inputValue();
  expect(key.slice(-4)).toBe((await page.getByTestId('masked-key').textContent())!.slice(-4));
  await page.close();
}, 120_000);

test('a viewer sees no way to change anything, and the console API refuses a change made anyway', async () => {
  const page = await signedIn('val', 'viewer', { width: 390, height: 844 });
  await page.getByRole('note').filter({ hasText: 'viewer role' }).waitFor();
  expect(await page.getByRole('button', { name: 'Create application' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Rotate secret' }).count()).toBe(0);
  await shot(page, 'viewer-mobile');
  const status = await page.evaluate(async () => {
    const s = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
    const r = await fetch('/console/api/applications', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken },
      body: '{"name":"x"}',
    });
    return r.status;
  });
  expect(status).toBe(403);
  await page.close();
}, 120_000);

test('signing out returns to the sign-in page, and the old session no longer reads anything', async () => {
  const page = await signedIn('olivia', 'owner');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByText('Signed out.').waitFor();
  await shot(page, 'signed-out');
  const status = await page.evaluate(async () => (await fetch('/console/api/applications')).status);
  expect(status).toBe(401);
  await page.close();
}, 120_000);

test('the statistics page draws the events of the day as a chart, with the top targets and a CSV download', async () => {
  const creds = await stack.bootstrap({ account: 'acme', app: 'charts', scopes: ['consent'] });
  const token = await stack.token(creds, 'consent');
  const json = ['news', 'news', 'ads', 'ads', 'ads', 'cookies'].map((target, i) => ({ subject: `s${i}`, issuer: 'web', target, action: i % 3 !== 0 }));
  expect((await stack.request('POST', '/consent/v0/consents', { token, apiKey: creds.apiKey, json })).status).toBe(201);
  const page = await signedIn('olivia', 'owner');
  await page.getByRole('link', { name: 'Statistics' }).click();
  await page.getByLabel('Application').selectOption({ label: 'charts' });
  const bars = page.locator('[data-chart="daily"] rect');
  await bars.first().waitFor();
  expect(await bars.count()).toBeGreaterThanOrEqual(2); // accepted and declined segments of today
  await page.locator('[data-chart="targets"] li').filter({ hasText: 'ads' }).waitFor();
  const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  const csv = await page.evaluate(async (u) => (await fetch(u!)).text(), href);
  expect(csv).toMatch(/day,accepted,declined,no_action/);
  await shot(page, 'statistics');
  await page.close();
}, 120_000);

test('the imports page uploads an NDJSON file with a progress bar that reaches done, shows the counts and names the bad line and field; a viewer follows it but cannot import', async () => {
  const creds = await stack.bootstrap({ account: 'acme', app: 'history', scopes: ['consent'] });
  const event = (subject: string, o: Record<string, unknown> = {}) =>
    JSON.stringify({ subject, issuer: 'https://shop.example', target: 'newsletter', action: true, createdAt: '2019-05-01T10:00:00Z', ...o });
  // line 3 is dated in the future: refused, naming createdAt; the 599 others are stored with their 2019 time
  const more = Array.from({ length: 596 }, (_, i) => event(`h-${i + 5}`));
  const file =
    [event('h-1', { externalId: 'h-1' }), event('h-2', { action: false }), event('h-3', { createdAt: '2999-01-01T00:00:00Z' }), event('h-4'), ...more].join(
      '\n',
    ) + '\n';

  const page = await signedIn('olivia', 'owner');
  await page.getByRole('link', { name: 'Imports' }).click();
  await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
  await page.getByLabel('Application').selectOption({ label: 'history' });
  await page.getByRole('heading', { name: 'Import into “history”' }).waitFor();
  // What the progress bar says as it moves (evaluated in the page: the tests' TypeScript has no DOM types).
  await page.evaluate(`(() => {
    window.progressSaid = [];
    new MutationObserver((changes) => {
      for (const c of changes) if (c.target.localName === 'progress' && c.attributeName === 'aria-valuetext') window.progressSaid.push(c.target.getAttribute('aria-valuetext'));
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-valuetext'] });
  })()`);
  // A slow uplink (32 kB/s: the file of about 80 kB takes seconds), so that the bar is seen between 0 and 100.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 32 * 1024 });
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'history.ndjson', mimeType: '', buffer: Buffer.from(file) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  // polled from here: waitForFunction's later polls evaluate a string inside the page, which the console's CSP (no 'unsafe-eval') refuses
  for (let i = 0; !(await page.evaluate<boolean>(`window.progressSaid.some((t) => /^[1-9][\\d.]* kB of /.test(t))`)); i++) {
    if (i >= 300) throw new Error(`the bar never said that a part of the file was sent: ${JSON.stringify(await page.evaluate('window.progressSaid'))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await shot(page, 'imports-sending');

  const result = page.locator('section.import[data-state="done"]');
  await result.waitFor({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const bar = page.getByRole('progressbar', { name: 'Import of history.ndjson' });
  expect(await bar.getAttribute('value')).toBe('100');
  await expect(result.getByRole('status').textContent()).resolves.toBe('Done: 600 read, 599 stored, 0 duplicates, 1 refused.');
  const count = (key: string) => result.locator(`[data-count="${key}"] dd`).textContent();
  expect([await count('state'), await count('read'), await count('stored'), await count('duplicates'), await count('refused')]).toEqual([
    'done',
    '600',
    '599',
    '0',
    '1',
  ]);
  const said = await page.evaluate<string[]>('window.progressSaid');
  expect(said[0]).toMatch(/^0 B of \d+\.\d kB sent$/);
  // on the way: a part of the file sent, then the last lines stored
  expect(said.some((t) => /^\d+\.\d kB of \d+\.\d kB sent$/.test(t) && parseFloat(t) > 0 && parseFloat(t) < parseFloat(t.split(' of ')[1]!))).toBe(true);
  expect(said).toContain('The file is sent; storing the last lines');
  expect(said.at(-1)).toBe('Done: 600 read, 599 stored, 0 duplicates, 1 refused');
  const row = result
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: '3', exact: true }) });
  await expect(row.getByRole('cell').allTextContents()).resolves.toEqual(['3', 'createdAt', expect.stringMatching(/later than now/)]);
  await shot(page, 'imports');

  // What the page showed is what the API holds: the events of the chosen application, with their original time.
  const token = await stack.token(creds, 'consent');
  const found = await stack.request('GET', '/consent/v0/consents/search?subject=h-2&issuer=https%3A%2F%2Fshop.example&target=newsletter', {
    token,
    apiKey: creds.apiKey,
  });
  expect(found.body).toEqual([expect.objectContaining({ appId: creds.appId, action: false, createdAt: '2019-05-01T10:00:00.000Z' })]);
  const id = (await result.getByTestId('import-id').textContent())!;
  await page.close();

  // A viewer has no import form, follows the import by its id, and the API refuses an import made anyway.
  const viewer = await signedIn('val', 'viewer');
  await viewer.getByRole('link', { name: 'Imports' }).click();
  await viewer.getByLabel('Application').selectOption({ label: 'history' });
  await viewer.getByRole('note').filter({ hasText: 'Importing needs the developer role.' }).waitFor();
  expect(await viewer.getByRole('button', { name: 'Import', exact: true }).count()).toBe(0);
  await viewer.getByLabel('Import id').fill(id);
  await viewer.getByRole('button', { name: 'Show import' }).click();
  await viewer.locator(`section.import[data-state="done"][data-import-id="${id}"]`).waitFor();
  await shot(viewer, 'imports-viewer');
  await viewer.getByLabel('Import id').fill('0'.repeat(32)); // no such import in this account
  await viewer.getByRole('button', { name: 'Show import' }).click();
  await viewer.getByRole('alert').filter({ hasText: 'No such import.' }).waitFor();
  const status = await viewer.evaluate(
    async ([appId, body]) => {
      const s = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
      const r = await fetch(`/console/api/applications/${appId}/imports`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', 'x-csrf-token': s.csrfToken },
        body,
      });
      return r.status;
    },
    [creds.appId, file] as const,
  );
  expect(status).toBe(403);
  await viewer.close();
}, 120_000);

test('editing a specification in the console shows the change side by side in its history, and the previews render', async () => {
  const page = await signedIn('olivia', 'owner');
  await page.getByRole('link', { name: 'Data processing' }).click();
  await page.getByText('No groups yet.').waitFor();
  await page.getByLabel('Name').fill('Newsletter');
  await page.getByLabel('Purpose').fill('Marketing e-mail');
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.getByRole('heading', { name: 'Newsletter', level: 2 }).waitFor();
  const form = page.locator('form').filter({ hasText: 'New specification' });
  await form.getByLabel('Data').fill('e-mail address');
  await form.getByLabel('Purpose').fill('send the newsletter');
  await form.getByRole('button', { name: 'Create specification' }).click();
  await page.getByRole('button', { name: 'Edit and history' }).click();
  await page.getByText('Only one version so far').waitFor();
  const edit = page.locator('form').filter({ hasText: 'Save specification' });
  await edit.getByLabel('Purpose').fill('send the weekly newsletter');
  await edit.getByRole('button', { name: 'Save specification' }).click();
  const changed = page.locator('table.diff tr.changed');
  await changed.first().waitFor();
  expect(await changed.getAttribute('data-field')).toBe('purpose');
  await expect(changed.locator('td').nth(0).textContent()).resolves.toBe('send the newsletter');
  await expect(changed.locator('td').nth(1).textContent()).resolves.toBe('send the weekly newsletter');
  await page.getByRole('button', { name: 'Preview consent request' }).click();
  await page.locator('.consent-preview li').filter({ hasText: 'send the weekly newsletter' }).waitFor();
  await page.getByRole('button', { name: 'Preview policy section' }).click();
  const frame = page.frameLocator('iframe.preview');
  await frame.getByText('send the weekly newsletter').first().waitFor();
  await shot(page, 'dataprocessing');
  await page.close();
}, 120_000);

test('a group is renamed, a text is added, edited (a new version in the history) and deleted, then the specification and the group are deleted', async () => {
  const creds = await stack.bootstrap({ account: 'acme', app: 'editing', scopes: ['dataprocessing'] });
  const page = await signedIn('olivia', 'owner');
  await page.getByRole('link', { name: 'Data processing' }).click();
  await page.getByLabel('Application').selectOption({ label: 'editing' });
  await page.getByLabel('Name', { exact: true }).fill('Loyalty');
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.getByRole('heading', { name: 'Loyalty', level: 2 }).waitFor();
  await page.getByText('Edit group').click();
  await page.getByLabel('Group name').fill('Loyalty card');
  await page.getByRole('button', { name: 'Save group' }).click();
  await page.getByRole('heading', { name: 'Loyalty card', level: 2 }).waitFor();

  const form = page.locator('form').filter({ hasText: 'New specification' });
  await form.getByLabel('Data').fill('purchases');
  await form.getByLabel('Purpose').fill('points');
  await form.getByRole('button', { name: 'Create specification' }).click();
  await page.getByRole('button', { name: 'Edit and history' }).click();
  await page.getByLabel('Text', { exact: true }).fill('We count points on Mondays');
  await page.getByRole('button', { name: 'Add text' }).click();
  await page.getByRole('button', { name: 'Edit text en/default: We count points on Mondays' }).click();
  await page.locator('form[aria-label="Edit text en/default"]').getByLabel('Text').fill('We count points on Fridays');
  await page.getByRole('button', { name: 'Save text' }).click();
  await page.getByText('Text saved.').waitFor();
  const changed = page.locator('table.diff tr.changed[data-field="texts"]');
  await changed.waitFor();
  await expect(changed.locator('td').nth(0).textContent()).resolves.toBe('[en/default] We count points on Mondays');
  await expect(changed.locator('td').nth(1).textContent()).resolves.toBe('[en/default] We count points on Fridays');
  await shot(page, 'dataprocessing-texts');

  await page.getByRole('button', { name: 'Delete text en/default: We count points on Fridays' }).click();
  await page.getByText('Text deleted.').waitFor();
  await page.getByText('No texts yet.').waitFor();
  await page.locator('[data-spec="purchases"] .badge').filter({ hasText: 'version 4' }).waitFor();

  // What the pages showed is what the API holds.
  const token = await stack.token(creds, 'dataprocessing');
  const groups = await stack.request('GET', '/dataprocessing/v0/dpgroups', { token, apiKey: creds.apiKey });
  const group = (groups.body as Array<{ id: string; name: string }>).find((g) => g.name === 'Loyalty card')!;
  expect(group).toBeDefined();
  const specs = (await stack.request('GET', `/dataprocessing/v0/dpgroups/${group.id}/specs`, { token, apiKey: creds.apiKey })).body as Array<{
    texts: unknown[];
    version: number;
  }>;
  expect(specs).toHaveLength(1);
  expect(specs[0]).toMatchObject({ texts: [], version: 4 });

  await page.getByRole('button', { name: 'Delete specification' }).click();
  await page.getByText('Specification “purchases” deleted.').waitFor();
  await page.getByText('Edit group').click();
  await page.getByRole('button', { name: 'Delete group' }).click();
  await page.getByText('Group “Loyalty card” deleted.').waitFor();
  expect((await stack.request('GET', `/dataprocessing/v0/dpgroups/${group.id}`, { token, apiKey: creds.apiKey })).status).toBe(404);
  await page.close();
}, 120_000);

test("a specification's regimes are edited: refusals of the API are shown at the row and control at fault, a good map is saved as a new version the API answers", async () => {
  const creds = await stack.bootstrap({ account: 'acme', app: 'regimes', scopes: ['dataprocessing'] });
  const page = await signedIn('olivia', 'owner');
  await page.getByRole('link', { name: 'Data processing' }).click();
  await page.getByLabel('Application').selectOption({ label: 'regimes' });
  await page.getByLabel('Name', { exact: true }).fill('Cookies');
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.getByRole('heading', { name: 'Cookies', level: 2 }).waitFor();
  const form = page.locator('form').filter({ hasText: 'New specification' });
  await form.getByLabel('Data').fill('page views');
  await form.getByLabel('Purpose').fill('analytics');
  await form.getByRole('button', { name: 'Create specification' }).click();
  await page.getByRole('button', { name: 'Edit and history' }).click();

  // The default: opt-in everywhere, GPC ignored; `*` stays.
  const table = page.getByRole('table', { name: 'Regimes of page views' });
  await table.waitFor();
  expect(await table.getByRole('textbox', { name: 'Jurisdiction 1' }).inputValue()).toBe('*');
  expect(await table.getByRole('combobox', { name: 'Model of jurisdiction 1' }).inputValue()).toBe('opt-in');
  expect(await table.getByRole('button', { name: 'Remove jurisdiction 1' }).count()).toBe(0);

  // An unknown code and a GPC opt-out under notice: both refused by the API, each shown where it is.
  await page.getByRole('button', { name: 'Add jurisdiction' }).click();
  await page.keyboard.type('US-XX'); // the new row's code has the focus
  await page.getByRole('button', { name: 'Add jurisdiction' }).click();
  await page.keyboard.type('us-ca');
  await table.getByRole('combobox', { name: 'Model of jurisdiction 3' }).selectOption('notice');
  await page.getByRole('button', { name: 'Save regimes' }).click();
  await page.getByText('Not saved: see the jurisdictions marked above.').waitFor();
  const code = table.getByRole('textbox', { name: 'Jurisdiction 2' });
  const gpc = table.getByRole('combobox', { name: 'Global Privacy Control of jurisdiction 3' });
  expect([await code.getAttribute('aria-invalid'), await gpc.getAttribute('aria-invalid')]).toEqual(['true', 'true']);
  expect(await table.getByRole('textbox', { name: 'Jurisdiction 3' }).getAttribute('aria-invalid')).toBeNull();
  const describedBy = async (l: typeof code) => page.locator(`[id="${await l.getAttribute('aria-describedby')}"]`).textContent();
  expect(await describedBy(code)).toMatch(/ISO 3166/);
  expect(await describedBy(gpc)).toMatch(/^gpc: must be ignore under the notice model/);
  expect(await code.evaluate((e) => e === document.activeElement)).toBe(true);
  await shot(page, 'dataprocessing-regimes-refused');

  // Fixed: California opt-out honouring GPC, the bad row removed; saved as version 2.
  await table.getByRole('combobox', { name: 'Model of jurisdiction 3' }).selectOption('opt-out');
  await page.getByRole('button', { name: 'Remove jurisdiction 2' }).click();
  await page.getByRole('button', { name: 'Save regimes' }).click();
  await page.getByText('Regimes saved as version 2.').waitFor();
  await page.locator('[data-spec="page views"] .badge').filter({ hasText: 'version 2' }).waitFor();
  const reopened = page.getByRole('table', { name: 'Regimes of page views' });
  expect(await reopened.getByRole('textbox', { name: 'Jurisdiction 2' }).inputValue()).toBe('US-CA');
  expect(await reopened.getByRole('combobox', { name: 'Global Privacy Control of jurisdiction 2' }).inputValue()).toBe('opt-out');
  const changed = page.locator('table.diff tr.changed[data-field="regimes"]');
  await expect(changed.locator('td').nth(1).textContent()).resolves.toBe('*: opt-in, GPC ignore\nUS-CA: opt-out, GPC opt-out');
  await shot(page, 'dataprocessing-regimes');

  // What the page showed is what the API holds, and what a consent request in California answers.
  const token = await stack.token(creds, 'dataprocessing');
  const groups = (await stack.request('GET', '/dataprocessing/v0/dpgroups', { token, apiKey: creds.apiKey })).body as Array<{ id: string; name: string }>;
  const group = groups.find((g) => g.name === 'Cookies')!;
  const [spec] = (await stack.request('GET', `/dataprocessing/v0/dpgroups/${group.id}/specs`, { token, apiKey: creds.apiKey })).body as Array<{
    version: number;
    regimes: unknown;
  }>;
  expect(spec).toMatchObject({ version: 2, regimes: { '*': { model: 'opt-in', gpc: 'ignore' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } } });
  const request = await stack.request('GET', `/dataprocessing/v0/dpgroups/${group.id}/consent-request?jurisdiction=US-CA&gpc=true`, {
    token,
    apiKey: creds.apiKey,
  });
  expect(request.body.items[0]).toMatchObject({ regime: { key: 'US-CA', model: 'opt-out', gpc: 'opt-out' }, preselected: false, gpcApplied: true });
  await page.close();
}, 120_000);

test('the keyboard alone skips to the content, reaches another page from the menu and lands on it, and keeps the page', async () => {
  const page = await signedIn('kim', 'developer');
  // Evaluated in the page (the tests' TypeScript has no DOM types).
  const active = () =>
    page.evaluate<{ id: string; text: string }>(`({ id: document.activeElement?.id ?? '', text: document.activeElement?.textContent?.trim() ?? '' })`);
  await page.keyboard.press('Tab');
  expect((await active()).text).toBe('Skip to content');
  await page.keyboard.press('Enter');
  expect((await active()).id).toBe('main');
  expect(new URL(page.url()).hash).toBe('#/applications'); // skipping is not navigating
  await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();

  // Tab forward (a bounded number of presses) to the menu's Webhooks link, follow it with Enter.
  for (let i = 0; i < 60 && (await active()).text !== 'Webhooks'; i++) await page.keyboard.press('Tab');
  expect((await active()).text).toBe('Webhooks');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  expect((await active()).id).toBe('main');
  await page.getByLabel('Application').waitFor(); // the page has loaded its first field
  await page.keyboard.press('Tab');
  const next = await page.evaluate<boolean>(`Boolean(document.activeElement?.closest('main'))`);
  expect(next).toBe(true); // the next Tab goes into the page's content, not back to the header
  await page.close();
}, 120_000);

test("an application's allowed origins are edited with the keyboard: a bad origin is refused at the field, a good one is added and allowed at once, then removed", async () => {
  // Answered (and remembered by the gateway for ACCORD_API_KEY_CACHE_MS, 30 s here) before the change.
  const preflight = () =>
    stack.request('OPTIONS', '/consent/v0/consents', { headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
  expect((await preflight()).status).toBe(403);

  const page = await signedIn('olivia', 'owner');
  const active = () => page.evaluate<string>(`document.activeElement?.getAttribute('aria-label') || document.activeElement?.id || ''`);
  await page.getByRole('button', { name: 'Edit allowed origins of website' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Allowed origins of “website”' }).waitFor();
  await page.getByText('No origins: no web page may use').waitFor();
  expect(await active()).toBe('new-origin'); // the editor takes the focus

  await page.keyboard.type('https://shop.example/checkout');
  await page.keyboard.press('Enter');
  const input = page.getByLabel('New origin');
  await page.locator('#new-origin-error').filter({ hasText: 'no path' }).waitFor();
  expect(await input.getAttribute('aria-invalid')).toBe('true');
  await shot(page, 'origins-error');

  await page.keyboard.press('Control+A');
  await page.keyboard.type('https://Shop.Example:443');
  await page.keyboard.press('Enter');
  await page.getByText('https://shop.example added.').waitFor();
  expect(await input.getAttribute('aria-invalid')).toBeNull();
  await page.locator('[data-origins="website"] code').filter({ hasText: 'https://shop.example' }).waitFor();
  await shot(page, 'origins');
  const allowed = await preflight();
  expect(allowed.status).toBe(204); // at once, though the refusal above was cached
  expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');

  // Back from the field to the origin's Remove button, and press it.
  await input.focus();
  await page.keyboard.press('Shift+Tab');
  expect(await active()).toBe('Remove https://shop.example');
  await page.keyboard.press('Enter');
  await page.getByText('https://shop.example removed.').waitFor();
  await page.getByText('No origins: no web page may use').waitFor();
  expect((await preflight()).status).toBe(403);
  await page.close();
}, 120_000);

test("the members page: an owner changes a member's role and invites a member with the keyboard; the last owner cannot step down; a viewer only reads", async () => {
  await consoleLink(stack, 'acme', 'mia', 'developer'); // mia is a member (link unused)
  const page = await signedIn('olivia', 'owner');
  await page.getByRole('link', { name: 'Members' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
  const mia = page.locator('tr[data-member="mia"]');
  await expect(mia.locator('[data-role]').textContent()).resolves.toBe('developer');

  // Choose viewer in mia's role list by typing, then Tab to Save role and press Enter.
  await page.getByRole('combobox', { name: 'Role of mia' }).focus();
  await page.keyboard.press('v');
  await page.keyboard.press('Tab');
  expect(await page.evaluate<string>(`document.activeElement?.getAttribute('aria-label') ?? ''`)).toBe('Save role of mia');
  await page.keyboard.press('Enter');
  await page.getByText('mia is now viewer.').waitFor();
  await mia.locator('[data-role]').filter({ hasText: 'viewer' }).waitFor(); // the table is read again
  const roles = await page.evaluate(async () => (await (await fetch('/console/api/members')).json()) as Array<{ name: string; role: string }>);
  expect(roles).toContainEqual(expect.objectContaining({ name: 'mia', role: 'viewer' }));

  // Invite noor as a developer: name, Tab, type-ahead in the role list, Tab, Enter.
  await page.getByLabel('Member name').focus();
  await page.keyboard.type('noor');
  await page.keyboard.press('Tab');
  await page.keyboard.press('d');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const link = await page.locator('[data-secret="Sign-in link"]').inputValue();
  expect(link).toMatch(new RegExp(`^${stack.baseUrl}/console/#link=cln_`));
  await page.locator('tr[data-member="noor"] [data-role]').filter({ hasText: 'developer' }).waitFor();
  await shot(page, 'members');

  // The only owner cannot make herself a developer: the 409 problem is shown.
  await page.getByRole('combobox', { name: 'Role of olivia' }).selectOption('developer');
  await page.getByRole('button', { name: 'Save role of olivia' }).click();
  await page.getByRole('alert').filter({ hasText: 'at least one owner' }).waitFor();

  // The invitation link signs noor in as a developer, who sees the members but no way to change them.
  const noor = await browser.newPage();
  await noor.goto(link);
  await noor.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
  await noor.getByRole('link', { name: 'Members' }).click();
  await noor.locator('tr[data-member="olivia"]').waitFor();
  await expect(noor.locator('.who').textContent()).resolves.toContain('noor (developer)');
  expect(await noor.getByRole('button', { name: /Save role|Remove/ }).count()).toBe(0);
  await noor.getByText('Only owners can invite members').waitFor();
  const status = await noor.evaluate(async () => {
    const s = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
    const members = (await (await fetch('/console/api/members')).json()) as Array<{ id: string; name: string }>;
    const r = await fetch(`/console/api/members/${members.find((m) => m.name === 'mia')!.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken },
      body: '{"role":"owner"}',
    });
    return r.status;
  });
  expect(status).toBe(403);
  await noor.close();
  await page.close();
}, 120_000);
