import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startMongoJavaServer } from '@accord/local-stack';
import { COUNTING_ENV, countedDatabase } from '../../../bench/src/server-counts';

const dirs: string[] = [];
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'accord-counts-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const quiet = () => undefined;

// The bench counts the stack's database commands in the local server (CountingBackend), so that
// no proxy stands between the stack and its database; a server that cannot count gets the proxy.
describe('database commands counted by the local server (the bench)', () => {
  it('counts each command by collection with its server time, once per window, and not its own reads', async () => {
    const server = await startMongoJavaServer(freshDir(), true, { ...process.env, ...COUNTING_ENV }, quiet);
    const client = await new MongoClient(server.url).connect();
    try {
      const admin = client.db('admin');
      await admin.command({ accordCommandCounts: 1 }); // the connection's own start-up is not in the window
      const col = client.db().collection<{ _id: number; n: number }>('counted');
      await col.insertMany([
        { _id: 1, n: 1 },
        { _id: 2, n: 2 },
      ]);
      await col.insertOne({ _id: 3, n: 3 });
      await col.updateOne({ _id: 1 }, { $inc: { n: 1 } });
      expect(await col.findOne({ _id: 1 })).toEqual({ _id: 1, n: 2 });
      await col.find({ n: { $gt: 0 } }).toArray();
      await client.db().collection('other').countDocuments();
      const first = await admin.command({ accordCommandCounts: 1 });
      expect(first.work).toEqual({ 'insert counted': 2, 'update counted': 1, 'find counted': 2, 'aggregate other': 1 });
      expect(Object.keys(first.serverMs).sort()).toEqual(Object.keys(first.work).sort());
      for (const ms of Object.values(first.serverMs as Record<string, number>)) expect(ms).toBeGreaterThan(0);
      // the window starts again
      await col.deleteOne({ _id: 3 });
      expect((await admin.command({ accordCommandCounts: 1 })).work).toEqual({ 'delete counted': 1 });
      expect((await admin.command({ accordCommandCounts: 1 })).work).toEqual({});
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it('is the bench counter without a proxy when the server counts, and a proxy in front when it does not', async () => {
    for (const counting of [true, false]) {
      const server = await startMongoJavaServer(freshDir(), true, counting ? { ...process.env, ...COUNTING_ENV } : process.env, quiet);
      const db = await countedDatabase(server.url);
      const client = await new MongoClient(db.mongoUrl).connect();
      try {
        if (counting) expect(db.mongoUrl).toBe(server.url);
        else expect(new URL(db.mongoUrl).port).not.toBe(new URL(server.url).port);
        // a server started without counting does not answer the command
        if (!counting) await expect(client.db('admin').command({ accordCommandCounts: 1 })).rejects.toThrow(/accordCommandCounts/);
        await db.counter.take();
        await client
          .db()
          .collection('c')
          .insertOne({ _id: 1 } as never);
        await client
          .db()
          .collection('c')
          .findOne({ _id: 1 } as never);
        const counts = await db.counter.take();
        expect(Object.fromEntries(counts.work)).toEqual({ 'insert c': 1, 'find c': 1 });
        expect(counts.workTotal).toBe(2);
      } finally {
        await client.close();
        await db.counter.stop();
        await server.stop();
      }
    }
  });
});
