import { RetentionPolicy, StorageType, type JetStreamManager } from 'nats';
import { z } from 'zod';

/**
 * Domain events travel on one JetStream stream per installation namespace (ACCORD_NATS_PREFIX,
 * default "accord", so that several installations or test runs can share one NATS):
 *   stream   `<prefix>-events`, subjects `<prefix>.events.>`
 *   subject  `<prefix>.events.<type>.<accountId>.<appId>`
 * Every message has `Nats-Msg-Id` = the event id (JetStream dedupe). Consent events (`consent`,
 * `consent.expired`, `consent.renewal_required`) are binary `accord.consent.v1.ConsentBusEvent`
 * messages, marked by their `Content-Type` header; others (`log.tree_head`), and consent events
 * of earlier releases, are JSON EventEnvelopes.
 */
export const natsPrefixEnv = {
  ACCORD_NATS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/i)
    .default('accord'),
};

export interface EventEnvelope<T = unknown> {
  /** Unique id of the event (also the Nats-Msg-Id and the webhook-id of deliveries). */
  id: string;
  type: string;
  accountId: string;
  appId: string;
  /** ISO 8601 time the event happened. */
  occurredAt: string;
  /** The event data in its REST representation (what webhooks deliver as `data`). */
  data: T;
}

export function streamName(prefix: string): string {
  return `${prefix}-events`;
}

export function eventSubject(prefix: string, type: string, accountId: string, appId: string): string {
  return `${prefix}.events.${type}.${accountId}.${appId}`;
}

/** Window within which JetStream drops a re-published message with the same Nats-Msg-Id. */
export const DEDUPE_WINDOW_NS = 2 * 60 * 60 * 1e9;

/** Creates the stream, or leaves an existing one as it is (idempotent; safe from every replica). */
export async function ensureEventStream(jsm: JetStreamManager, prefix: string): Promise<void> {
  const name = streamName(prefix);
  try {
    await jsm.streams.info(name);
  } catch {
    try {
      await jsm.streams.add({
        name,
        subjects: [`${prefix}.events.>`],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        duplicate_window: DEDUPE_WINDOW_NS,
        max_age: 7 * 24 * 60 * 60 * 1e9,
      });
    } catch (err) {
      // Another replica may have created it in between.
      await jsm.streams.info(name).catch(() => {
        throw err;
      });
    }
  }
}
