import { BucketMap, TokenBucket } from './token-bucket';

describe('token bucket', () => {
  const policy = { rate: 2, burst: 3 };

  test('admits exactly the burst at once, then refuses with the time until the next token', () => {
    const b = new TokenBucket(policy, 0);
    expect([1, 2, 3].map(() => b.take(policy, 0).allowed)).toEqual([true, true, true]);
    const refused = b.take(policy, 0);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfter: 1, reset: 2 });
  });

  test('refills at the rate and never above the burst', () => {
    const b = new TokenBucket(policy, 0);
    for (let i = 0; i < 3; i++) b.take(policy, 0);
    expect(b.take(policy, 499).allowed).toBe(false);
    expect(b.take(policy, 500)).toMatchObject({ allowed: true, remaining: 0 });
    expect(b.take(policy, 60_000)).toMatchObject({ allowed: true, remaining: 2 });
  });

  test('remaining counts down one per request', () => {
    const b = new TokenBucket(policy, 0);
    expect([0, 0, 0].map((t) => b.take(policy, t).remaining)).toEqual([2, 1, 0]);
  });

  test('a bucket map keeps one bucket per key and stays within its bound', () => {
    const m = new BucketMap(2);
    expect(m.take('a', policy, 0).remaining).toBe(2);
    expect(m.take('a', policy, 0).remaining).toBe(1);
    expect(m.take('b', policy, 0).remaining).toBe(2);
    m.take('c', policy, 0);
    expect(m.size).toBe(2);
  });
});
