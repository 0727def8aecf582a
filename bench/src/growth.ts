/**
 * How reads grow with an account's events (`BENCH_ONLY=growth npm run bench`; only when named, as
 * it seeds a million events): the account is filled to each size of BENCH_GROWTH_SIZES (default
 * 10,000, 100,000 and 1,000,000 events), and at each the p50 and p99 of BENCH_GROWTH_SAMPLES
 * sequential requests (default 30, after 3 unmeasured) through the gateway of:
 * - history search: GET /consent/v0/consents/search for one state (no `current`, no `scope`);
 * - `current=true` without `scope`: the same search of current states;
 * - an export page: GET /consent/v0/consents/export resumed with a cursor one page before the end;
 * - statistics: GET /consent/v0/consents/statistics of the application.
 *
 * The events are written with insertMany straight into consent_events, 10,000 at a time (memory
 * bounded), with their current states (consent_current, `$max` upserts as the service writes
 * them): 1,000 subjects × 5 targets, so the states stop growing at 5,000 and each state's history
 * grows with the total (200 events each at 1,000,000); the searched state is one of them.
 * ACCORD_LOCAL_MONGO_BACKEND=accord-scan measures the local database without its secondary
 * indexes (the "before" of docs/benchmarks.md); BENCH_DATABASE=file on its H2 file, as `npm start`
 * runs it, instead of its memory backend.
 */
import { createHash } from 'node:crypto';
import { MongoClient, type AnyBulkWriteOperation, type Document } from 'mongodb';

/** The consent service's documents, with string ids. */
type Doc = Document & { _id: string };

const SIZES = (process.env.BENCH_GROWTH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const SAMPLES = Number(process.env.BENCH_GROWTH_SAMPLES ?? 30);
const SUBJECTS = 1000;
const TARGETS = 5;
const ISSUER = 'https://bench.example';
const BATCH = 10_000;

const stateKey = (parts: string[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40);
const target = (t: number) => `https://bench.example/growth/${t}`;

export interface GrowthRow {
  events: number;
  /** job → [p50, p99] in ms */
  ms: Record<string, [number, number]>;
}

async function sample(url: string, headers: Record<string, string>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < SAMPLES + 3; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(url, { headers: { ...headers, 'accept-encoding': 'identity' } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
    if (i >= 3) out.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export async function benchGrowth(o: {
  baseUrl: string;
  headers: Record<string, string>;
  mongoUrl: string;
  accountId: string;
  appId: string;
}): Promise<GrowthRow[]> {
  const client = await MongoClient.connect(o.mongoUrl);
  const rows: GrowthRow[] = [];
  try {
    const events = client.db().collection<Doc>('consent_events');
    const current = client.db().collection<Doc>('consent_current');
    const start = Date.now() - 2 * Math.max(...SIZES) - 60_000; // one event a millisecond, all in the past
    const idOf = (i: number) => `${(start + i).toString(16).padStart(12, '0')}${(0xf0000000 + i).toString(16).padStart(20, '0')}`;
    let seeded = 0;
    for (const size of SIZES) {
      const t0 = Date.now();
      while (seeded < size) {
        const n = Math.min(BATCH, size - seeded);
        const docs: Doc[] = [];
        const newest = new Map<string, Doc>();
        for (let k = 0; k < n; k++) {
          const i = seeded + k;
          const subject = `growth-subject-${i % SUBJECTS}`;
          const tgt = target(Math.floor(i / SUBJECTS) % TARGETS);
          const ev = {
            _id: idOf(i),
            accountId: o.accountId,
            appId: o.appId,
            subject,
            issuer: ISSUER,
            target: tgt,
            scope: 'default',
            action: i % 7 !== 0,
            token: (i % 2_000_000).toString(36).padStart(6, '0').slice(-6),
            createdAt: new Date(start + i),
          };
          docs.push(ev);
          newest.set(stateKey([o.accountId, subject, ISSUER, tgt, 'default']), ev);
        }
        await events.insertMany(docs, { ordered: false });
        const ops: AnyBulkWriteOperation<Doc>[] = [...newest].map(([_id, ev]) => ({
          updateOne: {
            filter: { _id },
            update: {
              $max: { cur: { id: ev._id, appId: ev.appId, action: ev.action, token: ev.token, createdAt: ev.createdAt } },
              $setOnInsert: { accountId: ev.accountId, subject: ev.subject, issuer: ev.issuer, target: ev.target, scope: ev.scope },
            },
            upsert: true,
          },
        }));
        await current.bulkWrite(ops, { ordered: false });
        seeded += n;
      }
      console.log(`growth: ${size} events in the account (seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      const state = `subject=growth-subject-7&issuer=${encodeURIComponent(ISSUER)}&target=${encodeURIComponent(target(0))}`;
      const jobs: Record<string, string> = {
        'history search': `${o.baseUrl}/consent/v0/consents/search?${state}`,
        'current=true without scope': `${o.baseUrl}/consent/v0/consents/search?${state}&current=true`,
        'export page': `${o.baseUrl}/consent/v0/consents/export?cursor=${idOf(size - 501)}`,
        statistics: `${o.baseUrl}/consent/v0/consents/statistics`,
      };
      const row: GrowthRow = { events: size, ms: {} };
      for (const [name, url] of Object.entries(jobs)) {
        const xs = await sample(url, o.headers);
        row.ms[name] = [pct(xs, 50), pct(xs, 99)];
        console.log(`  ${name.padEnd(28)} p50 ${pct(xs, 50).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms`);
      }
      rows.push(row);
    }
  } finally {
    await client.close();
  }
  return rows;
}

export function printGrowth(rows: GrowthRow[]): void {
  const jobs = Object.keys(rows[0]?.ms ?? {});
  console.log(`reads as the account grows (p50 / p99 ms of ${SAMPLES} sequential requests through the gateway):`);
  console.log(`  ${'events'.padEnd(28)}${rows.map((r) => String(r.events).padStart(18)).join('')}`);
  for (const j of jobs) console.log(`  ${j.padEnd(28)}${rows.map((r) => `${r.ms[j]![0].toFixed(1)} / ${r.ms[j]![1].toFixed(1)}`.padStart(18)).join('')}`);
}
