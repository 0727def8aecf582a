import { ConfigError } from '@accord/common';
import { resolveErasureKey } from './config';

describe('the erasure secret', () => {
  it('is the configured one when set', () => {
    expect(resolveErasureKey({ ACCORD_ERASURE_KEY: 'k'.repeat(32), NODE_ENV: 'production' }, 'dev')).toEqual({ key: 'k'.repeat(32), insecureDefault: false });
  });

  it('falls back to the public development key outside production, flagged so that the service warns', () => {
    expect(resolveErasureKey({ NODE_ENV: undefined }, 'dev')).toEqual({ key: 'dev', insecureDefault: true });
  });

  it('is required in production', () => {
    expect(() => resolveErasureKey({ NODE_ENV: 'production' }, 'dev')).toThrow(ConfigError);
  });
});
