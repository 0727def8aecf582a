import { Counter, metricsRegistry } from '@accord/common';

const GRANT_TYPES = new Set(['client_credentials', 'refresh_token']);
const RESULTS = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope']);

/** Token requests answered, by grant type and result (`issued` or the RFC 6749 error code). */
export const tokenGrants = new Counter({
  name: 'accord_oauth_token_grants_total',
  help: 'Token requests answered by the oauth service, by grant type and result (issued or the OAuth error code).',
  labelNames: ['grant_type', 'result'] as const,
  registers: [metricsRegistry],
});

/** Counts one answer; unknown grant types and errors fold into `other` so labels stay bounded. */
export function countGrant(grantType: string, result: string): void {
  tokenGrants.inc({ grant_type: GRANT_TYPES.has(grantType) ? grantType : 'other', result: result === 'issued' || RESULTS.has(result) ? result : 'other' });
}
