import { writeErrorCode } from './mongo';

/** One item of a batch, as the write sees it: the item and how to answer its caller. */
export interface Pending<T, R> {
  item: T;
  resolve(value: R): void;
  reject(err: unknown): void;
}

export interface GroupCommitOptions<T> {
  /** Most weight per batch (default 500): a batch takes items while their weights fit, and always at least one. */
  maxBatch?: number;
  /** An item's weight (default 1), e.g. the number of documents it writes. */
  weight?(item: T): number;
  /** Batches written at once (default 1). */
  maxInFlight?: number;
  /**
   * Whether an item arriving while nothing is being written waits one turn of the event loop for
   * the items of the same turn (default true). False: it is written at once, and only the items
   * arriving while a batch is in flight are grouped (nothing ever waits on the scheduler; the
   * gateway's one-event POSTs, whose "same turn" is rarely more than one).
   */
  linger?: boolean;
}

/**
 * Group commit for independent writes (PostgreSQL's `commit_delay`, Kafka's `linger.ms`): the
 * items added in the same turn of the event loop, and those added while the batches in flight are
 * written, go together in the next batch, so under load N concurrent requests cost one round trip
 * instead of N, and a lone request waits one turn of the event loop at most (none without `linger`).
 *
 * `write` answers every item of its batch (`resolve`/`reject`, each when it is ready, so one slow
 * answer need not hold the others); the next batch starts in its place once `write` has
 * resolved. An item `write` leaves unanswered is rejected; when `write` rejects, the items it has
 * not answered get its error.
 */
export class GroupCommit<T, R = void> {
  private queue: Array<Pending<T, R>> = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly idle: Array<() => void> = [];

  constructor(
    private readonly write: (batch: Array<Pending<T, R>>) => Promise<void>,
    private readonly opts: GroupCommitOptions<T> = {},
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.opts.linger === false) this.drain();
      else if (!this.scheduled && this.inFlight < (this.opts.maxInFlight ?? 1)) {
        this.scheduled = true;
        // the items of this turn join the batch
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        });
      }
    });
  }

  /** Resolves once nothing is queued or being written (on shutdown). */
  async drained(): Promise<void> {
    while (this.queue.length || this.inFlight || this.scheduled) await new Promise<void>((r) => this.idle.push(r));
  }

  private drain(): void {
    while (this.queue.length && this.inFlight < (this.opts.maxInFlight ?? 1)) {
      const batch = this.take();
      this.inFlight++;
      void this.run(batch);
    }
    if (!this.queue.length && !this.inFlight) for (const wake of this.idle.splice(0)) wake();
  }

  private take(): Array<Pending<T, R>> {
    const max = this.opts.maxBatch ?? 500;
    const weight = this.opts.weight ?? (() => 1);
    let n = 0;
    let sum = 0;
    while (n < this.queue.length && (n === 0 || sum + weight(this.queue[n]!.item) <= max)) sum += weight(this.queue[n++]!.item);
    return this.queue.splice(0, n);
  }

  private async run(batch: Array<Pending<T, R>>): Promise<void> {
    // each caller is answered once: what `write` leaves unanswered is rejected here
    let failure: unknown = new Error('group commit: the write left this item unanswered');
    const open = new Set(batch);
    const entries = batch.map((p): Pending<T, R> => ({
      item: p.item,
      resolve: (v) => open.delete(p) && p.resolve(v),
      reject: (e) => open.delete(p) && p.reject(e),
    }));
    try {
      await this.write(entries);
    } catch (err) {
      failure = err;
    }
    for (const p of open) p.reject(failure);
    this.inFlight--;
    this.drain();
  }
}

/**
 * The failed indexes of an unordered bulk write's error (MongoBulkWriteError `writeErrors`), or
 * undefined when the error is not a per-document one (the whole batch failed).
 */
export function bulkWriteFailures(err: unknown): Map<number, unknown> | undefined {
  const raw = (err as { writeErrors?: unknown } | null)?.writeErrors;
  const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as Array<{ index?: number; errmsg?: string; err?: { errmsg?: string } }>;
  if (!list.length || list.some((w) => typeof w.index !== 'number')) return undefined;
  return new Map(list.map((w) => [w.index!, Object.assign(new Error(w.errmsg ?? w.err?.errmsg ?? 'write failed'), { code: writeErrorCode(w) })]));
}
