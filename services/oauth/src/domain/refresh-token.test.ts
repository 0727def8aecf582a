import { formatRefreshToken, parseRefreshToken } from './refresh-token';
import { CredentialCrypto } from './secrets';

const crypto = new CredentialCrypto('k'.repeat(32));
const claim = { familyId: '0b8f3a52-6a4e-4c1e-9d0f-2b7c1e5a9f10', gen: 7 };

describe('refresh tokens', () => {
  it('round-trips the family and generation it names', () => {
    const token = formatRefreshToken(crypto, claim);
    expect(token).toMatch(/^rt_[0-9a-f-]{36}\.7\.[\w-]{43}$/);
    expect(parseRefreshToken(crypto, token)).toEqual(claim);
  });

  it('refuses a token whose generation or family was altered, or that another key signed', () => {
    const token = formatRefreshToken(crypto, claim);
    expect(parseRefreshToken(crypto, token.replace('.7.', '.8.'))).toBeNull();
    expect(parseRefreshToken(crypto, token.replace('0b8f3a52', '0b8f3a53'))).toBeNull();
    expect(parseRefreshToken(new CredentialCrypto('x'.repeat(32)), token)).toBeNull();
  });

  it('refuses malformed tokens without throwing', () => {
    for (const bad of [
      '',
      'rt_',
      'rt_abc.1.x',
      `${formatRefreshToken(crypto, claim)}x`,
      'rt_' + 'a'.repeat(500),
      formatRefreshToken(crypto, claim).replace('.7.', '.07.'),
    ]) {
      expect(parseRefreshToken(crypto, bad)).toBeNull();
    }
  });
});
