import type { JetStreamClient } from 'nats';
import { eventSubject, type EventEnvelope, type Logger } from '@accord/common';
import type { LinkSink } from '../app/links';
import { linkJson, type LinkEvent } from '../domain/link';

/** The event type of a stored link event (webhooks subscribe to it; docs/consent.md, Linked identities). */
export const SUBJECT_LINKED_EVENT = 'subject.linked';

/** The bus envelope of a link event: `data` is its REST JSON; the id is the link's (Nats-Msg-Id dedupe). */
export function linkEnvelope(l: LinkEvent): EventEnvelope {
  return { id: l.id, type: SUBJECT_LINKED_EVENT, accountId: l.accountId, appId: l.appId, occurredAt: l.createdAt.toISOString(), data: linkJson(l) };
}

/**
 * Publishes stored link events on the event stream (`<prefix>.events.subject.linked.<account>.<app>`),
 * retried a few times in the background. Not yet behind the durable outbox that consent events
 * have: a link whose publication fails every attempt is stored and resolves reads, but its
 * webhook is not delivered (logged as a warning).
 */
export function linkPublisher(js: Pick<JetStreamClient, 'publish'>, prefix: string, timeoutMs: number, logger: Pick<Logger, 'warn'>, attempts = 5): LinkSink {
  return {
    stored(link) {
      const env = linkEnvelope(link);
      const body = Buffer.from(JSON.stringify(env));
      void (async () => {
        for (let i = 1; i <= attempts; i++) {
          try {
            await js.publish(eventSubject(prefix, SUBJECT_LINKED_EVENT, link.accountId, link.appId), body, { msgID: env.id, timeout: timeoutMs });
            return;
          } catch (err) {
            if (i === attempts) logger.warn({ err, link: link.id }, 'consent: subject.linked not published; the link is stored');
            else await new Promise((r) => setTimeout(r, 200 * 2 ** i));
          }
        }
      })();
    },
  };
}
