/**
 * CPU time per request, per process of the bench's own process tree (Linux /proc): where a
 * request's cost goes on the machine (gateway, each service, the database server, NATS, the
 * load generator, and the counting proxy when the database cannot count: server-counts.ts).
 * Other processes on the machine are not counted. Elsewhere than Linux the figures are absent.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU milliseconds per process label. */
export type CpuSample = Map<string, number>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

interface Proc {
  pid: number;
  ppid: number;
  cpuMs: number;
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name may hold spaces and parentheses: fields start after the last ')'
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // f[1] = ppid, f[11] = utime, f[12] = stime (fields 4, 14, 15 of proc(5))
    return { pid, ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** A readable name for a process of the stack, from its command line. */
export function labelOf(cmdline: string, pid: number, self: number): string {
  if (pid === self) return SELF;
  // BENCH_STRESS's load (its workers rename themselves stress-ng-cpu): never a cost of a request
  if (/^stress-ng/.test(cmdline)) return STRESS;
  const service = /services\/(\w+)\/dist\/main\.js/.exec(cmdline);
  if (service) return service[1]!;
  if (/ceiling\.js/.test(cmdline)) return 'ceiling app';
  if (/peers\/c15t\/server\.mjs/.test(cmdline)) return 'c15t';
  if (/\/hydra serve\b/.test(cmdline)) return 'hydra';
  if (/\bpostgres\b/.test(cmdline)) return 'postgres';
  if (/\bjava\b|mongo-java-server/.test(cmdline)) return 'database';
  if (/\bmongod\b/.test(cmdline)) return 'database';
  if (/nats-server/.test(cmdline)) return 'nats';
  return 'other';
}

/** CPU ms so far of every process below this one (and itself), summed per label; stress-ng left out. */
export function sampleCpu(): CpuSample | undefined {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return undefined;
  }
  const procs = new Map<number, Proc>();
  for (const pid of pids) {
    const p = readProc(pid);
    if (p) procs.set(pid, p);
  }
  const self = process.pid;
  const mine = (pid: number): boolean => {
    for (let p = procs.get(pid), depth = 0; p && depth < 20; p = procs.get(p.ppid), depth++) if (p.pid === self) return true;
    return false;
  };
  const out: CpuSample = new Map();
  for (const p of procs.values()) {
    if (!mine(p.pid)) continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    const label = labelOf(cmd, p.pid, self);
    if (label === STRESS) continue;
    out.set(label, (out.get(label) ?? 0) + p.cpuMs);
  }
  return out;
}

/** CPU ms per request for each label between two samples (labels with no CPU left out). */
export function perRequest(before: CpuSample | undefined, after: CpuSample | undefined, requests: number): Record<string, number> | undefined {
  if (!before || !after || requests <= 0) return undefined;
  const out: Record<string, number> = {};
  for (const [label, ms] of after) {
    const d = ms - (before.get(label) ?? 0);
    if (d > 0) out[label] = d / requests;
  }
  return out;
}

const SELF = 'bench (load generator)';
const STRESS = 'stress-ng';

/**
 * Waits until the processes the bench started (its own excluded) are quiet: under `busyMsPerSec`
 * ms of CPU per second over one `windowMs`, or `maxMs` passed. Before a run, so that the work an
 * earlier run (or the seed) left behind — publication, webhook deliveries, the log's passes —
 * is neither measured nor in the way; after it, so that the CPU a run's requests cause after
 * their answers is counted as theirs. Resolves at once where CPU cannot be read.
 */
export async function untilQuiet(opts: { busyMsPerSec?: number; windowMs?: number; maxMs?: number } = {}): Promise<{ waitedMs: number; quiet: boolean }> {
  const { busyMsPerSec = 50, windowMs = 500, maxMs = 30_000 } = opts;
  const started = Date.now();
  const busy = (s: CpuSample | undefined) => (s ? [...s].filter(([k]) => k !== SELF).reduce((sum, [, v]) => sum + v, 0) : 0);
  let last = sampleCpu();
  if (!last) return { waitedMs: 0, quiet: true };
  for (;;) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = sampleCpu();
    const rate = ((busy(now) - busy(last)) * 1000) / windowMs;
    last = now;
    if (rate < busyMsPerSec) return { waitedMs: Date.now() - started, quiet: true };
    if (Date.now() - started >= maxMs) return { waitedMs: Date.now() - started, quiet: false };
  }
}

/** `gateway 1.20 · consent 0.95 · … = total 3.40 ms` */
export function formatCpu(cpu: Record<string, number>): string {
  const entries = Object.entries(cpu).sort((a, b) => b[1] - a[1]);
  const total = entries.reduce((s, [, v]) => s + v, 0);
  return `${entries.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(' · ')} = ${total.toFixed(2)} ms CPU per request`;
}
