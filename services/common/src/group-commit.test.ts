import { bulkWriteFailures, GroupCommit } from './group-commit';

const tick = () => new Promise((r) => setImmediate(r));

describe('group commit', () => {
  it('writes a lone item at once and coalesces the items added while a write is in flight', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gc = new GroupCommit<number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
    });
    const first = gc.add(1);
    await tick();
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((n) => gc.add(n));
    await tick();
    expect(batches).toEqual([[1]]); // waiting for the write in flight
    release();
    await Promise.all([first, ...rest]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('fails only the items whose documents failed, and every item when the whole write fails', async () => {
    let fail: 'one' | 'all' = 'one';
    const gc = new GroupCommit<string>(async (items) => {
      if (fail === 'all') throw new Error('connection lost');
      return new Map(items.flatMap((it, i) => (it === 'bad' ? [[i, new Error(`rejected ${it}`)] as const] : [])));
    });
    const results = await Promise.allSettled([gc.add('a'), gc.add('bad'), gc.add('c')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    fail = 'all';
    await expect(gc.add('d')).rejects.toThrow('connection lost');
  });

  it('bounds a batch by maxBatch', async () => {
    const sizes: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const gc = new GroupCommit<number>(
      async (items) => {
        sizes.push(items.length);
        if (sizes.length === 1) await gate;
      },
      { maxBatch: 2 },
    );
    const all = [1, 2, 3, 4, 5].map((n) => gc.add(n));
    release();
    await Promise.all(all);
    expect(sizes).toEqual([1, 2, 2]); // the first goes alone, at once
  });

  it('reads the failed indexes of a MongoDB bulk write error', () => {
    const failures = bulkWriteFailures({ writeErrors: [{ index: 1, code: 11000, errmsg: 'E11000 duplicate key' }] });
    expect([...failures!.keys()]).toEqual([1]);
    expect((failures!.get(1) as { code: number }).code).toBe(11000);
    expect(bulkWriteFailures(new Error('network'))).toBeUndefined();
  });
});
