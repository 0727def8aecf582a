/**
 * The domain metrics under the bench: every process's Prometheus /metrics is read before and
 * after the load, and the `accord_*` series that moved are printed (counters as the change,
 * gauges as the value at the end), with the gRPC calls handled per service. This is what a
 * platform team sees at `curl :<metrics-port>/metrics` while the stack works.
 */

/** One sample per series, keyed `name{labels}` exactly as exposed. */
export type Samples = Map<string, number>;

export function parseSamples(text: string): Samples {
  const out: Samples = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    const value = Number(line.slice(cut + 1));
    if (cut > 0 && Number.isFinite(value)) out.set(line.slice(0, cut), value);
  }
  return out;
}

/** All processes' samples, each series prefixed by its process name. */
export async function scrapeAll(ports: Record<string, number>): Promise<Samples> {
  const all: Samples = new Map();
  for (const [name, port] of Object.entries(ports)) {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`${name} /metrics: HTTP ${res.status}`);
    for (const [k, v] of parseSamples(await res.text())) all.set(`${name} ${k}`, v);
  }
  return all;
}

const GAUGES = /^\S+ accord_\w*(pending|depth|age)\w*/;

/** The rows to print: counters that moved (by how much), gauges as they are now. */
export function metricRows(before: Samples, after: Samples): Array<{ series: string; value: number; kind: 'delta' | 'now' }> {
  const rows: Array<{ series: string; value: number; kind: 'delta' | 'now' }> = [];
  const grpc = new Map<string, number>();
  for (const [k, v] of after) {
    const d = v - (before.get(k) ?? 0);
    if (GAUGES.test(k)) rows.push({ series: k, value: v, kind: 'now' });
    else if (/^\S+ accord_\w+_total[{ ]?/.test(k) && d !== 0) rows.push({ series: k, value: d, kind: 'delta' });
    else if (/^\S+ grpc_server_handled_total\{/.test(k) && d !== 0) {
      const m = /^(\S+) grpc_server_handled_total\{.*grpc_service="([^"]+)".*grpc_code="([^"]+)"/.exec(k);
      const key = m && `${m[1]} grpc_server_handled_total{grpc_service="${m[2]}",grpc_code="${m[3]}"}`;
      if (key) grpc.set(key, (grpc.get(key) ?? 0) + d);
    }
  }
  for (const [series, value] of grpc) rows.push({ series, value, kind: 'delta' });
  return rows.sort((a, b) => a.series.localeCompare(b.series));
}

export function printMetricRows(rows: ReturnType<typeof metricRows>): void {
  console.log('Domain metrics over the run (process metric{labels}: +change for counters, value now for gauges)');
  for (const r of rows) console.log(`  ${r.series}  ${r.kind === 'delta' ? `+${r.value}` : r.value.toFixed(r.value % 1 ? 3 : 0)}`);
}
