import { OAuthProtocolError } from './oauth-error';
import { parseTokenRequest, type RawTokenRequest } from './token-request';

const raw = (over: Partial<RawTokenRequest>): RawTokenRequest => ({
  grantType: 'client_credentials',
  clientId: 'cl_a',
  clientSecret: 'cs_b',
  scope: '',
  refreshToken: '',
  ...over,
});

function errorOf(r: RawTokenRequest): string | undefined {
  try {
    parseTokenRequest(r);
    return undefined;
  } catch (err) {
    if (err instanceof OAuthProtocolError) return err.error;
    throw err;
  }
}

describe('token request validation', () => {
  it('accepts client_credentials with credentials and parses the scope', () => {
    expect(parseTokenRequest(raw({ scope: 'consent webhooks' }))).toEqual({
      grantType: 'client_credentials',
      clientId: 'cl_a',
      clientSecret: 'cs_b',
      scopes: ['consent', 'webhooks'],
    });
  });

  it('accepts refresh_token with a refresh token', () => {
    expect(parseTokenRequest(raw({ grantType: 'refresh_token', refreshToken: 'rt_x' }))).toMatchObject({
      grantType: 'refresh_token',
      refreshToken: 'rt_x',
      scopes: [],
    });
  });

  it('answers invalid_request without grant_type and unsupported_grant_type for other grants', () => {
    expect(errorOf(raw({ grantType: '' }))).toBe('invalid_request');
    expect(errorOf(raw({ grantType: 'password' }))).toBe('unsupported_grant_type');
    expect(errorOf(raw({ grantType: 'authorization_code' }))).toBe('unsupported_grant_type');
  });

  it('checks the grant type before the client credentials', () => {
    expect(errorOf(raw({ grantType: 'password', clientId: '', clientSecret: '' }))).toBe('unsupported_grant_type');
  });

  it('answers invalid_client without client id or secret', () => {
    expect(errorOf(raw({ clientId: '' }))).toBe('invalid_client');
    expect(errorOf(raw({ clientSecret: '' }))).toBe('invalid_client');
  });

  it('answers invalid_request for refresh_token without a refresh token', () => {
    expect(errorOf(raw({ grantType: 'refresh_token' }))).toBe('invalid_request');
  });

  it('answers invalid_scope for a malformed scope parameter', () => {
    expect(errorOf(raw({ scope: 'consent "quoted"' }))).toBe('invalid_scope');
  });
});
