import { bulkWriteFailures, GroupCommit, type Pending } from './group-commit';

const tick = () => new Promise((r) => setImmediate(r));
const answerAll = <T>(batch: Array<Pending<T, void>>) => batch.forEach((p) => p.resolve());

describe('group commit', () => {
  it('writes the items of one turn together, and coalesces the items added while a write is in flight', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gc = new GroupCommit<number>(async (batch) => {
      batches.push(batch.map((p) => p.item));
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      answerAll(batch);
    });
    const first = [gc.add(1), gc.add(2)];
    await tick();
    expect(batches).toEqual([[1, 2]]);
    const rest = [3, 4, 5].map((n) => gc.add(n));
    await tick();
    expect(batches).toEqual([[1, 2]]); // waiting for the write in flight
    release();
    await Promise.all([...first, ...rest]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('answers each item with its own outcome, and every unanswered item with the error of a failed write', async () => {
    let fail = false;
    const gc = new GroupCommit<string, string>(async (batch) => {
      if (fail) throw new Error('connection lost');
      for (const p of batch) if (p.item === 'bad') p.reject(new Error(`rejected ${p.item}`));
      batch.filter((p) => p.item !== 'bad').forEach((p) => p.resolve(p.item.toUpperCase()));
    });
    const results = await Promise.allSettled([gc.add('a'), gc.add('bad'), gc.add('c')]);
    expect(results).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('rejected bad') },
      { status: 'fulfilled', value: 'C' },
    ]);
    fail = true;
    await expect(gc.add('d')).rejects.toThrow('connection lost');
  });

  it('rejects an item the write forgot to answer, and answers each caller once', async () => {
    const gc = new GroupCommit<number, number>(async (batch) => {
      batch[0]!.resolve(1);
      batch[0]!.reject(new Error('too late'));
    });
    const [a, b] = await Promise.allSettled([gc.add(1), gc.add(2)]);
    expect(a).toEqual({ status: 'fulfilled', value: 1 });
    expect(b).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/unanswered/) } });
  });

  it('bounds a batch by the weight of its items, and always takes at least one', async () => {
    const sizes: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const gc = new GroupCommit<number>(
      async (batch) => {
        sizes.push(batch.map((p) => p.item));
        if (sizes.length === 1) await gate;
        answerAll(batch);
      },
      { maxBatch: 10, weight: (n) => n },
    );
    const first = gc.add(1);
    await tick();
    const all = [first, ...[4, 5, 2, 12, 3].map((n) => gc.add(n))];
    release();
    await Promise.all(all);
    expect(sizes).toEqual([[1], [4, 5], [2], [12], [3]]);
  });

  it('writes up to maxInFlight batches at once, and drained() waits for them', async () => {
    let running = 0;
    let most = 0;
    const gc = new GroupCommit<number>(
      async (batch) => {
        most = Math.max(most, ++running);
        await tick();
        running--;
        answerAll(batch);
      },
      { maxBatch: 1, maxInFlight: 3 },
    );
    const all = [1, 2, 3, 4, 5, 6, 7].map((n) => gc.add(n));
    await gc.drained();
    expect(running).toBe(0);
    await Promise.all(all);
    expect(most).toBe(3);
  });

  it('without linger, writes a lone item at once and groups only what arrives while a write is in flight', async () => {
    const batches: number[][] = [];
    let finish: () => void = () => undefined;
    const gc = new GroupCommit<number, number>(
      async (batch) => {
        batches.push(batch.map((p) => p.item));
        await new Promise<void>((r) => (finish = r));
        batch.forEach((p) => p.resolve(p.item));
      },
      { linger: false },
    );
    const first = gc.add(1);
    expect(batches).toEqual([[1]]);
    const later = [gc.add(2), gc.add(3)];
    expect(batches).toEqual([[1]]);
    finish();
    expect(await first).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1], [2, 3]]);
    finish();
    expect(await Promise.all(later)).toEqual([2, 3]);
  });

  it('reads the failed indexes of a MongoDB bulk write error', () => {
    const failures = bulkWriteFailures({ writeErrors: [{ index: 1, code: 11000, errmsg: 'E11000 duplicate key' }] });
    expect([...failures!.keys()]).toEqual([1]);
    expect((failures!.get(1) as { code: number }).code).toBe(11000);
    expect(bulkWriteFailures(new Error('network'))).toBeUndefined();
    // mongoose's insertMany passes on copies of the driver's WriteErrors: `err` and `index` only
    const copied = bulkWriteFailures({ writeErrors: [{ err: { code: 11000, errmsg: 'E11000 dup' }, index: 0 }] });
    expect(copied!.get(0)).toMatchObject({ code: 11000, message: 'E11000 dup' });
  });
});
