/**
 * The export streams in constant memory. Few, large events (each with half the contract's
 * longest subject, issuer, target, source, scope and delegate: ~3.5 KB of NDJSON) are seeded with
 * insertMany straight into the consent service's collection and exported through the gateway
 * while the test samples the heap of this process, which runs the whole stack (gateway and
 * consent service included). Streaming holds a few pages (1000 events each) whatever the size of
 * the export; holding the export would cost more than its own size (the events as objects, their
 * JSON). So the bound is a few pages, and the export is more than twice the bound: live memory,
 * sampled right after a full collection (garbage awaiting collection is not memory the export
 * holds) every 2 MB of the export received, so a loaded machine samples as often as an idle one.
 *
 * Why few large events rather than many small ones: the proof needs many times the bound in
 * bytes, not in events, while every page of an export is one query, and on the CI database
 * (mongo-java-server) each query scans the collection (as do the consent service's own polls of
 * it), so the time grows with the square of the event count: 80,000 small events (80 pages) took
 * 983 s on a loaded CI machine. And not larger still: every byte also goes through the CI
 * database's heap, BSON, gRPC and JSON in this one process.
 */
import * as http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MongoClient } from 'mongodb';
import { contracts } from '@accord/proto';
import { startStack, type Credentials, type Stack } from './harness';

const { LIMITS } = contracts.consent;
const PAGE = LIMITS.exportPage;
/** Pages of the export (the time on the CI database grows with their square). */
const PAGES = 16;
const EVENTS = PAGES * PAGE;
const BIG_SUBJECT_EVENTS = LIMITS.exportJsonMax + 1;
/** Live heap growth allowed during the export (MB): a few pages; the export is ~54 MB of NDJSON. */
const EXPORT_HEAP_BOUND_MB = 24;
/** The heap is sampled (after a full collection) every time this much more of the export has arrived: ~26 samples. */
const SAMPLE_BYTES = 2 * 2 ** 20;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let stack: Stack;
let app: Credentials;
let token: string;
/** A second account with one subject of many small events (the JSON form's limit). */
let big: Credentials;
let bigToken: string;

/** Half the longest value a field may have, different for each event (so nothing is shared between strings). */
const text = (max: number, i: number) => long(Math.floor(max / 2), i);
const long = (n: number, i: number) => `${i.toString(36)}-`.padEnd(n, 'abcdefghijklmnopqrstuvwxyz'[i % 26]!);

beforeAll(async () => {
  // The test bounds memory, not latency: a page of large events on a loaded CI machine may take
  // longer than the default 10 s gRPC deadline, which would end the export with a 504.
  stack = await startStack('export-memory', { env: { ACCORD_GRPC_TIMEOUT_MS: '60000' } });
  app = await stack.bootstrap({ account: 'export-memory', app: 'export-memory-app', scopes: ['consent'] });
  token = await stack.token(app, 'consent');
  big = await stack.bootstrap({ account: 'export-json-limit', app: 'export-json-limit-app', scopes: ['consent'] });
  bigToken = await stack.token(big, 'consent');
  const client = await MongoClient.connect(stack.env.MONGO_URL!);
  try {
    const events = client.db().collection('consent_events');
    const start = Date.now() - EVENTS - BIG_SUBJECT_EVENTS;
    const doc = (i: number, owner: Credentials, large: boolean) => {
      const at = start + i;
      return {
        _id: `${at.toString(16).padStart(12, '0')}${i.toString(16).padStart(20, '0')}`,
        accountId: owner.accountId,
        appId: owner.appId,
        subject: large ? text(LIMITS.subject, i) : 'big-subject',
        issuer: large ? text(LIMITS.issuer, i) : 'https://shop.example',
        target: large ? text(LIMITS.target, i) : `https://shop.example/purpose/${i % 20}`,
        ...(large ? { source: text(LIMITS.source, i), delegate: text(LIMITS.delegate, i) } : {}),
        scope: large ? text(LIMITS.scope, i) : '',
        action: i % 3 === 0 ? true : i % 3 === 1 ? false : null,
        token: (i % 1_000_000).toString(36).padStart(6, '0').slice(-6),
        createdAt: new Date(at),
      };
    };
    for (let from = 0; from < EVENTS; from += PAGE) {
      await events.insertMany(Array.from({ length: PAGE }, (_, k) => doc(from + k, app, true)) as never[]);
    }
    for (let from = 0; from < BIG_SUBJECT_EVENTS; from += 5_000) {
      const n = Math.min(5_000, BIG_SUBJECT_EVENTS - from);
      await events.insertMany(Array.from({ length: n }, (_, k) => doc(EVENTS + from + k, big, false)) as never[]);
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

// right after each test: an abandoned export must not slow the next test either
afterEach(() => running());
afterAll(async () => {
  await stack?.stop();
  // the CI database keeps every database in memory until the run ends: give these ~150 MB back
  const client = await MongoClient.connect(stack.env.MONGO_URL!);
  await client
    .db()
    .dropDatabase()
    .finally(() => client.close());
}, 120_000);

/** GETs the export, counting lines without keeping them, while sampling this process's heap. */
function exportSampled(
  query: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; lines: number; bytes: number; total: string; peakMb: number; samples: number }> {
  // live memory: collect before each sample, so garbage not yet collected does not count
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  let samples = 0;
  const sample = () => {
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    samples++;
  };
  return new Promise((resolve, reject) => {
    const req = http
      .get(
        `${stack.baseUrl}/consent/v0/consents/export?${query}`,
        { headers: { authorization: `Bearer ${token}`, 'x-api-key': app.apiKey, ...headers } },
        (res) => {
          let lines = 0;
          let bytes = 0;
          res.on('data', (d: Buffer) => {
            // a sample every SAMPLE_BYTES received: as many on a loaded machine as on an idle one
            if (Math.floor((bytes + d.length) / SAMPLE_BYTES) > Math.floor(bytes / SAMPLE_BYTES)) sample();
            bytes += d.length;
            for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
          });
          res.on('end', () => {
            sample();
            resolve({ status: res.statusCode!, lines, bytes, total: String(res.headers['x-total-count']), peakMb: (peak - base) / 2 ** 20, samples });
          });
        },
      )
      .on('error', reject);
    running = () => req.destroy();
  });
}

/**
 * Ends an export still running. Jest runs the test files of a 2-core CI machine one after another
 * in one process, and a test past its timeout is abandoned, not stopped: left running (with the
 * sampler of the time, a full collection every 500 ms), it slowed every later file of the run (in
 * CI three of them then timed out in their hooks).
 */
let running = (): void => undefined;

test(`exports ${EVENTS} large events (${PAGES} pages) as NDJSON with the heap bounded (growth under ${EXPORT_HEAP_BOUND_MB} MB)`, async () => {
  const started = Date.now();
  const r = await exportSampled('');
  const seconds = (Date.now() - started) / 1000;
  // the figure, for the record (README: export memory)
  console.log(
    `export of ${r.lines} events, ${(r.bytes / 2 ** 20).toFixed(1)} MB in ${seconds.toFixed(1)} s; heap growth at most ${r.peakMb.toFixed(1)} MB (${r.samples} samples)`,
  );
  expect(r.status).toBe(200);
  expect(r.lines).toBe(EVENTS);
  expect(r.total).toBe(String(EVENTS));
  // the export is more than twice the bound: holding it (its JSON alone) would exceed the bound
  expect(r.bytes / 2 ** 20).toBeGreaterThan(2 * EXPORT_HEAP_BOUND_MB);
  expect(r.peakMb).toBeLessThan(EXPORT_HEAP_BOUND_MB);
}, 600_000);

test('a subject with more events than the JSON form holds is a 413 naming subject and pointing to NDJSON, refused on its exact count', async () => {
  const res = await stack.request('GET', '/consent/v0/consents/export?subject=big-subject', {
    token: bigToken,
    apiKey: big.apiKey,
    headers: { accept: 'application/json' },
  });
  expect(res.status).toBe(413);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['subject']);
  expect(res.body.detail).toMatch(/NDJSON/);
}, 120_000);
