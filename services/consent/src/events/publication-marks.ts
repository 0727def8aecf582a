import type { Logger } from '@accord/common';
import type { OutboxStore } from '../app/ports';

/** Published ids wait at most this long for the log's pass before they are marked on their own. */
export const MARK_WAIT_MS = 1_000;
/** More waiting ids than this are marked at once (one update), whatever their age. */
const MARK_MAX = 1_000;

/**
 * The ids JetStream has acknowledged and whose events still carry their outbox mark (`pub`).
 * Every event is given its log leaf shortly after it is stored, and the log's pass then updates
 * the event's document anyway (LogQueueStore.markLogged): the pass takes the published ids of
 * the events it sequenced and removes both marks in that one update, instead of the relay
 * updating the same documents a moment earlier. What no pass of this process takes within
 * MARK_WAIT_MS (events another replica sequences, a log that is behind) is marked on its own, in
 * one update for all (OutboxStore.markPublished).
 *
 * An id not marked yet is only published again (and de-duplicated by the stream) once its
 * lease has run out (ACCORD_CONSENT_OUTBOX_LEASE_MS, 30 s), as before: a crash between the
 * acknowledgement and the mark costs a duplicate publish, never an event.
 */
export class PublicationMarks {
  /** id → when it was acknowledged (ms), in that order. */
  private waiting = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private marking: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly outbox: Pick<OutboxStore, 'markPublished'>,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly waitMs = MARK_WAIT_MS,
  ) {}

  /** An event JetStream acknowledged. */
  add(id: string): void {
    this.waiting.set(id, Date.now());
    if (this.waiting.size >= MARK_MAX) void this.flush();
    else this.arm();
  }

  /** Those of `ids` waiting for their mark: the caller marks them (markLogged); they wait no more. */
  take(ids: string[]): string[] {
    if (!this.waiting.size) return [];
    const out = ids.filter((id) => this.waiting.delete(id));
    if (!this.waiting.size && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    return out;
  }

  /** Ids taken whose write failed: they are marked on their own, now. */
  restore(ids: string[]): void {
    void this.mark(ids);
  }

  /** Marks every waiting id now (one update). */
  flush(): Promise<void> {
    return this.mark([...this.waiting.keys()]);
  }

  /** Waits for the updates under way (on shutdown, after a last flush). */
  async drained(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private arm(): void {
    if (this.timer) return;
    const first = this.waiting.values().next();
    const due = first.done ? this.waitMs : Math.max(0, first.value + this.waitMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // the ids older than waitMs (the map keeps their order)
      const cutoff = Date.now() - this.waitMs;
      const old: string[] = [];
      for (const [id, at] of this.waiting) {
        if (at > cutoff) break;
        old.push(id);
      }
      void this.mark(old);
      if (this.waiting.size) this.arm();
    }, due);
    this.timer.unref?.();
  }

  private mark(ids: string[]): Promise<void> {
    for (const id of ids) this.waiting.delete(id);

    if (!this.waiting.size && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!ids.length) return this.marking;
    // one update at a time, in order
    const p = (this.marking = this.marking
      .then(() => this.outbox.markPublished(ids))
      .catch((err: unknown) => this.logger.warn({ err, count: ids.length }, 'outbox: could not mark events as published')));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }
}
