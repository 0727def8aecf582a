import { mapLimit, sleep } from './async';

describe('mapLimit', () => {
  it('keeps the order of the items whatever order the calls finish in', async () => {
    const out = await mapLimit([30, 10, 20], 3, async (ms) => {
      await sleep(ms);
      return ms * 2;
    });
    expect(out).toEqual([60, 20, 40]);
  });

  it('never has more than `limit` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    await mapLimit(
      Array.from({ length: 20 }, (_, i) => i),
      4,
      async () => {
        most = Math.max(most, ++inFlight);
        await sleep(1);
        inFlight--;
      },
    );
    expect(most).toBe(4);
  });

  it('answers an empty list without calling fn', async () => {
    const fn = jest.fn();
    expect(await mapLimit([], 8, fn)).toEqual([]);
    expect(fn).not.toHaveBeenCalled();
  });

  it('rejects with the first failure', async () => {
    await expect(mapLimit([1, 2], 2, async (n) => (n === 2 ? Promise.reject(new Error('two')) : n))).rejects.toThrow('two');
  });
});

describe('sleep', () => {
  it('waits at least the given time', async () => {
    const t0 = Date.now();
    await sleep(20);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(15);
  });
});
