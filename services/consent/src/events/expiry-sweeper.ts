import { createHash, randomUUID } from 'node:crypto';
import type { JetStreamClient } from 'nats';
import { eventSubject, mapLimit, PeriodicTask, type Logger } from '@accord/common';
import type { ConsentEvent } from '../domain/consent';
import { eventMessage } from '../domain/wire';
import type { ExpiryStore, StateEvent } from '../app/ports';
import { publishBusEvent, type BusEncoding, type ConsentBusEvent } from './bus-event';

/** The event type announcing that a state's current consent lapsed (webhooks opt in to it). */
export const EXPIRED_EVENT = 'consent.expired';

export interface SweeperOptions {
  prefix: string;
  /** How bus events are written (default protobuf). */
  encoding?: BusEncoding;
  /** Longest pause between two sweeps (each costs one database command when nothing lapsed). */
  intervalMs: number;
  /** How long a claimed state belongs to one sweeper before another replica may take it. */
  leaseMs: number;
  publishTimeoutMs: number;
  logger: Pick<Logger, 'warn'>;
  /** States read per chunk of a claim. */
  batch?: number;
}

/** A sweep planned by sweepWhenDue runs this long after the expiry (clock steps, the write's own latency). */
const DUE_MARGIN_MS = 20;

/**
 * The bus event of a lapse: the lapsed event with `expired` set (webhooks receive it as REST shows it).
 * Its id is derived from (state, event), so an announcement published twice (a sweeper that died
 * after publishing, before marking) is one JetStream message (Nats-Msg-Id dedupe) and one
 * webhook delivery; a renewal is a new event and so a new id.
 */
export function expiredBusEvent(s: StateEvent): ConsentBusEvent {
  const id = createHash('sha256').update(`${EXPIRED_EVENT}\0${s.key}\0${s.event.id}`).digest('hex').slice(0, 32);
  return {
    id,
    type: EXPIRED_EVENT,
    accountId: s.event.accountId,
    appId: s.event.appId,
    occurredAt: s.event.expiresAt ?? new Date(),
    event: { ...eventMessage(s.event), expired: true },
  };
}

/**
 * Announces lapsed consents: a `consent.expired` event on the event stream once per state and
 * current event, when its `expiresAt` has passed (docs/consent.md, "Expiry").
 *
 * Correct with any number of replicas, without transactions: the current document carries its
 * own queue entry (`cur.xq`, written by the ordinary `$max` of the write path, so the write path
 * sends no extra command). A sweep claims due states with one atomic-per-document update (the
 * entry is pushed forward by the lease, tagged with the round's claim), publishes them, then marks
 * them announced. A sweeper that dies after claiming leaves the entries due again after the
 * lease (none lost); one that dies after publishing, before marking, makes the next publish a
 * duplicate that JetStream drops by message id (none doubled). A renewal replaces `cur`, so the
 * old event's entry goes with it and the new one has its own.
 *
 * Each replica sweeps every `intervalMs` (one updateMany matching nothing when idle); a
 * replica that has just written a consent expiring sooner sweeps at that time (`sweepWhenDue`, no
 * database command), so lapses are usually announced within milliseconds, and at most
 * `intervalMs` late otherwise.
 */
export class ExpirySweeper {
  private readonly sweeps: PeriodicTask<number>;

  constructor(
    private readonly repo: ExpiryStore,
    private readonly js: Pick<JetStreamClient, 'publish'>,
    private readonly opts: SweeperOptions,
  ) {
    this.sweeps = new PeriodicTask({
      run: () => this.runOnce(),
      // a full chunk may mean more are due; otherwise the next sweep (unless sweepWhenDue planned an earlier one meanwhile)
      next: (n) => ((n ?? 0) >= (opts.batch ?? 500) ? 0 : opts.intervalMs),
      logger: opts.logger,
      failure: 'expiry: sweep failed',
    });
  }

  start(): void {
    this.sweeps.start();
  }

  stop(): Promise<void> {
    return this.sweeps.stop();
  }

  /** This process wrote events that lapse at these times: sweep when the first one does, if sooner than planned. */
  sweepWhenDue(events: ConsentEvent[]): void {
    let first = Infinity;
    for (const e of events) if (e.expiresAt && e.expiresAt.getTime() < first) first = e.expiresAt.getTime();
    if (first === Infinity) return;
    const at = first + DUE_MARGIN_MS;
    if (at < this.sweeps.plannedAt) this.sweeps.runIn(Math.max(0, at - Date.now()));
  }

  /** One sweep: claims lapsed states, announces them. Resolves with the number announced. */
  async runOnce(now: Date = new Date()): Promise<number> {
    const claim = randomUUID();
    const batch = this.opts.batch ?? 500;
    let announced = 0;
    const until = new Date(now.getTime() + this.opts.leaseMs);
    for (let states = await this.repo.claimLapsed(claim, now, until, batch); states.length; states = await this.repo.lapsedOfClaim(claim, batch)) {
      const done: Array<{ key: string; eventId: string }> = [];
      let failed = 0;
      let firstError: unknown;
      await mapLimit(states, 64, async (s) => {
        const m = expiredBusEvent(s);
        try {
          await publishBusEvent(this.js, eventSubject(this.opts.prefix, EXPIRED_EVENT, m.accountId, m.appId), m, {
            timeout: this.opts.publishTimeoutMs,
            encoding: this.opts.encoding,
          });
          done.push({ key: s.key, eventId: s.event.id });
        } catch (err) {
          failed++;
          firstError ??= err;
        }
      });
      await this.repo.markAnnounced(done);
      announced += done.length;
      if (failed) {
        // left claimed: due again after the lease, for any replica
        this.opts.logger.warn({ count: failed, err: (firstError as Error)?.message, retryInMs: this.opts.leaseMs }, 'expiry: publish failed; will retry');
        break;
      }
      // a short chunk was the rest of the claim (a round with work: claim, read, mark)
      if (states.length < batch) break;
    }
    return announced;
  }
}
