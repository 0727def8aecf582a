import { randomUUID } from 'node:crypto';
import { inSpan, SpanKind, type Logger } from '@accord/common';
import { countAttempt } from '../metrics';
import { attemptOutcome, dueEntries } from '../domain/delivery';
import type { RetryPolicy } from '../domain/retry';
import { activeSecrets, signatureHeaders } from '../domain/signing';
import type { Delivery, DeliveryStore, Sender } from '../app/ports';
import type { Registrations } from '../app/registrations';

export interface WorkerOptions {
  webhooks: Registrations;
  deliveries: DeliveryStore;
  sender: Sender;
  retry: RetryPolicy;
  /** How long a claim holds an attempt: a worker (or replica) that dies lets it go after this. */
  leaseMs: number;
  /** Longest pause of the idle watcher between looks at the queue (it starts at 50 ms and doubles). */
  pollMs: number;
  concurrency: number;
  logger: Logger;
}

/** First pause of the idle watcher; it doubles up to `pollMs` while the queue stays empty. */
const FIRST_IDLE_PAUSE_MS = 50;

/** A claimed attempt: the delivery and the lease it is held under. */
interface Claimed {
  delivery: Delivery;
  lease: string;
}

/**
 * Delivery workers of one replica: `concurrency` loops that each claim a due attempt with a
 * lease (so replicas never send the same attempt at once), send it, and record the outcome only
 * while still holding the lease.
 *
 * The lease protocol: a claim takes a queue entry due by now and makes it due again at the
 * lease's end, under a fresh random token, in one conditional write (of racing workers exactly
 * one gets it); the outcome is recorded only under that token. A worker that dies, or whose
 * receiver hangs past the lease, loses the attempt to the next claim after the lease's end; its
 * late outcome only adds a line to the attempt log.
 *
 * An idle replica sends almost nothing to the database: of the loops that found no work, one
 * is the watcher, which looks at the queue again when its next entry falls due or after a
 * pause that backs off from 50 ms to `pollMs`; the others sleep until woken, by the watcher
 * (when it sees more than one entry due) or at once when this replica queues new deliveries.
 */
export class DeliveryWorker {
  private stopping = false;
  private loops: Promise<void>[] = [];
  private sleepers = new Set<() => void>();
  /** Deliveries this replica just queued: claimed directly, without searching the queue. */
  private offered: string[] = [];
  /** Whether one idle loop is already watching the queue. */
  private watching = false;
  private idlePauseMs = FIRST_IDLE_PAUSE_MS;

  constructor(private readonly o: WorkerOptions) {}

  start(): void {
    for (let i = 0; i < this.o.concurrency; i++) this.loops.push(this.loop());
  }

  /** Deliveries queued by this replica, due now: claim them first and wake loops for them. */
  offer(ids: readonly string[]): void {
    this.offered.push(...ids);
    if (this.offered.length > 10_000) this.offered.splice(0, this.offered.length - 10_000); // the queue has them anyway
    this.wake(ids.length);
  }

  /** New work may be due: wake up to `n` idle loops (all by default). */
  wake(n = Infinity): void {
    let left = n;
    for (const w of [...this.sleepers]) {
      if (left-- <= 0) break;
      w();
    }
  }

  /** Stops claiming; waits for attempts in flight (bounded by the HTTP timeout). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await Promise.all(this.loops);
  }

  /**
   * Claims one due attempt. An offered delivery (just queued by this replica, due now) is tried
   * first without searching; otherwise the `concurrency` entries due soonest are read and the due
   * ones tried from a random one on. When none could be claimed, how many were due and when the
   * next one is.
   */
  private async claim(offered: string | undefined): Promise<{ claimed: Claimed | null; due: number; nextDueAt: Date | null }> {
    const now = new Date();
    const until = new Date(now.getTime() + this.o.leaseMs);
    const { due, nextDueAt } = offered ? { due: [offered], nextDueAt: null } : dueEntries(await this.o.deliveries.soonest(this.o.concurrency), now);
    for (const id of due) {
      const lease = randomUUID();
      const delivery = await this.o.deliveries.claim(id, lease, now, until);
      if (delivery) return { claimed: { delivery, lease }, due: due.length, nextDueAt };
    }
    return { claimed: null, due: due.length, nextDueAt };
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const next = this.offered.shift();
      let result: Awaited<ReturnType<DeliveryWorker['claim']>> | null = null;
      try {
        result = await this.claim(next);
      } catch (err) {
        this.o.logger.warn({ err: (err as Error).message }, 'cannot claim deliveries; retrying');
      }
      if (!result?.claimed && next) continue; // someone else took it; look for other work at once
      if (!result?.claimed) {
        await this.idle(result?.nextDueAt ?? null);
        continue;
      }
      this.idlePauseMs = FIRST_IDLE_PAUSE_MS;
      // More was due than this loop took: let sleeping loops share it. Otherwise make sure one
      // loop keeps watching while this one is busy sending.
      if (result.due > 1) this.wake(result.due - 1);
      else if (!this.watching) this.wake(1);
      try {
        const claimed = result.claimed;
        const { delivery } = claimed;
        await inSpan(
          'webhook delivery attempt',
          {
            kind: SpanKind.PRODUCER,
            parent: delivery.traceparent ? { traceparent: delivery.traceparent } : undefined,
            attributes: { 'accord.webhook.attempt': delivery.failedAttempts + 1, 'accord.event.type': delivery.eventType },
          },
          () => this.attempt(claimed),
        );
      } catch (err) {
        // The lease expires and another loop (or replica) tries again.
        this.o.logger.error({ err, deliveryId: result.claimed.delivery.id }, 'delivery attempt could not be recorded');
      }
    }
  }

  /** No work: watch the queue if nobody does, otherwise sleep until woken. */
  private async idle(nextDueAt: Date | null): Promise<void> {
    if (this.stopping) return;
    if (this.watching) return this.sleep(null);
    this.watching = true;
    try {
      const untilDue = nextDueAt ? Math.max(0, nextDueAt.getTime() - Date.now()) : Infinity;
      const pause = Math.min(untilDue, this.idlePauseMs);
      this.idlePauseMs = Math.min(this.idlePauseMs * 2, this.o.pollMs);
      // Jittered so that the watchers of several replicas do not look in step.
      await this.sleep(pause * (0.75 + Math.random() / 2));
    } finally {
      this.watching = false;
    }
  }

  /** Sleeps `ms`, or until woken when null. */
  private sleep(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        if (timer) clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = ms === null ? undefined : setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /** Ends a delivery without an attempt (its webhook was deleted or disabled meanwhile). */
  private async abandon({ delivery, lease }: Claimed, reason: string): Promise<void> {
    const at = new Date();
    const attempt = { at, statusCode: 0, latencyMs: 0, error: reason };
    await this.o.deliveries.complete(delivery.id, lease, { attempt, status: 'failed', failedAttempts: delivery.failedAttempts, nextAttemptAt: null }, at);
    countAttempt('abandoned', delivery.failedAttempts + 1);
  }

  private async attempt(claimed: Claimed): Promise<void> {
    const { delivery, lease } = claimed;
    const log = this.o.logger.child({ deliveryId: delivery.id, webhookId: delivery.webhookId, eventId: delivery.eventId });
    const webhook = await this.o.webhooks.get(delivery.webhookId);
    if (!webhook) return this.abandon(claimed, 'webhook deleted');
    if (webhook.disabled) return this.abandon(claimed, `webhook disabled${webhook.disabledReason ? `: ${webhook.disabledReason}` : ''}`);
    const now = new Date();
    const headers = { ...webhook.headers, ...signatureHeaders(delivery.eventId, delivery.body, activeSecrets(webhook.secrets, now), now) };

    const result = await this.o.sender.post(webhook.url, headers, delivery.body);
    const answeredAt = new Date();
    const outcome = attemptOutcome(result, delivery.failedAttempts, this.o.retry, answeredAt);
    const attempt = {
      at: now,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error || (outcome.status === 'succeeded' ? '' : `unexpected status ${result.statusCode}`),
    };
    if (outcome.gone) {
      await this.o.webhooks.disable(webhook, 'the receiver answered 410 Gone');
      log.warn('receiver answered 410 Gone: webhook disabled');
    }
    const recorded = await this.o.deliveries.complete(delivery.id, lease, { ...outcome, attempt }, answeredAt);
    if (!recorded) {
      log.warn('lease lost before the attempt was recorded (another worker took over)');
      return;
    }
    countAttempt(outcome.status === 'pending' ? 'retrying' : outcome.status, delivery.failedAttempts + 1);
    if (outcome.status === 'failed') log.warn({ statusCode: result.statusCode, error: attempt.error }, 'delivery failed for good');
    else log.debug({ statusCode: result.statusCode, status: outcome.status, latencyMs: result.latencyMs }, 'delivery attempt');
  }
}
