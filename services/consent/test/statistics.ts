import type { CurrentCounts } from '../src/domain/statistics';

/** A target's row of the statistics as answered: every count 0 but those given. */
export const targetRow = (target: string, counts: Partial<CurrentCounts & { events: number }>) => ({
  target,
  events: 0,
  currentAccepted: 0,
  currentDeclined: 0,
  currentNoAction: 0,
  currentExpired: 0,
  currentRenewalRequired: 0,
  currentGpcDeclines: 0,
  ...counts,
});
