/** Durations written like `500ms`, `5s`, `5m`, `2h`, `1d` (a bare number is milliseconds). */
const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!m) throw new Error(`invalid duration "${text}" (expected e.g. 500ms, 5s, 5m, 2h, 1d)`);
  return Math.round(Number(m[1]) * UNITS[m[2] ?? 'ms']!);
}

/** A comma-separated list of durations, e.g. the retry schedule `5s,5m,30m,2h,5h,10h,10h`. */
export function parseDurationList(text: string): number[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseDuration);
}
