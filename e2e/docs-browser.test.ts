import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { startStack, type Credentials, type Stack } from './harness';

// The API reference in a real browser (Chromium from the system, as the brief prescribes).
jest.setTimeout(150_000);

let stack: Stack;
let acme: Credentials;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack('docsbrowser');
  acme = await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent'] });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

test('in /docs, a pasted token and API key make "Try it out" call the API, with every request to the gateway alone', async () => {
  const token = await stack.token(acme, 'consent');
  const posted = await stack.request('POST', '/consent/v0/consents', {
    token,
    apiKey: acme.apiKey,
    json: { subject: 'docs-user', issuer: 'https://shop.example', target: 'https://shop.example/docs', action: true },
  });
  expect(posted.status).toBe(201);
  const id: string = posted.body.id;

  const page = await browser.newPage();
  const origins = new Set<string>();
  page.on('request', (r) => origins.add(new URL(r.url()).origin));
  await page.goto(`${stack.baseUrl}/docs`);

  // Authorize: the bearer scheme and the API key scheme, each applied in its own form.
  await page.locator('.scheme-container .btn.authorize').click();
  await page.locator('#auth-bearer-value').fill(token);
  await page
    .locator('.auth-container', { has: page.locator('#auth-bearer-value') })
    .getByRole('button', { name: 'Apply credentials' })
    .click();
  // the x-api-key scheme's form (the console's session cookie is an apiKey-type scheme too)
  const apiKeyForm = page.locator('.auth-container').filter({ hasText: 'x-api-key' });
  await apiKeyForm.locator('#api_key_value').fill(acme.apiKey);
  await apiKeyForm.getByRole('button', { name: 'Apply credentials' }).click();
  await page.locator('.modal-ux .btn-done').first().click();

  // Try it out on GET /consent/v0/consents/{id}.
  const op = page.locator('#operations-consent-getConsent');
  await op.locator('.opblock-summary').click();
  await op.locator('input[placeholder="id"]').fill(id);
  const [request, response] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith(`/consent/v0/consents/${id}`)),
    page.waitForResponse((r) => r.url().endsWith(`/consent/v0/consents/${id}`)),
    op.locator('.btn.execute').click(),
  ]);
  expect(request.headers()['authorization']).toBe(`Bearer ${token}`);
  expect(request.headers()['x-api-key']).toBe(acme.apiKey);
  expect(response.status()).toBe(200);
  // The answer as Swagger UI shows it: status 200 and the event's body.
  const live = op.locator('.live-responses-table .response');
  await expect(live.locator('.response-col_status').first().textContent()).resolves.toContain('200');
  await expect(live.locator('.response-col_description').first().textContent()).resolves.toContain('docs-user');

  expect([...origins]).toEqual([stack.baseUrl]);
  await page.close();
});

test('in /docs, "Try it out" without credentials shows the 401 problem', async () => {
  const page = await browser.newPage();
  await page.goto(`${stack.baseUrl}/docs`);
  const op = page.locator('#operations-consent-getConsent');
  await op.locator('.opblock-summary').click();
  await op.locator('input[placeholder="id"]').fill('0'.repeat(32));
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().includes('/consent/v0/consents/')), op.locator('.btn.execute').click()]);
  expect(response.status()).toBe(401);
  expect(response.headers()['content-type']).toMatch(/^application\/problem\+json/);
  await page.close();
});
