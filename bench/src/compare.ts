/**
 * The side-by-side table of `npm run bench`: each job a user compares (record one consent, read
 * the current consent, get a token) with Accord's figure, each peer's and the ceiling's from the
 * same run, the ratios, and each peer's settings.
 */
import type { BenchResult } from './measure';
import type { PeerReport } from './peers';

export interface Job {
  job: string;
  accord?: BenchResult;
  peers: BenchResult[];
  /** Why the peer of this job was not measured. */
  peerMissing?: string;
  peerName: string;
  ceiling?: BenchResult;
  /** The goals: Accord ÷ the faster peer run, Accord ÷ the ceiling. */
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
export function ratio(accord: BenchResult | undefined, other: BenchResult | undefined): string {
  if (!accord || !other || other.requestsPerSec <= 0) return '';
  return (accord.requestsPerSec / other.requestsPerSec).toFixed(2);
}

export function printSideBySide(list: Job[], peers: PeerReport): void {
  const rows: string[][] = [];
  for (const j of list) {
    if (!j.accord && !j.peers.length && !j.peerMissing) continue;
    const faster = j.peers.reduce<BenchResult | undefined>((best, p) => (!best || p.requestsPerSec > best.requestsPerSec ? p : best), undefined);
    const line = (name: string, r: BenchResult | undefined, vs: string, goal: string) => [
      name,
      r ? String(r.requestsPerSec) : '',
      r ? r.p50Ms.toFixed(1) : '',
      r ? r.p99Ms.toFixed(1) : '',
      r ? String(r.errors) : '',
      r ? cpuTotal(r) : '',
      vs,
      goal,
    ];
    rows.push([j.job, '', '', '', '', '', '', '']);
    rows.push(line(`  Accord: ${j.accord?.name ?? 'not run (BENCH_ONLY)'}`, j.accord, '', ''));
    for (const p of j.peers) rows.push(line(`  ${p.name}`, p, ratio(j.accord, p), p === faster && j.goals.peer ? `≥ ${j.goals.peer}` : ''));
    if (j.peerMissing) rows.push(line(`  ${j.peerName}: not measured — ${j.peerMissing}`, undefined, '', ''));
    if (j.ceiling) rows.push(line(`  ${j.ceiling.name}`, j.ceiling, ratio(j.accord, j.ceiling), j.goals.ceiling ? `≥ ${j.goals.ceiling}` : ''));
  }
  if (!rows.length) return;
  const head = ['side by side, same run', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'CPU ms/req', 'Accord ÷ it', 'goal'];
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
  console.log('peer settings:');
  if ('runs' in peers.c15t) for (const r of peers.c15t.runs) console.log(`  c15t (${r.label}): ${r.settings}`);
  if ('settings' in peers.hydra) console.log(`  Ory Hydra: ${peers.hydra.settings}`);
}
