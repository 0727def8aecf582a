/**
 * The hashing rules of the Accord consent log, in one place: RFC 9162 §2.1 (the Merkle tree of
 * Certificate Transparency v2, identical to RFC 6962's for SHA-256).
 *
 * - leaf hash   = SHA-256(0x00 ‖ leaf)
 * - node hash   = SHA-256(0x01 ‖ left ‖ right)
 * - MTH({})     = SHA-256("")
 * - MTH(D[n])   = node(MTH(D[0:k]), MTH(D[k:n])), k the largest power of two smaller than n.
 *
 * Proofs are described as lists of leaf ranges ([start, end)) whose tree hashes form the proof,
 * so that the same rules serve an in-memory tree (tests, the verifier) and the database, which
 * stores the hash of every complete ("perfect") subtree and reads O(log n) of them per proof
 * (see `perfectSubtrees`). Sizes are JavaScript numbers: exact up to 2^53 leaves.
 */
import { createHash } from 'node:crypto';

export const HASH_SIZE = 32;

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

/** SHA-256(0x00 ‖ leaf). */
export function leafHash(leaf: Uint8Array): Buffer {
  return sha256(LEAF_PREFIX, leaf);
}

/** SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return sha256(NODE_PREFIX, left, right);
}

/** The tree hash of the empty tree, SHA-256 of the empty string. */
export const EMPTY_ROOT: Buffer = sha256();

/** The RFC's split point: the largest power of two smaller than n (n ≥ 2). */
export function splitPoint(n: number): number {
  if (!Number.isSafeInteger(n) || n < 2) throw new RangeError(`split point of ${n}`);
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH over a list of leaf hashes (the recursive definition, for small trees and tests). */
export function rootOf(leafHashes: readonly Uint8Array[]): Buffer {
  if (leafHashes.length === 0) return EMPTY_ROOT;
  if (leafHashes.length === 1) return Buffer.from(leafHashes[0]!);
  const k = splitPoint(leafHashes.length);
  return nodeHash(rootOf(leafHashes.slice(0, k)), rootOf(leafHashes.slice(k)));
}

/** Leaves start (inclusive) to end (exclusive). */
export interface Range {
  start: number;
  end: number;
}

/** A complete subtree: the 2^level leaves from index·2^level on. Level 0 is a leaf. */
export interface Subtree {
  level: number;
  index: number;
}

const isPowerOfTwo = (n: number): boolean => Number.isSafeInteger(n) && n >= 1 && 2 ** Math.round(Math.log2(n)) === n;

/**
 * The complete subtrees whose hashes, folded from the right (h = node(left, h)), give the tree
 * hash of the range, left to right, largest first: the binary digits of its size. This is how
 * the RFC's recursion splits every range it asks for, because such a range always starts at a
 * multiple of its own largest power of two (otherwise this throws).
 */
export function perfectSubtrees(r: Range): Subtree[] {
  if (!Number.isSafeInteger(r.start) || !Number.isSafeInteger(r.end) || r.start < 0 || r.end <= r.start)
    throw new RangeError(`bad range [${r.start}, ${r.end})`);
  const out: Subtree[] = [];
  let start = r.start;
  while (start < r.end) {
    let size = 1;
    while (size * 2 <= r.end - start) size *= 2;
    if (start % size !== 0) throw new RangeError(`range [${r.start}, ${r.end}) is not one the tree hashes`);
    out.push({ level: Math.log2(size), index: start / size });
    start += size;
  }
  return out;
}

/** Folds the hashes of `perfectSubtrees(r)` (in that order) into the tree hash of r. */
export function foldSubtrees(hashes: readonly Uint8Array[]): Buffer {
  if (hashes.length === 0) throw new RangeError('no subtree hashes to fold');
  let h: Buffer = Buffer.from(hashes[hashes.length - 1]!);
  for (let i = hashes.length - 2; i >= 0; i--) h = nodeHash(hashes[i]!, h);
  return h;
}

/**
 * The ranges whose tree hashes are PATH(index, D[0:size]) (RFC 9162 §2.1.3.1), in proof order:
 * the sibling nearest the leaf first.
 */
export function inclusionRanges(index: number, size: number): Range[] {
  checkSize(size, 'size');
  if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw new RangeError(`leaf index ${index} is not in a tree of ${size}`);
  const topDown: Range[] = [];
  let start = 0;
  let end = size;
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (index < start + k) {
      topDown.push({ start: start + k, end });
      end = start + k;
    } else {
      topDown.push({ start, end: start + k });
      start += k;
    }
  }
  return topDown.reverse();
}

/**
 * The ranges whose tree hashes are PROOF(first, D[0:second]) (RFC 9162 §2.1.4.1), in proof
 * order. Empty when first = second or first = 0 (nothing to prove).
 */
export function consistencyRanges(first: number, second: number): Range[] {
  checkSize(second, 'second');
  if (!Number.isSafeInteger(first) || first < 0 || first > second) throw new RangeError(`first ${first} is not in 0..${second}`);
  if (first === 0 || first === second) return [];
  // SUBPROOF(m, D[start:end], b), unrolled: each step adds one range after the deeper ones.
  const topDown: Range[] = [];
  let m = first;
  let start = 0;
  let end = second;
  let complete = true; // b: the subtree so far is the old tree's own root
  while (m !== end - start) {
    const k = splitPoint(end - start);
    if (m <= k) {
      topDown.push({ start: start + k, end });
      end = start + k;
    } else {
      topDown.push({ start, end: start + k });
      m -= k;
      start += k;
      complete = false;
    }
  }
  if (!complete) topDown.push({ start, end });
  return topDown.reverse();
}

/** Builds a proof from ranges with a source of range hashes. */
export function proofFrom(ranges: readonly Range[], hashOf: (r: Range) => Uint8Array): Buffer[] {
  return ranges.map((r) => Buffer.from(hashOf(r)));
}

/** In-memory helpers over a full list of leaf hashes (tests, small logs). */
export const inMemory = {
  inclusionProof: (leafHashes: readonly Uint8Array[], index: number, size = leafHashes.length): Buffer[] =>
    proofFrom(inclusionRanges(index, size), (r) => rootOf(leafHashes.slice(r.start, r.end))),
  consistencyProof: (leafHashes: readonly Uint8Array[], first: number, second = leafHashes.length): Buffer[] =>
    proofFrom(consistencyRanges(first, second), (r) => rootOf(leafHashes.slice(r.start, r.end))),
};

function checkSize(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative integer`);
}

const isHash = (h: unknown): h is Uint8Array => h instanceof Uint8Array && h.length === HASH_SIZE;
const equal = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(a, b) === 0;
const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

/**
 * RFC 9162 §2.1.3.2 / §2.1.4.2: after hashing in a left sibling, "if LSB(fn) is not set,
 * right-shift both fn and sn equally until either LSB(fn) is set or fn is 0" (the node sits on
 * the right edge, where levels without a sibling are skipped).
 */
function skipRightEdge(fn: number, sn: number): [number, number] {
  while (!isOdd(fn) && fn !== 0) {
    fn = half(fn);
    sn = half(sn);
  }
  return [fn, sn];
}

/**
 * The root an inclusion proof leads to (RFC 9162 §2.1.3.2), or undefined when the proof has the
 * wrong shape for the index and size (too short, too long, bad hash sizes).
 */
export function rootFromInclusionProof(index: number, size: number, leaf: Uint8Array, path: readonly Uint8Array[]): Buffer | undefined {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return undefined;
  if (!isHash(leaf) || !path.every(isHash)) return undefined;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leaf);
  for (const p of path) {
    if (sn === 0) return undefined;
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      [fn, sn] = skipRightEdge(fn, sn);
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : undefined;
}

/** True when `path` proves that `leaf` (a leaf hash) is at `index` in the tree of `size` with `root`. */
export function verifyInclusion(index: number, size: number, leaf: Uint8Array, path: readonly Uint8Array[], root: Uint8Array): boolean {
  const r = rootFromInclusionProof(index, size, leaf, path);
  return r !== undefined && isHash(root) && equal(r, root);
}

/**
 * True when `proof` shows that the tree of `first` leaves with `firstRoot` is a prefix of the tree
 * of `second` leaves with `secondRoot` (RFC 9162 §2.1.4.2). Equal sizes need equal roots and an
 * empty proof; the empty tree is a prefix of every tree (empty proof).
 */
export function verifyConsistency(first: number, second: number, firstRoot: Uint8Array, secondRoot: Uint8Array, proof: readonly Uint8Array[]): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (!proof.every(isHash)) return false;
  if (first === 0) return proof.length === 0 && (second > 0 || equal(firstRoot, secondRoot));
  if (!isHash(firstRoot) || !isHash(secondRoot)) return false;
  if (first === second) return proof.length === 0 && equal(firstRoot, secondRoot);
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr: Buffer = Buffer.from(path[0]!);
  let sr: Buffer = Buffer.from(path[0]!);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      [fn, sn] = skipRightEdge(fn, sn);
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equal(fr, firstRoot) && equal(sr, secondRoot);
}

/**
 * The right edge of a tree of `size` leaves: its complete subtrees, largest first (a "compact
 * range" over [0, size)). Appending leaves completes new subtrees; the tree hash is the fold of
 * the edge. This is all a sequencer needs in memory to extend a log of any size.
 */
export class CompactRange {
  private constructor(
    private readonly nodes: Array<Subtree & { hash: Buffer }>,
    private n: number,
  ) {}

  /** The edge of a tree of `size` leaves, given the hashes of `perfectSubtrees({0, size})` in order. */
  static of(size: number, hashes: readonly Uint8Array[]): CompactRange {
    checkSize(size, 'size');
    const subtrees = size === 0 ? [] : perfectSubtrees({ start: 0, end: size });
    if (hashes.length !== subtrees.length || !hashes.every(isHash)) throw new RangeError(`a tree of ${size} leaves has ${subtrees.length} edge hashes`);
    return new CompactRange(
      subtrees.map((s, i) => ({ ...s, hash: Buffer.from(hashes[i]!) })),
      size,
    );
  }

  static empty(): CompactRange {
    return new CompactRange([], 0);
  }

  get size(): number {
    return this.n;
  }

  /** The complete subtrees the edge consists of, largest first. */
  get edge(): Array<Subtree & { hash: Buffer }> {
    return this.nodes.map((s) => ({ ...s }));
  }

  root(): Buffer {
    return this.nodes.length ? foldSubtrees(this.nodes.map((s) => s.hash)) : EMPTY_ROOT;
  }

  /** Appends one leaf hash; returns every subtree it completes (the leaf itself first, then upwards). */
  append(leaf: Uint8Array): Array<Subtree & { hash: Buffer }> {
    if (!isHash(leaf)) throw new RangeError('a leaf hash has 32 bytes');
    let cur: Subtree & { hash: Buffer } = { level: 0, index: this.n, hash: Buffer.from(leaf) };
    const completed = [cur];
    for (;;) {
      const last = this.nodes[this.nodes.length - 1];
      if (!last || last.level !== cur.level) break;
      this.nodes.pop();
      cur = { level: cur.level + 1, index: last.index / 2, hash: nodeHash(last.hash, cur.hash) };
      completed.push(cur);
    }
    this.nodes.push(cur);
    this.n += 1;
    return completed;
  }
}
