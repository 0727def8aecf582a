import { constantTimeEqual, CredentialCrypto, newApiKey, newClientId, newClientSecret, newRefreshToken } from './secrets';

describe('generated credentials', () => {
  it('carry recognisable prefixes and 32 random bytes (16 for client ids), base64url', () => {
    expect(newApiKey()).toMatch(/^ak_[A-Za-z0-9_-]{43}$/);
    expect(newClientSecret()).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(newRefreshToken()).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    expect(newClientId()).toMatch(/^cl_[A-Za-z0-9_-]{22}$/);
    expect(newApiKey()).not.toBe(newApiKey());
  });
});

describe('credential hashing', () => {
  const c = new CredentialCrypto('k'.repeat(32));

  it('verifies the secret a hash was made from and nothing else', () => {
    const h = c.hash('cs_secret');
    expect(h).not.toContain('cs_secret');
    expect(c.verify('cs_secret', h)).toBe(true);
    expect(c.verify('cs_secreT', h)).toBe(false);
    expect(c.verify('cs_secret', '')).toBe(false);
  });

  it('depends on the key', () => {
    expect(new CredentialCrypto('a'.repeat(32)).hash('x')).not.toBe(new CredentialCrypto('b'.repeat(32)).hash('x'));
  });
});

describe('API key encryption', () => {
  const c = new CredentialCrypto('k'.repeat(32));

  it('round-trips, with a fresh IV each time', () => {
    const a = c.encrypt('ak_key', 'acc-1');
    expect(a).not.toBe(c.encrypt('ak_key', 'acc-1'));
    expect(a).not.toContain('ak_key');
    expect(c.decrypt(a, 'acc-1')).toBe('ak_key');
  });

  it('refuses a ciphertext moved to another account or decrypted with another key', () => {
    const a = c.encrypt('ak_key', 'acc-1');
    expect(() => c.decrypt(a, 'acc-2')).toThrow();
    expect(() => new CredentialCrypto('z'.repeat(32)).decrypt(a, 'acc-1')).toThrow();
  });
});

describe('constant-time string equality', () => {
  it('compares strings of any length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
  });
});
