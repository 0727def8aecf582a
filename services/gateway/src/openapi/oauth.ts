import { contracts } from '@accord/proto';
import type { OpenApiFragment } from './types';
import { ref } from './types';

/**
 * POST /oauth/v0/token: path, status codes and prose. The request, answer and error schemas are
 * the contract's, @accord/proto's contracts/oauth.ts.
 */
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
  schemas: contracts.oauth.oauthSchemas,
};
