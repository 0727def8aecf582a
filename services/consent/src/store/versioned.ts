/**
 * Read-modify-write of one document that is safe under concurrent writers and replicas on
 * MongoDB and on FerretDB 1.x alike, with no transaction and no conditional update: FerretDB 1.x
 * applies neither findOneAndUpdate with a filter nor `$inc` atomically (both read the document
 * in FerretDB and write it back, so concurrent writers lose updates). The one write that is
 * atomic on both is an insert against a unique _id, so every change is claimed with one:
 *
 * 1. read the document; its version field names the state the change starts from;
 * 2. insert the move `<collection>:<id>@<version>` into the moves collection: exactly one writer
 *    wins the move away from that version, the others read again (with a short back-off);
 * 3. the winner replaces the document on condition that it is still at that version (atomic on
 *    MongoDB; on FerretDB the condition narrows what step 2 already excludes, see below).
 *
 * A document therefore only changes from the version its writer read, and every change knows
 * the one it replaced. A move claimed but never finished (its writer died in between) is
 * withdrawn after `staleMs`, so the document does not stick. Moves are swept after an hour
 * (they are needed only while some writer may still hold an old version).
 */

interface Coll {
  collectionName: string;
  findOne(filter: object): Promise<unknown>;
  insertOne(doc: never): Promise<unknown>;
  replaceOne(filter: never, doc: never): Promise<{ matchedCount: number }>;
}
interface MovesColl {
  insertOne(doc: never): Promise<unknown>;
  deleteOne(filter: never): Promise<unknown>;
}

export interface MoveOptions {
  /** A claimed move older than this is taken to belong to a writer that died. */
  staleMs: number;
  /** Reads before giving up (each lost round means another writer changed the document). */
  attempts: number;
}

export const DEFAULT_MOVE_OPTIONS: MoveOptions = { staleMs: 10_000, attempts: 60 };

export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Moves document `id` on to `next(current)` (current is null when there is no document yet;
 * `next` answers undefined to leave it as it is). `versionField` holds the document's version
 * (a missing field counts as null). Returns the document it replaced (null when it created it),
 * or undefined when `next` declined.
 */
export async function moveDocument<D extends { _id: string }>(
  coll: Coll,
  moves: MovesColl,
  id: string,
  versionField: keyof D & string,
  next: (current: D | null) => D | undefined,
  opts: MoveOptions = DEFAULT_MOVE_OPTIONS,
): Promise<{ replaced: D | null } | undefined> {
  for (let attempt = 0; attempt < opts.attempts; attempt++) {
    const cur = (await coll.findOne({ _id: id })) as D | null;
    const doc = next(cur);
    if (!doc) return undefined;
    if (!cur) {
      try {
        await coll.insertOne(doc as never);
        return { replaced: null };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        continue; // created meanwhile by another writer
      }
    }
    const from = (cur[versionField] as unknown) ?? null;
    const move = `${coll.collectionName}:${id}@${String(from)}`;
    try {
      await moves.insertOne({ _id: move, at: new Date() } as never);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await moves.deleteOne({ _id: move, at: { $lt: new Date(Date.now() - opts.staleMs) } } as never);
      await sleep(Math.min(100, 2 * 2 ** Math.min(attempt, 6)) * (0.5 + Math.random()));
      continue;
    }
    // Only the winner of the move away from `from` writes, so the document is still at `from`
    // unless a stale move was withdrawn meanwhile; the condition excludes that too (exactly on
    // MongoDB, up to FerretDB's read-then-write of one update).
    const res = await coll.replaceOne({ _id: id, [versionField]: from } as never, doc as never);
    if (res.matchedCount === 0) continue;
    return { replaced: cur };
  }
  throw new Error(`document ${coll.collectionName}/${id} kept changing under ${opts.attempts} attempts`);
}

/**
 * Merges changes to the same key made while one is being applied, and applies them together:
 * at most one application per key is in flight in this process, and each caller's promise
 * settles when the application that carries its change does. Keeps contention on a hot document
 * (the counters of an application) to one writer per replica.
 */
export class Coalescer<C> {
  private readonly pending = new Map<string, { change: C; waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> }>();
  private readonly running = new Set<string>();

  constructor(
    private readonly merge: (a: C, b: C) => C,
    private readonly apply: (key: string, change: C) => Promise<void>,
  ) {}

  add(key: string, change: C): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const p = this.pending.get(key);
      if (p) {
        p.change = this.merge(p.change, change);
        p.waiters.push({ resolve, reject });
      } else this.pending.set(key, { change, waiters: [{ resolve, reject }] });
      if (!this.running.has(key)) void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    this.running.add(key);
    try {
      for (let p = this.pending.get(key); p; p = this.pending.get(key)) {
        this.pending.delete(key);
        try {
          await this.apply(key, p.change);
          p.waiters.forEach((w) => w.resolve());
        } catch (err) {
          p.waiters.forEach((w) => w.reject(err));
        }
      }
    } finally {
      this.running.delete(key);
    }
  }
}
