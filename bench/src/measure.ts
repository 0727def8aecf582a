import autocannon from 'autocannon';
import { formatCpu, perRequest, sampleCpu, untilQuiet } from './cpu';
import type { MongoCommandCounter } from './mongo-proxy';

export interface BenchResult {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** Requests/s of the same operation's ceiling (bench/src/ceiling.ts) measured in the same run. */
  ceilingPerSec?: number;
  /** Events per request (array POSTs): the table shows events/s too. */
  eventsPerRequest?: number;
  /** CPU ms per request of each process of the bench's tree (bench/src/cpu.ts), Linux only. */
  cpuMs?: Record<string, number>;
  /** Database commands per request under this load, counted at the wire (the whole stack, background work included). */
  commands?: { perRequest: number; detail: string };
}

let commandCounter: MongoCommandCounter | undefined;
/** Counts the database commands of every following run (the proxy between the stack and the server). */
export function countCommandsDuringRuns(counter: MongoCommandCounter): void {
  commandCounter = counter;
}

const RATE = Number(process.env.BENCH_RATE ?? 0) || undefined;

/**
 * autocannon's options for BENCH_RATE: a fixed offered load (requests/s in all) makes CPU per
 * request comparable between two builds — at full speed, background work that runs per second
 * (the log's passes, the relay's polls) is shared by however many requests the run happened to
 * reach. Every run of the bench takes it, the ceiling's included (its ratios then mean nothing).
 */
export const offeredLoad = (): { overallRate?: number } => (RATE ? { overallRate: RATE } : {});

/**
 * Runs an autocannon run and adds the CPU each process spent per completed request, and the
 * database commands. The run starts on a quiet stack, and the counting goes on after it until the
 * stack is quiet again: what a request causes after its answer (publication, webhook delivery,
 * the log's sequencing) is part of its cost.
 */
export async function withCpu(
  run: () => Promise<autocannon.Result>,
): Promise<{ result: autocannon.Result; cpuMs?: Record<string, number>; commands?: BenchResult['commands'] }> {
  const settled = await untilQuiet();
  if (!settled.quiet) console.log(`(the stack was still busy after ${Math.round(settled.waitedMs / 1000)} s; measuring anyway)`);
  const before = sampleCpu();
  commandCounter?.take();
  const result = await run();
  const n = result.requests.total;
  await untilQuiet();
  const cpuMs = perRequest(before, sampleCpu(), n);
  const c = commandCounter?.take();
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
 * Runs autocannon against one endpoint. `non2xx` responses count as errors, so a benchmark
 * that silently measures error pages shows it. `body` and `path`, when functions, make a fresh
 * body or path (with query) for every request.
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
    /** Requests/s offered in all (autocannon's overallRate); BENCH_RATE otherwise. */
    rate?: number;
    timeoutSec?: number;
  },
): Promise<BenchResult> {
  let n = 0;
  const { body, path } = opts;
  const connections = opts.connections ?? 10;
  const fresh = typeof body === 'function' || path !== undefined;
  const { result, cpuMs, commands } = await withCpu(() =>
    autocannon({
      url: opts.url,
      method: opts.method ?? 'GET',
      headers: opts.headers,
      duration: opts.durationSec,
      connections,
      ...(opts.timeoutSec ? { timeout: opts.timeoutSec } : {}),
      ...(opts.rate ? { overallRate: opts.rate } : offeredLoad()),
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
    }),
  );
  return {
    name,
    ...(cpuMs ? { cpuMs } : {}),
    ...(commands ? { commands } : {}),
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    // Requests still unanswered when the run ends are not in autocannon's counts: when nothing
    // completed at all, every open connection was such a request, and it counts as an error.
    errors: result.errors + result.timeouts + result.non2xx + (result.requests.total === 0 ? connections : 0),
  };
}

export function printResults(results: BenchResult[]): void {
  const rows = results.map((r) => [
    r.name,
    String(r.requestsPerSec),
    r.eventsPerRequest ? String(r.requestsPerSec * r.eventsPerRequest) : '',
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    String(r.errors),
    r.ceilingPerSec ? String(r.ceilingPerSec) : '',
    r.ceilingPerSec ? (r.requestsPerSec / r.ceilingPerSec).toFixed(2) : '',
  ]);
  const head = ['benchmark', 'req/s', 'events/s', 'p50 ms', 'p99 ms', 'errors', 'ceiling req/s', 'ratio'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  const withCpuFigures = results.filter((r) => r.cpuMs);
  if (!withCpuFigures.length) return;
  console.log('\nCPU per request, by process (ms, from /proc over the same runs and the work they left, until the stack was quiet):');
  for (const r of withCpuFigures) console.log(`  ${r.name}: ${formatCpu(r.cpuMs!)}`);
  const withCommands = results.filter((r) => r.commands && r.commands.perRequest > 0);
  if (!withCommands.length) return;
  console.log('\nDatabase commands per request under load (counted at the wire over the same runs, background work included; × mean time to the reply):');
  for (const r of withCommands) console.log(`  ${r.name}: ${r.commands!.perRequest.toFixed(2)} (${r.commands!.detail})`);
}
