import { ConfigError, durationEnv, durationListEnv, loadConfig, parseDuration, parseDurationList } from './config';

describe('durations in the configuration', () => {
  it('are read in ms, s, m, h and d, a bare number in ms', () => {
    expect(parseDurationList('500ms, 5s,5m,2h,1d')).toEqual([500, 5_000, 300_000, 7_200_000, 86_400_000]);
    expect(parseDuration('250')).toBe(250);
    expect(() => parseDuration('5 minutes')).toThrow(/invalid duration/);
  });

  it('are variables with a default, and a bad one is named with the reason', () => {
    const shape = { GRACE: durationEnv('24h'), SCHEDULE: durationListEnv('5s,5m') };
    expect(loadConfig(shape, {})).toEqual({ GRACE: 86_400_000, SCHEDULE: [5_000, 300_000] });
    expect(() => loadConfig(shape, { GRACE: 'soon', SCHEDULE: ',' })).toThrow(ConfigError);
    try {
      loadConfig(shape, { GRACE: 'soon', SCHEDULE: ',' });
    } catch (err) {
      expect((err as ConfigError).problems).toEqual([
        'GRACE: invalid duration "soon" (expected e.g. 500ms, 5s, 5m, 2h, 1d)',
        'SCHEDULE: expected at least one duration',
      ]);
    }
  });
});
