import { loadConfig, ConfigError } from '@accord/common';
import { configShape, INSECURE_DEVELOPMENT_HASH_KEY, resolveHashKey } from './config';

describe('oauth configuration', () => {
  it('works with no environment at all, using the insecure development hash key', () => {
    const config = loadConfig(configShape, {});
    expect(config).toMatchObject({ GRPC_PORT: 50051, ACCORD_ACCESS_TOKEN_TTL_MS: 3_600_000, ACCORD_REFRESH_TOKEN_TTL_MS: 2_592_000_000 });
    expect(resolveHashKey(config)).toEqual({ key: INSECURE_DEVELOPMENT_HASH_KEY, insecureDefault: true });
  });

  it('reads token lifetimes in ms, in whole seconds, and the old names in seconds for one release', () => {
    expect(loadConfig(configShape, { ACCORD_ACCESS_TOKEN_TTL_MS: '600000' }).ACCORD_ACCESS_TOKEN_TTL_MS).toBe(600_000);
    expect(() => loadConfig(configShape, { ACCORD_ACCESS_TOKEN_TTL_MS: '600500' })).toThrow(/ACCORD_ACCESS_TOKEN_TTL_MS: must be whole seconds/);
    expect(loadConfig(configShape, { ACCORD_ACCESS_TOKEN_TTL: '7200', ACCORD_REFRESH_TOKEN_TTL: '86400' })).toMatchObject({
      ACCORD_ACCESS_TOKEN_TTL_MS: 7_200_000,
      ACCORD_REFRESH_TOKEN_TTL_MS: 86_400_000,
    });
  });

  it('requires ACCORD_HASH_KEY in production', () => {
    expect(() => resolveHashKey(loadConfig(configShape, { NODE_ENV: 'production' }))).toThrow(ConfigError);
    const key = 'p'.repeat(40);
    expect(resolveHashKey(loadConfig(configShape, { NODE_ENV: 'production', ACCORD_HASH_KEY: key }))).toEqual({ key, insecureDefault: false });
  });

  it('rejects a short hash key and admin token', () => {
    expect(() => loadConfig(configShape, { ACCORD_HASH_KEY: 'short', ACCORD_ADMIN_TOKEN: 'short' })).toThrow(
      /ACCORD_HASH_KEY[\s\S]*ACCORD_ADMIN_TOKEN|ACCORD_ADMIN_TOKEN[\s\S]*ACCORD_HASH_KEY/,
    );
  });
});
