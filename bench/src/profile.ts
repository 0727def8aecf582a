/**
 * `npm run bench:profile`: where a request's time goes, hop by hop, counted rather than timed.
 * Starts the stack as `npm run bench` does, with every service under V8's sampling profiler, and runs
 * the three jobs users compare — record one consent, read the current consent
 * (`search?current=true&scope=`), token (client_credentials) — one after another at a fixed
 * offered load (under the machine's peak, so that what is counted is the work of a request, not
 * queueing), each on a quiet stack and counted until the stack is quiet again. For each job it
 * prints, per request: CPU ms of every process (from /proc), database commands (server-counts.ts;
 * and bytes when a proxy counts them), HTTP bytes; then, from the profiles cut to the job's window, where the
 * gateway's and the consent service's CPU went, by package or Accord file.
 *
 * BENCH_PROFILE_SECONDS (per job, default 20), BENCH_PROFILE_RATE (requests/s, default 100),
 * BENCH_PROFILE_JOBS (record,read,token), BENCH_PROFILE_TOP (rows per process, default 12).
 * The profiles stay in the directory printed at the end (open them in Chrome's DevTools).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { charge, type CpuProfile } from './cpuprofile';
import { formatCpu, labelOf, perRequest, sampleCpu, untilQuiet } from './cpu';
import { startBenchStack, type BenchStack } from './stack';

const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 20);
const RATE = Number(process.env.BENCH_PROFILE_RATE ?? 100);
const TOP = Number(process.env.BENCH_PROFILE_TOP ?? 12);
const JOBS = (process.env.BENCH_PROFILE_JOBS ?? 'record,read,token').split(',').map((s) => s.trim());
const SEEDED = 2000;
const ISSUER = 'https://bench.example';

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

interface Job {
  name: string;
  opts: (b: BenchStack) => autocannon.Options;
}

const jobs: Record<string, Job> = {
  record: {
    name: 'record one consent: POST /consent/v0/consents, one event (a new state)',
    opts: (b) => {
      let n = 0;
      const run = Date.now().toString(36);
      return {
        url: `${b.stack.url}/consent/v0/consents`,
        method: 'POST',
        headers: b.headers,
        requests: [
          {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              body: JSON.stringify({ subject: `prof-${run}-${n++}`, issuer: ISSUER, target: `${ISSUER}/policy`, action: true }),
            }),
          },
        ],
      };
    },
  },
  read: {
    name: 'read the current consent: GET /consent/v0/consents/search?current=true&scope=email',
    opts: (b) => {
      let n = 0;
      return {
        url: `${b.stack.url}/consent/v0/consents/search`,
        headers: b.headers,
        requests: [
          {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              path: `/consent/v0/consents/search?${new URLSearchParams({ subject: `seed-${(n++ * 7919) % SEEDED}`, issuer: ISSUER, target: `${ISSUER}/policy`, current: 'true', scope: 'email' })}`,
            }),
          },
        ],
      };
    },
  },
  token: {
    name: 'token: POST /oauth/v0/token (client_credentials, secret in a JSON body)',
    opts: (b) => ({ url: `${b.stack.url}/oauth/v0/token`, method: 'POST', headers: { 'content-type': 'application/json' }, body: b.tokenBody }),
  },
};

/** CPU per request less each process's idle rate over the same time (`scale` = run time ÷ idle sample time). */
function netOfIdle(run: Record<string, number> | undefined, idle: Record<string, number> | undefined, scale: number): Record<string, number> | undefined {
  if (!run) return undefined;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(run)) out[k] = Math.max(0, v - (idle?.[k] ?? 0) * scale);
  return out;
}

/** pid → process label for the stack's processes (the profiles are named by pid). */
function processLabels(): Map<number, string> {
  const out = new Map<number, string>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (/services\/\w+\/dist\/main\.js/.test(cmd)) out.set(Number(d), labelOf(cmd, Number(d), process.pid));
    } catch {
      /* gone */
    }
  }
  return out;
}

async function main(): Promise<void> {
  const profDir = mkdtempSync(join(tmpdir(), 'accord-profile-'));
  const bench = await startBenchStack({ env: { NODE_OPTIONS: `--require ${join(__dirname, 'cpu-prof-preload.js')}`, BENCH_CPU_PROF_DIR: profDir } });
  const windows: Array<{ job: Job; fromUs: number; toUs: number; cpu?: Record<string, number> }> = [];
  let labels = new Map<number, string>();
  try {
    console.log(`stack ready at ${bench.stack.url} (${bench.description}); ${RATE} requests/s offered, ${SECONDS} s per job`);
    // the reads' subjects: one current state each in scope `email`
    for (let i = 0; i < SEEDED; i += 500) {
      const body = JSON.stringify(
        Array.from({ length: 500 }, (_, k) => ({ subject: `seed-${i + k}`, issuer: ISSUER, target: `${ISSUER}/policy`, scope: 'email', action: true })),
      );
      const res = await fetch(`${bench.stack.url}/consent/v0/consents`, { method: 'POST', headers: bench.headers, body });
      if (res.status !== 201) throw new Error(`seeding: HTTP ${res.status}`);
    }
    labels = processLabels();
    for (const key of JOBS) {
      const job = jobs[key];
      if (!job) throw new Error(`BENCH_PROFILE_JOBS: unknown job ${key} (record, read, token)`);
      // warm-up at the same rate: the JIT, the caches and the pools settle before counting
      await autocannon({ ...job.opts(bench), duration: 5, connections: 10, overallRate: RATE });
      await untilQuiet();
      // what each process spends idle (pollers, the profiler itself), to leave out of a request's cost
      const idleFrom = sampleCpu();
      const idleStart = Date.now();
      await new Promise((r) => setTimeout(r, 3_000));
      const idleMs = Date.now() - idleStart;
      const before = sampleCpu();
      await bench.counter.take();
      const fromUs = nowUs();
      const result = await autocannon({ ...job.opts(bench), duration: SECONDS, connections: 10, overallRate: RATE });
      await untilQuiet();
      const toUs = nowUs();
      const n = result.requests.total;
      const cpu = netOfIdle(perRequest(before, sampleCpu(), n), perRequest(idleFrom, before, n), (toUs - fromUs) / 1000 / idleMs);
      const db = await bench.counter.take();
      const bytes =
        db.bytesSent === undefined
          ? ''
          : `, ${Math.round(db.bytesSent / n)} bytes sent, ${Math.round((db.bytesReceived ?? 0) / n)} received (driver heartbeats included)`;
      windows.push({ job, fromUs, toUs, cpu });
      console.log(`\n${job.name}`);
      console.log(
        `  ${n} requests (${Math.round(result.requests.average)}/s offered ${RATE}/s), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx + result.errors} errors`,
      );
      if (cpu) console.log(`  CPU per request (net of each process's idle rate): ${formatCpu(cpu)}`);
      console.log(
        `  database per request: ${(db.workTotal / n).toFixed(2)} commands (${[...db.work.entries()]
          .sort((a, b) => b[1] - a[1])
          .filter(([, v]) => v / n >= 0.01)
          .map(([k, v]) => `${k} ${(v / n).toFixed(2)}`)
          .join(', ')})${bytes}`,
      );
      console.log(`  HTTP per request: ${Math.round(result.throughput.total / n)} bytes answered`);
    }
  } finally {
    await bench.stop();
  }
  // the profiles are written as each process exits
  const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
  for (const { job, fromUs, toUs, cpu } of windows) {
    console.log(`\nwhere the CPU went — ${job.name} (ms of CPU per request: the share of the samples × the process's CPU per request)`);
    for (const f of files) {
      const pid = Number(/^(\d+)\.cpuprofile$/.exec(f)?.[1]);
      const label = labels.get(pid);
      if (!label || !['gateway', 'consent', 'oauth', 'webhook'].includes(label)) continue;
      const c = charge(JSON.parse(readFileSync(join(profDir, f), 'utf8')) as CpuProfile, fromUs, toUs);
      if (c.totalMs < 50) continue;
      const perReq = cpu?.[label] ?? 0;
      const share = (ms: number) => `${((perReq * ms) / c.totalMs).toFixed(3)}`;
      console.log(`  ${label}: ${perReq.toFixed(2)} ms CPU per request, ${Math.round(c.totalMs)} ms sampled`);
      console.log(
        `    by package or Accord file: ${c.byOwner
          .slice(0, TOP)
          .map(([k, v]) => `${k} ${share(v)}`)
          .join(', ')}`,
      );
      console.log(
        `    by function: ${c.byFunction
          .slice(0, TOP)
          .map(([k, v]) => `${k} ${share(v)}`)
          .join(', ')}`,
      );
      console.log(
        `    Accord functions: ${c.byAccordFunction
          .slice(0, TOP)
          .map(([k, v]) => `${k} ${share(v)}`)
          .join(', ')}`,
      );
    }
  }
  console.log(`\nprofiles: ${profDir}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
