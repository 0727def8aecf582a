import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, headers as natsHeaders, type NatsConnection } from 'nats';
import { createClient, createLogger, eventSubject, loadConfig, type EventEnvelope } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { webhookv1 } from '@accord/proto';
import { configShape, startWebhook, type WebhookTestHooks } from '@accord/webhook';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A real HTTP receiver on 127.0.0.1; `respond` decides each answer (default 204). */
export async function startReceiver(
  respond: (r: Received, n: number) => { status: number; headers?: Record<string, string>; delayMs?: number } = () => ({ status: 204 }),
) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      const a = respond(r, received.length);
      const send = () => {
        res.writeHead(a.status, a.headers ?? {});
        res.end();
        for (const w of waiters.splice(0)) w();
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** Waits until at least n requests arrived. */
    async waitFor(n: number, timeoutMs = 15_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${n} requests in ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export type WebhookClient = ReturnType<typeof createClient<typeof webhookv1.WebhookServiceService>>;

/** One webhook service instance (a "replica") on its own port against the given namespace. */
export async function startInstance(t: ReturnType<typeof testEnv>, env: Record<string, string> = {}, hooks: WebhookTestHooks = {}) {
  const config = loadConfig(configShape, {
    MONGO_URL: t.mongoUrl,
    NATS_URL: t.natsUrl,
    ACCORD_NATS_PREFIX: t.natsPrefix,
    GRPC_PORT: '0',
    LOG_LEVEL: process.env.ACCORD_TEST_LOG ?? 'silent',
    SHUTDOWN_GRACE_MS: '1000',
    ACCORD_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    ACCORD_WEBHOOK_RETRY_SCHEDULE: '200ms,400ms',
    ACCORD_WEBHOOK_JITTER: '0',
    ACCORD_WEBHOOK_TIMEOUT_MS: '2000',
    ACCORD_WEBHOOK_POLL_MS: '50',
    ...env,
  });
  const svc = await startWebhook(config, createLogger('webhook', config.LOG_LEVEL), hooks);
  const client = createClient(webhookv1.WebhookServiceService, `127.0.0.1:${svc.port}`);
  return {
    client,
    async stop() {
      client.close();
      await svc.stop();
    },
  };
}

/** Publishes a consent event the way the consent service does. */
export async function publishEvent(
  nc: NatsConnection,
  prefix: string,
  e: Omit<EventEnvelope, 'occurredAt'> & { occurredAt?: string },
  msgId?: string,
): Promise<void> {
  const envelope: EventEnvelope = { occurredAt: new Date().toISOString(), ...e };
  const h = natsHeaders();
  h.set('Nats-Msg-Id', msgId ?? envelope.id);
  await nc
    .jetstream()
    .publish(eventSubject(prefix, envelope.type, envelope.accountId, envelope.appId), new TextEncoder().encode(JSON.stringify(envelope)), { headers: h });
}

export function consentData(id: string, over: Record<string, unknown> = {}) {
  return {
    id,
    subject: 'user-1',
    issuer: 'https://shop.example',
    target: 'https://shop.example/privacy',
    scope: 'default',
    action: true,
    token: 'ABC123',
    createdAt: new Date().toISOString(),
    ...over,
  };
}

export const connectTestNats = (url: string) => connect({ servers: url });

export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000, stepMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
