import { randomUUID } from 'node:crypto';
import { eventSubject, inSpan, mapLimit, PeriodicTask, SpanKind, traceHeaders, type Logger } from '@accord/common';
import type { ConsentEvent } from '../domain/consent';
import type { ClaimedEvent, Lifecycle, WritePath } from '../app/ports';
import { consentBusEvent, publishBusEvent, type BusEncoding, type BusPublisher } from './bus-event';
import { PublicationMarks } from './publication-marks';

export interface RelayOptions {
  prefix: string;
  /** How bus events are written (default protobuf). */
  encoding?: BusEncoding;
  /** How long a claimed event (or one the writer is publishing) belongs to one relay. */
  leaseMs: number;
  /** Longest pause between two looks for due events when there is nothing to do. */
  pollMs: number;
  publishTimeoutMs: number;
  logger: Logger;
  /** Events read per chunk of a claim. */
  batch?: number;
}

/** First pause after a round that found work; it doubles up to pollMs while rounds find nothing. */
const MIN_POLL_MS = 100;

/**
 * Publishes stored consent events to JetStream. The event document is its own outbox record:
 * the writer stores it with `pub` = now + lease, hands it to `publishStored` once answered, and a
 * JetStream acknowledgement removes `pub` — with the log's mark, in the update the log's pass
 * sends anyway, or on its own within a second (PublicationMarks, `marks`).
 *
 * Whatever is not acknowledged (NATS down, process crash) keeps its `pub`; once that time has
 * passed, any replica's background round claims it (OutboxStore.claimDue, atomic per event),
 * re-applies its current state (idempotent), publishes it and marks it. Publishing twice is
 * harmless: `Nats-Msg-Id` is the event id and the stream de-duplicates. Each event is its own
 * message in its own producer span with its trace headers; the acknowledgements of the events
 * published together are awaited together (AckBatchPublisher).
 *
 * A claimed event of a request that is not stored whole (its writer's insert failed half-way
 * and the writer could not withdraw it, or died) is never published: the round settles its
 * request for good (EventStore.fence of the request's last event) and withdraws it, or
 * publishes it when the request turns out to be stored whole after all.
 *
 * Rounds run when a publish fails (at the retry time) and otherwise with a pause that doubles
 * from 100 ms up to `pollMs` while they find nothing, so an idle replica sends one small update
 * per `pollMs`.
 */
export class OutboxRelay {
  private readonly rounds: PeriodicTask<number>;
  private readonly inFlight = new Set<Promise<unknown>>();
  private idlePollMs = MIN_POLL_MS;
  /** The acknowledged ids still to mark: the log's passes take them (LogSequencer's `published`). */
  readonly marks: PublicationMarks;

  constructor(
    private readonly store: Pick<WritePath, 'events' | 'current'> & Pick<Lifecycle, 'outbox'>,
    /** An AckBatchPublisher in production: the events of a round or a request acknowledged together. */
    private readonly js: BusPublisher,
    private readonly opts: RelayOptions,
  ) {
    this.marks = new PublicationMarks(store.outbox, opts.logger);
    this.rounds = new PeriodicTask({
      run: () => this.runOnce(),
      next: (claimed) => (this.idlePollMs = claimed ? MIN_POLL_MS : Math.min(this.idlePollMs * 2, this.opts.pollMs)),
      logger: opts.logger,
      failure: 'outbox: relay round failed',
    });
  }

  start(): void {
    this.rounds.start();
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.inFlight, this.rounds.stop()]);
    await this.marks.flush();
    await this.marks.drained();
  }

  /** Publishes events this process has just stored (in the background). */
  publishStored(events: ConsentEvent[]): void {
    this.track(this.publishAll(events).catch((err: unknown) => this.opts.logger.warn({ err }, 'outbox: publish failed; the relay will retry')));
  }

  /** One round: claims due events and publishes them. Resolves with the number claimed. */
  async runOnce(): Promise<number> {
    const claim = randomUUID();
    const batch = this.opts.batch ?? 500;
    const now = new Date();
    let total = 0;
    for (
      let claimed = await this.store.outbox.claimDue(claim, now, new Date(now.getTime() + this.opts.leaseMs), batch);
      claimed.length;
      claimed = await this.store.outbox.claimed(claim, batch)
    ) {
      total += claimed.length;
      const { events, deferred } = await this.settle(claimed);
      // the writer may have died before applying their current states: applying them again is a no-op otherwise
      await this.store.current.apply(events);
      const failed = await this.publishAll(events);
      await this.marks.flush();
      if (failed || deferred) break;
    }
    return total;
  }

  /**
   * The claimed events that may be published: those of requests stored whole. The others'
   * requests are settled (their last event's id fenced): fenced ones are withdrawn, those found
   * stored whole are published, those the fence could not settle wait for the next lease.
   */
  private async settle(claimed: ClaimedEvent[]): Promise<{ events: ConsentEvent[]; deferred: number }> {
    const open = claimed.filter((e) => e.unsettledUntil !== undefined);
    if (!open.length) return { events: claimed, deferred: 0 };
    let fate = new Map<string, 'stored' | 'fenced'>();
    try {
      fate = await this.store.events.fence([...new Set(open.map((e) => e.unsettledUntil!))]);
    } catch (err) {
      this.opts.logger.warn({ err, events: open.length }, 'outbox: could not settle events of a request stored in part; will retry');
    }
    const fateOf = (e: ClaimedEvent) => (e.unsettledUntil === undefined ? 'stored' : fate.get(e.unsettledUntil));
    const gone = open.filter((e) => fateOf(e) === 'fenced').map((e) => e.id);
    if (gone.length) {
      await this.store.events.withdraw(gone);
      this.opts.logger.warn({ events: gone.length }, 'outbox: withdrew the events of a request its writer stored in part and never answered');
    }
    const unknown = open.filter((e) => fateOf(e) === undefined).map((e) => e.id);
    if (unknown.length) await this.store.outbox.defer(unknown, new Date(Date.now() + this.opts.leaseMs));
    const events = claimed.filter((e) => fateOf(e) === 'stored').map(({ unsettledUntil: _, ...e }) => e);
    return { events, deferred: unknown.length };
  }

  /** Publishes; queues the acknowledged for marking; defers the rest. Resolves with the number that failed. */
  private async publishAll(events: ConsentEvent[]): Promise<number> {
    const failed: string[] = [];
    let firstError: unknown;
    // at most 256 awaiting their acknowledgement; those published in one turn share one batch (AckBatchPublisher)
    await mapLimit(events, 256, async (ev) => {
      try {
        await this.publish(ev);
        this.marks.add(ev.id);
      } catch (err) {
        firstError ??= err;
        failed.push(ev.id);
      }
    });
    if (failed.length) {
      const retryInMs = Math.min(this.opts.leaseMs, 2_000);
      await this.store.outbox.defer(failed, new Date(Date.now() + retryInMs));
      this.opts.logger.warn({ count: failed.length, err: (firstError as Error)?.message, retryInMs }, 'outbox: publish failed; will retry');
      this.rounds.runIn(retryInMs);
    }
    return failed.length;
  }

  private async publish(ev: ConsentEvent): Promise<void> {
    const subject = eventSubject(this.opts.prefix, 'consent', ev.accountId, ev.appId);
    await inSpan(
      'consent publish',
      { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } },
      async () => {
        // The trace context travels in the message headers (none when tracing is off).
        await publishBusEvent(this.js, subject, consentBusEvent(ev), {
          timeout: this.opts.publishTimeoutMs,
          trace: traceHeaders(),
          encoding: this.opts.encoding,
        });
      },
    );
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }
}
