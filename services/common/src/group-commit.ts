/**
 * Group commit for independent writes (PostgreSQL's `commit_delay`, Kafka's `linger.ms`): items
 * added while a write is in flight wait for it and then go together in the next one, so under
 * load N concurrent requests cost one round trip instead of N, and a lone request adds no delay
 * (its write starts at once). `write` receives the items in order and resolves with the indexes
 * that failed and why (e.g. MongoDB `insertMany({ordered: false})`'s `writeErrors`); a rejection
 * fails the whole batch. Each `add` resolves or rejects with its own item's outcome.
 */
export class GroupCommit<T> {
  private queue: Array<{ item: T; resolve: () => void; reject: (err: unknown) => void }> = [];
  private inFlight = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<Map<number, unknown> | void>,
    private readonly opts: { maxBatch?: number; maxInFlight?: number } = {},
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.queue.length && this.inFlight < (this.opts.maxInFlight ?? 1)) {
      const batch = this.queue.splice(0, this.opts.maxBatch ?? 500);
      this.inFlight++;
      this.write(batch.map((b) => b.item))
        .then(
          (failed) => batch.forEach((b, i) => (failed?.has(i) ? b.reject(failed.get(i)) : b.resolve())),
          (err: unknown) => batch.forEach((b) => b.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.drain();
        });
    }
  }
}

/**
 * The failed indexes of an unordered bulk write's error (MongoBulkWriteError `writeErrors`), or
 * undefined when the error is not a per-document one (the whole batch failed).
 */
export function bulkWriteFailures(err: unknown): Map<number, unknown> | undefined {
  const raw = (err as { writeErrors?: unknown } | null)?.writeErrors;
  const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as Array<{ index?: number; errmsg?: string; code?: number }>;
  if (!list.length || list.some((w) => typeof w.index !== 'number')) return undefined;
  return new Map(list.map((w) => [w.index!, Object.assign(new Error(w.errmsg ?? 'write failed'), { code: w.code })]));
}
