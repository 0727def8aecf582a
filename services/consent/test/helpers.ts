import { createClient, createLogger, loadConfig, type PromiseClient } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { consentv1 } from '@accord/proto';
import { configShape, startConsent } from '@accord/consent';

export type ConsentClient = PromiseClient<typeof consentv1.ConsentServiceService>;

export interface RunningConsent {
  client: ConsentClient;
  port: number;
  env: { mongoUrl: string; natsUrl: string; natsPrefix: string };
  stop(): Promise<void>;
}

/** Starts the consent service in-process on a free port with a fresh database and NATS namespace. */
export async function startTestConsent(
  name: string,
  extraEnv: Record<string, string> = {},
  base?: { mongoUrl: string; natsUrl: string; natsPrefix: string },
): Promise<RunningConsent> {
  const env = base ?? testEnv(name);
  const config = loadConfig(configShape, {
    MONGO_URL: env.mongoUrl,
    NATS_URL: env.natsUrl,
    ACCORD_NATS_PREFIX: env.natsPrefix,
    GRPC_PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SHUTDOWN_GRACE_MS: '1000',
    ACCORD_DATAPROCESSING_ADDR: '127.0.0.1:1',
    ACCORD_CONSENT_OUTBOX_POLL_MS: '100',
    ACCORD_CONSENT_OUTBOX_LEASE_MS: '1500',
    ACCORD_CONSENT_PUBLISH_TIMEOUT_MS: '1000',
    ...extraEnv,
  });
  const svc = await startConsent(config, createLogger('consent-test', config.LOG_LEVEL));
  const client = createClient(consentv1.ConsentServiceService, `127.0.0.1:${svc.port}`, { timeoutMs: 20_000 });
  return {
    client,
    port: svc.port,
    env,
    async stop() {
      client.close();
      await svc.stop();
    },
  };
}

export const input = (over: Partial<consentv1.ConsentInput> = {}): consentv1.ConsentInput => ({
  subject: 'user-1',
  issuer: 'https://shop.example',
  target: 'https://shop.example/privacy',
  ...over,
});

export async function expectGrpcError(p: Promise<unknown>, code: number): Promise<{ code: number; details: string; metadata: { get(k: string): unknown[] } }> {
  try {
    await p;
  } catch (err) {
    expect((err as { code: number }).code).toBe(code);
    return err as never;
  }
  throw new Error(`expected gRPC error ${code}, got success`);
}

export function fieldErrors(err: { metadata: { get(k: string): unknown[] } }): Array<{ field: string; message: string }> {
  const raw = err.metadata.get('accord-field-errors')[0];
  return typeof raw === 'string' ? (JSON.parse(raw) as Array<{ field: string; message: string }>) : [];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
