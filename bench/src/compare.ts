/**
 * The side-by-side table of `npm run bench`: each job a user compares (record one consent, read
 * the current consent, get a token) with Accord's figure, each peer's and the ceiling's from the
 * same run, the ratios, and each peer's settings.
 */
import { halfPeakCell, type BenchResult } from './measure';
import type { PeerReport } from './peers';
import { STRESS_COMMAND } from './stress';

export interface Job {
  job: string;
  accord?: BenchResult;
  peers: BenchResult[];
  /** Why the peer of this job was not measured. */
  peerMissing?: string;
  peerName: string;
  ceiling?: BenchResult;
  /** The issue's goals: Accord ÷ the faster peer run, Accord ÷ the ceiling. */
  goals: { peer?: number; ceiling?: number };
}

export function jobs(
  accord: { record?: BenchResult; read?: BenchResult; token?: BenchResult },
  ceilings: { record?: BenchResult; read?: BenchResult; token?: BenchResult },
  peers: PeerReport,
): Job[] {
  const c15t = 'runs' in peers.c15t ? peers.c15t.runs : [];
  const c15tMissing = 'missing' in peers.c15t ? peers.c15t.missing : undefined;
  return [
    {
      job: 'record one consent',
      accord: accord.record,
      peers: c15t.map((r) => r.record),
      peerMissing: c15tMissing,
      peerName: 'c15t',
      ceiling: ceilings.record,
      goals: { peer: 2, ceiling: 0.5 },
    },
    {
      job: 'read the current consent',
      accord: accord.read,
      peers: c15t.map((r) => r.read),
      peerMissing: c15tMissing,
      peerName: 'c15t',
      ceiling: ceilings.read,
      goals: { peer: 2 },
    },
    {
      job: 'token (client_credentials)',
      accord: accord.token,
      peers: 'token' in peers.hydra ? [peers.hydra.token] : [],
      peerMissing: 'missing' in peers.hydra ? peers.hydra.missing : undefined,
      peerName: 'Ory Hydra',
      ceiling: ceilings.token,
      goals: { peer: 3 },
    },
  ];
}

const cpuTotal = (r: BenchResult) =>
  r.cpuMs
    ? Object.values(r.cpuMs)
        .reduce((s, v) => s + v, 0)
        .toFixed(2)
    : '';

/** The ratio of Accord's req/s to `other`'s, or '' when either is missing or zero. */
export function ratio(accord: Pick<BenchResult, 'requestsPerSec'> | undefined, other: Pick<BenchResult, 'requestsPerSec'> | undefined): string {
  if (!accord || !other || other.requestsPerSec <= 0) return '';
  return (accord.requestsPerSec / other.requestsPerSec).toFixed(2);
}

/** The faster of a job's peer runs (by req/s), `stressed` for the runs under stress-ng. */
const fasterOf = (runs: BenchResult[], stressed = false): BenchResult | undefined => {
  const rate = (r: BenchResult) => (stressed ? (r.stressed?.requestsPerSec ?? -1) : r.requestsPerSec);
  return runs.reduce<BenchResult | undefined>((best, p) => (!best || rate(p) > rate(best) ? p : best), undefined);
};

/** The issue's p99 goal at half the peak rate (ms). */
export const HALF_PEAK_P99_MS = 50;
/** The issue's goal for arrays of 100 (events/s). */
export const ARRAY_EVENTS_PER_SEC = 20_000;

export interface GoalCheck {
  goal: string;
  measured: string;
  /** undefined: not measured in this run. */
  met?: boolean;
}

/**
 * Every goal of the issue this run measured: Accord ÷ the faster peer run and ÷ the ceiling, the
 * array's events/s, p99 at half the peak rate, and (BENCH_STRESS=1) Accord ÷ the faster peer
 * under stress-ng no worse than without it.
 */
export function goalChecks(list: Job[], array?: BenchResult): GoalCheck[] {
  const out: GoalCheck[] = [];
  const times = (a: BenchResult | undefined, b: BenchResult | undefined, want: number, goal: string) => {
    if (!a || !b || b.requestsPerSec <= 0) return;
    const r = a.requestsPerSec / b.requestsPerSec;
    out.push({ goal, measured: `${r.toFixed(2)} (${a.requestsPerSec} ÷ ${b.requestsPerSec} req/s)`, met: r >= want });
  };
  for (const j of list) {
    const faster = fasterOf(j.peers);
    if (j.goals.peer) times(j.accord, faster, j.goals.peer, `${j.job}: ≥ ${j.goals.peer} × the faster ${j.peerName}`);
    if (j.goals.ceiling) times(j.accord, j.ceiling, j.goals.ceiling, `${j.job}: ≥ ${j.goals.ceiling} of the ceiling`);
  }
  if (array)
    out.push({
      goal: `array of 100: ≥ ${ARRAY_EVENTS_PER_SEC.toLocaleString('en')} events/s`,
      measured: `${(array.requestsPerSec * (array.eventsPerRequest ?? 100)).toLocaleString('en')} events/s`,
      met: array.requestsPerSec * (array.eventsPerRequest ?? 100) >= ARRAY_EVENTS_PER_SEC,
    });
  for (const [job, r] of [...list.map((j) => [j.job, j.accord] as const), ['array of 100', array] as const]) {
    if (!r?.halfPeak) continue;
    out.push({
      goal: `${job}: p99 ≤ ${HALF_PEAK_P99_MS} ms at half the peak rate`,
      measured: `${r.halfPeak.p99Ms.toFixed(0)} ms at ${r.halfPeak.offeredPerSec}/s${r.halfPeak.errors ? `, ${r.halfPeak.errors} errors` : ''}`,
      met: r.halfPeak.p99Ms <= HALF_PEAK_P99_MS && r.halfPeak.errors === 0,
    });
  }
  for (const j of list) {
    const idle = fasterOf(j.peers);
    const loaded = fasterOf(j.peers, true);
    if (!j.accord?.stressed || !idle || !loaded?.stressed || idle.requestsPerSec <= 0 || loaded.stressed.requestsPerSec <= 0) continue;
    const before = j.accord.requestsPerSec / idle.requestsPerSec;
    const after = j.accord.stressed.requestsPerSec / loaded.stressed.requestsPerSec;
    out.push({
      goal: `${j.job}: Accord ÷ ${j.peerName} with stress-ng beside no worse than without`,
      measured: `${after.toFixed(2)} with, ${before.toFixed(2)} without`,
      met: after >= before,
    });
  }
  return out;
}

export function printSideBySide(list: Job[], peers: PeerReport, array?: BenchResult): void {
  const rows: string[][] = [];
  const stressed = list.some((j) => j.accord?.stressed || j.peers.some((p) => p.stressed));
  for (const j of list) {
    if (!j.accord && !j.peers.length && !j.peerMissing) continue;
    const faster = fasterOf(j.peers);
    const line = (name: string, r: BenchResult | undefined, vs: string, goal: string) => [
      name,
      r ? String(r.requestsPerSec) : '',
      r ? r.p50Ms.toFixed(1) : '',
      r ? r.p99Ms.toFixed(1) : '',
      r ? halfPeakCell(r) : '',
      r ? String(r.errors) : '',
      r ? cpuTotal(r) : '',
      vs,
      goal,
      ...(stressed ? [r?.stressed ? String(r.stressed.requestsPerSec) : '', r?.stressed && vs ? ratio(j.accord?.stressed, r.stressed) : ''] : []),
    ];
    rows.push(line(j.job, undefined, '', ''));
    rows.push(line(`  Accord: ${j.accord?.name ?? 'not run (BENCH_ONLY)'}`, j.accord, '', ''));
    for (const p of j.peers) rows.push(line(`  ${p.name}`, p, ratio(j.accord, p), p === faster && j.goals.peer ? `≥ ${j.goals.peer}` : ''));
    if (j.peerMissing) rows.push(line(`  ${j.peerName}: not measured — ${j.peerMissing}`, undefined, '', ''));
    if (j.ceiling) rows.push(line(`  ${j.ceiling.name}`, j.ceiling, ratio(j.accord, j.ceiling), j.goals.ceiling ? `≥ ${j.goals.ceiling}` : ''));
  }
  if (!rows.length) return;
  const head = [
    'side by side, same run',
    'req/s',
    'p50 ms',
    'p99 ms',
    'p99 ms at ½ peak',
    'errors',
    'CPU ms/req',
    'Accord ÷ it',
    'goal',
    ...(stressed ? ['req/s, stress-ng', 'Accord ÷ it, stress-ng'] : []),
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(fmt(head));
  for (const r of rows) console.log(fmt(r));
  console.log(
    '(CPU ms/req: every process of the bench run, load generator included; "goal" marks the ratio the issue sets: against the faster peer run, and the ceiling)',
  );
  if (stressed) console.log(`(stress-ng: the same runs again at full speed with \`${STRESS_COMMAND.join(' ')}\` beside the bench)`);
  console.log('peer settings:');
  if ('runs' in peers.c15t) for (const r of peers.c15t.runs) console.log(`  c15t (${r.label}): ${r.settings}`);
  if ('settings' in peers.hydra) console.log(`  Ory Hydra: ${peers.hydra.settings}`);
  const checks = goalChecks(list, array);
  if (!checks.length) return;
  console.log("\nthe issue's goals, this run:");
  const width = Math.max(...checks.map((c) => c.goal.length));
  for (const c of checks) console.log(`  ${c.met === undefined ? '?' : c.met ? 'met    ' : 'not met'}  ${c.goal.padEnd(width)}  ${c.measured}`);
}
