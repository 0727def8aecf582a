/**
 * The one list of event types webhooks know. A new type is one line here: registration
 * accepts it in `events`, and the consumer delivers events of that type published on the bus.
 * `subscribable: false` types are never subscribed to (the test endpoint sends `ping` to any
 * webhook). `accountWide` types are published without an application and go to the subscribed
 * webhooks of every application of the account.
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
} as const satisfies Record<string, { subscribable: boolean; accountWide?: boolean; text: string }>;

export type EventType = keyof typeof EVENT_TYPES;

export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = Object.entries(EVENT_TYPES)
  .filter(([, t]) => t.subscribable)
  .map(([name]) => name);

export function isSubscribable(type: string): boolean {
  return SUBSCRIBABLE_EVENT_TYPES.includes(type);
}

export function eventText(type: string): string | undefined {
  return (EVENT_TYPES as Record<string, { text: string }>)[type]?.text;
}

export function isAccountWide(type: string): boolean {
  return (EVENT_TYPES as Record<string, { accountWide?: boolean }>)[type]?.accountWide === true;
}
