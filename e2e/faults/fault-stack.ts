/**
 * The whole stack as real processes for fault injection: the four services and the gateway from
 * their built `dist/main.js`, a nats-server of its own (stoppable and restartable on the same
 * port and store) and, on request, a mongo-java-server of its own (H2 file backend, restartable
 * with its data); otherwise the shared test database. Any process can be killed with any signal
 * and started again. Plus a steady, bounded load and the readers the scenarios count with.
 */
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { connect, type NatsConnection } from 'nats';
import { connectMongo, createClient, streamName } from '@accord/common';
import {
  findBinary,
  freePort,
  generateSecrets,
  pickServicePorts,
  REPO_ROOT,
  serviceEnv,
  SERVICES,
  spawnLogged,
  stackEnv,
  startMongoJavaServer,
  stopChild,
  testEnv,
  waitForPort,
  type ServiceName,
} from '@accord/local-stack';
import { oauthv1 } from '@accord/proto';
import { eventually, sleep, testLogger, type EventuallyOptions } from '@accord/testkit';

export type ProcessName = ServiceName | 'gateway';

/** How the scenarios wait through an outage: a failing check is retried, and at the deadline the last value is answered for the test's own assertion. */
export const THROUGH_FAULTS: EventuallyOptions = { stepMs: 250, tolerant: true };

export interface FaultStack {
  url: string;
  natsUrl: string;
  natsPrefix: string;
  mongoUrl: string;
  /** The last lines every process printed (for a failure's message). */
  logs: string[];
  /** Processes that exited without being asked to (name and exit code or signal). */
  exits: string[];
  kill(name: ProcessName, signal?: NodeJS.Signals): Promise<void>;
  start(name: ProcessName): Promise<void>;
  stopNats(): Promise<void>;
  startNats(): Promise<void>;
  stopMongo(): Promise<void>;
  startMongo(): Promise<void>;
  /** Waits until /readyz answers 200. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** A new account with one application holding every scope, and its tokens. */
  account(name: string): Promise<Account>;
  stop(): Promise<void>;
}

export interface Account {
  apiKey: string;
  appId: string;
  consentToken: string;
  webhooksToken: string;
}

const LOG_KEEP = 400;

export async function startFaultStack(name: string, opts: { ownMongo?: boolean; env?: Record<string, string> } = {}): Promise<FaultStack> {
  const natsBin = findBinary('nats-server');
  if (!natsBin) throw new Error('nats-server is not installed (see .ci/run)');
  const dataDir = mkdtempSync(join(tmpdir(), `accord-fault-${name}-`));
  const logs: string[] = [];
  // ACCORD_FAULT_LOG=<file>: every line of every process, for debugging a scenario
  const logFile = process.env.ACCORD_FAULT_LOG;
  const log = (who: string, line: string) => {
    if (logFile) appendFileSync(logFile, `${who}: ${line}\n`);
    logs.push(`${who}: ${line.slice(0, 400)}`);
    if (logs.length > LOG_KEEP) logs.splice(0, logs.length - LOG_KEEP);
  };
  const t = testEnv(name);

  const natsPort = await freePort();
  let nats: ChildProcess | undefined;
  const startNats = async () => {
    nats = spawnLogged(natsBin, ['-js', '-a', '127.0.0.1', '-p', String(natsPort), '-sd', join(dataDir, 'nats')], { onOutput: (l) => log('nats', l) });
    await waitForPort(natsPort, '127.0.0.1', 20_000, nats);
  };
  const stopNats = async () => {
    if (nats) await stopChild(nats);
    nats = undefined;
  };

  let mongoUrl = t.mongoUrl;
  let mongoStop: (() => Promise<void>) | undefined;
  const mongoPort = await freePort();
  const startMongo = async () => {
    const m = await startMongoJavaServer(dataDir, false, process.env, (l) => log('mongo', l), mongoPort);
    mongoStop = m.stop;
    mongoUrl = m.url;
  };
  const stopMongo = async () => {
    await mongoStop?.();
    mongoStop = undefined;
  };

  const children = new Map<ProcessName, ChildProcess>();
  const exits: string[] = [];
  let env: Record<string, string> = {};
  const ports = await pickServicePorts(await freePort());
  const secrets = generateSecrets();
  const url = `http://127.0.0.1:${ports.gateway}`;

  const start = async (svc: ProcessName) => {
    const child = spawnLogged(process.execPath, [join(REPO_ROOT, 'services', svc, 'dist', 'main.js')], {
      env: { ...process.env, ...env, ...serviceEnv(svc, ports, secrets) },
      cwd: REPO_ROOT,
      onOutput: (l) => log(svc, l),
    });
    children.set(svc, child);
    child.on('exit', (code, signal) => {
      if (children.get(svc) === child) exits.push(`${svc} exited (${code ?? signal})`);
    });
    await waitForPort(ports[svc], '127.0.0.1', 30_000, child).catch((err: Error) => {
      // the process's own last words say why (a port taken meanwhile, a database not answering, …)
      const own = logs.filter((l) => l.startsWith(`${svc}: `)).slice(-20);
      throw new Error(`${svc}: ${err.message}; its last log lines:\n${own.join('\n')}`);
    });
  };
  const kill = async (svc: ProcessName, signal: NodeJS.Signals = 'SIGKILL') => {
    const child = children.get(svc);
    children.delete(svc);
    if (child) await stopChild(child, 10_000, signal);
  };
  const waitReady = async (timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ok = await fetch(`${url}/readyz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`the stack is not ready after ${timeoutMs} ms; last logs:\n${logs.slice(-30).join('\n')}`);
      await sleep(200);
    }
  };
  const stop = async () => {
    await kill('gateway', 'SIGTERM');
    await Promise.all(SERVICES.map((s) => kill(s, 'SIGTERM')));
    await stopNats();
    await stopMongo();
  };

  try {
    await startNats();
    if (opts.ownMongo) await startMongo();
    env = stackEnv({
      mongoUrl,
      natsUrl: `nats://127.0.0.1:${natsPort}`,
      natsPrefix: t.natsPrefix,
      ports,
      secrets,
      extra: {
        LOG_LEVEL: 'info',
        // a free port each: the defaults (9464–9468) may be held by another stack of the same test run
        METRICS_PORT: '0',
        METRICS_HOST: '127.0.0.1',
        SHUTDOWN_GRACE_MS: '2000',
        ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: '1000,2000,4000,8000',
        ACCORD_WEBHOOK_JITTER: '0',
        ACCORD_WEBHOOK_TIMEOUT_MS: '3000',
        ...opts.env,
      },
    });
    for (const s of SERVICES) await start(s);
    await start('gateway');
    await waitReady();
  } catch (err) {
    await stop();
    throw err;
  }

  const account = async (accountName: string): Promise<Account> => {
    const admin = createClient(oauthv1.OAuthServiceService, `127.0.0.1:${ports.oauth}`);
    const md = new Metadata();
    md.set('authorization', `Bearer ${secrets.adminToken}`);
    const c = await admin.bootstrap({ accountName, appName: 'app', scopes: ['consent', 'webhooks'] }, { metadata: md });
    admin.close();
    const token = async (scope: string) => {
      const res = await fetch(`${url}/oauth/v0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope }),
      });
      if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { access_token: string }).access_token;
    };
    return { apiKey: c.apiKey, appId: c.appId, consentToken: await token('consent'), webhooksToken: await token('webhooks') };
  };

  return {
    url,
    natsUrl: `nats://127.0.0.1:${natsPort}`,
    natsPrefix: t.natsPrefix,
    get mongoUrl() {
      return mongoUrl;
    },
    logs,
    exits,
    kill,
    start,
    stopNats,
    startNats,
    stopMongo,
    startMongo,
    waitReady,
    account,
    stop,
  };
}

/** A JSON request with the account's credentials; never throws (a network error is status 0). */
export async function call(
  stack: FaultStack,
  acc: Account,
  method: string,
  path: string,
  opts: { json?: unknown; token?: 'consent' | 'webhooks'; timeoutMs?: number } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the scenarios read the answers they expect
): Promise<{ status: number; ms: number; body: any }> {
  const started = Date.now();
  try {
    const res = await fetch(stack.url + path, {
      method,
      headers: {
        authorization: `Bearer ${opts.token === 'webhooks' ? acc.webhooksToken : acc.consentToken}`,
        'x-api-key': acc.apiKey,
        ...(opts.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, ms: Date.now() - started, body };
  } catch (err) {
    return { status: 0, ms: Date.now() - started, body: (err as Error).message };
  }
}

export interface LoadResult {
  requests: number;
  /** status → count */
  statuses: Record<number, number>;
  /** ids of the events answered 201 */
  answered: string[];
  /** subjects of every event sent (answered or not) */
  sent: string[];
  /** the first few answers other than 201 (status and body) */
  refusals: string[];
}

/**
 * Steady load of consent POSTs (each an array of `eventsPerRequest` events with unique subjects,
 * `concurrency` at a time) until `stop()` is called, `maxRequests` were sent or `maxMs` passed.
 * `live` is updated as answers arrive; `finished` resolves when the last request is answered.
 */
export function consentLoad(
  stack: FaultStack,
  acc: Account,
  opts: { tag: string; eventsPerRequest: number; concurrency: number; maxRequests: number; maxMs: number; pauseMs?: number },
): { live: LoadResult; stop(): void; finished: Promise<LoadResult> } {
  const live: LoadResult = { requests: 0, statuses: {}, answered: [], sent: [], refusals: [] };
  const deadline = Date.now() + opts.maxMs;
  let stopped = false;
  const worker = async (w: number) => {
    for (let i = 0; !stopped && live.requests < opts.maxRequests && Date.now() < deadline; i++) {
      live.requests++;
      const events = Array.from({ length: opts.eventsPerRequest }, (_, j) => ({
        subject: `${opts.tag}-${w}-${i}-${j}`,
        issuer: 'https://shop.example',
        target: 'https://shop.example/privacy',
        action: true,
      }));
      live.sent.push(...events.map((e) => e.subject));
      const res = await call(stack, acc, 'POST', '/consent/v0/consents', { json: events });
      live.statuses[res.status] = (live.statuses[res.status] ?? 0) + 1;
      if (res.status === 201) live.answered.push(...(res.body as Array<{ id: string }>).map((e) => e.id));
      else if (live.refusals.length < 5) live.refusals.push(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      if (opts.pauseMs) await sleep(opts.pauseMs);
    }
  };
  const finished = Promise.all(Array.from({ length: opts.concurrency }, (_, w) => worker(w))).then(() => live);
  return { live, stop: () => void (stopped = true), finished };
}

/** Waits until the load has `n` more 201 answers than now (or `timeoutMs` passed). */
export async function more201(live: LoadResult, n: number, timeoutMs = 60_000): Promise<void> {
  const target = (live.statuses[201] ?? 0) + n;
  await eventually(async () => (live.statuses[201] ?? 0) >= target, timeoutMs, `${n} more 201 answers`, THROUGH_FAULTS);
}

/** The `Nats-Msg-Id`s of the consent events on the stream, in stream order. */
export async function streamIds(natsUrl: string, prefix: string): Promise<string[]> {
  const nc: NatsConnection = await connect({ servers: natsUrl, maxReconnectAttempts: 0 });
  try {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(streamName(prefix));
    const ids: string[] = [];
    for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(streamName(prefix), { seq });
      // consent events only: the stream also carries the consent log's signed tree heads
      if (!m.subject.startsWith(`${prefix}.events.consent.`)) continue;
      ids.push(m.header?.get('Nats-Msg-Id') ?? `no-id-${seq}`);
    }
    return ids;
  } finally {
    await nc.close();
  }
}

/** What the database holds for an application: its events (id, subject, still unpublished) and statistics total. */
export async function stored(
  mongoUrl: string,
  appId: string,
): Promise<{ events: Array<{ id: string; subject: string; pending: boolean }>; currentIds: Map<string, string> }> {
  const conn = await connectMongo(mongoUrl, testLogger('fault-reader'));
  try {
    const db = conn.db!;
    const events = await db
      .collection('consent_events')
      .find({ appId }, { projection: { _id: 1, subject: 1, pub: 1 } })
      .toArray();
    const subjects = events.map((e) => e.subject as string);
    const current = await db
      .collection('consent_current')
      .find({ subject: { $in: subjects } }, { projection: { subject: 1, 'cur.id': 1 } })
      .toArray();
    return {
      events: events.map((e) => ({ id: String(e._id), subject: e.subject as string, pending: e.pub !== undefined })),
      currentIds: new Map(current.map((c) => [c.subject as string, (c.cur as { id: string } | undefined)?.id ?? ''])),
    };
  } finally {
    await conn.close();
  }
}

/**
 * Waits until no event of the application awaits publication (the outbox drained) and the stream
 * holds as many distinct messages as there are stored events; returns both sides.
 */
export async function drained(stack: FaultStack, appId: string, timeoutMs = 60_000) {
  const s = await eventually(
    async () => {
      const now = await stored(stack.mongoUrl, appId);
      return now.events.every((e) => !e.pending) && now;
    },
    timeoutMs,
    'the outbox to drain',
    THROUGH_FAULTS,
  );
  const last = s || (await stored(stack.mongoUrl, appId));
  const storedIds = last.events.map((e) => e.id).sort();
  const streamed =
    (await eventually(
      async () => {
        const ids = await streamIds(stack.natsUrl, stack.natsPrefix);
        return new Set(ids).size >= storedIds.length && ids;
      },
      30_000,
      'every stored event on the stream',
      THROUGH_FAULTS,
    )) || (await streamIds(stack.natsUrl, stack.natsPrefix));
  return { ...last, pending: last.events.filter((e) => e.pending).map((e) => e.id), storedIds, streamed };
}

/** Counts of each value that occurs more than once. */
export function duplicates(ids: string[]): Record<string, number> {
  const n = new Map<string, number>();
  for (const id of ids) n.set(id, (n.get(id) ?? 0) + 1);
  return Object.fromEntries([...n].filter(([, c]) => c > 1));
}
