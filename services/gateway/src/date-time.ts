import { HttpProblem } from './problem';

/**
 * RFC 3339 date-times as the document's validator reads `format: date-time` (ajv-formats): a `T`,
 * `t` or white space between date and time, any number of fractional digits, `Z`/`z` or an offset
 * whose minutes may come without a colon or not at all (`+05`), and second 60 (a leap second).
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt\s](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/**
 * The instant of a date-time the document accepts, or undefined for a string it does not.
 *
 * - Second 60, a leap second (`2099-12-31T23:59:60Z`), is read as the start of the next second
 *   (`2100-01-01T00:00:00.000Z`), whatever its fraction: protobuf Timestamps, like JavaScript
 *   dates, count no leap seconds, and this is the nearest instant they name that keeps the order
 *   of times (23:59:59.999 < 23:59:60.5 ≤ 00:00:00).
 * - An offset of hours alone (`+05`) is `+05:00`; fractions past milliseconds are cut.
 *
 * `new Date()` answers NaN for the first two (and the NaN Timestamp then failed the gRPC
 * request's serialization: "The number NaN cannot be converted to a BigInt", a 500).
 */
export function parseDateTime(value: string): Date | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const [offsetHours, offsetMinutes] = [Number(m[9] ?? 0), Number(m[10] ?? 0)];
  const daysInMonth = month === 2 && leap(year) ? 29 : DAYS[month - 1];
  if (daysInMonth === undefined || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59)
    return undefined;
  const ms = second === 60 ? 0 : Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms); // second 60 rolls over into the next minute
  const offset = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const t = d.getTime() - offset;
  return Number.isFinite(t) ? new Date(t) : undefined;
}

/**
 * The one place where a request's date-time becomes a Date for the wire (a Timestamp of a gRPC
 * request): every route reads its date-time fields and parameters through it, so none can
 * become NaN. A value the document refuses (the validator answered it before) is a 400 naming
 * `field`.
 */
export function wireDate(value: string, field: string): Date {
  const d = parseDateTime(value);
  if (!d) throw HttpProblem.field(field, 'must be a date-time (RFC 3339, e.g. 2026-11-20T10:15:30Z)');
  return d;
}
