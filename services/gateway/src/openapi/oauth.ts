import type { OpenApiFragment } from './types';
import { ref } from './types';

const tokenRequestProps = {
  grant_type: { type: 'string', enum: ['client_credentials', 'refresh_token'] },
  scope: {
    type: 'string',
    description:
      "Space-separated scopes (consent, dataprocessing, webhooks). Must be a subset of the application's; absent means all of them (client_credentials) or those of the refresh token.",
  },
  client_id: { type: 'string', description: 'With client_secret, when no Basic header is sent.' },
  client_secret: { type: 'string' },
  refresh_token: { type: 'string', description: 'For grant_type=refresh_token.' },
};

export const oauthOpenApi: OpenApiFragment = {
  tags: [{ name: 'oauth', description: 'OAuth 2.0 token endpoint (RFC 6749).' }],
  paths: {
    '/oauth/v0/token': {
      post: {
        tags: ['oauth'],
        operationId: 'issueToken',
        summary: 'Issue an access token (client_credentials) or exchange a refresh token (refresh_token).',
        description:
          'Client credentials in `Authorization: Basic base64(client_id:client_secret)` or in the body (not both). Bodies as JSON or application/x-www-form-urlencoded. ' +
          '`expires_in` is in seconds. Refresh tokens are rotated on every use: the answer carries a new refresh token and the old one is spent; presenting a spent refresh token again revokes its whole family (`invalid_grant`). ' +
          'Every answer has `Cache-Control: no-store`. Errors use the RFC 6749 §5.2 form, not problem+json.',
        security: [{}, { basic: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('TokenRequest'),
              examples: { clientCredentials: { value: { grant_type: 'client_credentials', scope: 'consent', client_id: 'cl_…', client_secret: 'cs_…' } } },
            },
            'application/x-www-form-urlencoded': { schema: ref('TokenRequest') },
          },
        },
        responses: {
          '200': {
            description: 'Token issued.',
            headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } },
            content: { 'application/json': { schema: ref('TokenResponse') } },
          },
          '400': {
            description: 'invalid_request, invalid_grant, unauthorized_client, unsupported_grant_type or invalid_scope.',
            content: { 'application/json': { schema: ref('OAuthError') } },
          },
          '401': {
            description: 'invalid_client (with `WWW-Authenticate: Basic` when Basic was used).',
            content: { 'application/json': { schema: ref('OAuthError') } },
          },
          '503': { description: 'The oauth service is unavailable.', content: { 'application/json': { schema: ref('OAuthError') } } },
        },
      },
    },
  },
  schemas: {
    TokenRequest: { type: 'object', required: ['grant_type'], properties: tokenRequestProps },
    TokenResponse: {
      type: 'object',
      required: ['access_token', 'expires_in', 'scope', 'refresh_token', 'token_type'],
      properties: {
        access_token: {
          type: 'string',
          description:
            'A JWT (ES256) with claims iss, sub (client id), acc (account), app (application), scope, jti, iat, exp; verify with /.well-known/jwks.json.',
        },
        expires_in: { type: 'integer', description: 'Lifetime of the access token in seconds.' },
        scope: { type: 'string', description: 'Granted scopes, space-separated.' },
        refresh_token: { type: 'string', description: 'Opaque; single use (rotated).' },
        token_type: { type: 'string', const: 'Bearer' },
      },
    },
    OAuthError: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'string',
          enum: [
            'invalid_request',
            'invalid_client',
            'invalid_grant',
            'unauthorized_client',
            'unsupported_grant_type',
            'invalid_scope',
            'temporarily_unavailable',
            'server_error',
          ],
        },
        error_description: { type: 'string' },
      },
    },
  },
};
