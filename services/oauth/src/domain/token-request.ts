import { OAuthProtocolError } from './oauth-error';
import { parseScopeParam } from './scopes';

export const GRANT_TYPES = ['client_credentials', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** What the gateway passes on from POST /oauth/v0/token (after decoding any Basic header). */
export interface RawTokenRequest {
  grantType: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  refreshToken: string;
}

export type TokenRequest =
  | { grantType: 'client_credentials'; clientId: string; clientSecret: string; scopes: string[] }
  | { grantType: 'refresh_token'; clientId: string; clientSecret: string; scopes: string[]; refreshToken: string };

/**
 * Checks the shape of a token request in the order RFC 6749 implies: the grant type first
 * (invalid_request when missing, unsupported_grant_type when unknown), then client
 * authentication material (invalid_client), then grant parameters (invalid_request) and the
 * scope syntax (invalid_scope). Credentials themselves are checked later against the store.
 */
export function parseTokenRequest(raw: RawTokenRequest): TokenRequest {
  const grantType = raw.grantType.trim();
  if (!grantType) throw new OAuthProtocolError('invalid_request', 'grant_type is required');
  if (!(GRANT_TYPES as readonly string[]).includes(grantType)) {
    throw new OAuthProtocolError(
      'unsupported_grant_type',
      `grant_type ${JSON.stringify(grantType.slice(0, 64))} is not supported; use client_credentials or refresh_token`,
    );
  }
  if (!raw.clientId)
    throw new OAuthProtocolError(
      'invalid_client',
      'client authentication is required (client_id and client_secret, in the body or an Authorization: Basic header)',
    );
  if (!raw.clientSecret) throw new OAuthProtocolError('invalid_client', 'client authentication failed');
  const parsed = parseScopeParam(raw.scope);
  if (!parsed.ok) throw new OAuthProtocolError('invalid_scope', parsed.reason);
  if (grantType === 'refresh_token') {
    if (!raw.refreshToken) throw new OAuthProtocolError('invalid_request', 'refresh_token is required for grant_type refresh_token');
    return { grantType, clientId: raw.clientId, clientSecret: raw.clientSecret, scopes: parsed.scopes, refreshToken: raw.refreshToken };
  }
  return { grantType: 'client_credentials', clientId: raw.clientId, clientSecret: raw.clientSecret, scopes: parsed.scopes };
}
