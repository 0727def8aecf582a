import {
  CompactRange,
  consistencyRanges,
  foldSubtrees,
  hashFromBase64,
  inclusionRanges,
  perfectSubtrees,
  toBase64,
  type Range,
  type Subtree,
} from '@accord/proofs';
import type { SignedTreeHead } from '../domain/log';
import type { LogLeaf, LogTreeStore, TreeHeadRecord } from './ports';

/** Another sequencer wrote the same position or event first: stop this round, re-read, go on. */
export class LogContentionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogContentionError';
  }
}

export interface InclusionProofResult {
  leafIndex: number;
  treeSize: number;
  leafHash: string;
  auditPath: string[];
}

export type ProofOutcome =
  | { kind: 'proof'; proof: InclusionProofResult; head: TreeHeadRecord }
  /** the event has a leaf, but no published head covers it yet */
  | { kind: 'unsequenced' }
  /** no published head of the asked size */
  | { kind: 'no-head' }
  /** no leaf of this account's log holds the event (waiting for one, or unknown: the caller asks the event store) */
  | { kind: 'no-leaf' };

export type ConsistencyOutcome = { kind: 'proof'; first: number; second: number; proof: string[] } | { kind: 'beyond-head'; latest: number };

/** Reads of one log: the counts the benchmark reports. */
export interface ReadCounter {
  queries: number;
  documents: number;
}

const subtreeKey = (s: Subtree) => `${s.level}/${s.index}`;

/**
 * An account's append-only Merkle tree over the log store (docs/consent-log.md): appending
 * (resumable, idempotent, safe with several sequencers because positions are unique) and the
 * proofs, each a fold of stored complete-subtree hashes read with one lookup, so a proof costs
 * O(log n) reads whatever the size.
 */
export class LogTree {
  /** Read counts since construction (benchmark and tests; a proof must stay O(log n)). */
  readonly reads: ReadCounter = { queries: 0, documents: 0 };

  constructor(readonly store: LogTreeStore) {}

  // --- reading --------------------------------------------------------------------------------

  async latestHead(accountId: string): Promise<TreeHeadRecord | undefined> {
    return this.counted(await this.store.latestHead(accountId));
  }

  async head(accountId: string, treeSize: number): Promise<TreeHeadRecord | undefined> {
    return this.counted(await this.store.head(accountId, treeSize));
  }

  private async leaf(accountId: string, eventId: string): Promise<LogLeaf | undefined> {
    return this.counted(await this.store.leaf(accountId, eventId));
  }

  private counted<T>(found: T | undefined): T | undefined {
    this.reads.queries++;
    if (found) this.reads.documents++;
    return found;
  }

  /** The event's leaf position and the latest head's size and root, once a head covers it. */
  async anchor(accountId: string, eventId: string): Promise<{ leafIndex: number; treeSize: number; rootHash: string } | undefined> {
    const [leaf, head] = await Promise.all([this.leaf(accountId, eventId), this.latestHead(accountId)]);
    if (!leaf || !head || leaf.leafIndex >= head.treeSize) return undefined;
    return { leafIndex: leaf.leafIndex, treeSize: head.treeSize, rootHash: head.rootHash };
  }

  /** Number of leaves written (the next free position), which may run ahead of the latest head after a crash. */
  async leafCount(accountId: string): Promise<number> {
    const size = (await this.latestHead(accountId))?.treeSize ?? 0;
    return size + (await this.store.leavesFrom(accountId, size)).length;
  }

  /** The hashes of complete subtrees, in the order asked, with one lookup. Throws when one is missing. */
  private async subtreeHashes(accountId: string, subtrees: Subtree[]): Promise<Buffer[]> {
    if (!subtrees.length) return [];
    this.reads.queries++;
    const found = await this.store.subtrees(accountId, subtrees);
    this.reads.documents += found.size;
    return subtrees.map((s) => {
      const h = found.get(subtreeKey(s));
      if (!h) throw new Error(`consent log of ${accountId}: subtree ${s.level}/${s.index} is missing`);
      return h;
    });
  }

  /** Tree hashes of ranges, all subtrees read in one lookup. */
  private async rangeHashes(accountId: string, ranges: Range[]): Promise<Buffer[]> {
    const parts = ranges.map((r) => perfectSubtrees(r));
    const hashes = await this.subtreeHashes(accountId, parts.flat());
    let at = 0;
    return parts.map((p) => foldSubtrees(hashes.slice(at, (at += p.length))));
  }

  /** The right edge of the tree of `size` leaves, from stored subtrees. */
  async compactRange(accountId: string, size: number): Promise<CompactRange> {
    if (size === 0) return CompactRange.empty();
    return CompactRange.of(size, await this.subtreeHashes(accountId, perfectSubtrees({ start: 0, end: size })));
  }

  /**
   * The inclusion proof of an event against the latest head, or the head of `treeSize` (which
   * must exist). Three reads whatever the size: the leaf, the head, the subtrees.
   */
  async inclusionProof(accountId: string, eventId: string, treeSize?: number): Promise<ProofOutcome> {
    const [leaf, head] = await Promise.all([
      this.leaf(accountId, eventId),
      treeSize === undefined ? this.latestHead(accountId) : this.head(accountId, treeSize),
    ]);
    if (!leaf) return { kind: 'no-leaf' };
    if (!head) return treeSize === undefined ? { kind: 'unsequenced' } : { kind: 'no-head' };
    if (leaf.leafIndex >= head.treeSize) return treeSize === undefined ? { kind: 'unsequenced' } : { kind: 'no-head' };
    const path = await this.rangeHashes(accountId, inclusionRanges(leaf.leafIndex, head.treeSize));
    return {
      kind: 'proof',
      head,
      proof: { leafIndex: leaf.leafIndex, treeSize: head.treeSize, leafHash: toBase64(leaf.leafHash), auditPath: path.map(toBase64) },
    };
  }

  /** PROOF(first, D[second]) for 0 ≤ first ≤ second ≤ the latest head's size. */
  async consistencyProof(accountId: string, first: number, second: number): Promise<ConsistencyOutcome> {
    const latest = await this.latestHead(accountId);
    const size = latest?.treeSize ?? 0;
    if (second > size) return { kind: 'beyond-head', latest: size };
    const proof = await this.rangeHashes(accountId, consistencyRanges(first, second));
    return { kind: 'proof', first, second, proof: proof.map(toBase64) };
  }

  // --- sequencing -----------------------------------------------------------------------------

  /**
   * Appends leaves to an account's log and publishes the new head. Resumes a predecessor's
   * half-done work first (leaves beyond the latest head get their subtrees and a head). Events
   * that already have a leaf are skipped. Throws LogContentionError when another sequencer took a
   * position first (nothing is lost: the caller re-reads and retries next round).
   * Returns the head (undefined when there was nothing to do).
   *
   * The only commit point is the leaf insert (positions are unique); subtrees and heads are
   * derived from the leaves, written idempotently, so a crash anywhere leaves nothing a
   * successor cannot finish.
   */
  async append(
    accountId: string,
    entries: Array<{ eventId: string; leafHash: Buffer }>,
    sign: (treeSize: number, rootHash: Buffer) => Promise<SignedTreeHead>,
    now: () => Date = () => new Date(),
  ): Promise<TreeHeadRecord | undefined> {
    const latest = await this.latestHead(accountId);
    const headSize = latest?.treeSize ?? 0;
    const range = await this.compactRange(accountId, headSize);
    const subtrees: Array<Subtree & { hash: Buffer }> = [];

    // 1. a predecessor's leaves that never made it into a head
    const orphans = await this.store.leavesFrom(accountId, headSize);
    for (const o of orphans) subtrees.push(...range.append(o.leafHash));
    const written = headSize + orphans.length;

    // 2. new leaves, for events not sequenced yet, at the next free positions
    const unique = [...new Map(entries.map((e) => [e.eventId, e])).values()];
    const known = unique.length ? await this.store.withLeaves(unique.map((e) => e.eventId)) : new Set<string>();
    const fresh = unique.filter((e) => !known.has(e.eventId));
    if (fresh.length) {
      const at = now();
      const leaves: LogLeaf[] = fresh.map((e, i) => ({ accountId, leafIndex: written + i, eventId: e.eventId, leafHash: e.leafHash, at }));
      if (!(await this.store.insertLeaves(leaves)))
        throw new LogContentionError(`consent log of ${accountId}: position ${written} or one of its events was taken by another sequencer`);
      for (const e of fresh) subtrees.push(...range.append(e.leafHash));
    }
    if (range.size === headSize) return latest;

    // 3. complete subtrees (idempotent: the same leaves give the same hashes), then the head
    await this.store.insertSubtrees(accountId, subtrees);
    const signed = await sign(range.size, range.root());
    if (signed.treeSize !== range.size || !hashFromBase64(signed.rootHash)?.equals(range.root())) throw new Error('the signed head is not the computed tree');
    const head: TreeHeadRecord = {
      accountId,
      treeSize: signed.treeSize,
      rootHash: signed.rootHash,
      timestamp: new Date(signed.timestamp),
      signature: signed.signature,
      kid: signed.kid,
    };
    if (await this.store.insertHead(head)) return head;
    return (await this.head(accountId, signed.treeSize)) ?? head; // another sequencer signed the same tree first
  }
}
