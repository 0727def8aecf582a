import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Accord, AccordError } from '../clients/sdk/src';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(30_000);
let stack: Stack;
let shop: Credentials;

beforeAll(async () => {
  stack = await startStack('sdk');
  shop = await stack.bootstrap({ account: 'sdk-shop', app: 'web', scopes: ['consent', 'dataprocessing'] });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const backend = () => new Accord({ baseUrl: stack.baseUrl, clientId: shop.clientId, clientSecret: shop.clientSecret, apiKey: shop.apiKey });

describe('@accord/sdk against the live stack', () => {
  test('client credentials and the API key are applied; a recorded event gets the SDK source', async () => {
    const accord = backend();
    const [ev] = await accord.recordConsent({ subject: 'u1', issuer: 'shop', target: 'https://shop.example/terms', action: true });
    expect(ev!.source).toBe('accord-sdk-js/0.1.0');
    const [mine] = await accord.recordConsent({ subject: 'u1', issuer: 'shop', target: 'https://shop.example/terms', action: false, source: 'signup-form' });
    expect(mine!.source).toBe('signup-form');
    const { data } = await accord.api.GET('/consent/v0/consents/{id}', { params: { path: { id: ev!.id } } });
    expect(data?.action).toBe(true);
  });

  test('the Link cursor iterates every page of a search', async () => {
    const accord = backend();
    const target = 'https://shop.example/paged';
    await accord.recordConsent(Array.from({ length: 5 }, (_, i) => ({ subject: 'u-page', issuer: 'shop', target, scope: `s${i}`, action: true })));
    const seen: string[] = [];
    for await (const e of accord.pages(() =>
      accord.api.GET('/consent/v0/consents/search', { params: { query: { subject: 'u-page', issuer: 'shop', target, limit: 2 } } }),
    ))
      seen.push(e.scope);
    expect(seen.sort()).toEqual(['s0', 's1', 's2', 's3', 's4']);
  });

  test('problems come back typed, with the field at fault', async () => {
    const accord = backend();
    const { error, response } = await accord.api.POST('/consent/v0/consents', { body: { subject: '', issuer: 'shop', target: 't' } });
    expect(response.status).toBe(400);
    expect(error?.errors?.length).toBeGreaterThan(0);
    await expect(accord.recordConsent({ subject: 'u', issuer: 'i', target: 't', bogus: 1 } as never)).rejects.toBeInstanceOf(AccordError);
  });

  test('a backend mints a session that a browser-side client (no secret, no key) uses for its subject only', async () => {
    const dpToken = await stack.token(shop, 'dataprocessing');
    const group = (await stack.request('POST', '/dataprocessing/v0/dpgroups', { token: dpToken, json: { name: 'News' } })).body;
    const spec = (
      await stack.request('POST', `/dataprocessing/v0/dpgroups/${group.id}/specs`, {
        token: dpToken,
        json: { data: 'e-mail', purpose: 'news', action: 'collect', consentTarget: true },
      })
    ).body;
    const { sessionToken } = await backend().createSession({ subject: 'u9', issuer: 'shop', groupId: group.id });
    const browser = new Accord({ baseUrl: stack.baseUrl, token: sessionToken });
    const target = `${stack.baseUrl}/dataprocessing/v0/dpspecs/${spec.id}`;
    expect((await browser.recordConsent({ subject: 'u9', issuer: 'shop', target, action: true }))[0]!.subject).toBe('u9');
    await expect(browser.recordConsent({ subject: 'someone-else', issuer: 'shop', target, action: true })).rejects.toMatchObject({ status: 403 });
  });

  test('a GET is retried on 503, a POST is not', async () => {
    let calls = 0;
    const flaky: Server = createServer((req, res) => {
      calls++;
      res
        .writeHead(calls === 1 || req.method === 'POST' ? 503 : 200, { 'content-type': 'application/json' })
        .end(req.method === 'POST' ? '{"title":"down"}' : '{"status":"ok"}');
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    try {
      const accord = new Accord({ baseUrl: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`, token: 't', retries: 2 });
      const got = await accord.api.GET('/healthz');
      expect(got.response.status).toBe(200);
      expect(calls).toBe(2);
      calls = 10;
      const posted = await accord.api.POST('/consent/v0/consents', { body: { subject: 's', issuer: 'i', target: 't' } });
      expect(posted.response.status).toBe(503);
      expect(calls).toBe(11);
    } finally {
      flaky.close();
    }
  });
});
