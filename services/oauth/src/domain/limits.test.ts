import { dayOf, validateLimits } from './limits';

describe('account limit overrides', () => {
  it('keeps the fields given, 0 meaning no limit', () => {
    expect(validateLimits({ requestsPerSecond: 2.5, burst: 10, maxEventsPerDay: 0 })).toEqual({ requestsPerSecond: 2.5, burst: 10, maxEventsPerDay: 0 });
    expect(validateLimits(undefined)).toEqual({});
  });

  it('refuses negative or non-finite numbers, fractions where counts are meant, and rates above 1000000', () => {
    expect(() => validateLimits({ burst: -1 })).toThrow('limits.burst');
    expect(() => validateLimits({ requestsPerSecond: Number.NaN })).toThrow('limits.requestsPerSecond');
    expect(() => validateLimits({ maxEventsPerRequest: 1.5 })).toThrow('must be a whole number');
    expect(() => validateLimits({ appRequestsPerSecond: 1e6 + 1 })).toThrow('at most 1000000');
  });
});

describe('the day of a daily event count', () => {
  it('is the UTC day: its key names the account and the date, it resets at midnight UTC and its count may go a day later', () => {
    expect(dayOf('acc', new Date('2030-05-06T23:59:30.500Z'))).toEqual({
      key: 'acc:2030-05-06',
      resetSeconds: 30,
      expiresAt: new Date('2030-05-08T00:00:00Z'),
    });
    expect(dayOf('acc', new Date('2030-05-07T00:00:00Z'))).toMatchObject({ key: 'acc:2030-05-07', resetSeconds: 86_400 });
  });
});
