/**
 * The whole stack in-process for e2e tests: oauth, consent, dataprocessing, webhook and the
 * gateway on free ports, against the shared test MongoDB (a fresh database) and NATS (a fresh
 * subject namespace). Tests talk to it over real HTTP, as a user would.
 */
import { Metadata } from '@grpc/grpc-js';
import { createClient, createLogger } from '@accord/common';
import {
  freePort,
  pickServicePorts,
  serviceEnv,
  generateSecrets,
  stackEnv,
  testEnv,
  type LocalSecrets,
  type ServiceName,
  type StackPorts,
} from '@accord/local-stack';
import { oauthv1 } from '@accord/proto';
import { reportSlowStart, START, testLogLevel } from '@accord/testkit';
import { responseProblems } from './openapi-check';

type Running = { port: number; stop(): Promise<void> };
const ORDER: Array<ServiceName | 'gateway'> = ['oauth', 'dataprocessing', 'consent', 'webhook', 'gateway'];

export interface Credentials {
  accountId: string;
  apiKey: string;
  appId: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

export interface HttpResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RequestOptions {
  token?: string;
  apiKey?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Skip the check of the answer against the OpenAPI document (for answers a test provokes on purpose outside it). */
  unchecked?: boolean;
}

/** gRPC metadata of a platform caller: `authorization: Bearer <access token>`. */
export function bearer(token: string): Metadata {
  const md = new Metadata();
  md.set('authorization', `Bearer ${token}`);
  return md;
}

export interface Stack {
  baseUrl: string;
  env: Record<string, string>;
  ports: StackPorts;
  /** The stack's keys: the service identities' private keys among them (a test may speak as one). */
  secrets: LocalSecrets;
  bootstrap(opts: { account: string; app: string; scopes: string[] }): Promise<Credentials>;
  token(creds: Pick<Credentials, 'clientId' | 'clientSecret'>, scope: string): Promise<string>;
  /** The admin command behind `npm run -s admin -- set-origins`. */
  setAllowedOrigins(appId: string, origins: string[]): Promise<string[]>;
  request(method: string, path: string, opts?: RequestOptions): Promise<HttpResult>;
  stopService(name: ServiceName | 'gateway'): Promise<void>;
  startService(name: ServiceName | 'gateway'): Promise<void>;
  restart(name: ServiceName | 'gateway'): Promise<void>;
  stop(): Promise<void>;
}

export async function startStack(name: string, opts: { env?: Record<string, string> } = {}): Promise<Stack> {
  const t = testEnv(name);
  const ports = await pickServicePorts(await freePort());
  const secrets = generateSecrets();
  const env = stackEnv({
    mongoUrl: t.mongoUrl,
    natsUrl: t.natsUrl,
    natsPrefix: t.natsPrefix,
    ports,
    secrets,
    extra: {
      LOG_LEVEL: testLogLevel(),
      SHUTDOWN_GRACE_MS: '2000',
      ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: '1000,2000,4000',
      ACCORD_WEBHOOK_TIMEOUT_MS: '5000',
      ...opts.env,
    },
  });
  const running = new Map<string, Running>();
  const start = async (svc: ServiceName | 'gateway') => {
    const started = START[svc]({ ...env, ...serviceEnv(svc, ports, secrets) }, createLogger(svc, env.LOG_LEVEL));
    running.set(svc, await reportSlowStart(`the ${svc} service of the stack ${name}`, env.MONGO_URL, started));
  };
  const stopService = async (svc: ServiceName | 'gateway') => {
    const r = running.get(svc);
    running.delete(svc);
    await r?.stop();
  };
  try {
    for (const svc of ORDER) await start(svc);
  } catch (err) {
    for (const svc of [...running.keys()].reverse()) await stopService(svc as ServiceName).catch(() => undefined);
    throw err;
  }

  const baseUrl = `http://127.0.0.1:${ports.gateway}`;
  const admin = createClient(oauthv1.OAuthServiceService, env.ACCORD_OAUTH_ADDR!);
  const adminMd = new Metadata();
  adminMd.set('authorization', `Bearer ${secrets.adminToken}`);

  const request = async (method: string, path: string, o: RequestOptions = {}): Promise<HttpResult> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.apiKey) headers['x-api-key'] = o.apiKey;
    let body: string | undefined;
    if (o.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof o.json === 'string' ? o.json : JSON.stringify(o.json);
    } else if (o.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    const parsed: unknown = /json/.test(type) && text ? JSON.parse(text) : text;
    // Every answer must be one the OpenAPI document declares (status, content type, body schema).
    const problems = o.unchecked ? null : responseProblems(method, path, res.status, type, parsed);
    if (problems?.length) throw new Error(`answer outside the OpenAPI document:\n${problems.join('\n')}\nbody: ${text.slice(0, 500)}`);
    return { status: res.status, headers: res.headers, body: parsed };
  };

  return {
    baseUrl,
    env,
    ports,
    secrets,
    async bootstrap({ account, app, scopes }) {
      const r = await admin.bootstrap({ accountName: account, appName: app, scopes }, { metadata: adminMd });
      return { accountId: r.accountId, apiKey: r.apiKey, appId: r.appId, clientId: r.clientId, clientSecret: r.clientSecret, scopes: r.scopes };
    },
    async token(creds, scope) {
      const res = await request('POST', '/oauth/v0/token', {
        json: { grant_type: 'client_credentials', client_id: creds.clientId, client_secret: creds.clientSecret, scope },
      });
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.access_token as string;
    },
    async setAllowedOrigins(appId, origins) {
      return (await admin.setAllowedOrigins({ appId, origins }, { metadata: adminMd })).allowedOrigins;
    },
    request,
    stopService,
    startService: start,
    async restart(svc) {
      await stopService(svc);
      await start(svc);
    },
    async stop() {
      admin.close();
      for (const svc of [...ORDER].reverse()) await stopService(svc).catch(() => undefined);
    },
  };
}
