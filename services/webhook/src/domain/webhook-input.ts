import { InvalidArgumentError, type FieldError } from '@accord/common';
import { contracts } from '@accord/proto';
import { isLocalhostName, literalIp, type AddressPolicy } from './address-policy';
import { isSubscribable, SUBSCRIBABLE_EVENT_TYPES } from './event-types';

/** Limits and header syntax are the contract's (@accord/proto contracts/webhooks.ts), as the OpenAPI document states them. */
export const { LIMITS } = contracts.webhooks;
const { HEADER_NAME, HEADER_VALUE } = contracts.webhooks;

/** Header names a webhook may not set: hop-by-hop, framing, and the signature headers. */
export const RESERVED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'expect',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

/** Checks a webhook URL: absolute http(s), no credentials, and no literal address the policy refuses. */
export function urlProblem(raw: string, policy: AddressPolicy): string | null {
  if (raw.length > LIMITS.urlLength) return `must be at most ${LIMITS.urlLength} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http or https URL';
  if (url.username || url.password) return 'must not contain credentials; use a custom header instead';
  if (!url.hostname) return 'must have a host';
  const ip = literalIp(url.hostname) ?? (isLocalhostName(url.hostname) ? '127.0.0.1' : null);
  if (ip) {
    const refusal = policy.refusal(ip);
    if (refusal) return `refused: ${refusal}`;
  }
  return null;
}

export function eventsProblems(events: readonly string[]): FieldError[] {
  if (!events.length) return [{ field: '/events', message: `must list at least one event type (${SUBSCRIBABLE_EVENT_TYPES.join(', ')})` }];
  if (events.length > LIMITS.events) return [{ field: '/events', message: `must list at most ${LIMITS.events} event types` }];
  const out: FieldError[] = [];
  events.forEach((e, i) => {
    if (!isSubscribable(e)) out.push({ field: `/events/${i}`, message: `unknown event type "${e}"; known: ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}` });
  });
  return out;
}

export function headersProblems(headers: Record<string, string>): FieldError[] {
  const out: FieldError[] = [];
  const entries = Object.entries(headers);
  if (entries.length > LIMITS.headers) return [{ field: '/headers', message: `at most ${LIMITS.headers} headers` }];
  let total = 0;
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const field = `/headers/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const lower = name.toLowerCase();
    total += name.length + value.length;
    if (!HEADER_NAME.test(name)) out.push({ field, message: `not a valid header name (token of at most ${LIMITS.headerNameLength} characters)` });
    else if (RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-'))
      out.push({ field, message: 'this header is set by the service and cannot be overridden' });
    else if (seen.has(lower)) out.push({ field, message: 'duplicate header name (names are case-insensitive)' });
    if (typeof value !== 'string' || !HEADER_VALUE.test(value) || value.length > LIMITS.headerValueLength)
      out.push({ field, message: `not a valid header value (visible ASCII, at most ${LIMITS.headerValueLength} characters)` });
    seen.add(lower);
  }
  if (!out.length && total > LIMITS.headersTotalBytes) out.push({ field: '/headers', message: `headers must total at most ${LIMITS.headersTotalBytes} bytes` });
  return out;
}

export interface WebhookFields {
  url?: string;
  events?: readonly string[];
  headers?: Record<string, string>;
}

/** Validates whatever fields are present; throws one InvalidArgumentError listing every problem. */
export function validateWebhookFields(input: WebhookFields, policy: AddressPolicy): void {
  const problems: FieldError[] = [];
  if (input.url !== undefined) {
    const p = urlProblem(input.url, policy);
    if (p) problems.push({ field: '/url', message: p });
  }
  if (input.events !== undefined) problems.push(...eventsProblems(input.events));
  if (input.headers !== undefined) problems.push(...headersProblems(input.headers));
  if (problems.length) throw new InvalidArgumentError(problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems);
}
