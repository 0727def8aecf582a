import { z } from 'zod';
import { componentSchemas, contractRegistry } from './json-schema';
import { EXAMPLE_EVENT } from './consent';

/**
 * The webhooks contract: the event types a webhook can subscribe to, what a registration may
 * hold, the limits, and the delivery defaults (timeout, retry schedule) that the OpenAPI text
 * states. One source for the gateway's OpenAPI component schemas (generated from the zod schemas
 * below and enforced on every request) and for the webhook service (its validator, event types,
 * configuration defaults and page sizes).
 */

/**
 * The one list of event types webhooks know. A new type is one line here: registration accepts
 * it in `events`, the document lists it, and the webhook service delivers events of that type
 * published on the bus. `subscribable: false` types are never subscribed to (the test endpoint
 * sends `ping` to any webhook). `accountWide` types are published without an application and go
 * to the subscribed webhooks of every application of the account.
 */
export const EVENT_TYPES = {
  consent: { subscribable: true, text: 'A consent event was recorded' },
  /** Once per consent state, when its current consent lapses (its expiresAt passed); sent to the application that recorded it. */
  'consent.expired': { subscribable: true, text: 'A consent lapsed (its expiresAt has passed)' },
  /** Once per consent state and material version of its specification, when a material change makes the state due for renewal; sent to the application that recorded it. */
  'consent.renewal_required': { subscribable: true, text: 'A consent needs renewal (its specification changed materially)' },
  /** Account-wide: every subscribed webhook of the account gets it, whatever its application. */
  'log.tree_head': { subscribable: true, accountWide: true, text: 'The consent log of the account has a new signed tree head' },
  ping: { subscribable: false, text: 'Test event sent through the webhook test endpoint' },
  /** Linked identities: a link event was stored (an identity linked, moved or unlinked: `subject` null); sent to the application that linked. `data` is the link as POST /consent/v0/subjects/links answers it. */
  'subject.linked': { subscribable: true, text: 'An identity was linked to a subject, moved to another or unlinked' },
} as const satisfies Record<string, { subscribable: boolean; accountWide?: boolean; text: string }>;

export type EventType = keyof typeof EVENT_TYPES;

type Subscribable = { [K in EventType]: (typeof EVENT_TYPES)[K]['subscribable'] extends true ? K : never }[EventType];
export const SUBSCRIBABLE_EVENT_TYPES = Object.entries(EVENT_TYPES)
  .filter(([, t]) => t.subscribable)
  .map(([name]) => name) as [Subscribable, ...Subscribable[]];

export const LIMITS = {
  urlLength: 2048,
  headers: 20,
  headerNameLength: 64,
  headerValueLength: 1024,
  headersTotalBytes: 8192,
  events: 20,
  /** Deliveries per page: default and largest. */
  deliveriesPageDefault: 20,
  deliveriesPageMax: 100,
  deliveriesCursorLength: 512,
  /** Attempts kept per delivery (older ones are dropped from its log). */
  attemptsKept: 50,
} as const;

/**
 * Delivery defaults of an installation (the webhook service's ACCORD_WEBHOOK_TIMEOUT_MS,
 * ACCORD_WEBHOOK_RETRY_SCHEDULE_MS and ACCORD_WEBHOOK_SECRET_GRACE_MS default to these, in ms); the
 * document's description of deliveries is written from them.
 */
export const DELIVERY = {
  timeoutMs: 15_000,
  /** Delays between attempts (the first attempt is immediate), jittered. */
  retrySchedule: ['5s', '5m', '30m', '2h', '5h', '10h', '10h'],
  jitter: 0.2,
  secretGrace: '24h',
} as const;

/** A duration of the form `<n><s|m|h>` as prose: `5 s`, `30 min`, `2 h`. */
export function durationText(d: string): string {
  const m = /^(\d+)(s|m|h)$/.exec(d);
  if (!m) throw new Error(`not a duration: ${d}`);
  return `${m[1]} ${m[2] === 'm' ? 'min' : m[2]}`;
}

/** Header names: HTTP tokens. */
export const HEADER_NAME = new RegExp(`^[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,${LIMITS.headerNameLength}}$`);
/** Header values: visible ASCII, space and tab; no leading/trailing whitespace, no CR/LF/NUL. */
export const HEADER_VALUE = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;

const registry = contractRegistry();

const url = z
  .url()
  .max(LIMITS.urlLength)
  .meta({
    description:
      'Absolute http(s) URL receiving the deliveries (no user:password part). Hosts that are, or resolve to, loopback, private, link-local, CGNAT, multicast or reserved addresses are refused unless the installation allow-lists them.',
    examples: ['https://hooks.example.com/accord'],
  });
const events = z
  .array(z.enum(SUBSCRIBABLE_EVENT_TYPES))
  .min(1)
  .max(LIMITS.events)
  .meta({
    description:
      'Event types to receive. Known types: `consent` (a consent event was recorded), `consent.expired` (once per consent state, when its current consent lapses: `data` is that consent event with `expired: true`; sent to the application that recorded it), `consent.renewal_required` (once per consent state and material version of its specification, when a material change makes a consent to an older version due for renewal: `data` is the state’s current consent event with `renewalRequired: true` and `reconsentSince`; sent to the application that recorded it) `log.tree_head` (a new signed tree head of the consent log; account-wide: delivered to every webhook of the account that lists it) and `subject.linked` (a link event of linked identities: an identity linked, moved or unlinked; `data` is the link as POST /consent/v0/subjects/links answers it; sent to the application that linked). Unknown types are refused.',
    examples: [['consent']],
  });
const headers = z
  .record(z.string().regex(HEADER_NAME), z.string().max(LIMITS.headerValueLength).regex(HEADER_VALUE))
  .refine((h) => Object.keys(h).length <= LIMITS.headers)
  .meta({
    maxProperties: LIMITS.headers,
    description: `Custom headers sent with every delivery (e.g. to authorize it at the receiver): at most ${LIMITS.headers}, names are HTTP tokens, values visible ASCII up to ${LIMITS.headerValueLength} characters, ${LIMITS.headersTotalBytes / 1024} KiB in total. Hop-by-hop and framing headers (connection, host, content-type, content-length, transfer-encoding, …) and the \`webhook-*\` signature headers cannot be set.`,
    examples: [{ Authorization: 'Bearer receiver-secret' }],
  });

export const WebhookCreateRequest = z.strictObject({ url, events, headers: headers.optional() }).meta({
  examples: [{ url: 'https://hooks.example.com/accord', events: ['consent'], headers: { Authorization: 'Bearer receiver-secret' } }],
});
registry.add(WebhookCreateRequest, { id: 'WebhookCreateRequest' });

export const WebhookUpdateRequest = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    headers: headers.optional(),
    disabled: z.boolean().optional().describe('true stops deliveries; false re-enables the webhook.'),
  })
  .refine((o) => Object.keys(o).length >= 1)
  .meta({ minProperties: 1 });
registry.add(WebhookUpdateRequest, { id: 'WebhookUpdateRequest' });

/**
 * A deliveries page cursor: the creation millisecond and id of the last delivery received
 * (`1764201600000.dlv_…`); any string of this form is a position the list continues from.
 */
export const DELIVERY_CURSOR_PATTERN = /^[0-9]{1,15}\.dlv_[A-Za-z0-9_-]{24}$/;

export const WebhookDeliveriesQuery = z.strictObject({
  limit: z.int().min(1).max(LIMITS.deliveriesPageMax).optional().describe(`Page size (default ${LIMITS.deliveriesPageDefault}).`),
  cursor: z
    .string()
    .max(LIMITS.deliveriesCursorLength)
    .regex(DELIVERY_CURSOR_PATTERN)
    .optional()
    .describe('From the `Link: rel="next"` header of the previous page: the position of its last delivery (creation millisecond and id).'),
});
registry.add(WebhookDeliveriesQuery, { id: 'WebhookDeliveriesQuery' });

// --- answers ------------------------------------------------------------------------------

const dateTime = () => z.iso.datetime({ offset: true });

export const Webhook = z.object({
  id: z.int().meta({ description: 'Per-installation integer id.', examples: [42] }),
  appId: z.string().describe('Application the webhook belongs to (from the access token).'),
  url: z.url(),
  events: z.array(z.string()),
  headers: z.record(z.string(), z.string()).optional().describe('Custom headers; absent when none.'),
  secret: z
    .string()
    .optional()
    .meta({
      description: 'Signing secret, `whsec_` + base64 of 24 random bytes; verify deliveries with any Standard Webhooks library. Not included in the list.',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  previousSecretExpiresAt: dateTime().optional().describe('Until when the rotated-out secret still signs; absent when none does.'),
  disabled: z.boolean().describe('A disabled webhook receives nothing (set by a 410 Gone answer or by PATCH).'),
  disabledReason: z.string().optional(),
  createdAt: dateTime().optional(),
  updatedAt: dateTime().optional(),
});
registry.add(Webhook, { id: 'Webhook' });

export const WebhookDeliveryAttempt = z.object({
  at: dateTime(),
  statusCode: z.int().nullable().describe('HTTP status of the answer; null when none came (refused, DNS, connect or timeout error).'),
  latencyMs: z.int(),
  error: z.string().optional().describe('Why the attempt failed, when it did.'),
});
registry.add(WebhookDeliveryAttempt, { id: 'WebhookDeliveryAttempt' });

export const WebhookDelivery = z.object({
  id: z.string().meta({ examples: ['dlv_Jj-Qn-jpqvqgme54KrEiHgt6'] }),
  webhookId: z.int(),
  eventId: z.string().describe('Event id; the `webhook-id` header of every attempt.'),
  eventType: z.string().meta({ examples: Object.keys(EVENT_TYPES) }),
  status: z
    .enum(['pending', 'succeeded', 'failed'])
    .describe('`failed`: every scheduled attempt failed, or the webhook was disabled/deleted. Failed deliveries are kept.'),
  attempts: z.array(WebhookDeliveryAttempt).describe(`Attempts, oldest first (the last ${LIMITS.attemptsKept}).`),
  nextAttemptAt: dateTime().optional().describe('When the next attempt is due (pending only).'),
  createdAt: dateTime(),
});
registry.add(WebhookDelivery, { id: 'WebhookDelivery' });

const eventTypeList = SUBSCRIBABLE_EVENT_TYPES.map((t) => `\`${t}\``).join(', ');

/** The body of every delivery (the webhook service's `deliveryBody`). */
export const WebhookEventPayload = z
  .object({
    type: z.string().describe(`An event type the webhook lists (${eventTypeList}), or \`ping\` for test events.`),
    text: z.string().optional().describe('Human-readable description of the event.'),
    data: z
      .record(z.string(), z.unknown())
      .describe(
        'For `consent`: the consent event as the consent API returns it. For `consent.expired`: the consent event that lapsed (the current one of its state when its `expiresAt` passed), with `expired: true`; sent once per state and event (a renewal that lapses in turn is a new one). For `consent.renewal_required`: the current consent event of a state whose specification changed materially after the version consented to, with `renewalRequired: true` and `reconsentSince` (the material version, integer); sent once per state and material version.',
      ),
  })
  .meta({
    description: 'Body of every delivery (signed as sent; verify the raw bytes).',
    examples: [
      {
        type: 'consent',
        text: 'A consent event was recorded',
        // a real event's JSON, as GET /consent/v0/consents/{id} answers it
        data: EXAMPLE_EVENT,
      },
    ],
  });
registry.add(WebhookEventPayload, { id: 'WebhookEventPayload' });

/** The OpenAPI component schemas of the webhook requests, answers and delivery body, by name. */
export const webhooksSchemas = componentSchemas(registry);
