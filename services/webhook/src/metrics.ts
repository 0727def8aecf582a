import { Counter, Gauge, metricsRegistry } from '@accord/common';

/** Delivery attempts by outcome and attempt number (1…5, then `6+`, so labels stay bounded). */
export const deliveryAttempts = new Counter({
  name: 'accord_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome (succeeded, retrying, failed, abandoned) and attempt number.',
  labelNames: ['outcome', 'attempt'] as const,
  registers: [metricsRegistry],
});

export function countAttempt(outcome: 'succeeded' | 'retrying' | 'failed' | 'abandoned', attempt: number): void {
  deliveryAttempts.inc({ outcome, attempt: attempt >= 6 ? '6+' : String(Math.max(1, attempt)) });
}

let depth: (() => Promise<number>) | undefined;

/** The webhook service fills this with its store: deliveries waiting to be sent (due or later). */
export function setQueueDepth(fn: (() => Promise<number>) | undefined): void {
  depth = fn;
}

new Gauge({
  name: 'accord_webhook_queue_depth',
  help: 'Webhook deliveries pending (queued or waiting for a retry).',
  registers: [metricsRegistry],
  async collect() {
    this.set(depth ? await depth() : 0);
  },
});
