import { loadConfig } from '@accord/common';
import { configShape } from './config';

describe('gateway configuration', () => {
  it('keeps the console timeouts (30 min idle, 12 h absolute), in milliseconds of whole seconds', () => {
    expect(loadConfig(configShape, {})).toMatchObject({ ACCORD_CONSOLE_IDLE_TIMEOUT_MS: 1_800_000, ACCORD_CONSOLE_ABSOLUTE_TIMEOUT_MS: 43_200_000 });
    expect(() => loadConfig(configShape, { ACCORD_CONSOLE_IDLE_TIMEOUT_MS: '600500' })).toThrow(/ACCORD_CONSOLE_IDLE_TIMEOUT_MS: must be whole seconds/);
  });

  it('reads the old names, in seconds, for one release', () => {
    expect(loadConfig(configShape, { ACCORD_CONSOLE_IDLE_TIMEOUT: '600', ACCORD_CONSOLE_ABSOLUTE_TIMEOUT: '3600' })).toMatchObject({
      ACCORD_CONSOLE_IDLE_TIMEOUT_MS: 600_000,
      ACCORD_CONSOLE_ABSOLUTE_TIMEOUT_MS: 3_600_000,
    });
  });
});
