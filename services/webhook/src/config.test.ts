import { loadConfig } from '@accord/common';
import { configShape, leaseMs } from './config';

describe('webhook configuration', () => {
  it('keeps the delivery defaults, in milliseconds', () => {
    const config = loadConfig(configShape, {});
    expect(config.ACCORD_WEBHOOK_RETRY_SCHEDULE_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(config.ACCORD_WEBHOOK_SECRET_GRACE_MS).toBe(86_400_000);
    expect(leaseMs(config)).toBe(45_000);
  });

  it('reads the old duration names for one release', () => {
    const config = loadConfig(configShape, { ACCORD_WEBHOOK_RETRY_SCHEDULE: '1s,2m', ACCORD_WEBHOOK_SECRET_GRACE: '1h' });
    expect(config.ACCORD_WEBHOOK_RETRY_SCHEDULE_MS).toEqual([1_000, 120_000]);
    expect(config.ACCORD_WEBHOOK_SECRET_GRACE_MS).toBe(3_600_000);
  });
});
