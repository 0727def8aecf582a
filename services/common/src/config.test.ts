import { z } from 'zod';
import { deprecatedSettings, loadConfig, msListEnv, parseDuration, parseDurationList, RENAMED_SETTINGS, warnDeprecatedSettings } from './config';

describe('durations in the configuration', () => {
  it('are read in ms, s, m, h and d, a bare number in ms', () => {
    expect(parseDurationList('500ms, 5s,5m,2h,1d')).toEqual([500, 5_000, 300_000, 7_200_000, 86_400_000]);
    expect(parseDuration('250')).toBe(250);
    expect(() => parseDuration('5 minutes')).toThrow(/invalid duration/);
  });
});

describe('one unit of time: every duration in milliseconds, its name ending in _MS', () => {
  const shape = {
    ACCORD_ACCESS_TOKEN_TTL_MS: z.coerce.number().int().default(3_600_000),
    ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: msListEnv([5_000, 300_000]),
    ACCORD_WEBHOOK_SECRET_GRACE_MS: z.coerce.number().int().default(86_400_000),
  };

  it('reads a list of whole milliseconds, and names a value written in another unit', () => {
    expect(loadConfig(shape, {}).ACCORD_WEBHOOK_RETRY_SCHEDULE_MS).toEqual([5_000, 300_000]);
    expect(loadConfig(shape, { ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: '200, 400' }).ACCORD_WEBHOOK_RETRY_SCHEDULE_MS).toEqual([200, 400]);
    expect(() => loadConfig(shape, { ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: '5s,5m' })).toThrow(/ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: expected whole milliseconds/);
  });

  it('reads the old names for one release, converted to milliseconds', () => {
    const config = loadConfig(shape, { ACCORD_ACCESS_TOKEN_TTL: '120', ACCORD_WEBHOOK_RETRY_SCHEDULE: '1s,2m', ACCORD_WEBHOOK_SECRET_GRACE: '1h' });
    expect(config).toEqual({
      ACCORD_ACCESS_TOKEN_TTL_MS: 120_000,
      ACCORD_WEBHOOK_RETRY_SCHEDULE_MS: [1_000, 120_000],
      ACCORD_WEBHOOK_SECRET_GRACE_MS: 3_600_000,
    });
  });

  it('lets the new name win when both are set, and names a bad old value with its new name', () => {
    expect(loadConfig(shape, { ACCORD_ACCESS_TOKEN_TTL: '120', ACCORD_ACCESS_TOKEN_TTL_MS: '60000' }).ACCORD_ACCESS_TOKEN_TTL_MS).toBe(60_000);
    expect(() => loadConfig(shape, { ACCORD_ACCESS_TOKEN_TTL: '2m' })).toThrow(
      /ACCORD_ACCESS_TOKEN_TTL: expected a whole number of seconds, got "2m" \(renamed ACCORD_ACCESS_TOKEN_TTL_MS/,
    );
  });

  it('warns once per old name set, naming the new one', () => {
    const warnings: Array<[object, string]> = [];
    warnDeprecatedSettings(
      shape,
      { warn: (obj, msg) => warnings.push([obj, msg]) },
      { ACCORD_WEBHOOK_SECRET_GRACE: '1h', ACCORD_ACCESS_TOKEN_TTL: '120', ACCORD_ACCESS_TOKEN_TTL_MS: '60000', ACCORD_CONSOLE_IDLE_TIMEOUT: '60' },
    );
    expect(warnings).toEqual([
      [
        { setting: 'ACCORD_ACCESS_TOKEN_TTL', use: 'ACCORD_ACCESS_TOKEN_TTL_MS' },
        expect.stringMatching(/^ACCORD_ACCESS_TOKEN_TTL is deprecated and ignored: ACCORD_ACCESS_TOKEN_TTL_MS is set/),
      ],
      [
        { setting: 'ACCORD_WEBHOOK_SECRET_GRACE', use: 'ACCORD_WEBHOOK_SECRET_GRACE_MS' },
        expect.stringMatching(/^ACCORD_WEBHOOK_SECRET_GRACE is deprecated: set ACCORD_WEBHOOK_SECRET_GRACE_MS \(milliseconds\) instead/),
      ],
    ]);
    expect(deprecatedSettings(shape, {})).toEqual([]);
  });

  it('renames only to names ending in _MS, from names that do not', () => {
    for (const r of RENAMED_SETTINGS) {
      expect(r.to).toMatch(/_MS$/);
      expect(r.from).not.toMatch(/_MS$/);
    }
  });
});
