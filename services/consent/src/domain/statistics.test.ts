import { appCountersOf, expiredAt, GPC_DECLINE, meets, statisticsOf, topTargets, versionedTargets, type StatisticsCounts } from './statistics';

const counts = (over: Partial<StatisticsCounts> = {}): StatisticsCounts => ({
  app: { total: 7, accepted: 4, declined: 2, noAction: 1, gpcDeclines: 0 },
  jurisdictions: [],
  targets: [
    { target: 'b', events: 3 },
    { target: 'a', events: 3 },
    { target: 'c', events: 1 },
  ],
  distinctSubjects: 2,
  states: [],
  ...over,
});

describe('statistics of an application', () => {
  it('counts current states per target by action, lapsed ones apart whatever their action', () => {
    const s = statisticsOf(
      'app',
      counts({
        states: [
          { target: 'a', action: true, expired: false, count: 2 },
          { target: 'a', action: false, expired: false, count: 1 },
          { target: 'a', action: true, expired: true, count: 5 },
          { target: 'c', action: null, expired: false, count: 1 },
          { target: 'c', action: null, expired: false, gpcDecline: true, count: 3 },
          { target: 'c', action: null, expired: true, gpcDecline: true, count: 1 },
        ],
        app: { total: 7, accepted: 4, declined: 2, noAction: 1, gpcDeclines: 4 },
        jurisdictions: [{ jurisdiction: 'US-CA', events: 5 }],
      }),
    );
    expect(s).toMatchObject({ appId: 'app', total: 7, accepted: 4, declined: 2, noAction: 1, distinctSubjects: 2, gpcDeclines: 4 });
    expect(s.jurisdictions).toEqual([{ jurisdiction: 'US-CA', events: 5 }]);
    const none = { currentRenewalRequired: 0, currentGpcDeclines: 0 };
    expect(s.targets).toEqual([
      { target: 'a', events: 3, currentAccepted: 2, currentDeclined: 1, currentNoAction: 0, currentExpired: 5, ...none },
      { target: 'b', events: 3, currentAccepted: 0, currentDeclined: 0, currentNoAction: 0, currentExpired: 0, ...none },
      // GPC-driven declines are also counted under their action (no action) or as expired
      {
        target: 'c',
        events: 1,
        currentAccepted: 0,
        currentDeclined: 0,
        currentNoAction: 4,
        currentExpired: 1,
        currentRenewalRequired: 0,
        currentGpcDeclines: 4,
      },
    ]);
    expect(s).not.toHaveProperty('latestEventAt');
  });

  it('counts states consented to a version older than the latest material one as due for renewal', () => {
    const c = counts({
      states: [
        { target: 'a', action: true, expired: false, version: 1, count: 3 },
        { target: 'a', action: true, expired: false, version: 2, count: 1 },
        { target: 'b', action: true, expired: false, count: 4 },
      ],
    });
    expect(versionedTargets(c)).toEqual(['a']);
    const s = statisticsOf('app', c, (t) => (t === 'a' ? 2 : undefined));
    expect(s.targets.find((t) => t.target === 'a')).toMatchObject({ currentAccepted: 4, currentRenewalRequired: 3 });
    expect(s.targets.find((t) => t.target === 'b')).toMatchObject({ currentAccepted: 4, currentRenewalRequired: 0 });
  });

  it('gives the time of the latest event when there is one', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    expect(statisticsOf('app', counts({ latestEventAt: at })).latestEventAt).toEqual(at);
  });
});

describe('the rules the stores evaluate (one spelling, domain/statistics.ts)', () => {
  const at = new Date('2026-01-02T00:00:00Z');
  it('a GPC decline is a GPC signal with no explicit choice, an absent action counting as none', () => {
    expect(meets({ gpc: true, action: null }, GPC_DECLINE)).toBe(true);
    expect(meets({ gpc: true }, GPC_DECLINE)).toBe(true);
    expect(meets({ gpc: true, action: false }, GPC_DECLINE)).toBe(false);
    expect(meets({ gpc: false, action: null }, GPC_DECLINE)).toBe(false);
    expect(meets({ action: null }, GPC_DECLINE)).toBe(false);
  });
  it('a state has expired when its expiresAt is not later than the moment, and never without one', () => {
    expect(meets({ expiresAt: at }, expiredAt(at))).toBe(true);
    expect(meets({ expiresAt: new Date(at.getTime() - 1) }, expiredAt(at))).toBe(true);
    expect(meets({ expiresAt: new Date(at.getTime() + 1) }, expiredAt(at))).toBe(false);
    expect(meets({}, expiredAt(at))).toBe(false);
  });
  it('an event adds one to the total, to its action, and to gpcDeclines when the signal alone declines', () => {
    expect(appCountersOf({ action: true })).toEqual(['total', 'accepted']);
    expect(appCountersOf({ action: false, gpc: true })).toEqual(['total', 'declined']);
    expect(appCountersOf({ action: null, gpc: true })).toEqual(['total', 'noAction', 'gpcDeclines']);
  });
});

describe('the top targets of a report', () => {
  it('are the ten with the most events, ties by name', () => {
    const targets = Array.from({ length: 12 }, (_, i) => ({ target: `t${String(i).padStart(2, '0')}`, events: i % 4 }));
    const top = topTargets(targets);
    expect(top).toHaveLength(10);
    expect(top.slice(0, 4).map((t) => t.target)).toEqual(['t03', 't07', 't11', 't02']);
    expect(top.at(-1)!.events).toBe(0);
  });
});
