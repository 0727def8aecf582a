import { attemptOutcome, deliveryCursor, deliveryId, dueEntries, readDeliveryCursor } from './delivery';

const policy = { schedule: [5_000, 60_000], jitter: 0 };
const at = new Date('2030-01-01T00:00:00Z');
const later = (ms: number) => new Date(at.getTime() + ms);

describe('a delivery', () => {
  it('has one id per event and webhook', () => {
    expect(deliveryId('ev-1', 7)).toMatch(/^dlv_[\w-]{24}$/);
    expect(deliveryId('ev-1', 7)).toBe(deliveryId('ev-1', 7));
    expect(new Set([deliveryId('ev-1', 7), deliveryId('ev-1', 8), deliveryId('ev-2', 7)]).size).toBe(3);
  });

  it('pages by a cursor of its position, `<creation millisecond>.<id>`: any string of that form is one, nothing else is', () => {
    const d = { createdAt: new Date(1764201600123), id: deliveryId('ev-1', 7) };
    expect(deliveryCursor(d)).toBe(`1764201600123.${d.id}`);
    expect(readDeliveryCursor(deliveryCursor(d))).toEqual(d);
    expect(readDeliveryCursor(`0.dlv_${'A'.repeat(24)}`)).toEqual({ createdAt: new Date(0), id: `dlv_${'A'.repeat(24)}` });
    for (const bad of ['', 'x', `.${d.id}`, `1.${d.id}x`, `1e3.${d.id}`, `${'9'.repeat(16)}.${d.id}`, Buffer.from('[1,"dlv_x"]').toString('base64url')])
      expect([bad, readDeliveryCursor(bad)]).toEqual([bad, null]);
  });

  // the answer to an attempt made after `before` failed ones → the delivery's status, its failed
  // attempts, its next attempt (ms on), and whether its webhook is gone
  it.each([
    ['succeeds on a 2xx, keeping its count of failed attempts', 204, 1, 'succeeded', 1, null, false],
    ['is retried on the schedule after a failed answer', 500, 0, 'pending', 1, 5_000, false],
    ['is retried on the schedule after no answer', 0, 1, 'pending', 2, 60_000, false],
    ['fails for good once the schedule is used up', 503, 2, 'failed', 3, null, false],
    ['fails for good on 410 Gone, which disables its webhook', 410, 0, 'failed', 1, null, true],
  ] as const)('%s', (_, statusCode, before, status, failedAttempts, nextInMs, gone) => {
    expect(attemptOutcome({ statusCode, retryAfterMs: null }, before, policy, at)).toEqual({
      status,
      failedAttempts,
      nextAttemptAt: nextInMs === null ? null : later(nextInMs),
      gone,
    });
  });

  it('waits at least what Retry-After asks', () => {
    expect(attemptOutcome({ statusCode: 429, retryAfterMs: 30_000 }, 0, policy, at).nextAttemptAt).toEqual(later(30_000));
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
