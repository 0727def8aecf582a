/**
 * Console sign-in with OpenID Connect (authorization code + PKCE) against a real, local
 * identity provider (node-oidc-provider, in-process on a loopback port), driven in Chromium.
 */
import type { Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { freePort } from '@accord/local-stack';
import { launchChromium } from './browser';
import { startStack, type Stack } from './harness';

// Each test makes several round trips through the stack; a loaded shared machine needs more than jest's 5 s.
jest.setTimeout(60_000);

// oidc-provider 7 is the last CommonJS major; its types are not shipped.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Provider } = require('oidc-provider') as { Provider: new (issuer: string, config: unknown) => { listen(port: number): Server } };

let stack: Stack;
let idp: Server;
let browser: Browser;
let issuer: string;

beforeAll(async () => {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  stack = await startStack('consoleoidc', {
    env: {
      ACCORD_CONSOLE_OIDC_ISSUER: issuer,
      ACCORD_CONSOLE_OIDC_CLIENT_ID: 'accord-console',
      ACCORD_CONSOLE_OIDC_CLIENT_SECRET: 'accord-console-test-secret',
      ACCORD_CONSOLE_OIDC_SCOPES: 'openid email accounts',
      ACCORD_CONSOLE_OIDC_ACCOUNT_CLAIM: 'accord_accounts',
      ACCORD_CONSOLE_OIDC_ROLE: 'developer',
    },
  });
  await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent'] });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'accord-console',
        client_secret: 'accord-console-test-secret',
        redirect_uris: [`${stack.baseUrl}/console/api/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email'], accounts: ['accord_accounts'] },
    conformIdTokenClaims: false,
    // "mallory" claims an account that does not exist; everyone else claims acme.
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, email: `${sub}@example.test`, accord_accounts: sub === 'mallory' ? ['nowhere'] : ['acme'] }),
    }),
    pkce: { required: () => true, methods: ['S256'] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['accord-test-cookie-key'] },
    ttl: { Grant: 600, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 600, AuthorizationCode: 60 },
  });
  idp = provider.listen(port);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (idp ? idp.close(() => r()) : r()));
  await stack?.stop();
});

/** Goes through the provider's development login (any login, any password) and consent pages. */
async function signInAs(login: string) {
  const page = await browser.newPage();
  await page.goto(`${stack.baseUrl}/console/`);
  await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  await page.waitForURL((u) => u.href.startsWith(issuer));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
  for (let i = 0; i < 3 && page.url().startsWith(issuer); i++) {
    // the consent page of the development interactions
    await page.locator('button[type="submit"]').click();
    await page.waitForLoadState();
  }
  await page.waitForURL((u) => u.href.startsWith(`${stack.baseUrl}/console/`));
  return page;
}

test('a user of the identity provider whose claim names the account signs in as a member with the configured role', async () => {
  const page = await signInAs('olga');
  await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
  await expect(page.getByTestId('account').textContent()).resolves.toBe('acme');
  await page.getByText('olga@example.test (developer)').waitFor();
  const members = await page.evaluate(async () => (await (await fetch('/console/api/members')).json()) as Array<{ name: string; role: string }>);
  expect(members).toContainEqual(expect.objectContaining({ name: 'olga@example.test', role: 'developer' }));
  await page.close();
}, 60_000);

test('a user whose claim names no account is told so and gets no session', async () => {
  const page = await signInAs('mallory');
  await page.getByText('You are not a member of any account here.').waitFor();
  const status = await page.evaluate(async () => (await fetch('/console/api/session')).status);
  expect(status).toBe(401);
  await page.close();
}, 60_000);

test('a callback without the sign-in transaction cookie is refused', async () => {
  const res = await fetch(`${stack.baseUrl}/console/api/oidc/callback?code=x&state=y`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe('/console/#signin-error=expired');
  expect(res.headers.get('set-cookie') ?? '').not.toContain('accord_console=cs_');
});
