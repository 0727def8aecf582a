import autocannon from 'autocannon';
import { formatCpu, perRequest, sampleCpu } from './cpu';

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
}

/** Runs an autocannon run and adds the CPU each process spent per completed request. */
export async function withCpu(run: () => Promise<autocannon.Result>): Promise<{ result: autocannon.Result; cpuMs?: Record<string, number> }> {
  const before = sampleCpu();
  const result = await run();
  const cpuMs = perRequest(before, sampleCpu(), result.requests.total);
  return { result, ...(cpuMs ? { cpuMs } : {}) };
}

/**
 * Runs autocannon against one endpoint. `non2xx` responses count as errors, so a benchmark
 * that silently measures error pages shows it.
 */
export async function measure(
  name: string,
  opts: { url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; durationSec: number; connections?: number },
): Promise<BenchResult> {
  const { result, cpuMs } = await withCpu(() =>
    autocannon({
      url: opts.url,
      method: opts.method ?? 'GET',
      headers: opts.headers,
      body: opts.body,
      duration: opts.durationSec,
      connections: opts.connections ?? 10,
    }),
  );
  return {
    name,
    ...(cpuMs ? { cpuMs } : {}),
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    // Requests still unanswered when the run ends are not in autocannon's counts: when nothing
    // completed at all, every open connection was such a request, and it counts as an error.
    errors: result.errors + result.timeouts + result.non2xx + (result.requests.total === 0 ? (opts.connections ?? 10) : 0),
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
  console.log('\nCPU per request, by process (ms, from /proc over the same runs):');
  for (const r of withCpuFigures) console.log(`  ${r.name}: ${formatCpu(r.cpuMs!)}`);
}
