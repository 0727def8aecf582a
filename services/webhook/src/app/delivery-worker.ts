import { inSpan, SpanKind, type Logger } from '@accord/common';
import { countAttempt } from '../metrics';
import { nextRetryDelay, type RetryPolicy } from '../domain/retry';
import { activeSecrets, signatureHeaders } from '../domain/signing';
import type { DeliveryStore, Claimed, ClaimResult } from '../store/delivery-store';
import type { WebhookStore } from '../store/webhook-store';
import type { SafeSender } from '../http/sender';

export interface WorkerOptions {
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  sender: SafeSender;
  retry: RetryPolicy;
  leaseMs: number;
  /** Longest pause of the idle watcher between looks at the queue (it starts at 50 ms and doubles). */
  pollMs: number;
  concurrency: number;
  logger: Logger;
}

/** First pause of the idle watcher; it doubles up to `pollMs` while the queue stays empty. */
const FIRST_IDLE_PAUSE_MS = 50;

/**
 * Delivery workers of one replica: `concurrency` loops that each claim the most overdue
 * pending attempt with a lease (so replicas never send the same attempt at once), send it,
 * and record the outcome only while still holding the lease.
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

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const next = this.offered.shift();
      let result: ClaimResult | null = null;
      try {
        result = await this.o.deliveries.claim(this.o.leaseMs, this.o.concurrency, next ? [next] : []);
      } catch (err) {
        this.o.logger.warn({ err: (err as Error).message }, 'cannot claim deliveries; retrying');
      }
      if (!result?.claimed && next) continue; // someone else took it; look for other work at once
      if (!result?.claimed) {
        await this.idle(result && 'nextDueAt' in result ? result.nextDueAt : null);
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
        this.o.logger.error({ err, deliveryId: result.claimed.delivery._id }, 'delivery attempt could not be recorded');
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

  private async attempt({ delivery, leaseToken }: Claimed): Promise<void> {
    const log = this.o.logger.child({ deliveryId: delivery._id, webhookId: delivery.webhookId, eventId: delivery.eventId });
    const webhook = await this.o.webhooks.byId(delivery.webhookId);
    if (!webhook) {
      await this.o.deliveries.abandon(delivery._id, leaseToken, 'webhook deleted');
      countAttempt('abandoned', delivery.failedAttempts + 1);
      return;
    }
    if (webhook.disabled) {
      await this.o.deliveries.abandon(delivery._id, leaseToken, `webhook disabled${webhook.disabledReason ? `: ${webhook.disabledReason}` : ''}`);
      countAttempt('abandoned', delivery.failedAttempts + 1);
      return;
    }
    const now = new Date();
    const headers: Record<string, string> = {};
    for (const h of webhook.headers) headers[h.name] = h.value;
    Object.assign(headers, signatureHeaders(delivery.eventId, delivery.body, activeSecrets(webhook.secrets, now), now));

    const result = await this.o.sender.post(webhook.url, headers, delivery.body);
    const ok = result.statusCode >= 200 && result.statusCode < 300;
    const attempt = {
      at: now,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error || (ok ? '' : `unexpected status ${result.statusCode}`),
    };
    let failedAttempts = delivery.failedAttempts;
    let status: 'pending' | 'succeeded' | 'failed';
    let nextAttemptAt: Date | null = null;
    if (ok) status = 'succeeded';
    else if (result.statusCode === 410) {
      failedAttempts++;
      status = 'failed';
      await this.o.webhooks.disable(webhook, 'the receiver answered 410 Gone');
      log.warn('receiver answered 410 Gone: webhook disabled');
    } else {
      failedAttempts++;
      const delay = nextRetryDelay(this.o.retry, failedAttempts, result.retryAfterMs);
      status = delay === null ? 'failed' : 'pending';
      nextAttemptAt = delay === null ? null : new Date(Date.now() + delay);
    }
    const recorded = await this.o.deliveries.complete(delivery._id, leaseToken, { attempt, status, nextAttemptAt }, failedAttempts);
    if (recorded) countAttempt(status === 'pending' ? 'retrying' : status, delivery.failedAttempts + 1);
    if (!recorded) log.warn('lease lost before the attempt was recorded (another worker took over)');
    else if (status === 'failed') log.warn({ statusCode: result.statusCode, error: attempt.error }, 'delivery failed for good');
    else log.debug({ statusCode: result.statusCode, status, latencyMs: result.latencyMs }, 'delivery attempt');
  }
}
