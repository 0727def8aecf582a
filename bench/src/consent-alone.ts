/**
 * `npm run bench:consent`: the consent service's cost per request, and what it leaves to the
 * database, NATS and the webhook service — without the gateway, counted rather than timed, and
 * two builds compared in turn every round (which goes first alternates) so that both meet the
 * same machine load (a lever of a tenth of a millisecond shows there; the whole stack's
 * `npm run bench` cannot tell it from the other helpers' builds on a shared machine).
 *
 * One database and one NATS server (as `npm run bench` starts them, the database counting its
 * commands: server-counts.ts); per build, a consent and a webhook process (as `npm start` runs them)
 * on a database and a NATS prefix of their own, called over gRPC from this process: `record`
 * (CreateConsents of one event, a new subject each), `change` (one event changing a seeded
 * state), `read` (SearchConsents current=true with a scope: the current consent of a seeded
 * subject), `array` (CreateConsents of 100 events), `decide` (Decide of 1000 seeded states; not
 * in the default jobs). Each run offers a fixed rate
 * (BENCH_ALONE_RATE requests/s, default 100; 0 for as many as BENCH_ALONE_CONCURRENCY calls in
 * flight, default 10, allow), starts on a quiet system and is counted until the system is quiet
 * again, so that publication, delivery and the log's sequencing are part of a request's cost.
 *
 * BENCH_ALONE_SAVE=<name> keeps a copy of the current build of both services under that name
 * (in `services/<service>/dist/.ab/<name>`: inside each service, so that it finds the same
 * packages) and exits; BENCH_ALONE_BUILDS=<name>,this (default: this) then compares that copy
 * with the current build. BENCH_ALONE_JOBS (record,change,read,array), BENCH_ALONE_SECONDS (per run, default 15),
 * BENCH_ALONE_ROUNDS (default 3; the median is printed), BENCH_CPU_PROF=1 (profiles the consent
 * and webhook processes of every build; where their CPU went in the first round is printed).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createClient, serviceSigner, type PromiseClient } from '@accord/common';
import {
  freePort,
  loadOrCreateSecrets,
  REPO_ROOT,
  spawnLogged,
  stackEnv,
  startInfra,
  stopChild,
  withDatabase,
  type Infra,
  type StackPorts,
} from '@accord/local-stack';
import { consentv1 } from '@accord/proto';
import { charge, type CpuProfile } from './cpuprofile';
import { sampleCpu, untilQuiet } from './cpu';
import { COUNTING_ENV, countedDatabase } from './server-counts';

const SECONDS = Number(process.env.BENCH_ALONE_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ALONE_ROUNDS ?? 3);
const RATE = Number(process.env.BENCH_ALONE_RATE ?? 100);
const CONCURRENCY = Number(process.env.BENCH_ALONE_CONCURRENCY ?? 10);
const JOBS = (process.env.BENCH_ALONE_JOBS ?? 'record,change,read,array').split(',').map((s) => s.trim());
const SEEDED = 2000;
const ISSUER = 'https://bench.example';
const TARGET = `${ISSUER}/policy`;
const ACCOUNT = 'acc_alone';
const APP = 'app_alone';

type ConsentClient = PromiseClient<typeof consentv1.ConsentServiceService>;

interface Build {
  name: string;
  consentMain: string;
  webhookMain: string;
}

/** One build's processes, on their own database and NATS prefix. */
interface Running {
  build: Build;
  client: ConsentClient;
  pids: { consent: number; webhook: number };
  stop(): Promise<void>;
}

/** Where a build of a service is: `this` is the current one, any other name a saved copy. */
const buildDir = (service: string, name: string) => join(REPO_ROOT, 'services', service, 'dist', ...(name === 'this' ? [] : ['.ab', name]));

function buildsFromEnv(): Build[] {
  return (process.env.BENCH_ALONE_BUILDS ?? 'this').split(',').map((raw) => {
    const name = raw.trim();
    const build = { name, consentMain: join(buildDir('consent', name), 'main.js'), webhookMain: join(buildDir('webhook', name), 'main.js') };
    for (const main of [build.consentMain, build.webhookMain])
      if (!existsSync(main)) throw new Error(`BENCH_ALONE_BUILDS: no build ${name} (${main}); BENCH_ALONE_SAVE=${name} keeps the current one under that name`);
    return build;
  });
}

/** Keeps a copy of the current build of both services under `name` (BENCH_ALONE_SAVE). */
function save(name: string): void {
  if (!/^\w+$/.test(name) || name === 'this') throw new Error(`BENCH_ALONE_SAVE: a name of letters and digits other than "this", not ${name}`);
  for (const service of ['consent', 'webhook']) {
    const to = buildDir(service, name);
    rmSync(to, { recursive: true, force: true });
    // by way of a temporary folder: fs.cp refuses a copy into the folder copied
    const tmp = mkdtempSync(join(tmpdir(), 'accord-build-'));
    cpSync(buildDir(service, 'this'), tmp, { recursive: true, filter: (src) => !src.includes(`${sep}.ab`) });
    cpSync(tmp, to, { recursive: true });
    rmSync(tmp, { recursive: true, force: true });
    console.log(`saved ${relative(REPO_ROOT, buildDir(service, 'this'))} as ${relative(REPO_ROOT, to)}`);
  }
}

/** CPU ms so far of one process (Linux /proc), 0 once it is gone. */
function cpuOf(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const v = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(v[11]) + Number(v[12])) * 10;
  } catch {
    return 0;
  }
}

async function startBuild(build: Build, i: number, infra: Infra, mongoUrl: string, dataDir: string, profDir?: string): Promise<Running> {
  const secrets = loadOrCreateSecrets(join(dataDir, 'secrets.json'));
  const ports: StackPorts = {
    gateway: await freePort(),
    oauth: await freePort(),
    consent: await freePort(),
    dataprocessing: await freePort(),
    webhook: await freePort(),
  };
  const env = {
    ...process.env,
    ...stackEnv({ mongoUrl: withDatabase(mongoUrl, `accord_alone_${i}`), natsUrl: infra.natsUrl, ports, secrets, natsPrefix: `alone${i}` }),
    LOG_LEVEL: 'error',
    GRPC_HOST: '127.0.0.1',
    METRICS_HOST: '127.0.0.1',
    METRICS_PORT: '0',
    ...(profDir ? { NODE_OPTIONS: `--require ${join(__dirname, 'cpu-prof-preload.js')}`, BENCH_CPU_PROF_DIR: profDir } : {}),
  };
  const children: ChildProcess[] = [];
  const spawnService = (name: 'consent' | 'webhook', main: string) => {
    const child = spawnLogged(process.execPath, [main], {
      env: { ...env, GRPC_PORT: String(ports[name]), ACCORD_SERVICE_KEY: secrets.serviceKeys[name] },
      cwd: REPO_ROOT,
      onOutput: (l) => process.env.BENCH_LOG && console.log(`${build.name} ${name} | ${l}`),
    });
    children.push(child);
    return child;
  };
  const consent = spawnService('consent', build.consentMain);
  const webhook = spawnService('webhook', build.webhookMain);
  const stop = async () => void (await Promise.all(children.map((c) => stopChild(c, 12_000))));
  // the consent service as the gateway calls it: with the gateway's service identity
  const identity = serviceSigner('gateway', secrets.serviceKeys.gateway);
  const client = createClient(consentv1.ConsentServiceService, `127.0.0.1:${ports.consent}`, { timeoutMs: 30_000, retries: 0, identity });
  try {
    // ready once it stores an event (the same warm-up event each time: one new state)
    for (let attempt = 0; ; attempt++) {
      for (const c of children)
        if (c.exitCode !== null) throw new Error(`${build.name}: a service exited with code ${c.exitCode} (BENCH_LOG=1 shows its output)`);
      try {
        await client.createConsents({ accountId: ACCOUNT, appId: APP, events: [{ subject: 'warm-up', issuer: ISSUER, target: TARGET, action: true }] });
        break;
      } catch (err) {
        if (attempt > 300) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    return { build, client, pids: { consent: consent.pid!, webhook: webhook.pid! }, stop: async () => (client.close(), await stop()) };
  } catch (err) {
    client.close();
    await stop();
    throw err;
  }
}

/** The calls of each job, for request `n` of a run `run`. */
const jobs: Record<string, (c: ConsentClient, run: string) => (n: number) => Promise<unknown>> = {
  record: (c, run) => (n) =>
    c.createConsents({
      accountId: ACCOUNT,
      appId: APP,
      events: [{ subject: `alone-${run}-${n}`, issuer: ISSUER, target: TARGET, scope: 'email', action: true }],
    }),
  change: (c) => (n) =>
    c.createConsents({
      accountId: ACCOUNT,
      appId: APP,
      events: [{ subject: `seed-${(n * 7919) % SEEDED}`, issuer: ISSUER, target: TARGET, scope: 'email', action: n % 2 === 0 }],
    }),
  read: (c) => (n) =>
    c.searchConsents({ accountId: ACCOUNT, subject: `seed-${(n * 7919) % SEEDED}`, issuer: ISSUER, target: TARGET, scope: 'email', current: true }),
  decide: (c) => (n) =>
    c.decide({
      accountId: ACCOUNT,
      items: Array.from({ length: 1000 }, (_, k) => ({ subject: `seed-${(n * 1000 + k) % SEEDED}`, issuer: ISSUER, target: TARGET, scope: 'email' })),
    }),
  array: (c, run) => (n) =>
    c.createConsents({
      accountId: ACCOUNT,
      appId: APP,
      events: Array.from({ length: 100 }, (_, k) => ({
        subject: `alone100-${run}-${n}-${k % 20}`,
        issuer: ISSUER,
        target: TARGET,
        scope: `s${k % 5}`,
        action: k % 2 === 0,
      })),
    }),
};

/** Offers `rate` calls/s (or keeps `concurrency` in flight when rate is 0) for `seconds`; latencies in ms. */
async function drive(
  call: (n: number) => Promise<unknown>,
  seconds: number,
  rate: number,
  concurrency: number,
): Promise<{ done: number; errors: number; latencies: number[] }> {
  const started = Date.now();
  const end = started + seconds * 1000;
  let sent = 0;
  let errors = 0;
  const latencies: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const one = () => {
    const n = sent++;
    const t0 = performance.now();
    const p: Promise<void> = call(n).then(
      () => void latencies.push(performance.now() - t0),
      () => void errors++,
    );
    const tracked = p.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };
  while (Date.now() < end) {
    if (rate > 0) {
      const due = Math.floor(((Date.now() - started) / 1000) * rate);
      // a late build gets up to its concurrency's worth more in flight, never an unbounded queue
      while (sent < due && inFlight.size < Math.max(concurrency, 64)) one();
      await new Promise((r) => setTimeout(r, 5));
    } else {
      while (inFlight.size < concurrency) one();
      await Promise.race(inFlight);
    }
  }
  await Promise.all(inFlight);
  return { done: latencies.length, errors, latencies };
}

interface Figures {
  /** CPU ms per request by process. */
  cpu: Record<string, number>;
  commands: number;
  perSec: number;
  p99: number;
  errors: number;
}

async function main(): Promise<void> {
  if (process.env.BENCH_ALONE_SAVE) return save(process.env.BENCH_ALONE_SAVE);
  const builds = buildsFromEnv();
  const dataDir = mkdtempSync(join(tmpdir(), 'accord-alone-'));
  const profDir = process.env.BENCH_CPU_PROF ? mkdtempSync(join(tmpdir(), 'accord-alone-profile-')) : undefined;
  const infra = await startInfra({ dataDir, ephemeral: true, env: { ...process.env, ...COUNTING_ENV } });
  const { counter, mongoUrl } = await countedDatabase(infra.mongoUrl);
  const running: Running[] = [];
  const figures = new Map<string, Figures[]>();
  const windows: Array<{ key: string; fromUs: number; toUs: number; cpu: Record<string, number>; pids: Running['pids'] }> = [];
  try {
    for (const [i, b] of builds.entries()) running.push(await startBuild(b, i, infra, mongoUrl, dataDir, profDir));
    // the reads' subjects: one current state each in scope `email`
    for (const r of running)
      for (let s = 0; s < SEEDED; s += 500)
        await r.client.createConsents({
          accountId: ACCOUNT,
          appId: APP,
          events: Array.from({ length: 500 }, (_, k) => ({ subject: `seed-${s + k}`, issuer: ISSUER, target: TARGET, scope: 'email', action: true })),
        });
    console.log(
      `${infra.description}; builds: ${builds.map((b) => b.name).join(', ')}; ${RATE ? `${RATE} requests/s offered` : `${CONCURRENCY} calls in flight`}, ${SECONDS} s per run, ${ROUNDS} rounds`,
    );
    const run = Date.now().toString(36);
    for (let round = 0; round < ROUNDS; round++) {
      for (const job of JOBS) {
        const make = jobs[job];
        if (!make) throw new Error(`BENCH_ALONE_JOBS: unknown job ${job} (${Object.keys(jobs).join(', ')})`);
        // the builds take turns going first, so that neither always meets what the other leaves behind
        for (const r of round % 2 ? [...running].reverse() : running) {
          const call = make(r.client, `${run}-${round}-${r.build.name.replace(/\W/g, '')}`);
          await drive(call, 3, RATE || 50, CONCURRENCY); // warm-up: the JIT, the caches, the channel
          await untilQuiet();
          const before = { consent: cpuOf(r.pids.consent), webhook: cpuOf(r.pids.webhook), infra: sampleCpu() };
          await counter.take();
          const fromUs = Number(process.hrtime.bigint() / 1000n);
          const d = await drive(call, SECONDS, RATE, CONCURRENCY);
          await untilQuiet();
          const toUs = Number(process.hrtime.bigint() / 1000n);
          const after = sampleCpu();
          const n = Math.max(1, d.done);
          const shared = (label: string) => ((after?.get(label) ?? 0) - (before.infra?.get(label) ?? 0)) / n;
          const cpu = {
            consent: (cpuOf(r.pids.consent) - before.consent) / n,
            database: shared('database'),
            nats: shared('nats'),
            webhook: (cpuOf(r.pids.webhook) - before.webhook) / n,
          };
          const key = `${r.build.name}: ${job}`;
          const sorted = [...d.latencies].sort((x, y) => x - y);
          figures.set(key, [
            ...(figures.get(key) ?? []),
            {
              cpu,
              commands: (await counter.take()).workTotal / n,
              perSec: d.done / SECONDS,
              p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
              errors: d.errors,
            },
          ]);
          if (round === 0) windows.push({ key, fromUs, toUs, cpu, pids: r.pids });
          console.log(`  round ${round + 1} ${key}: ${fmt(cpu)}`);
        }
      }
    }
  } finally {
    for (const r of running) await r.stop();
    await counter.stop();
    await infra.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  console.log(`\nCPU ms per request, median of ${ROUNDS} rounds (consent, database, NATS, webhook; rounds' totals in brackets):`);
  for (const [key, f] of figures) {
    const cpu = Object.fromEntries(Object.keys(f[0]!.cpu).map((k) => [k, median(f.map((x) => x.cpu[k]!))]));
    console.log(
      `  ${key.padEnd(28)} ${fmt(cpu)} [${f.map((x) => total(x.cpu).toFixed(2)).join(', ')}]; ${median(f.map((x) => x.commands)).toFixed(2)} database commands, ${Math.round(median(f.map((x) => x.perSec)))}/s, p99 ${median(f.map((x) => x.p99)).toFixed(0)} ms, ${f.reduce((s, x) => s + x.errors, 0)} errors`,
    );
  }
  if (!profDir) return;
  for (const w of windows) {
    for (const service of ['consent', 'webhook'] as const) {
      const file = join(profDir, `${w.pids[service]}.cpuprofile`);
      let profile: CpuProfile;
      try {
        profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
      } catch {
        continue;
      }
      const c = charge(profile, w.fromUs, w.toUs);
      if (c.totalMs < 20) continue;
      const ms = (v: number) => ((w.cpu[service]! * v) / c.totalMs).toFixed(3);
      console.log(`\n${w.key}, ${service}: where ${w.cpu[service]!.toFixed(3)} ms per request went (profiled, first round)`);
      console.log(
        `  by package or file: ${c.byOwner
          .slice(0, 16)
          .map(([k, v]) => `${k} ${ms(v)}`)
          .join(', ')}`,
      );
      console.log(
        `  by function: ${c.byFunction
          .slice(0, 20)
          .map(([k, v]) => `${k} ${ms(v)}`)
          .join(', ')}`,
      );
      console.log(
        `  Accord functions: ${c.byAccordFunction
          .slice(0, 12)
          .map(([k, v]) => `${k} ${ms(v)}`)
          .join(', ')}`,
      );
    }
  }
  console.log(`\nprofiles: ${profDir}`);
}

const total = (cpu: Record<string, number>) => Object.values(cpu).reduce((s, v) => s + v, 0);
const fmt = (cpu: Record<string, number>) =>
  `${Object.entries(cpu)
    .map(([k, v]) => `${k} ${v.toFixed(3)}`)
    .join(' · ')} = ${total(cpu).toFixed(2)}`;

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
