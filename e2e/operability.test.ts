import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { metricsRegistry, startMetricsServer, type MetricsServer } from '@accord/common';
import { toolsDir } from '@accord/local-stack';
import { sleep, startReceiver, testLogger } from '@accord/testkit';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(90_000);

const run = promisify(execFile);
const GRPCURL = join(toolsDir(), 'bin', 'grpcurl');

let stack: Stack;
let acme: Credentials;
let metrics: MetricsServer;

beforeAll(async () => {
  metricsRegistry.resetMetrics();
  stack = await startStack('operability');
  acme = await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent', 'webhooks'] });
  metrics = await startMetricsServer({ port: 0, host: '127.0.0.1', logger: testLogger('metrics') });
}, 120_000);
afterAll(async () => {
  await metrics?.close();
  await stack?.stop();
});

async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample, matched by name and labels (all given labels must be present). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('Prometheus metrics', () => {
  test('a consent through the stack moves RED, consent, token, outbox and delivery metrics, with no ids in labels', async () => {
    const rx = await startReceiver();
    try {
      const webhooksToken = await stack.token(acme, 'webhooks');
      const url = rx.url;
      expect((await stack.request('POST', '/webhooks/v0', { token: webhooksToken, json: { url, events: ['consent'] } })).status).toBe(201);
      const token = await stack.token(acme, 'consent');
      const bad = await stack.request('POST', '/oauth/v0/token', {
        json: { grant_type: 'client_credentials', client_id: acme.clientId, client_secret: 'wrong' },
      });
      expect(bad.status).toBe(401);
      const posted = await stack.request('POST', '/consent/v0/consents', {
        token,
        apiKey: acme.apiKey,
        json: [
          { subject: 'metrics-user', issuer: 'https://shop.example', target: 'https://shop.example/a', action: true },
          { subject: 'metrics-user', issuer: 'https://shop.example', target: 'https://shop.example/b', action: false },
        ],
      });
      expect(posted.status).toBe(201);
      const got = await stack.request('GET', `/consent/v0/consents/${posted.body[0].id}`, { token, apiKey: acme.apiKey });
      expect(got.status).toBe(200);
      const deadline = Date.now() + 20_000;
      while (rx.received.length < 2 && Date.now() < deadline) await sleep(50);
      expect(rx.received).toHaveLength(2);

      let text = await scrape();
      // An attempt is recorded just after the receiver answered: wait (bounded) for both records.
      const settled = (t: string) =>
        sample(t, 'accord_webhook_delivery_attempts_total', { outcome: 'succeeded', attempt: '1' }) === 2 && sample(t, 'accord_webhook_queue_depth') === 0;
      for (let i = 0; i < 100 && !settled(text); i++) {
        await new Promise((r) => setTimeout(r, 50));
        text = await scrape();
      }
      expect(
        sample(text, 'http_server_request_duration_seconds_count', {
          http_request_method: 'POST',
          http_route: '/consent/v0/consents',
          http_response_status_code: '201',
        }),
      ).toBe(1);
      expect(
        sample(text, 'http_server_request_duration_seconds_count', {
          http_request_method: 'GET',
          http_route: '/consent/v0/consents/:id',
          http_response_status_code: '200',
        }),
      ).toBe(1);
      expect(
        sample(text, 'grpc_server_handled_total', { grpc_service: 'accord.consent.v1.ConsentService', grpc_method: 'CreateConsents', grpc_code: 'OK' }),
      ).toBe(1);
      expect(sample(text, 'grpc_server_handling_seconds_count', { grpc_service: 'accord.consent.v1.ConsentService', grpc_method: 'CreateConsents' })).toBe(1);
      expect(sample(text, 'accord_consent_events_recorded_total', { action: 'accepted' })).toBe(1);
      expect(sample(text, 'accord_consent_events_recorded_total', { action: 'declined' })).toBe(1);
      expect(sample(text, 'accord_oauth_token_grants_total', { grant_type: 'client_credentials', result: 'issued' })).toBe(2);
      expect(sample(text, 'accord_oauth_token_grants_total', { grant_type: 'client_credentials', result: 'invalid_client' })).toBe(1);
      expect(sample(text, 'accord_webhook_delivery_attempts_total', { outcome: 'succeeded', attempt: '1' })).toBe(2);
      expect(sample(text, 'accord_consent_outbox_pending_events')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'accord_consent_outbox_oldest_unpublished_age_seconds')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'accord_webhook_queue_depth')).toBe(0);
      // Bounded labels: neither the consent id nor the client id appears anywhere.
      expect(text).not.toContain(posted.body[0].id);
      expect(text).not.toContain(acme.clientId);
    } finally {
      await rx.close();
    }
  });
});

describe('gRPC server reflection', () => {
  const grpcurl = async (...args: string[]) => {
    if (!existsSync(GRPCURL)) throw new Error(`grpcurl is missing; build it with: deploy/local/scripts/install-go-tools.sh grpcurl`);
    return (await run(GRPCURL, ['-plaintext', ...args], { timeout: 20_000 })).stdout;
  };

  test('grpcurl lists the services of every process and calls one method through reflection alone', async () => {
    const expected = {
      oauth: 'accord.oauth.v1.OAuthService',
      consent: 'accord.consent.v1.ConsentService',
      dataprocessing: 'accord.dataprocessing.v1.DataProcessingService',
      webhook: 'accord.webhook.v1.WebhookService',
    } as const;
    for (const [name, service] of Object.entries(expected)) {
      const list = (await grpcurl(`127.0.0.1:${stack.ports[name as keyof typeof expected]}`, 'list')).split('\n').filter(Boolean);
      expect(list).toEqual(expect.arrayContaining([service, 'grpc.health.v1.Health']));
    }
    const described = await grpcurl(`127.0.0.1:${stack.ports.consent}`, 'describe', 'accord.consent.v1.ConsentService.GetStatistics');
    expect(described).toContain('rpc GetStatistics');
    // as a platform caller does it: the application's access token, the account and application taken from it
    const token = await stack.token(acme, 'consent');
    const answer = JSON.parse(
      await grpcurl('-H', `authorization: Bearer ${token}`, '-d', '{}', `127.0.0.1:${stack.ports.consent}`, 'accord.consent.v1.ConsentService/GetStatistics'),
    );
    expect(answer).toMatchObject({ appId: acme.appId });
    // and without it, refused
    await expect(grpcurl('-d', '{}', `127.0.0.1:${stack.ports.consent}`, 'accord.consent.v1.ConsentService/GetStatistics')).rejects.toThrow(/Unauthenticated/);
  });
});

describe('API reference UI', () => {
  test('GET /docs serves Swagger UI from the package (no CDN) over /openapi.json, with its assets', async () => {
    const page = await stack.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const refs = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      expect(ref.startsWith('/docs/')).toBe(true); // same origin only
      const asset = await stack.request('GET', ref);
      expect(asset.status).toBe(200);
    }
    const init = await stack.request('GET', '/docs/init.js');
    expect(init.body).toContain("url: '/openapi.json'");
    expect(init.body).toContain('validatorUrl: null');
    const doc = (await stack.request('GET', '/openapi.json')).body;
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'basic', 'bearer', 'consoleSession']);
    expect(existsSync(join(__dirname, '..', 'node_modules', 'swagger-ui-dist', 'swagger-ui-bundle.js'))).toBe(true);
  });
});
