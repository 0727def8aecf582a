import { createHash } from 'node:crypto';
import { contracts } from '@accord/proto';
import { nextRetryDelay, type RetryPolicy } from './retry';

const { DELIVERY_CURSOR_PATTERN } = contracts.webhooks;

/** A delivery's id, from the event and the webhook: an event handled twice makes one delivery (and one `webhook-id`). */
export function deliveryId(eventId: string, webhookId: number): string {
  return 'dlv_' + createHash('sha256').update(`${eventId}\0${webhookId}`).digest('base64url').slice(0, 24);
}

/**
 * A page cursor of a webhook's deliveries: the last delivery's position (creation millisecond and
 * id, the list's order), written `<ms>.<id>` so that the document can say which strings are
 * cursors (DELIVERY_CURSOR_PATTERN), and any such string is a position to continue from.
 */
export function deliveryCursor(d: { createdAt: Date; id: string }): string {
  return `${d.createdAt.getTime()}.${d.id}`;
}

/** The position a cursor names, or null when the string is not a cursor. */
export function readDeliveryCursor(cursor: string): { createdAt: Date; id: string } | null {
  if (!DELIVERY_CURSOR_PATTERN.test(cursor)) return null;
  const dot = cursor.indexOf('.');
  return { createdAt: new Date(Number(cursor.slice(0, dot))), id: cursor.slice(dot + 1) };
}

/**
 * Of the queue entries due soonest, those due by `now`, starting from a random one (so that the
 * loops of one replica, and the replicas, rarely try the same entry), and when the first entry
 * not yet due is (an idle worker sleeps until then).
 */
export function dueEntries(
  entries: ReadonlyArray<{ id: string; dueAt: Date }>,
  now: Date,
  random: () => number = Math.random,
): { due: string[]; nextDueAt: Date | null } {
  const due = entries.filter((e) => e.dueAt.getTime() <= now.getTime()).map((e) => e.id);
  const start = Math.floor(random() * due.length);
  return { due: [...due.slice(start), ...due.slice(0, start)], nextDueAt: entries.find((e) => e.dueAt.getTime() > now.getTime())?.dueAt ?? null };
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/**
 * What an attempt's answer makes of its delivery: a 2xx succeeds; 410 Gone fails it for good and
 * `gone` says the webhook is to be disabled; anything else is a failed attempt, retried on the
 * schedule (never earlier than the receiver's Retry-After) until it is used up.
 */
export function attemptOutcome(
  answer: { statusCode: number; retryAfterMs: number | null },
  failedBefore: number,
  policy: RetryPolicy,
  at: Date,
  random: () => number = Math.random,
): { status: DeliveryStatus; failedAttempts: number; nextAttemptAt: Date | null; gone: boolean } {
  if (answer.statusCode >= 200 && answer.statusCode < 300) return { status: 'succeeded', failedAttempts: failedBefore, nextAttemptAt: null, gone: false };
  const failedAttempts = failedBefore + 1;
  if (answer.statusCode === 410) return { status: 'failed', failedAttempts, nextAttemptAt: null, gone: true };
  const delay = nextRetryDelay(policy, failedAttempts, answer.retryAfterMs, random);
  return delay === null
    ? { status: 'failed', failedAttempts, nextAttemptAt: null, gone: false }
    : { status: 'pending', failedAttempts, nextAttemptAt: new Date(at.getTime() + delay), gone: false };
}
