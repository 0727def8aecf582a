import { z } from 'zod';
import { componentSchemas, contractRegistry } from './json-schema';

/**
 * The token endpoint's contract (POST /oauth/v0/token, RFC 6749): the request parameters (as a
 * JSON object or form fields), the token answer and the RFC 6749 §5.2 error body.
 */

export const GRANT_TYPES = ['client_credentials', 'refresh_token'] as const;

/** The scopes of an application (and of its tokens): one per REST API. */
export const SCOPES = ['consent', 'dataprocessing', 'webhooks'] as const;

/** The RFC 6749 §5.2 error codes the endpoint answers (`temporarily_unavailable` with its 429). */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'temporarily_unavailable',
  'server_error',
] as const;

const registry = contractRegistry();

export const TokenRequest = z.object({
  grant_type: z.enum(GRANT_TYPES),
  scope: z
    .string()
    .optional()
    .describe(
      `Space-separated scopes (${SCOPES.join(', ')}). Must be a subset of the application's; absent means all of them (client_credentials) or those of the refresh token.`,
    ),
  client_id: z.string().optional().describe('With client_secret, when no Basic header is sent.'),
  client_secret: z.string().optional(),
  refresh_token: z.string().optional().describe('For grant_type=refresh_token.'),
});
registry.add(TokenRequest, { id: 'TokenRequest' });

export const TokenResponse = z.object({
  access_token: z
    .string()
    .describe('A JWT (ES256) with claims iss, sub (client id), acc (account), app (application), scope, jti, iat, exp; verify with /.well-known/jwks.json.'),
  expires_in: z.int().describe('Lifetime of the access token in seconds.'),
  scope: z.string().describe('Granted scopes, space-separated.'),
  refresh_token: z.string().describe('Opaque; single use (rotated).'),
  token_type: z.literal('Bearer'),
});
registry.add(TokenResponse, { id: 'TokenResponse' });

export const OAuthError = z.object({
  error: z.enum(ERROR_CODES),
  error_description: z.string().optional(),
});
registry.add(OAuthError, { id: 'OAuthError' });

/** The OpenAPI component schemas of the token endpoint, by name. */
export const oauthSchemas = componentSchemas(registry);
