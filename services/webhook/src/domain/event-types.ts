/**
 * The one list of event types webhooks know. A new type is one line here: registration
 * accepts it in `events`, and the consumer delivers events of that type published on the bus.
 * `subscribable: false` types are never subscribed to (the test endpoint sends `ping` to any
 * webhook).
 */
export const EVENT_TYPES = {
  consent: { subscribable: true, text: 'A consent event was recorded' },
  ping: { subscribable: false, text: 'Test event sent through the webhook test endpoint' },
} as const satisfies Record<string, { subscribable: boolean; text: string }>;

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
