import { nextRetryDelay, parseRetryAfter } from './retry';

describe('retry schedule', () => {
  const policy = { schedule: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000], jitter: 0.2 };
  const mid = () => 0.5; // no jitter

  it('follows the Svix-like default schedule and stops after the last step', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => nextRetryDelay(policy, n, null, mid))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(nextRetryDelay(policy, 8, null, mid)).toBeNull();
  });

  it('jitters within the configured fraction', () => {
    expect(nextRetryDelay(policy, 1, null, () => 0)).toBe(4_000);
    expect(nextRetryDelay(policy, 1, null, () => 1)).toBe(6_000);
  });

  it('never retries earlier than Retry-After asks (up to a day) nor earlier than the schedule', () => {
    expect(nextRetryDelay(policy, 1, 60_000, mid)).toBe(60_000);
    expect(nextRetryDelay(policy, 1, 1_000, mid)).toBe(5_000);
    expect(nextRetryDelay(policy, 1, 7 * 86_400_000, mid)).toBe(86_400_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
