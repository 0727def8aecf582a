import autocannon from 'autocannon';

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
}

/**
 * Runs autocannon against one endpoint. `non2xx` responses count as errors, so a benchmark
 * that silently measures error pages shows it.
 */
export async function measure(
  name: string,
  opts: { url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; durationSec: number; connections?: number },
): Promise<BenchResult> {
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    duration: opts.durationSec,
    connections: opts.connections ?? 10,
  });
  return {
    name,
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
}
