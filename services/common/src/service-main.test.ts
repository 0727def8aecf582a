import { z } from 'zod';
import { createLogger, type Logger } from './logger';
import { startService } from './service-main';

describe('startService: the composition every main.ts runs', () => {
  const shape = { ACCORD_ACCESS_TOKEN_TTL_MS: z.coerce.number().default(1), LOG_LEVEL: z.string().default('info') };

  it('reads the configuration (renamed settings included), warns of each old name, then starts with it', async () => {
    const warnings: string[] = [];
    const started: unknown[] = [];
    const logger = (service: string): Logger => {
      const l = createLogger(service, 'silent');
      l.warn = ((obj: object, msg: string) => void warnings.push(`${service}: ${msg}`)) as Logger['warn'];
      return l;
    };
    const tracing = { stop: jest.fn(async () => undefined) };
    const stopService = jest.fn(async () => undefined);
    const svc = await startService(
      'oauth',
      async () => ({ configShape: shape, start: async (config) => (started.push(config.ACCORD_ACCESS_TOKEN_TTL_MS), { stop: stopService }) }),
      tracing,
      { ACCORD_ACCESS_TOKEN_TTL: '120', METRICS_PORT: 'off' },
      logger,
    );
    expect(started).toEqual([120_000]);
    expect(warnings).toEqual([expect.stringMatching(/^oauth: ACCORD_ACCESS_TOKEN_TTL is deprecated: set ACCORD_ACCESS_TOKEN_TTL_MS/)]);
    await svc.stop();
    expect(stopService).toHaveBeenCalledTimes(1);
    expect(tracing.stop).toHaveBeenCalledTimes(1);
  });

  it('refuses a bad setting before anything starts', async () => {
    const start = jest.fn();
    await expect(
      startService('oauth', async () => ({ configShape: shape, start }), { stop: async () => undefined }, { ACCORD_ACCESS_TOKEN_TTL: '2m' }),
    ).rejects.toThrow(/ACCORD_ACCESS_TOKEN_TTL: expected a whole number of seconds/);
    expect(start).not.toHaveBeenCalled();
  });
});
