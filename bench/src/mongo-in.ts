/**
 * `node bench/dist/mongo-in.js`: the local database's `{_id: {$in: [keys]}}`, the one lookup a
 * batch of decisions costs (docs/benchmarks.md, "Decisions").
 *
 * Fills a collection with BENCH_IN_DOCS documents shaped like consent_current (a 40-hex `_id`
 * and a copy of an event), then times BENCH_IN_ROUNDS finds of BENCH_IN_KEYS `_id`s (all present,
 * in random order), one at a time, and prints min, p50 and p99 in ms. On the server of MONGO_URL
 * when set, else on the local mongo-java-server (memory backend, as tests and the bench use it).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startMongoJavaServer } from '@accord/local-stack';

const DOCS = Number(process.env.BENCH_IN_DOCS ?? 10_000);
const KEYS = Number(process.env.BENCH_IN_KEYS ?? 1000);
const ROUNDS = Number(process.env.BENCH_IN_ROUNDS ?? 30);

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const keyOf = (i: number) => createHash('sha256').update(String(i)).digest('hex').slice(0, 40);

async function main(): Promise<void> {
  if (!(KEYS > 0 && KEYS <= DOCS)) throw new Error('BENCH_IN_KEYS must be between 1 and BENCH_IN_DOCS');
  const dataDir = mkdtempSync(join(tmpdir(), 'accord-bench-in-'));
  const server = process.env.MONGO_URL
    ? { url: process.env.MONGO_URL, description: process.env.MONGO_URL, stop: async () => undefined }
    : await startMongoJavaServer(dataDir, true, process.env, () => undefined);
  const client = await new MongoClient(server.url).connect();
  try {
    const col = client.db('accord_bench_in').collection<{ _id: string }>('current');
    await col.drop().catch(() => undefined);
    for (let i = 0; i < DOCS; i += 1000) {
      const docs = Array.from({ length: Math.min(1000, DOCS - i) }, (_, j) => ({
        _id: keyOf(i + j),
        accountId: 'bench',
        subject: `subject-${i + j}`,
        cur: { id: `0192${String(i + j).padStart(12, '0')}`, action: true, target: 'https://example.org/spec/1', createdAt: new Date() },
      }));
      await col.insertMany(docs, { ordered: false });
    }
    const times: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const keys = Array.from({ length: KEYS }, () => keyOf(Math.floor(Math.random() * DOCS)));
      const started = process.hrtime.bigint();
      const found = await col.find({ _id: { $in: keys } }).toArray();
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (found.length !== new Set(keys).size) throw new Error(`found ${found.length} of ${new Set(keys).size} keys`);
    }
    const f = (ms: number) => ms.toFixed(1);
    console.log(
      `$in of ${KEYS} _ids among ${DOCS} documents on ${server.description}, ${ROUNDS} rounds: min ${f(Math.min(...times))} ms, p50 ${f(percentile(times, 50))} ms, p99 ${f(percentile(times, 99))} ms`,
    );
  } finally {
    await client.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
