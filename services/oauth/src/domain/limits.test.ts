import { validateLimits } from './limits';

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
