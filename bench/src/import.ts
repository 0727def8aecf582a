/**
 * Import throughput (`npm run bench`, area `import`, only when named: BENCH_ONLY=import): one
 * POST /consent/v0/imports of BENCH_IMPORT_EVENTS NDJSON lines (default 1,000,000), generated as
 * they are sent (the body is a stream, never built whole), with original times spread over five
 * years. Reports the time, events/s, the peak resident memory of each process (sampled from its
 * `process_resident_memory_bytes` every 500 ms) and the database commands per 1,000 events
 * (counted by the database server, or the bench's proxy: server-counts.ts). The goal (issue 37 §3): under 5 minutes for a
 * million, every process under 256 MB.
 */
import type { CommandCounter } from './mongo-proxy';
import { scrapeAll } from './metrics';

export const IMPORT_EVENTS = Number(process.env.BENCH_IMPORT_EVENTS ?? 1_000_000);
/** Lines per chunk of the body. */
const CHUNK_LINES = 1000;
const FIVE_YEARS_MS = 5 * 365 * 86_400_000;

export interface ImportFigures {
  events: number;
  seconds: number;
  perSec: number;
  /** Peak resident MB per process. */
  peakRssMb: Record<string, number>;
  commandsPer1000: number;
  commandDetail: string;
  job: Record<string, unknown>;
}

/** The NDJSON lines of the import, chunk by chunk (each line its own externalId). */
export function* importChunks(events: number, run: string, now = Date.now()): Generator<string> {
  const start = now - FIVE_YEARS_MS;
  for (let from = 0; from < events; from += CHUNK_LINES) {
    let chunk = '';
    for (let i = from; i < Math.min(events, from + CHUNK_LINES); i++) {
      chunk +=
        JSON.stringify({
          subject: `import-subject-${i % 100_000}`,
          issuer: 'https://bench.example',
          target: `https://bench.example/policy/${i % 10}`,
          scope: i % 3 === 0 ? 'newsletter' : 'default',
          action: i % 7 !== 0,
          createdAt: new Date(start + Math.floor((i * FIVE_YEARS_MS) / Math.max(events, 1))).toISOString(),
          externalId: `${run}-${i}`,
        }) + '\n';
    }
    yield chunk;
  }
}

export async function benchImport(o: {
  baseUrl: string;
  headers: Record<string, string>;
  counter: CommandCounter;
  metricsPorts: Record<string, number>;
}): Promise<ImportFigures> {
  const run = Date.now().toString(36);
  console.log(`import: ${IMPORT_EVENTS} events in one POST /consent/v0/imports`);
  const peak: Record<string, number> = {};
  const sample = async () => {
    for (const [name, port] of Object.entries(o.metricsPorts)) {
      const s = await scrapeAll({ [name]: port }).catch(() => undefined);
      const rss = [...(s?.entries() ?? [])].find(([k]) => k.includes('process_resident_memory_bytes'))?.[1];
      if (rss !== undefined) peak[name] = Math.max(peak[name] ?? 0, rss / 2 ** 20);
    }
  };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sample();
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  const chunks = importChunks(IMPORT_EVENTS, run);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  await o.counter.take();
  const started = process.hrtime.bigint();
  const res = await fetch(`${o.baseUrl}/consent/v0/imports`, {
    method: 'POST',
    headers: { ...o.headers, 'content-type': 'application/x-ndjson' },
    body,
    duplex: 'half',
  } as RequestInit & { duplex: 'half' });
  const job = (await res.json()) as Record<string, unknown>;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const commands = await o.counter.take();
  sampling = false;
  await sampler;
  if (res.status !== 202) throw new Error(`import answered ${res.status}: ${JSON.stringify(job)}`);
  const detail = [...commands.work.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 14)
    .map(([k, n]) => `${k} ${((n * 1000) / IMPORT_EVENTS).toFixed(2)}`)
    .join(', ');
  return {
    events: IMPORT_EVENTS,
    seconds,
    perSec: IMPORT_EVENTS / seconds,
    peakRssMb: peak,
    commandsPer1000: (commands.workTotal * 1000) / IMPORT_EVENTS,
    commandDetail: detail,
    job,
  };
}

export function printImport(f: ImportFigures): void {
  console.log(`import of ${f.events} events (POST /consent/v0/imports, NDJSON, streamed)`);
  console.log(`  time ${f.seconds.toFixed(1)} s, ${Math.round(f.perSec)} events/s (goal: 1,000,000 in under 300 s)`);
  console.log(`  job: ${JSON.stringify({ state: f.job.state, read: f.job.read, stored: f.job.stored, duplicates: f.job.duplicates, refused: f.job.refused })}`);
  console.log(
    `  peak resident MB: ${Object.entries(f.peakRssMb)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')} (goal: each under 256)`,
  );
  console.log(`  database commands per 1,000 events: ${f.commandsPer1000.toFixed(1)} (${f.commandDetail})`);
}
