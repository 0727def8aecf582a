/**
 * A steady offered load: requests sent at evenly spaced times, `rate` per second, over up to
 * `connections` keep-alive connections, each request's latency counted from the time it was due
 * (not from when a connection was free), so that a system falling behind shows its queueing in
 * the percentiles (the coordinated-omission correction of wrk2).
 *
 * autocannon's `overallRate` cannot serve there: each connection sends its share of the second
 * back to back as soon as the second starts, then waits for the next one (mcollina/autocannon#174),
 * so "half the peak rate" offered through it is a burst at full speed for half of every second,
 * and its p99 is the saturated p99.
 */
import { Pool } from 'undici';

export interface PacedOptions {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** The next request's body, and its path with query (the URL's own path when none). */
  next?: () => { body?: string; path?: string };
  /** Requests per second offered. */
  rate: number;
  durationSec: number;
  connections: number;
  timeoutSec?: number;
}

export interface PacedResult {
  /** Requests answered (any status). */
  total: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx, by status. */
  non2xx: Map<number, number>;
  /** Requests that failed without an answer (connection error, timeout), or were still unanswered at the end. */
  failed: number;
}

/** The q-quantile (0..1) of sorted values, nearest rank; 0 for none. */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The times (ms from the start) requests are due at `rate` per second for `durationSec`. */
export function dueTimes(rate: number, durationSec: number): number[] {
  const n = Math.max(0, Math.floor(rate * durationSec));
  return Array.from({ length: n }, (_, k) => (k * 1000) / rate);
}

export async function paced(opts: PacedOptions): Promise<PacedResult> {
  const url = new URL(opts.url);
  const pool = new Pool(url.origin, {
    connections: opts.connections,
    pipelining: 1,
    headersTimeout: (opts.timeoutSec ?? 10) * 1000,
    bodyTimeout: (opts.timeoutSec ?? 10) * 1000,
  });
  const due = dueTimes(opts.rate, opts.durationSec);
  const latencies: number[] = [];
  const non2xx = new Map<number, number>();
  let failed = 0;
  let next = 0;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const send = (dueAt: number): void => {
    const { body, path } = opts.next?.() ?? {};
    const p: Promise<void> = (async () => {
      try {
        const res = await pool.request({
          path: path ?? `${url.pathname}${url.search}`,
          method: opts.method,
          headers: opts.headers,
          ...(body !== undefined ? { body } : {}),
        });
        await res.body.dump();
        latencies.push(performance.now() - start - dueAt);
        if (res.statusCode < 200 || res.statusCode >= 300) non2xx.set(res.statusCode, (non2xx.get(res.statusCode) ?? 0) + 1);
      } catch {
        failed++;
      }
    })().finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      const now = performance.now() - start;
      while (next < due.length && due[next]! <= now) {
        send(due[next]!);
        next++;
      }
      if (next < due.length) setTimeout(pump, Math.max(0, due[next]! - now));
      else resolve();
    };
    pump();
  });
  // what is still unanswered a timeout after the last request was due fails (destroying the
  // pool rejects it, which counts it)
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, (opts.timeoutSec ?? 10) * 1000)));
  await Promise.race([Promise.allSettled(inFlight), deadline]);
  clearTimeout(timer);
  const elapsedSec = (performance.now() - start) / 1000;
  await pool.destroy();
  await Promise.allSettled(inFlight);
  latencies.sort((a, b) => a - b);
  return {
    total: latencies.length,
    requestsPerSec: latencies.length / Math.max(elapsedSec, opts.durationSec),
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    non2xx,
    failed,
  };
}
