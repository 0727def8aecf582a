import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BenchResult {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

interface Opts {
  baseUrl: string;
  /** Access token with scopes `consent` and `webhooks`. */
  token: string;
  apiKey: string;
  durationSec: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Webhook delivery end to end: registers a webhook pointing at a receiver on this machine,
 * posts consents through the gateway and measures POST /consent/v0/consents → receipt at the
 * receiver. Two phases: one consent at a time (latency without queueing), then 4 concurrent
 * posters of 25-event arrays (deliveries per second and latency under load, including queueing). Needs the webhook allow-list to open
 * loopback (as `npm start` does).
 */
export async function benchWebhooks(opts: Opts): Promise<BenchResult[]> {
  const sentAt = new Map<string, number>(); // consent id -> POST start
  const arrivedAt = new Map<string, number>(); // consent id -> first receipt
  const waiters = new Map<string, () => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      res.writeHead(204).end();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id?: string } };
        const id = body.data?.id;
        if (id && !arrivedAt.has(id)) {
          arrivedAt.set(id, now);
          waiters.get(id)?.();
        }
      } catch {
        /* not ours */
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const headers = { authorization: `Bearer ${opts.token}`, 'x-api-key': opts.apiKey, 'content-type': 'application/json' };

  const reg = await fetch(`${opts.baseUrl}/webhooks/v0`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/bench`, events: ['consent'] }),
  });
  if (reg.status !== 201) {
    server.close();
    throw new Error(`webhook registration failed: ${reg.status} ${await reg.text()}`);
  }
  const webhook = (await reg.json()) as { id: number };

  let postErrors = 0;
  let n = 0;
  /** POSTs `count` consents (an array when count > 1); returns their ids. */
  const post = async (count: number): Promise<string[]> => {
    const t0 = performance.now();
    const event = () => ({ subject: `bench-${process.pid}-${n++}`, issuer: 'https://bench.example', target: 'https://bench.example/privacy', action: true });
    const res = await fetch(`${opts.baseUrl}/consent/v0/consents`, {
      method: 'POST',
      headers,
      body: JSON.stringify(count === 1 ? event() : Array.from({ length: count }, event)),
    }).catch(() => null);
    if (!res || res.status !== 201) {
      postErrors += count;
      await res?.text().catch(() => undefined);
      return [];
    }
    const out = (await res.json()) as { id: string } | Array<{ id: string }>;
    const ids = (Array.isArray(out) ? out : [out]).map((e) => e.id);
    for (const id of ids) sentAt.set(id, t0);
    return ids;
  };
  const latencies = (ids: string[]) =>
    ids
      .filter((id) => arrivedAt.has(id))
      .map((id) => arrivedAt.get(id)! - sentAt.get(id)!)
      .sort((a, b) => a - b);
  const waitAll = async (ids: string[], timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (ids.some((id) => !arrivedAt.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };

  const results: BenchResult[] = [];
  try {
    // Phase 1: one at a time.
    const seqIds: string[] = [];
    const seqStart = performance.now();
    const seqEnd = Date.now() + Math.max(2, Math.floor(opts.durationSec / 3)) * 1_000;
    const seqErrorsBefore = postErrors;
    while (Date.now() < seqEnd) {
      const [id] = await post(1);
      if (!id) continue;
      seqIds.push(id);
      if (!arrivedAt.has(id))
        await new Promise<void>((r) => {
          const timer = setTimeout(r, 10_000);
          waiters.set(id, () => {
            clearTimeout(timer);
            r();
          });
        });
      waiters.delete(id);
    }
    const seq = latencies(seqIds);
    results.push({
      name: 'webhooks: POST /consents -> receipt, one at a time',
      requestsPerSec: round(seq.length / ((performance.now() - seqStart) / 1_000)),
      p50Ms: round(percentile(seq, 50)),
      p99Ms: round(percentile(seq, 99)),
      errors: postErrors - seqErrorsBefore + (seqIds.length - seq.length),
    });

    // Phase 2: 4 concurrent posters of 25-event arrays, so that ingest outpaces delivery.
    const loadIds: string[] = [];
    const loadSec = Math.max(2, opts.durationSec - Math.floor(opts.durationSec / 3));
    const loadStart = performance.now();
    const loadEnd = Date.now() + loadSec * 1_000;
    const loadErrorsBefore = postErrors;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (Date.now() < loadEnd) loadIds.push(...(await post(25)));
      }),
    );
    await waitAll(loadIds, 60_000);
    const load = latencies(loadIds);
    const lastArrival = Math.max(...loadIds.filter((id) => arrivedAt.has(id)).map((id) => arrivedAt.get(id)!), loadStart + 1);
    results.push({
      name: 'webhooks: deliveries/s under load, 4 posters x 25-event arrays (latency POST -> receipt)',
      requestsPerSec: round(load.length / ((lastArrival - loadStart) / 1_000)),
      p50Ms: round(percentile(load, 50)),
      p99Ms: round(percentile(load, 99)),
      errors: postErrors - loadErrorsBefore + (loadIds.length - load.length),
    });
  } finally {
    await fetch(`${opts.baseUrl}/webhooks/v0/${webhook.id}`, { method: 'DELETE', headers }).catch(() => undefined);
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
  return results;
}
