import autocannon from 'autocannon';
import { paced } from './paced';
import { formatCpu, perRequest, sampleCpu, untilQuiet } from './cpu';
import { STRESS_COMMAND, stressWanted, withStress } from './stress';
import type { CommandCounter } from './mongo-proxy';

/** What one autocannon run of a job gives. */
export interface RunFigures {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** CPU ms per request of each process of the bench's tree (bench/src/cpu.ts), Linux only. */
  cpuMs?: Record<string, number>;
}

export interface BenchResult extends RunFigures {
  name: string;
  /**
   * The same job offered half the rate it reached at full speed (`sideBySide` runs): the latency
   * a user sees when the system is not saturated — the issue's goal is p99 ≤ 50 ms there.
   */
  halfPeak?: RunFigures & { offeredPerSec: number };
  /** The same job at full speed with `stress-ng --cpu 2` beside the bench (`sideBySide` runs, BENCH_STRESS=1). */
  stressed?: RunFigures;
  /** Requests/s of the same operation's ceiling (bench/src/ceiling.ts) measured in the same run. */
  ceilingPerSec?: number;
  /** Events per request (array POSTs): the table shows events/s too. */
  eventsPerRequest?: number;
  /** Database commands per request under this load, counted at the wire (the whole stack, background work included). */
  commands?: { perRequest: number; detail: string };
}

let commandCounter: CommandCounter | undefined;
/** Counts the database commands of every following run (the server's count, or the proxy's). */
export function countCommandsDuringRuns(counter: CommandCounter): void {
  commandCounter = counter;
}

const RATE = Number(process.env.BENCH_RATE ?? 0) || undefined;

/*
 * BENCH_RATE: a fixed offered load (requests/s in all, paced evenly: paced.ts) makes CPU per
 * request comparable between two builds — at full speed, background work that runs per second
 * (the log's passes, the relay's polls) is shared by however many requests the run happened to
 * reach. Every run of the bench takes it, the ceiling's included (its ratios then mean nothing).
 */

/**
 * Runs an autocannon run and adds the CPU each process spent per completed request, and the
 * database commands. The run starts on a quiet stack, and the counting goes on after it until the
 * stack is quiet again: what a request causes after its answer (publication, webhook delivery,
 * the log's sequencing) is part of its cost.
 */
export async function withCpu<T extends { total: number }>(
  run: () => Promise<T>,
): Promise<{ result: T; cpuMs?: Record<string, number>; commands?: BenchResult['commands'] }> {
  const settled = await untilQuiet();
  if (!settled.quiet) console.log(`(the stack was still busy after ${Math.round(settled.waitedMs / 1000)} s; measuring anyway)`);
  const before = sampleCpu();
  await commandCounter?.take();
  const result = await run();
  const n = result.total;
  await untilQuiet();
  const cpuMs = perRequest(before, sampleCpu(), n);
  const c = await commandCounter?.take();
  const commands =
    c && n > 0
      ? {
          perRequest: c.workTotal / n,
          detail: [...c.work.entries()]
            .sort((a, b) => b[1] - a[1])
            .filter(([, v]) => v / n >= 0.005)
            .map(([k, v]) => `${k} ${(v / n).toFixed(2)} × ${((c.waitMs.get(k) ?? 0) / v).toFixed(1)} ms`)
            .join(', '),
        }
      : undefined;
  return { result, ...(cpuMs ? { cpuMs } : {}), ...(commands ? { commands } : {}) };
}

/**
 * Runs one endpoint at full speed (autocannon, `connections` requests in flight) or at a fixed
 * rate (`rate` or BENCH_RATE, paced evenly: paced.ts). `non2xx` responses count as errors, so a benchmark
 * that silently measures error pages shows it. `body` and `path`, when functions, make a fresh
 * body or path (with query) for every request (the count goes on across the runs of a job).
 *
 * A `sideBySide` job (one the side-by-side table compares with a peer) runs again at half the
 * rate it reached, paced (`halfPeak`: its p99 when not saturated), and with BENCH_STRESS=1 once more at
 * full speed with `stress-ng --cpu 2` beside (`stressed`), so that the idle and the loaded ratios
 * come from one command, minutes apart rather than hours.
 */
export async function measure(
  name: string,
  opts: {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string | ((n: number) => string);
    path?: (n: number) => string;
    durationSec: number;
    connections?: number;
    /** Requests/s offered in all, paced evenly (paced.ts); BENCH_RATE otherwise. */
    rate?: number;
    timeoutSec?: number;
    /** A job of the side-by-side table: also measured at half its peak, and under stress-ng with BENCH_STRESS=1. */
    sideBySide?: boolean;
    /** Also measured at half its peak (sideBySide implies it). */
    halfPeak?: boolean;
  },
): Promise<BenchResult> {
  let n = 0;
  const { body, path } = opts;
  const connections = opts.connections ?? 10;
  const fresh = typeof body === 'function' || path !== undefined;
  const once = async (rate: number | undefined) => {
    const offered = rate ?? RATE;
    // a fixed offered rate is paced evenly over each second (paced.ts); full speed is autocannon's
    const { result, cpuMs, commands } = await withCpu(() => (offered ? pacedFigures(offered) : cannonFigures()));
    const { total: _total, ...figures } = result;
    return { figures: { ...figures, ...(cpuMs ? { cpuMs } : {}) } as RunFigures, commands };
  };
  const pacedFigures = async (rate: number): Promise<RunFigures & { total: number }> => {
    const r = await paced({
      url: opts.url,
      method: opts.method ?? 'GET',
      ...(opts.headers ? { headers: opts.headers } : {}),
      next: () => {
        const i = n++;
        return { ...(typeof body === 'function' ? { body: body(i) } : body !== undefined ? { body } : {}), ...(path ? { path: path(i) } : {}) };
      },
      rate,
      durationSec: opts.durationSec,
      connections,
      ...(opts.timeoutSec ? { timeoutSec: opts.timeoutSec } : {}),
    });
    const refused = [...r.non2xx].map(([code, count]) => `HTTP ${code} ×${count}`);
    if (refused.length || r.failed) console.log(`${name} at ${rate}/s: ${[...refused, r.failed ? `${r.failed} failed` : ''].filter(Boolean).join(', ')}`);
    const non2xx = [...r.non2xx.values()].reduce((a, b) => a + b, 0);
    return { total: r.total, requestsPerSec: Math.round(r.requestsPerSec), p50Ms: r.p50Ms, p99Ms: r.p99Ms, errors: non2xx + r.failed };
  };
  const cannonFigures = async (): Promise<RunFigures & { total: number }> => {
    const result = await autocannon({
      url: opts.url,
      method: opts.method ?? 'GET',
      headers: opts.headers,
      duration: opts.durationSec,
      connections,
      ...(opts.timeoutSec ? { timeout: opts.timeoutSec } : {}),
      ...(typeof body === 'string' ? { body } : {}),
      // A fresh body or path per request (autocannon 8's idReplacement sends nothing at all).
      ...(fresh
        ? {
            requests: [
              {
                setupRequest: (req: autocannon.Request) => {
                  const i = n++;
                  return { ...req, ...(typeof body === 'function' ? { body: body(i) } : {}), ...(path ? { path: path(i) } : {}) };
                },
              },
            ],
          }
        : {}),
    });
    if (result.errors + result.timeouts + result.non2xx > 0) {
      const statuses = Object.entries(result.statusCodeStats ?? {})
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, v]) => `HTTP ${code} ×${(v as { count: number }).count}`);
      console.log(
        `${name}: ${[...statuses, result.errors ? `${result.errors} connection errors` : '', result.timeouts ? `${result.timeouts} timeouts` : ''].filter(Boolean).join(', ')}`,
      );
    }
    return {
      total: result.requests.total,
      requestsPerSec: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      // Requests still unanswered when the run ends are not in autocannon's counts: when nothing
      // completed at all, every open connection was such a request, and it counts as an error.
      errors: result.errors + result.timeouts + result.non2xx + (result.requests.total === 0 ? connections : 0),
    };
  };
  const { figures, commands } = await once(opts.rate);
  const out: BenchResult = { name, ...figures, ...(commands ? { commands } : {}) };
  if ((opts.sideBySide || opts.halfPeak) && !opts.rate && !RATE && figures.requestsPerSec > 1) {
    const offeredPerSec = Math.max(1, Math.round(figures.requestsPerSec / 2));
    out.halfPeak = { ...(await once(offeredPerSec)).figures, offeredPerSec };
  }
  if (opts.sideBySide && stressWanted()) out.stressed = (await withStress(() => once(opts.rate))).figures;
  return out;
}

/** `p99 (p50) ms at N/s offered`, or '' without a half-peak run. */
export const halfPeakCell = (r: BenchResult): string =>
  r.halfPeak ? `${r.halfPeak.p99Ms.toFixed(0)} at ${r.halfPeak.offeredPerSec}/s${r.halfPeak.errors ? ` (${r.halfPeak.errors} errors)` : ''}` : '';

export function printResults(results: BenchResult[]): void {
  const rows = results.map((r) => [
    r.name,
    String(r.requestsPerSec),
    r.eventsPerRequest ? String(r.requestsPerSec * r.eventsPerRequest) : '',
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    halfPeakCell(r),
    String(r.errors),
    r.ceilingPerSec ? String(r.ceilingPerSec) : '',
    r.ceilingPerSec ? (r.requestsPerSec / r.ceilingPerSec).toFixed(2) : '',
  ]);
  const head = ['benchmark', 'req/s', 'events/s', 'p50 ms', 'p99 ms', 'p99 ms at ½ peak', 'errors', 'ceiling req/s', 'ratio'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  const withCpuFigures = results.filter((r) => r.cpuMs);
  if (!withCpuFigures.length) return;
  console.log('\nCPU per request, by process (ms, from /proc over the same runs and the work they left, until the stack was quiet):');
  for (const r of withCpuFigures) console.log(`  ${r.name}: ${formatCpu(r.cpuMs!)}`);
  const halved = results.filter((r) => r.halfPeak?.cpuMs);
  if (halved.length) {
    console.log('\nThe same at half the peak rate (each offered half the req/s it reached above):');
    for (const r of halved) console.log(`  ${r.name}: ${formatCpu(r.halfPeak!.cpuMs!)}`);
  }
  const stressed = results.filter((r) => r.stressed);
  if (stressed.length) {
    console.log(`\nWith \`${STRESS_COMMAND.join(' ')}\` beside the bench (BENCH_STRESS=1), full speed:`);
    for (const r of stressed) {
      const s = r.stressed!;
      console.log(
        `  ${r.name}: ${s.requestsPerSec} req/s (${(s.requestsPerSec / Math.max(1, r.requestsPerSec)).toFixed(2)} of idle), p99 ${s.p99Ms} ms, ${s.errors} errors${s.cpuMs ? `; ${formatCpu(s.cpuMs)}` : ''}`,
      );
    }
  }
  const withCommands = results.filter((r) => r.commands && r.commands.perRequest > 0);
  if (!withCommands.length) return;
  console.log('\nDatabase commands per request under load (counted at the wire over the same runs, background work included; × mean time to the reply):');
  for (const r of withCommands) console.log(`  ${r.name}: ${r.commands!.perRequest.toFixed(2)} (${r.commands!.detail})`);
}
