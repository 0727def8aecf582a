import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** Per-request context, carried across awaits; the logger and gRPC clients read it. */
export interface RequestContext {
  requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export const REQUEST_ID_HEADER = 'x-request-id';

/** Accepts a caller's request id when it is sane, otherwise makes one. */
export function normalizeRequestId(value: unknown): string {
  return typeof value === 'string' && /^[\w.:-]{1,128}$/.test(value) ? value : randomUUID();
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
