import { PermissionDeniedError, UnauthenticatedError, type CallContext } from '@accord/common';
import { constantTimeEqual } from '../domain/secrets';

/**
 * Admin RPCs need metadata `authorization: Bearer <ACCORD_ADMIN_TOKEN>`. Without a configured
 * admin token they are disabled (PERMISSION_DENIED); a missing or wrong token is UNAUTHENTICATED.
 */
export function requireAdmin(ctx: CallContext, adminToken: string | undefined): void {
  if (!adminToken) throw new PermissionDeniedError('admin RPCs are disabled: ACCORD_ADMIN_TOKEN is not set on the oauth service');
  const header = ctx.metadata.get('authorization')[0];
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) throw new UnauthenticatedError('admin token required: metadata authorization: Bearer <ACCORD_ADMIN_TOKEN>');
  if (!constantTimeEqual(match[1]!, adminToken)) throw new UnauthenticatedError('invalid admin token');
}
