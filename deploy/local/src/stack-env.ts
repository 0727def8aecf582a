import { freePort } from './processes';
import { servicePeers, type LocalSecrets } from './secrets';

export const SERVICES = ['oauth', 'consent', 'dataprocessing', 'webhook'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface StackPorts {
  gateway: number;
  oauth: number;
  consent: number;
  dataprocessing: number;
  webhook: number;
}

/** Free ports for the four gRPC services (the gateway port is chosen by the caller). */
export async function pickServicePorts(gateway: number): Promise<StackPorts> {
  return { gateway, oauth: await freePort(), consent: await freePort(), dataprocessing: await freePort(), webhook: await freePort() };
}

/**
 * The environment of every process of a one-machine stack: the same variables the Helm chart
 * sets, pointing at loopback. Per-service GRPC_PORT is added by `serviceEnv`.
 */
export function stackEnv(opts: {
  mongoUrl: string;
  natsUrl: string;
  ports: StackPorts;
  secrets: LocalSecrets;
  baseUrl?: string;
  natsPrefix?: string;
  extra?: Record<string, string>;
}): Record<string, string> {
  const p = opts.ports;
  return {
    MONGO_URL: opts.mongoUrl,
    NATS_URL: opts.natsUrl,
    ACCORD_NATS_PREFIX: opts.natsPrefix ?? 'accord',
    ACCORD_BASE_URL: opts.baseUrl ?? `http://127.0.0.1:${p.gateway}`,
    ACCORD_GATEWAY_PORT: String(p.gateway),
    ACCORD_GATEWAY_HOST: '127.0.0.1',
    ACCORD_OAUTH_ADDR: `127.0.0.1:${p.oauth}`,
    ACCORD_CONSENT_ADDR: `127.0.0.1:${p.consent}`,
    ACCORD_DATAPROCESSING_ADDR: `127.0.0.1:${p.dataprocessing}`,
    ACCORD_WEBHOOK_ADDR: `127.0.0.1:${p.webhook}`,
    ACCORD_ADMIN_TOKEN: opts.secrets.adminToken,
    ACCORD_HASH_KEY: opts.secrets.hashKey,
    ACCORD_TOKEN_SIGNING_KEYS: opts.secrets.tokenSigningKey,
    ACCORD_RECEIPT_SIGNING_KEYS: opts.secrets.receiptSigningKey,
    // secrets files of stacks made before erasure existed lack it (loadOrCreateSecrets adds it)
    ...(opts.secrets.erasureKey ? { ACCORD_ERASURE_KEY: opts.secrets.erasureKey } : {}),
    // every process knows the public key of every service identity; each holds its own private key (serviceEnv)
    ACCORD_SERVICE_PEERS: servicePeers(opts.secrets),
    // One machine: let webhooks reach receivers on this machine (the chart's default is closed).
    ACCORD_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: '2000,10000,30000,60000,300000',
    ...opts.extra,
  };
}

/** The variables one service adds to the stack env: its port, and its own service identity key. */
export function serviceEnv(name: ServiceName | 'gateway', ports: StackPorts, secrets: Pick<LocalSecrets, 'serviceKeys'>): Record<string, string> {
  const identity = { ACCORD_SERVICE_KEY: secrets.serviceKeys[name] };
  return name === 'gateway' ? identity : { ...identity, GRPC_PORT: String(ports[name]), GRPC_HOST: '127.0.0.1' };
}
