/**
 * Export throughput (`npm run bench`, area `export`): events/s of GET /consent/v0/consents/export
 * through the gateway, NDJSON and gzip, against the same-run ceiling: one bare cursor over the same
 * documents from the same database (no paging, no gRPC, no JSON), and, to show where the time
 * goes, the bare paged queries the consent service runs (1000 per page after the last id).
 * The events (BENCH_EXPORT_EVENTS, default 100,000) are seeded with insertMany straight into the
 * consent service's collection under an application id of their own, and exported with `appId`.
 */
import { MongoClient } from 'mongodb';

export const EXPORT_EVENTS = Number(process.env.BENCH_EXPORT_EVENTS ?? 100_000);
const APP = 'bench-export-app';

export interface ExportFigures {
  events: number;
  ndjsonPerSec: number;
  gzipPerSec: number;
  ceilingPerSec: number;
  pagedPerSec: number;
  ndjsonBytes: number;
  gzipBytes: number;
}

async function seed(mongoUrl: string, accountId: string): Promise<void> {
  const client = await MongoClient.connect(mongoUrl);
  try {
    const events = client.db().collection('consent_events');
    const start = Date.now() - EXPORT_EVENTS;
    for (let from = 0; from < EXPORT_EVENTS; from += 10_000) {
      const docs = Array.from({ length: Math.min(10_000, EXPORT_EVENTS - from) }, (_, k) => {
        const i = from + k;
        const at = start + i;
        return {
          _id: `${at.toString(16).padStart(12, '0')}${(0xe0000000 + i).toString(16).padStart(20, '0')}`,
          accountId,
          appId: APP,
          subject: `export-subject-${i % 25_000}`,
          issuer: 'https://bench.example',
          target: `https://bench.example/policy/${i % 10}`,
          scope: 'default',
          action: i % 7 !== 0,
          token: (i % 2_000_000).toString(36).padStart(6, '0').slice(-6),
          createdAt: new Date(at),
        };
      });
      await events.insertMany(docs as never[], { ordered: false });
    }
  } finally {
    await client.close();
  }
}

/** Reads a streamed answer to its end, counting newlines (events) and bytes on the wire. */
async function timedExport(url: string, headers: Record<string, string>): Promise<{ seconds: number; events: number; bytes: number }> {
  const started = process.hrtime.bigint();
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let events = 0;
  let bytes = 0;
  const wire = Number(res.headers.get('content-length') ?? 0);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) events++;
  }
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, events, bytes: wire || bytes };
}

export async function benchExport(o: { baseUrl: string; headers: Record<string, string>; mongoUrl: string; accountId: string }): Promise<ExportFigures> {
  console.log(`export: seeding ${EXPORT_EVENTS} events with insertMany`);
  await seed(o.mongoUrl, o.accountId);
  const url = `${o.baseUrl}/consent/v0/consents/export?appId=${APP}`;

  const client = await MongoClient.connect(o.mongoUrl);
  let ceiling: number;
  let paged: number;
  try {
    const events = client.db().collection('consent_events');
    const filter = { accountId: o.accountId, appId: APP };
    // the ceiling: one bare cursor, oldest first
    let t = process.hrtime.bigint();
    let n = 0;
    for await (const _doc of events.find(filter as never, { batchSize: 1000 }).sort({ _id: 1 })) n++;
    ceiling = n / (Number(process.hrtime.bigint() - t) / 1e9);
    if (n !== EXPORT_EVENTS) throw new Error(`ceiling read ${n} events, expected ${EXPORT_EVENTS}`);
    // the queries the consent service runs, bare: pages of 1000 after the last id
    t = process.hrtime.bigint();
    n = 0;
    for (let after: string | undefined; ;) {
      const page = await events
        .find((after ? { ...filter, _id: { $gt: after } } : filter) as never)
        .sort({ _id: 1 })
        .limit(1000)
        .toArray();
      n += page.length;
      if (page.length < 1000) break;
      after = String(page[page.length - 1]!._id);
    }
    paged = n / (Number(process.hrtime.bigint() - t) / 1e9);
  } finally {
    await client.close();
  }

  const plain = await timedExport(url, { ...o.headers, 'accept-encoding': 'identity' });
  if (plain.events !== EXPORT_EVENTS) throw new Error(`the export streamed ${plain.events} events, expected ${EXPORT_EVENTS}`);
  const gz = await timedExport(url, { ...o.headers, 'accept-encoding': 'gzip' });
  return {
    events: EXPORT_EVENTS,
    ndjsonPerSec: Math.round(plain.events / plain.seconds),
    gzipPerSec: Math.round(gz.events / gz.seconds),
    ceilingPerSec: Math.round(ceiling),
    pagedPerSec: Math.round(paged),
    ndjsonBytes: plain.bytes,
    gzipBytes: gz.bytes,
  };
}

export function printExport(f: ExportFigures): void {
  const pct = (x: number) => `${((100 * x) / f.ceilingPerSec).toFixed(1)} % of ceiling`;
  console.log(`export of ${f.events} events (GET /consent/v0/consents/export?appId=…, streamed to the end):`);
  console.log(`  ceiling: one bare cursor, same documents, same database   ${f.ceilingPerSec} events/s`);
  console.log(`  bare paged queries (1000 per page, _id > last)            ${f.pagedPerSec} events/s  (${pct(f.pagedPerSec)})`);
  console.log(`  export, NDJSON (${(f.ndjsonBytes / 2 ** 20).toFixed(1)} MB)                             ${f.ndjsonPerSec} events/s  (${pct(f.ndjsonPerSec)})`);
  console.log(`  export, Accept-Encoding: gzip                             ${f.gzipPerSec} events/s  (${pct(f.gzipPerSec)})`);
}
