/**
 * One consent, one trace: the stack runs as real processes (the built dist/main.js of each
 * service, as `npm start` runs them) exporting OTLP/HTTP JSON to a collector in this test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { createClient } from '@accord/common';
import { launchStack, testEnv, type LaunchedStack } from '@accord/local-stack';
import { oauthv1 } from '@accord/proto';

jest.setTimeout(120_000);

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
}

const spans: Span[] = [];
const logs: string[] = [];
let collector: http.Server;
let receiver: http.Server;
const received: http.IncomingHttpHeaders[] = [];
let stack: LaunchedStack;
let dataDir: string;

/** An OTLP/HTTP collector: keeps every span of every export (JSON encoding). */
function startCollector(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!/json/.test(req.headers['content-type'] ?? '')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        resourceSpans?: Array<{
          resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
          scopeSpans: Array<{ spans: Array<Omit<Span, 'service'>> }>;
        }>;
      };
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans) spans.push({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId, name: s.name, service });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  collector = await startCollector();
  receiver = http.createServer((req, res) => {
    received.push(req.headers);
    req.resume().on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const t = testEnv('tracing');
  dataDir = mkdtempSync(join(tmpdir(), 'accord-tracing-'));
  stack = await launchStack({
    dataDir,
    ephemeral: true,
    gatewayPort: 0,
    env: {
      MONGO_URL: t.mongoUrl,
      NATS_URL: t.natsUrl,
      ACCORD_NATS_PREFIX: t.natsPrefix,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOG_LEVEL: 'debug',
      METRICS_PORT: 'off',
    },
    output: (name, line) => logs.push(`${name} ${line}`),
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  collector?.close();
  receiver?.closeAllConnections();
  receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('a consent posted through the gateway is one trace: REST, gRPC, outbox publish, NATS consume and the delivery attempt; logs carry its trace id', async () => {
  const admin = createClient(oauthv1.OAuthServiceService, `127.0.0.1:${stack.ports.oauth}`);
  const md = new Metadata();
  md.set('authorization', `Bearer ${stack.secrets.adminToken}`);
  const creds = await admin.bootstrap({ accountName: 'traced', appName: 'web', scopes: ['consent', 'webhooks'] }, { metadata: md });
  admin.close();
  const token = async (scope: string) => {
    const res = await fetch(`${stack.url}/oauth/v0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', scope, client_id: creds.clientId, client_secret: creds.clientSecret }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const hook = await fetch(`${stack.url}/webhooks/v0`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token('webhooks')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['consent'] }),
  });
  expect(hook.status).toBe(201);
  const posted = await fetch(`${stack.url}/consent/v0/consents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token('consent')}`, 'x-api-key': creds.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ subject: 'traced-user', issuer: 'https://shop.example', target: 'https://shop.example/p', action: true }),
  });
  expect(posted.status).toBe(201);

  // The HTTP server span of this POST, then every span of its trace.
  const deadline = Date.now() + 30_000;
  let trace: Span[] = [];
  const want = ['accord-gateway', 'accord-consent', 'accord-webhook'];
  while (Date.now() < deadline) {
    const root = spans.find(
      (s) =>
        s.service === 'accord-gateway' && /POST/.test(s.name) && !s.parentSpanId && spans.some((x) => x.traceId === s.traceId && /CreateConsents/.test(x.name)),
    );
    trace = root ? spans.filter((s) => s.traceId === root.traceId) : [];
    if (trace.some((s) => s.name === 'webhook delivery attempt')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const names = (service: string) => trace.filter((s) => s.service === service).map((s) => s.name);
  expect(want.filter((s) => !names(s).length)).toEqual([]);
  expect(names('accord-gateway')).toEqual(
    expect.arrayContaining([expect.stringMatching(/^POST/), expect.stringMatching(/accord\.consent\.v1\.ConsentService\/CreateConsents/)]),
  );
  expect(names('accord-consent')).toEqual(
    expect.arrayContaining([expect.stringMatching(/accord\.consent\.v1\.ConsentService\/CreateConsents/), 'consent publish']),
  );
  expect(names('accord-webhook')).toEqual(expect.arrayContaining(['consent process', 'webhook delivery attempt']));
  // Every span but the root has its parent in the same trace: one tree, no broken hop.
  const ids = new Set(trace.map((s) => s.spanId));
  expect(trace.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([]);
  // The delivery log line names the trace.
  const traceId = trace[0]!.traceId;
  expect(logs.some((l) => l.startsWith('webhook') && l.includes(`"trace_id":"${traceId}"`))).toBe(true);
});
