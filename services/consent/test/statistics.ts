import type { CurrentCounts } from '../src/domain/statistics';

type Count = keyof CurrentCounts | 'events';
const COUNTS: Count[] = ['events', 'currentAccepted', 'currentDeclined', 'currentNoAction', 'currentExpired', 'currentRenewalRequired', 'currentGpcDeclines'];

/** A target's row of the statistics as answered: every count 0 but those given. */
export const targetRow = (target: string, counts: Partial<Record<Count, number>>) => ({
  target,
  ...Object.fromEntries(COUNTS.map((c) => [c, counts[c] ?? 0])),
});
