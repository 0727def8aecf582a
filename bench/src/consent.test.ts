import { CONSENT_RUNS, consentRuns } from './consent';

describe('BENCH_CONSENT_RUNS', () => {
  test('unset or empty: every run', () => {
    expect([...consentRuns(undefined)]).toEqual([...CONSENT_RUNS]);
    expect([...consentRuns(' , ')]).toEqual([...CONSENT_RUNS]);
  });

  test('names pick runs, spaces ignored', () => {
    expect([...consentRuns('search, current')].sort()).toEqual(['current', 'search']);
  });

  test('an unknown name is an error that lists the runs', () => {
    expect(() => consentRuns('search,serach')).toThrow(/unknown run serach \(the runs: post, array, search, current, scope, change\)/);
  });
});
