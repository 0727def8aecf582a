import { Counter, Gauge, metricsRegistry } from '@accord/common';

/** Consent events stored, by action (accepted, declined, none); no ids in labels. */
export const consentEventsRecorded = new Counter({
  name: 'accord_consent_events_recorded_total',
  help: 'Consent events stored, by action.',
  labelNames: ['action'] as const,
  registers: [metricsRegistry],
});

export function countRecorded(events: ReadonlyArray<{ action: boolean | null }>): void {
  for (const e of events) consentEventsRecorded.inc({ action: e.action === true ? 'accepted' : e.action === false ? 'declined' : 'none' });
}

/**
 * What the outbox metrics need, whatever the outbox looks like: the consent service fills it
 * with its own store (see store/outbox-stats.ts), read at scrape time.
 */
export interface OutboxStats {
  /** Events stored but not yet acknowledged by JetStream, and when the oldest was stored. */
  pending(): Promise<{ count: number; oldestStoredAt: Date | null }>;
}

let source: OutboxStats | undefined;

/** The outbox the gauges read (the latest started consent service in this process). */
export function setOutboxStats(stats: OutboxStats | undefined): void {
  source = stats;
}

let last: Promise<{ count: number; oldestStoredAt: Date | null }> | undefined;
// Both gauges are collected in one scrape: read the outbox once for the two.
async function read(): Promise<{ count: number; oldestStoredAt: Date | null }> {
  if (!source) return { count: 0, oldestStoredAt: null };
  last ??= source.pending().finally(() => setTimeout(() => (last = undefined), 100).unref());
  return last;
}

new Gauge({
  name: 'accord_consent_outbox_pending_events',
  help: 'Consent events stored but not yet published to NATS (outbox lag in events).',
  registers: [metricsRegistry],
  async collect() {
    this.set((await read()).count);
  },
});

new Gauge({
  name: 'accord_consent_outbox_oldest_unpublished_age_seconds',
  help: 'Age of the oldest consent event not yet published to NATS (0 when none).',
  registers: [metricsRegistry],
  async collect() {
    const { oldestStoredAt } = await read();
    this.set(oldestStoredAt ? Math.max(0, (Date.now() - oldestStoredAt.getTime()) / 1000) : 0);
  },
});
