import { mkdtempSync, rmSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startMongoJavaServer, waitForPort } from '@accord/local-stack';

const dirs: string[] = [];
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'accord-infra-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const quiet = () => undefined;

// The local server of npm start / npm test when there is no mongod, MONGO_URL or Docker. CI has
// a JDK and Maven (it provisions them), so these run there; they fail, not skip, without them.
describe('local mongo-java-server', () => {
  it('keeps npm start data in its H2 file across a restart, and stops', async () => {
    const dir = freshDir();
    const first = await startMongoJavaServer(dir, false, process.env, quiet);
    expect(first.description).toMatch(/^mongo-java-server on :\d+ \(H2 file\)$/);
    const port = Number(new URL(first.url).port);
    let client = await new MongoClient(first.url).connect();
    await client
      .db()
      .collection('kept')
      .insertOne({ _id: 'x' as never, n: 1 });
    await client.close();
    await first.stop();
    await expect(waitForPort(port, '127.0.0.1', 300)).rejects.toThrow(/nothing listening/);

    const second = await startMongoJavaServer(dir, false, process.env, quiet);
    try {
      client = await new MongoClient(second.url).connect();
      expect(
        await client
          .db()
          .collection('kept')
          .findOne({ _id: 'x' as never }),
      ).toEqual({ _id: 'x', n: 1 });
      await client.close();
    } finally {
      await second.stop();
    }
  });

  it("sizes the H2 file's page cache from ACCORD_LOCAL_MONGO_CACHE_MB (64 MB unless set), and refuses a value that is not a number of MB", async () => {
    for (const [value, said] of [
      [undefined, 'page cache 64 MB'],
      ['8', 'page cache 8 MB'],
    ] as const) {
      const lines: string[] = [];
      const server = await startMongoJavaServer(freshDir(), false, { ...process.env, ACCORD_LOCAL_MONGO_CACHE_MB: value }, (l) => lines.push(l));
      try {
        const client = await new MongoClient(server.url).connect();
        await client.db().collection('c').insertOne({ n: 1 });
        await client.close();
      } finally {
        await server.stop();
      }
      expect(lines.filter((l) => l.includes('page cache'))).toEqual([expect.stringContaining(said)]);
    }
    await expect(startMongoJavaServer(freshDir(), false, { ...process.env, ACCORD_LOCAL_MONGO_CACHE_MB: '64mb' }, quiet)).rejects.toThrow(
      /ACCORD_LOCAL_MONGO_CACHE_MB must be a whole number of MB/,
    );
  });

  // What the consent store relies on, checked on the server CI uses: single-document updates are
  // atomic, a guarded upsert that loses a race fails with E11000 instead of writing, and the
  // newest value wins whatever the order of arrival.
  it('applies 40 concurrent $inc and 20 racing guarded upserts exactly (memory backend)', async () => {
    const server = await startMongoJavaServer(freshDir(), true, process.env, quiet);
    const client = await new MongoClient(server.url).connect();
    try {
      expect(server.description).toMatch(/\(memory\)$/);
      const col = client.db().collection<{ _id: string; n?: number; last?: number }>('race');
      await col.insertOne({ _id: 'counter', n: 0 });
      await Promise.all(Array.from({ length: 40 }, () => col.updateOne({ _id: 'counter' }, { $inc: { n: 1 } })));
      expect((await col.findOne({ _id: 'counter' }))?.n).toBe(40);

      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          col.updateOne({ _id: 'state', last: { $lt: i } }, { $set: { last: i } }, { upsert: true }).then(
            () => 'written',
            (err: { code?: number }) => (err.code === 11000 ? 'lost' : `error ${err.code}`),
          ),
        ),
      );
      expect(outcomes.filter((o) => o !== 'written' && o !== 'lost')).toEqual([]);
      expect((await col.findOne({ _id: 'state' }))?.last).toBe(19);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  // The memory backend answers an `_id` `$in` from the index without matching each document
  // against the list again (IdLookupMemoryBackend): what it finds must be what MongoDB finds,
  // and every query it does not take that path for (other conditions beside `_id`) unchanged.
  it('answers _id $in lookups, alone and beside other conditions, as MongoDB does (memory backend)', async () => {
    const server = await startMongoJavaServer(freshDir(), true, process.env, quiet);
    const client = await new MongoClient(server.url).connect();
    try {
      type Doc = { _id: string | number | { x: number }; n: number; tag?: string | null };
      const col = client.db().collection<Doc>('lookups');
      const docs: Doc[] = Array.from({ length: 300 }, (_, n) => ({ _id: `k${n}`, n, tag: n % 3 === 0 ? 'a' : 'b' }));
      docs.push({ _id: 7, n: 1000 }, { _id: 2.5, n: 1001, tag: null }, { _id: { x: 1 }, n: 1002 });
      await col.insertMany(docs);
      const ns = (found: Doc[]) => found.map((d) => d.n).sort((a, b) => a - b);
      const asked = ['k299', 'k5', 'k5', 'missing', 'k0', 'k150', 'k42'];

      expect(ns(await col.find({ _id: { $in: asked } }).toArray())).toEqual([0, 5, 42, 150, 299]);
      expect(ns(await col.find({ _id: { $in: [...asked, 7.0, 2.5, 8] } }).toArray())).toEqual([0, 5, 42, 150, 299, 1000, 1001]);
      expect(await col.find({ _id: { $in: [] } }).toArray()).toEqual([]);
      expect(ns(await col.find({ _id: { $in: asked } }, { sort: { n: -1 }, skip: 1, limit: 2 }).toArray())).toEqual([42, 150]);
      expect(await col.find({ _id: { $in: ['k5', 'k6'] } }, { projection: { n: 1 }, sort: { n: 1 } }).toArray()).toEqual([
        { _id: 'k5', n: 5 },
        { _id: 'k6', n: 6 },
      ]);
      // not answered by the index alone: matched document by document, as before
      expect(ns(await col.find({ _id: { $in: asked }, tag: 'a' }).toArray())).toEqual([0, 42, 150]);
      expect(ns(await col.find({ _id: { $in: asked, $ne: 'k0' } }).toArray())).toEqual([5, 42, 150, 299]);
      expect(ns(await col.find({ _id: { $in: ['k298', { x: 1 }] } }).toArray())).toEqual([298, 1002]);
      expect(ns(await col.find({ tag: { $in: [null] }, _id: { $in: [2.5, 7, 'k1'] } }).toArray())).toEqual([1000, 1001]);
      // a write by the same lookup
      expect((await col.deleteMany({ _id: { $in: ['k1', 'k2', 'nope'] } })).deletedCount).toBe(2);
      expect((await col.updateMany({ _id: { $in: ['k3', 'k4', 'k1'] } }, { $set: { tag: 'c' } })).modifiedCount).toBe(2);
      expect(ns(await col.find({ tag: 'c' }).toArray())).toEqual([3, 4]);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  // The memory backend's stored documents share their field names and short repeated values
  // (SharedStrings): the same documents, inserted and updated alike, hold far fewer strings than
  // in mongo-java-server's own memory backend, and every answer is the same.
  it('stores documents with shared names and short values: far fewer strings than the unchanged memory backend, the same answers', async () => {
    const count = 5_000;
    const strings = async (backend: 'accord' | 'memory') => {
      const server = await startMongoJavaServer(freshDir(), true, process.env, quiet, undefined, backend);
      const client = await new MongoClient(server.url).connect();
      try {
        const col = client.db().collection<{ _id: string }>('shared');
        const docs = Array.from({ length: count }, (_, n) => ({
          _id: `event-${n}`,
          accountId: `account-${n % 3}`,
          issuer: 'https://issuer.example',
          scope: n % 2 ? 'email' : 'sms',
          tags: ['a', `tag-${n % 5}`],
          cur: { id: `cur-${n}`, appId: 'app-1', action: n % 4 === 0 ? null : true },
        }));
        for (let i = 0; i < docs.length; i += 1_000) await col.insertMany(docs.slice(i, i + 1_000));
        await col.updateMany({ accountId: 'account-1' }, { $set: { cur: { id: 'replaced', appId: 'app-2', action: false } } });
        await col.updateMany({ _id: { $in: ['event-3', 'event-4', 'event-404'] } }, { $unset: { scope: '' } });
        const all = await col.find({}, { sort: { _id: 1 } }).toArray();
        const histogram = await new Promise<string>((resolve, reject) =>
          execFile('jmap', ['-histo:live', String(server.pid)], { maxBuffer: 64 << 20 }, (err, out) => (err ? reject(err) : resolve(out))),
        );
        const line = histogram.split('\n').find((l) => /\sjava\.lang\.String\s/.test(`${l} `));
        return { all, strings: Number(line?.trim().split(/\s+/)[1]) };
      } finally {
        await client.close();
        await server.stop();
      }
    };
    const shared = await strings('accord');
    const unchanged = await strings('memory');
    expect(shared.all).toEqual(unchanged.all);
    expect(shared.all).toHaveLength(count);
    // each document has 9 names, 6 short values and 2 ids: the unchanged backend holds ~17 strings per document
    expect(unchanged.strings).toBeGreaterThan(15 * count);
    // shared: the ids (2 per document), the rest once
    expect(shared.strings).toBeLessThan(unchanged.strings / 3);
  });

  // The memory backend's heap starts large enough for the bench's data, so the serial collector
  // never stops the server for a full collection only to grow it, and its young generation is
  // small enough that a young collection pauses for tens of ms, not hundreds; the file keeps the
  // JVM's default.
  it('starts the in-memory server under the serial collector with a 2 GB initial heap and a 128 MB young generation, the file-backed one under G1 with its heap given back when idle', async () => {
    const vmFlags = async (ephemeral: boolean) => {
      const server = await startMongoJavaServer(freshDir(), ephemeral, process.env, quiet);
      try {
        const flags = await new Promise<string>((resolve, reject) =>
          execFile('jcmd', [String(server.pid), 'VM.flags'], (err, out) => (err ? reject(err) : resolve(out))),
        );
        const flag = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(flags)?.[1]);
        return {
          collector: /-XX:\+Use(\w+)GC\b/.exec(flags)?.[1],
          initial: flag('InitialHeapSize'),
          young: flag('MaxNewSize'),
          gcTimeRatio: flag('GCTimeRatio'),
          periodicMs: flag('G1PeriodicGCInterval'),
        };
      } finally {
        await server.stop();
      }
    };
    expect(await vmFlags(true)).toMatchObject({ collector: 'Serial', initial: 2 * 1024 ** 3, young: 128 * 1024 ** 2 });
    // the file's indexes live on the heap and change with every event: G1 imported 200,000 events in half the serial collector's time (docs/benchmarks.md, "Import")
    const file = await vmFlags(false);
    expect(file).toMatchObject({ collector: 'G1', gcTimeRatio: 4, periodicMs: 30_000 });
    expect(file.initial).toBeLessThan(2 * 1024 ** 3);
  });
});
