import { InvalidArgumentError } from '@accord/common';

export const MAX_DAYS = 366;
const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function parseDay(value: string, field: string): number {
  const ms = DAY.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) throw InvalidArgumentError.field(field, 'must be a day YYYY-MM-DD');
  return ms;
}

/** The UTC days of an inclusive range, checked (from <= to, at most MAX_DAYS). */
export function dayRange(from: string, to: string): { days: string[]; startMs: number; endMs: number } {
  const startMs = parseDay(from, '/from_day');
  const lastMs = parseDay(to, '/to_day');
  if (lastMs < startMs) throw InvalidArgumentError.field('/to_day', 'must not be before from_day');
  const count = (lastMs - startMs) / DAY_MS + 1;
  if (count > MAX_DAYS) throw InvalidArgumentError.field('/to_day', `the range may span at most ${MAX_DAYS} days`);
  const days = Array.from({ length: count }, (_, i) => new Date(startMs + i * DAY_MS).toISOString().slice(0, 10));
  return { days, startMs, endMs: lastMs + DAY_MS };
}

/** The days of a report when not given: `to` defaults to today (UTC) and `from` to 29 days before `to` (30 days in all). */
export function reportDays(from: string | undefined, to: string | undefined, now: number = Date.now()): { from: string; to: string } {
  const toDay = to ?? new Date(now).toISOString().slice(0, 10);
  const fromDay = from ?? new Date(parseDay(toDay, '/to_day') - 29 * DAY_MS).toISOString().slice(0, 10);
  return { from: fromDay, to: toDay };
}
