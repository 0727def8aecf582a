import { eventually } from './wait';

describe('eventually', () => {
  test('answers the first truthy value of the check', async () => {
    let n = 0;
    await expect(eventually(() => ++n >= 3 && n, 2_000, 'three calls', { stepMs: 1 })).resolves.toBe(3);
  });

  test('names what it waited for when time runs out', async () => {
    await expect(eventually(() => false, 20, 'the receiver', { stepMs: 5 })).rejects.toThrow('timed out waiting for the receiver (20 ms)');
  });

  test('tolerant: a throwing check counts as not yet, and the deadline answers the last value', async () => {
    let n = 0;
    const check = async () => {
      if (++n < 3) throw new Error('outage');
      return 0;
    };
    await expect(eventually(check, 1_000, 'recovery', { stepMs: 5, tolerant: true })).resolves.toBe(0);
    expect(n).toBeGreaterThan(2);
  });
});
