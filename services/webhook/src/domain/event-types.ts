import { contracts } from '@accord/proto';

/**
 * The event types webhooks know are the contract's (@accord/proto contracts/webhooks.ts): a new
 * type is one line there. These helpers answer questions about a type.
 */
export const { EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } = contracts.webhooks;
export type EventType = contracts.webhooks.EventType;

export function isSubscribable(type: string): boolean {
  return (SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(type);
}

export function eventText(type: string): string | undefined {
  return (EVENT_TYPES as Record<string, { text: string }>)[type]?.text;
}

export function isAccountWide(type: string): boolean {
  return (EVENT_TYPES as Record<string, { accountWide?: boolean }>)[type]?.accountWide === true;
}
