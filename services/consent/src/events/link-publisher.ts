import { randomUUID } from 'node:crypto';
import type { JetStreamClient } from 'nats';
import { eventSubject, PeriodicTask, type EventEnvelope, type Logger } from '@accord/common';
import type { LinkSink } from '../app/links';
import type { LinkStore } from '../app/ports';
import { linkJson, type LinkEvent } from '../domain/link';

/** The event type of a stored link event (webhooks subscribe to it; docs/consent.md, Linked identities). */
export const SUBJECT_LINKED_EVENT = 'subject.linked';
/** Links one relay round publishes. */
const RELAY_BATCH = 100;

/** The bus envelope of a link event: `data` is its REST JSON; the id is the link's (Nats-Msg-Id dedupe). */
export function linkEnvelope(l: LinkEvent): EventEnvelope {
  return { id: l.id, type: SUBJECT_LINKED_EVENT, accountId: l.accountId, appId: l.appId, occurredAt: l.createdAt.toISOString(), data: linkJson(l) };
}

export interface LinkPublisherOptions {
  prefix: string;
  publishTimeoutMs: number;
  /** How long a claimed link belongs to this relay before another may claim it (ACCORD_CONSENT_OUTBOX_LEASE_MS). */
  leaseMs: number;
  /** Pause between relay rounds (ACCORD_CONSENT_OUTBOX_POLL_MS). */
  pollMs: number;
  logger: Pick<Logger, 'warn'>;
}

/**
 * `subject.linked` on the event stream (`<prefix>.events.subject.linked.<account>.<app>`), never
 * lost: each link is its own outbox record (LinkStore.insert). The writer publishes at once
 * (`stored`) and marks it published; when that fails, the relay (`start`) claims the links due
 * after the lease, from any replica, and publishes them. A link published twice is one JetStream
 * message (Nats-Msg-Id = the link id) and one webhook delivery.
 */
export class LinkPublisher implements LinkSink {
  private readonly task: PeriodicTask<number>;

  constructor(
    private readonly js: Pick<JetStreamClient, 'publish'>,
    private readonly store: Pick<LinkStore, 'claimDue' | 'markPublished'>,
    private readonly o: LinkPublisherOptions,
  ) {
    this.task = new PeriodicTask<number>({
      run: () => this.relay(),
      next: (n) => (n === RELAY_BATCH ? 0 : o.pollMs),
      logger: o.logger,
      failure: 'consent: subject.linked relay round failed; retrying',
    });
  }

  stored(link: LinkEvent): void {
    void this.publish([link]).catch((err: unknown) =>
      this.o.logger.warn({ err, link: link.id }, 'consent: subject.linked not published now; the relay publishes it after the lease'),
    );
  }

  /** One relay round: the links due now, published; resolves with how many were claimed. */
  async relay(now = new Date()): Promise<number> {
    const due = await this.store.claimDue(randomUUID(), now, new Date(now.getTime() + this.o.leaseMs), RELAY_BATCH);
    if (due.length) await this.publish(due);
    return due.length;
  }

  private async publish(links: LinkEvent[]): Promise<void> {
    for (const l of links) {
      const env = linkEnvelope(l);
      await this.js.publish(eventSubject(this.o.prefix, SUBJECT_LINKED_EVENT, l.accountId, l.appId), Buffer.from(JSON.stringify(env)), {
        msgID: env.id,
        timeout: this.o.publishTimeoutMs,
      });
    }
    await this.store.markPublished(links.map((l) => l.id));
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }
}
