import { isDuplicateKey } from '@accord/common';
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
} from '@accord/verify';
import type { SignedTreeHead } from '../domain/log';
import type { LogHeadDoc, LogLeafDoc, LogModels } from './log-models';

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
  | { kind: 'proof'; proof: InclusionProofResult; head: LogHeadDoc }
  /** the event has a leaf, but no published head covers it yet */
  | { kind: 'unsequenced' }
  /** no published head of the asked size */
  | { kind: 'no-head' }
  /** no leaf of this account's log holds the event (waiting for one, or unknown: the caller asks the event store) */
  | { kind: 'no-leaf' };

export type ConsistencyOutcome = { kind: 'proof'; first: number; second: number; proof: string[] } | { kind: 'beyond-head'; latest: number };

/** Reads and writes one log: the counts the benchmark reports. */
export interface ReadCounter {
  queries: number;
  documents: number;
}

const nodeId = (accountId: string, s: Subtree) => `${s.level}/${s.index}/${accountId}`;
const headId = (accountId: string, treeSize: number) => `${accountId}/${treeSize}`;
const leafId = (accountId: string, leafIndex: number) => `${accountId}/${leafIndex}`;
const asBuffer = (b: unknown): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from((b as { buffer: Uint8Array }).buffer));

/**
 * The consent log store: leaves, complete-subtree hashes, signed heads, leases. (The events
 * waiting for a leaf are marked on their own documents: LogQueueRepository.logPending.)
 * `append` is the only writer of leaves, nodes and heads; it is idempotent and resumable (see
 * log-models.ts), and safe with several sequencers because positions are unique.
 */
export class LogRepository {
  /** Read counts since construction (benchmark and tests; a proof must stay O(log n)). */
  readonly reads: ReadCounter = { queries: 0, documents: 0 };

  constructor(private readonly m: LogModels) {}

  // --- leases ---------------------------------------------------------------------------------

  /** Takes or renews the account's sequencing lease; false when another owner holds it. */
  async acquireLease(accountId: string, owner: string, ms: number, now = new Date()): Promise<boolean> {
    try {
      const doc = await this.m.leases.collection.findOneAndUpdate(
        { _id: accountId, $or: [{ until: { $lte: now } }, { owner }] } as never,
        { $set: { owner, until: new Date(now.getTime() + ms) } },
        { upsert: true, returnDocument: 'after' },
      );
      return (doc as { owner?: string } | null)?.owner === owner;
    } catch (err) {
      if (isDuplicateKey(err)) return false; // the lease exists and is someone else's
      throw err;
    }
  }

  async releaseLease(accountId: string, owner: string): Promise<void> {
    await this.m.leases.collection.deleteOne({ _id: accountId, owner } as never);
  }

  // --- reading --------------------------------------------------------------------------------

  async latestHead(accountId: string): Promise<LogHeadDoc | undefined> {
    this.reads.queries++;
    const doc = (await this.m.heads.collection.findOne({ accountId } as never, { sort: { treeSize: -1 } })) as unknown as LogHeadDoc | null;
    if (doc) this.reads.documents++;
    return doc ?? undefined;
  }

  async head(accountId: string, treeSize: number): Promise<LogHeadDoc | undefined> {
    this.reads.queries++;
    const doc = (await this.m.heads.collection.findOne({ _id: headId(accountId, treeSize) } as never)) as unknown as LogHeadDoc | null;
    if (doc) this.reads.documents++;
    return doc ?? undefined;
  }

  async leaf(accountId: string, eventId: string): Promise<LogLeafDoc | undefined> {
    this.reads.queries++;
    const doc = (await this.m.leaves.collection.findOne({ eventId } as never)) as unknown as LogLeafDoc | null;
    if (!doc || doc.accountId !== accountId) return undefined;
    this.reads.documents++;
    return { ...doc, leafHash: asBuffer(doc.leafHash) };
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
    return size + (await this.leavesFrom(accountId, size)).length;
  }

  /**
   * The leaves at positions `from`, `from`+1, … up to the first free one: after a crash, those a
   * predecessor wrote beyond the latest head (at most a batch). Point reads by `_id` in chunks,
   * so the cost is the batch, not the log.
   */
  private async leavesFrom(accountId: string, from: number): Promise<LogLeafDoc[]> {
    const out: LogLeafDoc[] = [];
    const CHUNK = 512;
    for (;;) {
      const start = from + out.length;
      const ids = Array.from({ length: CHUNK }, (_, k) => leafId(accountId, start + k));
      const docs = (await this.m.leaves.collection.find({ _id: { $in: ids } } as never).toArray()) as unknown as LogLeafDoc[];
      const byIndex = new Map(docs.map((d) => [d.leafIndex, d]));
      for (let k = 0; k < CHUNK; k++) {
        const d = byIndex.get(start + k);
        if (!d) return out;
        out.push({ ...d, leafHash: asBuffer(d.leafHash) });
      }
    }
  }

  /** The hashes of complete subtrees, in the order asked, with one query. Throws when one is missing. */
  private async subtreeHashes(accountId: string, subtrees: Subtree[]): Promise<Buffer[]> {
    if (!subtrees.length) return [];
    const ids = [...new Set(subtrees.map((s) => nodeId(accountId, s)))];
    this.reads.queries++;
    const docs = (await this.m.nodes.collection.find({ _id: { $in: ids } } as never).toArray()) as unknown as Array<{ _id: string; h: unknown }>;
    this.reads.documents += docs.length;
    const byId = new Map(docs.map((d) => [d._id, asBuffer(d.h)]));
    return subtrees.map((s) => {
      const h = byId.get(nodeId(accountId, s));
      if (!h) throw new Error(`consent log of ${accountId}: subtree ${s.level}/${s.index} is missing`);
      return h;
    });
  }

  /** Tree hashes of ranges, all subtrees read in one query. */
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
   * must exist). Three queries whatever the size: the leaf, the head, the subtrees.
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
   * half-done work first (leaves beyond the latest head get their nodes and a head). Events that
   * already have a leaf are skipped. Throws LogContentionError when another sequencer took a
   * position first (nothing is lost: the caller re-reads and retries next round).
   * Returns the head (undefined when there was nothing to do).
   */
  async append(
    accountId: string,
    entries: Array<{ eventId: string; leafHash: Buffer }>,
    sign: (treeSize: number, rootHash: Buffer) => Promise<SignedTreeHead>,
    now: () => Date = () => new Date(),
  ): Promise<LogHeadDoc | undefined> {
    const latest = await this.latestHead(accountId);
    const headSize = latest?.treeSize ?? 0;
    const range = await this.compactRange(accountId, headSize);
    const nodes: Array<Subtree & { hash: Buffer }> = [];

    // 1. a predecessor's leaves that never made it into a head
    const orphans = await this.leavesFrom(accountId, headSize);
    for (const o of orphans) nodes.push(...range.append(o.leafHash));
    const written = headSize + orphans.length;

    // 2. new leaves, for events not sequenced yet, at the next free positions
    const unique = [...new Map(entries.map((e) => [e.eventId, e])).values()];
    const known = new Set<string>();
    if (unique.length) {
      const found = await this.m.leaves.collection.find({ eventId: { $in: unique.map((e) => e.eventId) } } as never, { projection: { eventId: 1 } }).toArray();
      for (const d of found as unknown as Array<{ eventId: string }>) known.add(d.eventId);
    }
    const fresh = unique.filter((e) => !known.has(e.eventId));
    if (fresh.length) {
      const at = now();
      const docs: LogLeafDoc[] = fresh.map((e, i) => ({
        _id: leafId(accountId, written + i),
        accountId,
        leafIndex: written + i,
        eventId: e.eventId,
        leafHash: e.leafHash,
        at,
      }));
      try {
        await this.m.leaves.collection.insertMany(docs as never[], { ordered: true });
      } catch (err) {
        if (isDuplicateKey(err))
          throw new LogContentionError(`consent log of ${accountId}: position ${written} or one of its events was taken by another sequencer`);
        throw err;
      }
      for (const e of fresh) nodes.push(...range.append(e.leafHash));
    }
    if (range.size === headSize) return latest;

    // 3. complete subtrees (idempotent: the same leaves give the same hashes), then the head
    try {
      await this.m.nodes.collection.insertMany(nodes.map((n) => ({ _id: nodeId(accountId, n), h: n.hash })) as never[], { ordered: false });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const signed = await sign(range.size, range.root());
    if (signed.treeSize !== range.size || !hashFromBase64(signed.rootHash)?.equals(range.root())) throw new Error('the signed head is not the computed tree');
    const doc: LogHeadDoc = {
      _id: headId(accountId, signed.treeSize),
      accountId,
      treeSize: signed.treeSize,
      rootHash: signed.rootHash,
      timestamp: new Date(signed.timestamp),
      signature: signed.signature,
      kid: signed.kid,
    };
    try {
      await this.m.heads.collection.insertOne(doc as never);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return (await this.head(accountId, signed.treeSize)) ?? doc; // another sequencer signed the same tree first
    }
    return doc;
  }
}
