/**
 * `npm run bench:gateway`: the gateway's own cost per request, alone. The built gateway runs as
 * its own process (as `npm start` runs it) against one stub gRPC server in this process that
 * answers every downstream call at once with a fixed answer, so the gateway's CPU per request
 * (read from /proc) is its work only — HTTP, authentication, validation, routing, logging,
 * metrics, its gRPC client — with no database, service or machine noise in the way of a small
 * change. Each job runs at full speed (10 connections) for BENCH_GATEWAY_SECONDS (default 10)
 * after a warm-up; BENCH_GATEWAY_JOBS picks jobs (record,read,token; decide, 1000 decisions a
 * request, on request), BENCH_GATEWAY_ROUNDS
 * repeats them (default 3, the median is printed) and BENCH_CPU_PROF=1 profiles the gateway
 * (the file is named at the end). BENCH_GATEWAY_BUILDS=before=<dir>,after=services/gateway/dist
 * compares builds (a copy of an earlier `dist` inside the repository, so that it finds the same
 * node_modules), one after the other in every round, so that both meet the same machine load.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { Server, ServerCredentials, type handleUnaryCall, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import autocannon from 'autocannon';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { charge, type CpuProfile } from './cpuprofile';
import { freePort, REPO_ROOT, spawnLogged, stopChild } from '@accord/local-stack';
import { consentactivityv1, consentv1, dataprocessingv1, limitsv1, oauthconsolev1, oauthv1, webhookv1 } from '@accord/proto';

const SECONDS = Number(process.env.BENCH_GATEWAY_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_GATEWAY_ROUNDS ?? 3);
const JOBS = (process.env.BENCH_GATEWAY_JOBS ?? 'record,read,token').split(',').map((s) => s.trim());
const ISSUER = 'https://bench.example';

/** A stored event as the consent service answers it. */
const stored = (e: Partial<consentv1.ConsentInput>, appId: string): consentv1.ConsentEvent => ({
  id: randomBytes(16).toString('hex'),
  subject: e.subject ?? '',
  issuer: e.issuer ?? '',
  target: e.target ?? '',
  scope: e.scope ?? 'default',
  action: e.action,
  token: randomBytes(16).toString('hex'),
  createdAt: new Date(),
  appId,
});

/** Serves every unary method of a definition: `answers[method](request)`, or an empty message. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each answer takes its method's own request type
function serve(server: Server, definition: ServiceDefinition, answers: Record<string, (req: any) => unknown> = {}): void {
  const impl: UntypedServiceImplementation = {};
  for (const name of Object.keys(definition)) {
    const handle: handleUnaryCall<unknown, unknown> = (call, cb) => cb(null, answers[name]?.(call.request) ?? {});
    impl[name] = handle;
  }
  server.addService(definition, impl);
}

async function main(): Promise<void> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const kid = 'bench';
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const server = new Server();
  serve(server, oauthv1.OAuthServiceService as unknown as ServiceDefinition, {
    getJwks: () => ({ jwks: { keys: [{ kid, kty: 'EC', alg: 'ES256', use: 'sig', crv: jwk.crv, x: jwk.x, y: jwk.y, n: '', e: '' }] } }),
    validateApiKey: () => ({ accountId: 'acc_bench' }),
    issueToken: () => ({ token: { accessToken: 'x'.repeat(600), tokenType: 'Bearer', expiresIn: 900, scope: 'consent', refreshToken: '' } }),
  });
  serve(server, consentv1.ConsentServiceService as unknown as ServiceDefinition, {
    createConsents: (req: consentv1.CreateConsentsRequest) => ({ events: req.events.map((e) => stored(e, req.appId)) }),
    searchConsents: (req: consentv1.SearchConsentsRequest) => ({ events: [stored({ ...req, action: true }, 'app_bench')] }),
    searchConsentsBatch: (req: consentv1.SearchConsentsBatchRequest) => ({
      results: req.searches.map((q) => ({ response: { events: [stored({ ...q, action: true }, 'app_bench')], nextCursor: '' } })),
    }),
    getReceiptKeys: () => ({ jwks: { keys: [] } }),
    decide: (req: consentv1.DecideRequest) => ({
      at: new Date(),
      decisions: req.items.map((i, k) => ({
        ...i,
        scope: i.scope ?? 'default',
        allowed: k % 2 === 0,
        basis: k % 2 === 0 ? 'consent' : 'declined',
        eventId: `e${k}`,
      })),
    }),
  });
  for (const d of [dataprocessingv1.DataProcessingServiceService, webhookv1.WebhookServiceService, limitsv1.LimitsServiceService]) {
    serve(server, d as unknown as ServiceDefinition);
  }
  serve(server, oauthconsolev1.OAuthConsoleServiceService as unknown as ServiceDefinition);
  serve(server, consentactivityv1.ConsentActivityServiceService as unknown as ServiceDefinition);
  const grpcPort = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
  );

  const addr = `127.0.0.1:${grpcPort}`;
  const profDir = process.env.BENCH_CPU_PROF ? mkdtempSync(join(tmpdir(), 'accord-gateway-profile-')) : undefined;
  // name=dist-folder pairs, run in turn every round (an A/B on the same load): default, this build
  const builds = (process.env.BENCH_GATEWAY_BUILDS ?? `this build=${join('services', 'gateway', 'dist')}`).split(',').map((pair) => {
    const [name, dir] = pair.includes('=') ? (pair.split('=') as [string, string]) : [pair, pair];
    return { name, main: resolve(REPO_ROOT, dir, 'main.js') };
  });
  const windows: Array<{ name: string; fromUs: number; toUs: number; cpu: number; pid: number }> = [];
  const figures = new Map<string, Array<{ cpu: number; rps: number; p99: number; errors: number }>>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of builds) {
      const g = await startGateway(build.main, addr, profDir);
      try {
        const token = await new SignJWT({ acc: 'acc_bench', app: 'app_bench', scope: 'consent dataprocessing webhooks', client_id: 'cl_bench' })
          .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
          .setIssuer(`${g.baseUrl}/oauth/v0`)
          .setAudience('accord')
          .setSubject('cl_bench')
          .setIssuedAt()
          .setExpirationTime('1h')
          .setJti(randomUUID())
          .sign(privateKey);
        const jobs = jobsFor(g.baseUrl, { authorization: `Bearer ${token}`, 'x-api-key': 'key_bench', 'content-type': 'application/json' });
        for (const name of JOBS) {
          const job = jobs[name];
          if (!job) throw new Error(`BENCH_GATEWAY_JOBS: unknown job ${name} (record, read, token, decide)`);
          await autocannon({ ...job(), duration: 3, connections: 10 }); // warm-up: JIT, caches, the channel
          const before = g.cpu();
          const fromUs = Number(process.hrtime.bigint() / 1000n);
          const r = await autocannon({ ...job(), duration: SECONDS, connections: 10 });
          const cpu = (g.cpu() - before) / r.requests.total;
          if (round === 0) windows.push({ name: `${build.name}: ${name}`, fromUs, toUs: Number(process.hrtime.bigint() / 1000n), cpu, pid: g.pid });
          const key = `${build.name}: ${name}`;
          figures.set(key, [...(figures.get(key) ?? []), { cpu, rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts }]);
        }
      } finally {
        await g.stop();
      }
    }
  }
  server.forceShutdown();
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  console.log(`gateway alone (stub downstreams), ${ROUNDS} rounds of ${SECONDS} s per job, median:`);
  for (const [key, f] of figures) {
    console.log(
      `  ${key.padEnd(24)} ${median(f.map((x) => x.cpu)).toFixed(3)} ms gateway CPU per request (rounds: ${f.map((x) => x.cpu.toFixed(3)).join(', ')}), ${Math.round(median(f.map((x) => x.rps)))} req/s, p99 ${median(f.map((x) => x.p99))} ms, ${f.reduce((sum, x) => sum + x.errors, 0)} errors`,
    );
  }
  if (!profDir) return;
  for (const w of windows) {
    const c = charge(JSON.parse(readFileSync(join(profDir, `${w.pid}.cpuprofile`), 'utf8')) as CpuProfile, w.fromUs, w.toUs);
    const ms = (v: number) => ((w.cpu * v) / c.totalMs).toFixed(3);
    console.log(`\n${w.name}: where ${w.cpu.toFixed(3)} ms of gateway CPU per request went (profiled, first round)`);
    console.log(
      `  by package or file: ${c.byOwner
        .slice(0, 20)
        .map(([k, v]) => `${k} ${ms(v)}`)
        .join(', ')}`,
    );
    console.log(
      `  by function: ${c.byFunction
        .slice(0, 25)
        .map(([k, v]) => `${k} ${ms(v)}`)
        .join(', ')}`,
    );
  }
  console.log(`\ngateway profiles: ${profDir}`);
}

/** Starts a gateway build (its main.js) against the stub downstreams on a free port. */
async function startGateway(
  main: string,
  addr: string,
  profDir: string | undefined,
): Promise<{ baseUrl: string; pid: number; cpu(): number; stop(): Promise<void> }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawnLogged(process.execPath, [main], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ACCORD_GATEWAY_PORT: String(port),
      ACCORD_GATEWAY_HOST: '127.0.0.1',
      ACCORD_BASE_URL: baseUrl,
      ACCORD_OAUTH_ADDR: addr,
      ACCORD_CONSENT_ADDR: addr,
      ACCORD_DATAPROCESSING_ADDR: addr,
      ACCORD_WEBHOOK_ADDR: addr,
      ACCORD_LIMIT_ACCOUNT_RPS: '0',
      ACCORD_LIMIT_APP_RPS: '0',
      ACCORD_LIMIT_TOKEN_RPS: '0',
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      ...(profDir ? { NODE_OPTIONS: `--require ${join(__dirname, 'cpu-prof-preload.js')}`, BENCH_CPU_PROF_DIR: profDir } : {}),
    },
    onOutput: (l) => process.env.BENCH_LOG && console.log(`gateway | ${l}`),
  });
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the gateway (${main}) exited with code ${child.exitCode}`);
      const ok = await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 300) throw new Error('the gateway did not answer /healthz within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return {
    baseUrl,
    pid: child.pid!,
    cpu: () => {
      const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const v = f.slice(f.lastIndexOf(')') + 2).split(' ');
      return (Number(v[11]) + Number(v[12])) * 10;
    },
    stop: () => stopChild(child),
  };
}

/** The jobs, against a gateway at `baseUrl`. */
function jobsFor(baseUrl: string, headers: Record<string, string>): Record<string, () => autocannon.Options> {
  const run = Date.now().toString(36);
  return {
    record: () => {
      let n = 0;
      return {
        url: `${baseUrl}/consent/v0/consents`,
        method: 'POST',
        headers,
        requests: [
          {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              body: JSON.stringify({ subject: `alone-${run}-${n++}`, issuer: ISSUER, target: `${ISSUER}/policy`, action: true }),
            }),
          },
        ],
      };
    },
    read: () => {
      let n = 0;
      return {
        url: `${baseUrl}/consent/v0/consents/search`,
        headers,
        requests: [
          {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              path: `/consent/v0/consents/search?${new URLSearchParams({ subject: `s-${n++ % 5000}`, issuer: ISSUER, target: `${ISSUER}/policy`, current: 'true', scope: 'email' })}`,
            }),
          },
        ],
      };
    },
    decide: () => ({
      url: `${baseUrl}/consent/v0/decisions`,
      method: 'POST',
      headers,
      body: JSON.stringify({
        items: Array.from({ length: 1000 }, (_, k) => ({
          subject: `s-${k}`,
          issuer: ISSUER,
          target: `${ISSUER}/policy`,
          ...(k % 4 ? {} : { scope: 'email' }),
        })),
      }),
    }),
    token: () => ({
      url: `${baseUrl}/oauth/v0/token`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'cl_bench', client_secret: 'secret', scope: 'consent' }),
    }),
  };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
