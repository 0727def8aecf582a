/**
 * The export streams in constant memory: 100k events (seeded with insertMany straight into the
 * consent service's collection, for speed) export through the gateway while the test samples
 * the heap of this process, which runs the whole stack (gateway and consent service included).
 * Holding the export in memory would cost far more than the export's own size (the events as
 * objects, their JSON); streaming it page by page costs a few pages. The bound is
 * EXPORT_HEAP_BOUND_MB above the heap before the export: live memory, sampled every 500 ms right
 * after a full collection (garbage awaiting collection is not memory the export holds).
 */
import * as http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MongoClient } from 'mongodb';
import { startStack, type Credentials, type Stack } from './harness';

const EVENTS = 80_000;
const BIG_SUBJECT_EVENTS = 10_001;
/** Live heap growth allowed during the export (MB); the export itself is ~26 MB of NDJSON. */
const EXPORT_HEAP_BOUND_MB = 16;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let stack: Stack;
let app: Credentials;
let token: string;

beforeAll(async () => {
  // The test bounds memory, not latency: on a loaded CI machine the first page of 100,000 events
  // on the CI database (a scan, it ignores non-unique indexes) once took longer than the default
  // 10 s gRPC deadline and the export answered 504 before streaming anything.
  stack = await startStack('export-memory', { env: { ACCORD_GRPC_TIMEOUT_MS: '60000' } });
  app = await stack.bootstrap({ account: 'export-memory', app: 'export-memory-app', scopes: ['consent'] });
  token = await stack.token(app, 'consent');
  const client = await MongoClient.connect(stack.env.MONGO_URL!);
  try {
    const events = client.db().collection('consent_events');
    const start = Date.now() - EVENTS;
    for (let from = 0; from < EVENTS; from += 10_000) {
      await events.insertMany(
        Array.from({ length: 10_000 }, (_, k) => {
          const i = from + k;
          const at = start + i;
          return {
            _id: `${at.toString(16).padStart(12, '0')}${i.toString(16).padStart(20, '0')}`,
            accountId: app.accountId,
            appId: app.appId,
            subject: i < BIG_SUBJECT_EVENTS ? 'big-subject' : `subject-${i % 5000}`,
            issuer: 'https://shop.example',
            target: `https://shop.example/purpose/${i % 20}`,
            scope: '',
            action: i % 3 === 0 ? true : i % 3 === 1 ? false : null,
            token: (i % 1_000_000).toString(36).padStart(6, '0').slice(-6),
            createdAt: new Date(at),
          };
        }) as never[],
      );
    }
    // the statistics counters, as the writes would have kept them (X-Total-Count reads them)
    await client
      .db()
      .collection('consent_stats')
      .insertOne({ _id: 'app:seeded-by-export-memory-test', kind: 'app', accountId: app.accountId, appId: app.appId, total: EVENTS } as never);
  } finally {
    await client.close();
  }
}, 480_000);

afterAll(async () => {
  await stack?.stop();
});

/** GETs the export, counting lines without keeping them, while sampling this process's heap. */
function exportSampled(
  query: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; lines: number; bytes: number; total: string; peakMb: number }> {
  // live memory: collect before each sample, so garbage not yet collected does not count
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => {
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 500);
  return new Promise((resolve, reject) => {
    http
      .get(
        `${stack.baseUrl}/consent/v0/consents/export?${query}`,
        { headers: { authorization: `Bearer ${token}`, 'x-api-key': app.apiKey, ...headers } },
        (res) => {
          let lines = 0;
          let bytes = 0;
          res.on('data', (d: Buffer) => {
            bytes += d.length;
            for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
          });
          res.on('end', () => {
            clearInterval(timer);
            resolve({ status: res.statusCode!, lines, bytes, total: String(res.headers['x-total-count']), peakMb: (peak - base) / 2 ** 20 });
          });
        },
      )
      .on('error', (err) => {
        clearInterval(timer);
        reject(err);
      });
  });
}

test(`exports ${EVENTS} events as NDJSON with the heap bounded (growth under ${EXPORT_HEAP_BOUND_MB} MB)`, async () => {
  const started = Date.now();
  const r = await exportSampled('');
  const seconds = (Date.now() - started) / 1000;
  // the figure, for the record (README: export memory)
  console.log(`export of ${r.lines} events, ${(r.bytes / 2 ** 20).toFixed(1)} MB in ${seconds.toFixed(1)} s; heap growth at most ${r.peakMb.toFixed(1)} MB`);
  expect(r.status).toBe(200);
  expect(r.lines).toBe(EVENTS);
  expect(r.total).toBe(String(EVENTS));
  expect(r.bytes / 2 ** 20).toBeGreaterThan(EXPORT_HEAP_BOUND_MB);
  expect(r.peakMb).toBeLessThan(EXPORT_HEAP_BOUND_MB);
}, 900_000);

test('a subject with more events than the JSON form holds is a 413 naming subject and pointing to NDJSON, refused on its exact count', async () => {
  const res = await stack.request('GET', '/consent/v0/consents/export?subject=big-subject', {
    token,
    apiKey: app.apiKey,
    headers: { accept: 'application/json' },
  });
  expect(res.status).toBe(413);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['subject']);
  expect(res.body.detail).toMatch(/NDJSON/);
}, 900_000);
