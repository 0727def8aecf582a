import { Metadata } from '@grpc/grpc-js';
import { reportSlowStart } from './slow-start';
import {
  createClient,
  createLogger,
  loadConfig,
  serviceSigner,
  type ClientOptions,
  type Logger,
  type PromiseClient,
  type ServiceIdentity,
} from '@accord/common';
import * as consent from '@accord/consent';
import * as dataprocessing from '@accord/dataprocessing';
import * as gateway from '@accord/gateway';
import { generateSecrets, servicePeers, testEnv, type ServiceName } from '@accord/local-stack';
import * as oauth from '@accord/oauth';
import { consentv1, dataprocessingv1, oauthv1, webhookv1 } from '@accord/proto';
import * as webhook from '@accord/webhook';
import { testLogLevel } from './log';

/** A fresh database and NATS namespace (see testEnv), or one shared with another instance. */
export type TestEnv = ReturnType<typeof testEnv>;
export type Env = Record<string, string | undefined>;

interface Started {
  port: number;
  stop(): Promise<void>;
}

/** Each process of the stack, in-process: its config schema and start function behind one shape. */
export const START: Record<ServiceName | 'gateway', (env: Env, logger: Logger, hooks?: webhook.WebhookTestHooks) => Promise<Started>> = {
  oauth: (env, l) => oauth.startOAuth(loadConfig(oauth.configShape, env), l),
  consent: (env, l) => consent.startConsent(loadConfig(consent.configShape, env), l),
  dataprocessing: (env, l) => dataprocessing.startDataProcessing(loadConfig(dataprocessing.configShape, env), l),
  webhook: (env, l, hooks) => webhook.startWebhook(loadConfig(webhook.configShape, env), l, hooks),
  gateway: (env, l) => gateway.startGateway(loadConfig(gateway.configShape, env), l),
};

/**
 * The service identities of the component tests (one key per identity for the whole test file):
 * every service started here knows their public keys, holds its own private key, and a test's
 * client speaks as the gateway unless it asks for another identity (`clientAs`).
 */
export const TEST_IDENTITIES = generateSecrets().serviceKeys;
const identityEnv = (service: ServiceName): Env => ({
  ACCORD_SERVICE_PEERS: servicePeers({ serviceKeys: TEST_IDENTITIES }),
  ACCORD_SERVICE_KEY: TEST_IDENTITIES[service],
});

/** The admin token the component tests configure (oauth's admin RPCs). */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

const nats = (t: TestEnv) => ({ NATS_URL: t.natsUrl, ACCORD_NATS_PREFIX: t.natsPrefix });

/**
 * What a component test needs of each service: its gRPC definition, client options, and the
 * configuration it runs with unless the test says otherwise (short polls and timeouts, loopback
 * webhooks). Data only; `startService` does the rest.
 */
/**
 * The deadline of a component test's calls: the tests are not about deadlines, and on a loaded
 * machine (beside stress-ng and other builds) a call to a service in the test's own process took
 * over the 5 s default (webhook delivery.test.ts: createWebhook, listDeliveries).
 */
const CALL_DEADLINE_MS = 20_000;

export const COMPONENTS = {
  consent: {
    definition: consentv1.ConsentServiceService,
    client: { timeoutMs: CALL_DEADLINE_MS },
    env: (t: TestEnv): Env => ({
      ...nats(t),
      SHUTDOWN_GRACE_MS: '1000',
      ACCORD_DATAPROCESSING_ADDR: '127.0.0.1:1',
      ACCORD_CONSENT_OUTBOX_POLL_MS: '100',
      ACCORD_CONSENT_OUTBOX_LEASE_MS: '1500',
      ACCORD_CONSENT_PUBLISH_TIMEOUT_MS: '1000',
    }),
  },
  dataprocessing: {
    definition: dataprocessingv1.DataProcessingServiceService,
    client: { retries: 0, timeoutMs: CALL_DEADLINE_MS },
    env: (): Env => ({ ACCORD_BASE_URL: 'https://accord.test' }),
  },
  oauth: {
    definition: oauthv1.OAuthServiceService,
    client: { timeoutMs: CALL_DEADLINE_MS },
    env: (): Env => ({
      ACCORD_ADMIN_TOKEN: ADMIN_TOKEN,
      ACCORD_HASH_KEY: 'test-hash-key-test-hash-key-test-hash-key',
      ACCORD_BASE_URL: 'http://accord.test',
      SHUTDOWN_GRACE_MS: '500',
    }),
  },
  webhook: {
    definition: webhookv1.WebhookServiceService,
    client: { timeoutMs: CALL_DEADLINE_MS },
    env: (t: TestEnv): Env => ({
      ...nats(t),
      SHUTDOWN_GRACE_MS: '1000',
      ACCORD_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
      ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: '200,400',
      ACCORD_WEBHOOK_JITTER: '0',
      ACCORD_WEBHOOK_TIMEOUT_MS: '2000',
      ACCORD_WEBHOOK_POLL_MS: '50',
    }),
  },
} satisfies Record<ServiceName, { definition: object; client: ClientOptions; env(t: TestEnv): Env }>;

export type Component = keyof typeof COMPONENTS;
export type TestClient<S extends Component> = PromiseClient<(typeof COMPONENTS)[S]['definition']>;

export interface RunningService<S extends Component> {
  client: TestClient<S>;
  port: number;
  /** host:port of its gRPC server */
  addr: string;
  /** Its database and NATS namespace: pass it to start another instance on the same data. */
  env: TestEnv;
  /** The configuration it was started with. */
  config: Env;
  /** Metadata carrying the admin token (oauth's admin RPCs). */
  admin: Metadata;
  /** A client of this service proving another of Accord's service identities, or none (closed with the service). */
  clientAs(identity: ServiceIdentity | 'none'): TestClient<S>;
  stop(): Promise<void>;
}

/**
 * Starts one service in-process on a free port and makes its gRPC client: on a fresh database
 * and NATS namespace named after `where`, or on the given one (another replica on the same
 * data). `env` overrides the defaults of COMPONENTS (undefined removes one).
 */
export async function startService<S extends Component>(
  service: S,
  where: string | TestEnv,
  env: Env = {},
  hooks?: webhook.WebhookTestHooks,
): Promise<RunningService<S>> {
  const t = typeof where === 'string' ? testEnv(where) : where;
  const spec = COMPONENTS[service];
  const config: Env = { MONGO_URL: t.mongoUrl, GRPC_PORT: '0', LOG_LEVEL: testLogLevel(), ...identityEnv(service), ...spec.env(t), ...env };
  const svc = await reportSlowStart(
    `the ${service} service of ${t.mongoUrl.split('/').pop()}`,
    config.MONGO_URL,
    START[service](config, createLogger(`${service}-test`, config.LOG_LEVEL), hooks),
  );
  const addr = `127.0.0.1:${svc.port}`;
  const others = new Map<ServiceIdentity | 'none', TestClient<S>>();
  const clientAs = (identity: ServiceIdentity | 'none') => {
    let c = others.get(identity);
    if (!c) {
      const signer = identity === 'none' ? undefined : serviceSigner(identity, TEST_IDENTITIES[identity]);
      c = createClient(spec.definition, addr, { ...spec.client, identity: signer }) as TestClient<S>;
      others.set(identity, c);
    }
    return c;
  };
  const client = clientAs('gateway');
  const admin = new Metadata();
  admin.set('authorization', `Bearer ${ADMIN_TOKEN}`);
  return {
    client,
    port: svc.port,
    addr,
    env: t,
    config,
    admin,
    clientAs,
    async stop() {
      for (const c of others.values()) c.close();
      await svc.stop();
    },
  };
}
