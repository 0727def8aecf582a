import { randomUUID } from 'node:crypto';
import type { JetStreamClient } from 'nats';
import { eventSubject, type EventEnvelope, type Logger } from '@accord/common';
import { toJson, type ConsentEvent, type ConsentEventJson } from '../domain/consent';
import { mapLimit, type ConsentRepository } from '../store/repository';

export interface RelayOptions {
  prefix: string;
  leaseMs: number;
  pollMs: number;
  publishTimeoutMs: number;
  logger: Logger;
  /** Records claimed per round. */
  batch?: number;
}

/** How often a relay forgets old current-state moves (ConsentRepository.sweepMoves). */
const SWEEP_EVERY_MS = 10 * 60_000;

export function envelopeOf(ev: ConsentEvent): EventEnvelope<ConsentEventJson> {
  return { id: ev.id, type: 'consent', accountId: ev.accountId, appId: ev.appId, occurredAt: ev.createdAt.toISOString(), data: toJson(ev) };
}

/**
 * Publishes stored consent events to JetStream from the durable outbox.
 *
 * The writer inserts outbox records already leased to this relay's `owner`, stores the events,
 * then hands them to `publishOwned` for an immediate publish. Whatever is not acknowledged by
 * JetStream (NATS down, process crash) stays in the outbox; after its lease any replica's
 * background loop claims it (conditional update on `leaseUntil`), publishes it and deletes the
 * record. Re-publishing is harmless: `Nats-Msg-Id` is the event id and the stream de-duplicates.
 */
export class OutboxRelay {
  readonly owner = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private inFlight = new Set<Promise<unknown>>();
  private lastSweep = 0;

  constructor(
    private readonly repo: ConsentRepository,
    private readonly js: JetStreamClient,
    private readonly opts: RelayOptions,
  ) {}

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight, this.running]);
  }

  /** Publish events this process has just stored (their outbox records are leased to us). */
  publishOwned(events: ConsentEvent[]): void {
    const p = this.publishAndSettle(events, true).catch((err: unknown) =>
      this.opts.logger.warn({ err }, 'outbox: immediate publish failed; the relay will retry'),
    );
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** One claim-and-publish round; resolves with the number of records claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.repo.claimDue(this.owner, this.opts.leaseMs, this.opts.batch ?? 500);
    if (!claimed.length) return 0;
    const events = await this.repo.eventsByIds(claimed.map((c) => c._id));
    const found = new Set(events.map((e) => e.id));
    // A record without its event after its lease is a write that failed or died before storing.
    const orphans = claimed.filter((c) => !found.has(c._id)).map((c) => c._id);
    if (orphans.length) {
      this.opts.logger.info({ count: orphans.length }, 'outbox: dropping records of writes that never stored their event');
      await this.repo.completeOutbox(orphans);
    }
    const unprojected = new Set(claimed.filter((c) => !c.projected).map((c) => c._id));
    for (const ev of events) if (unprojected.has(ev.id)) await this.repo.applyCurrent(ev);
    const attempts = new Map(claimed.map((c) => [c._id, c.attempts]));
    await this.publishAndSettle(events, false, attempts);
    return claimed.length;
  }

  private async publishAndSettle(events: ConsentEvent[], owned: boolean, attempts?: Map<string, number>): Promise<void> {
    const ok: string[] = [];
    const failed: string[] = [];
    let firstError: unknown;
    await mapLimit(events, 64, async (ev) => {
      try {
        await this.publish(ev);
        ok.push(ev.id);
      } catch (err) {
        firstError ??= err;
        failed.push(ev.id);
      }
    });
    await this.repo.completeOutbox(ok);
    if (failed.length) {
      const maxAttempts = Math.max(0, ...failed.map((id) => attempts?.get(id) ?? 0));
      const backoff = Math.min(30_000, 500 * 2 ** Math.min(maxAttempts, 6));
      await this.repo.releaseOutbox(failed, this.owner, new Date(Date.now() + backoff));
      this.opts.logger.warn({ count: failed.length, owned, err: (firstError as Error)?.message, retryInMs: backoff }, 'outbox: publish failed; will retry');
    }
  }

  private async publish(ev: ConsentEvent): Promise<void> {
    const subject = eventSubject(this.opts.prefix, 'consent', ev.accountId, ev.appId);
    await this.js.publish(subject, Buffer.from(JSON.stringify(envelopeOf(ev))), { msgID: ev.id, timeout: this.opts.publishTimeoutMs });
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    let claimed = 0;
    this.running = (async () => {
      try {
        claimed = await this.runOnce();
        if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
          this.lastSweep = Date.now();
          const swept = await this.repo.sweepMoves();
          if (swept) this.opts.logger.debug({ swept }, 'current states: forgot finished moves');
        }
      } catch (err) {
        this.opts.logger.warn({ err }, 'outbox: relay round failed');
      }
    })();
    await this.running;
    this.running = undefined;
    const more = claimed >= (this.opts.batch ?? 500) || this.again;
    this.again = false;
    this.schedule(more ? 0 : this.opts.pollMs);
  }
}
