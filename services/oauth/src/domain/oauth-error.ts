/** RFC 6749 §5.2 error codes. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

/**
 * A token endpoint protocol error. It is returned as data (IssueTokenResponse.error), never as a
 * gRPC status: the gateway renders it in the RFC 6749 §5.2 JSON form.
 */
export class OAuthProtocolError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthProtocolError';
  }
}
