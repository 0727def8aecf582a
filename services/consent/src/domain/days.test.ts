import { dayRange, reportDays } from './days';

describe('day ranges of the activity chart', () => {
  it('list every UTC day of an inclusive range, across a month end', () => {
    const r = dayRange('2026-01-30', '2026-02-02');
    expect(r.days).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02']);
    expect(r.endMs - r.startMs).toBe(4 * 86_400_000);
  });
  it('refuse impossible days, reversed ranges and ranges over 366 days, naming the field', () => {
    expect(() => dayRange('2026-02-30', '2026-03-01')).toThrow(/from_day: must be a day/);
    expect(() => dayRange('2026-03-02', '2026-03-01')).toThrow(/to_day: must not be before/);
    expect(() => dayRange('2024-01-01', '2025-01-02')).toThrow(/at most 366 days/);
  });
});

describe('the days of a report', () => {
  const now = Date.parse('2026-03-10T23:59:00Z');
  it('default to the 30 days ending today (UTC)', () => {
    expect(reportDays(undefined, undefined, now)).toEqual({ from: '2026-02-09', to: '2026-03-10' });
  });
  it('end a range given only its last day 29 days before it, and keep a range given whole', () => {
    expect(reportDays(undefined, '2026-01-31', now)).toEqual({ from: '2026-01-02', to: '2026-01-31' });
    expect(reportDays('2026-01-01', '2026-01-02', now)).toEqual({ from: '2026-01-01', to: '2026-01-02' });
  });
});
