import { attemptOutcome, deliveryId, dueEntries } from './delivery';

const policy = { schedule: [5_000, 60_000], jitter: 0 };
const at = new Date('2030-01-01T00:00:00Z');
const later = (ms: number) => new Date(at.getTime() + ms);

describe('a delivery', () => {
  it('has one id per event and webhook', () => {
    expect(deliveryId('ev-1', 7)).toMatch(/^dlv_[\w-]{24}$/);
    expect(deliveryId('ev-1', 7)).toBe(deliveryId('ev-1', 7));
    expect(new Set([deliveryId('ev-1', 7), deliveryId('ev-1', 8), deliveryId('ev-2', 7)]).size).toBe(3);
  });

  it('succeeds on a 2xx, keeping its count of failed attempts', () => {
    expect(attemptOutcome({ statusCode: 204, retryAfterMs: null }, 1, policy, at)).toEqual({
      status: 'succeeded',
      failedAttempts: 1,
      nextAttemptAt: null,
      gone: false,
    });
  });

  it('is retried on the schedule after a failure, then fails for good once the schedule is used up', () => {
    expect(attemptOutcome({ statusCode: 500, retryAfterMs: null }, 0, policy, at)).toEqual({
      status: 'pending',
      failedAttempts: 1,
      nextAttemptAt: later(5_000),
      gone: false,
    });
    expect(attemptOutcome({ statusCode: 0, retryAfterMs: null }, 1, policy, at)).toEqual({
      status: 'pending',
      failedAttempts: 2,
      nextAttemptAt: later(60_000),
      gone: false,
    });
    expect(attemptOutcome({ statusCode: 503, retryAfterMs: null }, 2, policy, at)).toEqual({
      status: 'failed',
      failedAttempts: 3,
      nextAttemptAt: null,
      gone: false,
    });
  });

  it('waits at least what Retry-After asks', () => {
    expect(attemptOutcome({ statusCode: 429, retryAfterMs: 30_000 }, 0, policy, at).nextAttemptAt).toEqual(later(30_000));
  });

  it('fails for good on 410 Gone, which disables its webhook', () => {
    expect(attemptOutcome({ statusCode: 410, retryAfterMs: null }, 0, policy, at)).toEqual({
      status: 'failed',
      failedAttempts: 1,
      nextAttemptAt: null,
      gone: true,
    });
  });
});

describe('due queue entries', () => {
  const entries = [
    { id: 'a', dueAt: later(-2) },
    { id: 'b', dueAt: later(-1) },
    { id: 'c', dueAt: later(0) },
    { id: 'd', dueAt: later(10) },
  ];

  it('are those due by now, from a random one on, with the due time of the first one not due', () => {
    expect(dueEntries(entries, at, () => 0)).toEqual({ due: ['a', 'b', 'c'], nextDueAt: later(10) });
    expect(dueEntries(entries, at, () => 0.5)).toEqual({ due: ['b', 'c', 'a'], nextDueAt: later(10) });
    expect(dueEntries(entries.slice(0, 3), at)).toMatchObject({ nextDueAt: null });
    expect(dueEntries([], at)).toEqual({ due: [], nextDueAt: null });
  });
});
