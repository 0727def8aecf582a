import { CONSENT_RUNS, consentRuns, DECISION_BATCH, decisionsBody, vendorDecisionsBody } from './consent';

describe('BENCH_CONSENT_RUNS', () => {
  test('unset or empty: every run', () => {
    expect([...consentRuns(undefined)]).toEqual([...CONSENT_RUNS]);
    expect([...consentRuns(' , ')]).toEqual([...CONSENT_RUNS]);
  });

  test('names pick runs, spaces ignored', () => {
    expect([...consentRuns('search, current')].sort()).toEqual(['current', 'search']);
  });

  test('an unknown name is an error that lists the runs', () => {
    expect(() => consentRuns('search,serach')).toThrow(/unknown run serach \(the runs: post, array, search, current, scope, decide, vendors, change\)/);
  });
});

describe('decisions body', () => {
  test('asks about seeded states only: each subject of the seed on its target, in its four scopes', () => {
    const subjects = 2500;
    const { items } = JSON.parse(decisionsBody(subjects, 3)) as { items: Array<{ subject: string; target: string; scope: string }> };
    expect(items).toHaveLength(DECISION_BATCH);
    for (const i of items) {
      const s = Number(/^bench-subject-(\d+)$/.exec(i.subject)![1]);
      expect(s).toBeLessThan(subjects);
      expect(i.target).toBe(`https://bench.example/policy/${s % 10}`);
    }
    expect(new Set(items.map((i) => i.scope))).toEqual(new Set(['default', 'email', 'sms', 'post']));
    // another request asks about other subjects
    expect(decisionsBody(subjects, 4)).not.toBe(decisionsBody(subjects, 3));
  });
});

describe('vendor decisions body', () => {
  test('asks vendor 755 for 1000 distinct states holding the bench TC string, each request another purpose per item', () => {
    const { items } = JSON.parse(vendorDecisionsBody(0)) as { items: Array<{ subject: string; scope: string; vendor: number; purpose: number }> };
    expect(items).toHaveLength(DECISION_BATCH);
    expect(new Set(items.map((i) => `${i.subject}|${i.scope}`)).size).toBe(DECISION_BATCH);
    expect(items.every((i) => i.vendor === 755 && i.purpose >= 1 && i.purpose <= 11)).toBe(true);
    expect(vendorDecisionsBody(1)).not.toBe(vendorDecisionsBody(0));
  });
});
