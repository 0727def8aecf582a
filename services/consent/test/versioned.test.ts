import type { Connection } from 'mongoose';
import { connectMongo, createLogger } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { Coalescer, moveDocument } from '../src/store/versioned';

interface Counter {
  _id: string;
  n: number;
  v?: number;
}

let conn: Connection;
beforeAll(async () => {
  conn = await connectMongo(testEnv('versioned').mongoUrl, createLogger('t', 'silent'));
});
afterAll(async () => conn?.close());

const coll = () => conn.db!.collection<Counter>('counters');
const moves = () => conn.db!.collection<{ _id: string; at: Date }>('moves');
const increment = (id: string) =>
  moveDocument<Counter>(coll() as never, moves() as never, id, 'v', (cur) => (cur ? { ...cur, n: cur.n + 1, v: (cur.v ?? 0) + 1 } : { _id: id, n: 1, v: 1 }));

describe('moveDocument (claimed read-modify-write)', () => {
  it('loses no update when 40 independent writers (as on several replicas) change one document at once', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => increment('c1')));
    expect(await coll().findOne({ _id: 'c1' })).toEqual({ _id: 'c1', n: 40, v: 40 });
    // every change knows the one it replaced: exactly one created the document, and the replaced
    // versions are 1..39, each once
    expect(results.filter((r) => r?.replaced === null)).toHaveLength(1);
    expect(results.map((r) => r?.replaced?.v ?? 0).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('moves a document that has no version field yet (written before versions were kept)', async () => {
    await coll().insertOne({ _id: 'c5', n: 7 } as never);
    await increment('c5');
    expect(await coll().findOne({ _id: 'c5' })).toEqual({ _id: 'c5', n: 8, v: 1 });
  });

  it('leaves the document alone when the change declines, and reports it', async () => {
    await increment('c2');
    const r = await moveDocument<Counter>(coll() as never, moves() as never, 'c2', 'v', () => undefined);
    expect(r).toBeUndefined();
    expect(await coll().findOne({ _id: 'c2' })).toMatchObject({ n: 1, v: 1 });
  });

  it('withdraws a move whose writer died before writing, so the document does not stick', async () => {
    await increment('c3');
    await moves().insertOne({ _id: 'counters:c3@1', at: new Date(Date.now() - 60_000) });
    await increment('c3');
    expect(await coll().findOne({ _id: 'c3' })).toMatchObject({ n: 2, v: 2 });
  });

  it('gives up with an error, not a wrong write, while a live writer holds the move', async () => {
    await increment('c4');
    await moves().insertOne({ _id: 'counters:c4@1', at: new Date() });
    const r = moveDocument<Counter>(coll() as never, moves() as never, 'c4', 'v', (cur) => ({ ...cur!, n: 99, v: 2 }), {
      staleMs: 60_000,
      attempts: 3,
    });
    await expect(r).rejects.toThrow(/kept changing/);
    expect(await coll().findOne({ _id: 'c4' })).toMatchObject({ n: 1, v: 1 });
  });
});

describe('Coalescer', () => {
  it('applies changes to one key one at a time, merging those that arrive meanwhile, and settles every caller', async () => {
    const applied: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const c = new Coalescer<number>(
      (a, b) => a + b,
      async (_key, n) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, 20));
        applied.push(n);
        inFlight--;
      },
    );
    await Promise.all(Array.from({ length: 10 }, () => c.add('k', 1)));
    expect(maxInFlight).toBe(1);
    expect(applied.reduce((a, b) => a + b, 0)).toBe(10);
    expect(applied.length).toBeLessThan(10); // merged
  });

  it('rejects the callers of a failed application and goes on with later changes', async () => {
    let fail = true;
    const c = new Coalescer<number>(
      (a, b) => a + b,
      async () => {
        if (fail) throw new Error('boom');
      },
    );
    await expect(c.add('k', 1)).rejects.toThrow('boom');
    fail = false;
    await expect(c.add('k', 1)).resolves.toBeUndefined();
  });
});
