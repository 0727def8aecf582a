import {
  CompactRange,
  consistencyRanges,
  EMPTY_ROOT,
  foldSubtrees,
  inclusionRanges,
  inMemory,
  leafHash,
  nodeHash,
  perfectSubtrees,
  rootFromInclusionProof,
  rootOf,
  splitPoint,
  verifyConsistency,
  verifyInclusion,
} from './merkle';

const unhex = (s: string) => Buffer.from(s, 'hex');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

// The Certificate Transparency reference data (RFC 6962 / RFC 9162 hashing), as published with
// transparency-dev/merkle (proof/verify_test.go) and certificate-transparency-go: eight leaves,
// the root of every tree size 1..8, and known inclusion and consistency proofs.
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(unhex);
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** Inclusion proofs: 0-based leaf index, tree size, audit path. */
const INCLUSION: Array<[number, number, string[]]> = [
  [0, 1, []],
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    1,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];
/** Consistency proofs: first size, second size, proof. */
const CONSISTENCY: Array<[number, number, string[]]> = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 5, ['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b']],
  [
    6,
    7,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
];

const hashes = LEAVES.map(leafHash);
const root = (n: number) => unhex(ROOTS[n - 1]!);
const flipBit = (h: Uint8Array) => {
  const b = Buffer.from(h);
  b[0]! ^= 8;
  return b;
};

describe('RFC 9162 tree hashing', () => {
  it('the empty tree hashes to SHA-256 of the empty string', () => {
    expect(hex(EMPTY_ROOT)).toBe(EMPTY);
    expect(hex(rootOf([]))).toBe(EMPTY);
  });

  it('a leaf is hashed with the 0x00 prefix and a node with 0x01 (the one- and two-leaf roots)', () => {
    expect(hex(leafHash(new Uint8Array()))).toBe(ROOTS[0]);
    expect(hex(nodeHash(hashes[0]!, hashes[1]!))).toBe(ROOTS[1]);
  });

  it('gives the published root for every tree size 1..8, including the sizes that are not powers of two', () => {
    for (let n = 1; n <= 8; n++) expect(hex(rootOf(hashes.slice(0, n)))).toBe(ROOTS[n - 1]);
  });

  it('splits at the largest power of two smaller than n, not at the midpoint', () => {
    const want: Record<number, number> = { 2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 8: 4, 9: 8, 1000: 512, 1025: 1024 };
    for (const [n, k] of Object.entries(want)) expect(splitPoint(Number(n))).toBe(k);
    expect(() => splitPoint(1)).toThrow(RangeError);
  });
});

describe('inclusion proofs (RFC 9162 §2.1.3)', () => {
  it.each(INCLUSION)('leaf %i in a tree of %i: generates the published path and verifies it', (index, size, path) => {
    expect(inMemory.inclusionProof(hashes.slice(0, size), index).map(hex)).toEqual(path);
    expect(verifyInclusion(index, size, hashes[index]!, path.map(unhex), root(size))).toBe(true);
  });

  it.each(INCLUSION.filter(([, , p]) => p.length > 0))('leaf %i in a tree of %i: every corruption of the proof is rejected', (index, size, pathHex) => {
    const path = pathHex.map(unhex);
    const leaf = hashes[index]!;
    const r = root(size);
    expect(verifyInclusion(index - 1, size, leaf, path, r)).toBe(false);
    expect(verifyInclusion(index + 1, size, leaf, path, r)).toBe(false);
    expect(verifyInclusion(index ^ 2, size, leaf, path, r)).toBe(false);
    expect(verifyInclusion(index, size * 2, leaf, path, r)).toBe(false);
    expect(verifyInclusion(index, Math.floor(size / 2), leaf, path, r)).toBe(false);
    expect(verifyInclusion(index, size, flipBit(leaf), path, r)).toBe(false);
    expect(verifyInclusion(index, size, leaf, path, EMPTY_ROOT)).toBe(false);
    expect(verifyInclusion(index, size, leaf, [...path, r], r)).toBe(false);
    expect(verifyInclusion(index, size, leaf, [r, ...path], r)).toBe(false);
    expect(verifyInclusion(index, size, leaf, path.slice(0, -1), r)).toBe(false);
    expect(verifyInclusion(index, size, leaf, [...path, new Uint8Array()], r)).toBe(false);
    for (let i = 0; i < path.length; i++)
      expect(
        verifyInclusion(
          index,
          size,
          leaf,
          path.map((p, j) => (j === i ? flipBit(p) : p)),
          r,
        ),
      ).toBe(false);
  });

  it('rejects an index outside the tree and proofs of the empty tree', () => {
    expect(verifyInclusion(0, 0, hashes[0]!, [], EMPTY_ROOT)).toBe(false);
    expect(verifyInclusion(1, 1, hashes[0]!, [], hashes[0]!)).toBe(false);
    expect(rootFromInclusionProof(-1, 4, hashes[0]!, [])).toBeUndefined();
    expect(() => inclusionRanges(4, 4)).toThrow(RangeError);
  });

  it('every leaf of every tree up to 40 leaves has a path that verifies, and only at its own index', () => {
    const many = Array.from({ length: 40 }, (_, i) => leafHash(Buffer.from([i, i * 7])));
    for (let n = 1; n <= many.length; n++) {
      const tree = many.slice(0, n);
      const r = rootOf(tree);
      for (let i = 0; i < n; i++) {
        const path = inMemory.inclusionProof(tree, i);
        expect(path.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
        expect(verifyInclusion(i, n, tree[i]!, path, r)).toBe(true);
        if (n > 1) expect(verifyInclusion((i + 1) % n, n, tree[i]!, path, r)).toBe(false);
      }
    }
  });
});

describe('consistency proofs (RFC 9162 §2.1.4)', () => {
  it.each(CONSISTENCY)('from %i to %i leaves: generates the published proof and verifies it', (first, second, proof) => {
    expect(inMemory.consistencyProof(hashes.slice(0, second), first).map(hex)).toEqual(proof);
    expect(verifyConsistency(first, second, root(first), root(second), proof.map(unhex))).toBe(true);
  });

  it.each(CONSISTENCY.filter(([, , p]) => p.length > 0))('from %i to %i leaves: every corruption is rejected', (first, second, proofHex) => {
    const proof = proofHex.map(unhex);
    const r1 = root(first);
    const r2 = root(second);
    expect(verifyConsistency(first - 1, second, r1, r2, proof)).toBe(false);
    expect(verifyConsistency(first + 1, second, r1, r2, proof)).toBe(false);
    expect(verifyConsistency(first ^ 2, second, r1, r2, proof)).toBe(false);
    expect(verifyConsistency(first, second * 2, r1, r2, proof)).toBe(false);
    expect(verifyConsistency(first, Math.floor(second / 2), r1, r2, proof)).toBe(false);
    expect(verifyConsistency(first, second, flipBit(r1), r2, proof)).toBe(false);
    expect(verifyConsistency(first, second, r1, flipBit(r2), proof)).toBe(false);
    expect(verifyConsistency(first, second, r2, r1, proof)).toBe(false);
    expect(verifyConsistency(first, second, r1, r2, [])).toBe(false);
    expect(verifyConsistency(first, second, r1, r2, [...proof, r1])).toBe(false);
    expect(verifyConsistency(first, second, r1, r2, [...proof, r2])).toBe(false);
    expect(verifyConsistency(first, second, r1, r2, [r2, ...proof])).toBe(false);
    expect(verifyConsistency(first, second, r1, r2, [proof[0]!, ...proof])).toBe(false);
    expect(verifyConsistency(first, second, r1, r2, proof.slice(0, -1))).toBe(false);
    for (let i = 0; i < proof.length; i++)
      expect(
        verifyConsistency(
          first,
          second,
          r1,
          r2,
          proof.map((p, j) => (j === i ? flipBit(p) : p)),
        ),
      ).toBe(false);
  });

  it('the empty tree is consistent with any tree (empty proof); equal sizes need equal roots; a tree never shrinks', () => {
    expect(verifyConsistency(0, 5, EMPTY_ROOT, root(5), [])).toBe(true);
    expect(verifyConsistency(0, 5, EMPTY_ROOT, root(5), [root(1)])).toBe(false);
    expect(verifyConsistency(3, 3, root(3), root(3), [])).toBe(true);
    expect(verifyConsistency(3, 3, root(3), root(4), [])).toBe(false);
    expect(verifyConsistency(3, 3, root(3), root(3), [root(3)])).toBe(false);
    expect(verifyConsistency(4, 3, root(4), root(3), [])).toBe(false);
    expect(() => consistencyRanges(4, 3)).toThrow(RangeError);
  });

  it('every pair of sizes up to 40 leaves has a proof that verifies, and a fork is detected', () => {
    const many = Array.from({ length: 40 }, (_, i) => leafHash(Buffer.from([i, 3, i])));
    const forked = many.map((h, i) => (i === 6 ? leafHash(Buffer.from('rewritten')) : h));
    for (let n = 1; n <= many.length; n++) {
      for (let m = 1; m <= n; m++) {
        const proof = inMemory.consistencyProof(many.slice(0, n), m);
        expect(verifyConsistency(m, n, rootOf(many.slice(0, m)), rootOf(many.slice(0, n)), proof)).toBe(true);
        // the same proof cannot connect the honest old head to a history rewritten at leaf 6
        if (m > 6 && m < n) expect(verifyConsistency(m, n, rootOf(forked.slice(0, m)), rootOf(many.slice(0, n)), proof)).toBe(false);
        if (m <= 6 && n > 6) expect(verifyConsistency(m, n, rootOf(many.slice(0, m)), rootOf(forked.slice(0, n)), proof)).toBe(false);
      }
    }
  });
});

describe('stored subtrees and the compact range', () => {
  it('every range a proof asks for is the fold of at most log2(n) complete subtrees', () => {
    const many = Array.from({ length: 77 }, (_, i) => leafHash(Buffer.from([i])));
    const subtreeHash = (level: number, index: number) => rootOf(many.slice(index * 2 ** level, (index + 1) * 2 ** level));
    for (const n of [1, 2, 3, 5, 8, 13, 64, 77]) {
      const ranges = [
        ...Array.from({ length: n }, (_, i) => inclusionRanges(i, n)).flat(),
        ...Array.from({ length: n }, (_, m) => consistencyRanges(m + 1, n)).flat(),
      ];
      for (const r of ranges) {
        const parts = perfectSubtrees(r);
        expect(parts.length).toBeLessThanOrEqual(Math.max(1, Math.ceil(Math.log2(n))));
        expect(hex(foldSubtrees(parts.map((p) => subtreeHash(p.level, p.index))))).toBe(hex(rootOf(many.slice(r.start, r.end))));
      }
    }
  });

  it('refuses a range the tree never hashes (not aligned to its largest subtree)', () => {
    expect(() => perfectSubtrees({ start: 1, end: 3 })).toThrow(RangeError);
    expect(() => perfectSubtrees({ start: 2, end: 2 })).toThrow(RangeError);
  });

  it('appending leaf by leaf gives the published roots and completes each subtree exactly once', () => {
    const cr = CompactRange.empty();
    const completed: string[] = [];
    for (let n = 1; n <= 8; n++) {
      for (const s of cr.append(hashes[n - 1]!)) completed.push(`${s.level}:${s.index}`);
      expect(hex(cr.root())).toBe(ROOTS[n - 1]);
    }
    expect(completed.sort()).toEqual(['0:0', '0:1', '0:2', '0:3', '0:4', '0:5', '0:6', '0:7', '1:0', '1:1', '1:2', '1:3', '2:0', '2:1', '3:0'].sort());
    expect(cr.edge.map((s) => `${s.level}:${s.index}`)).toEqual(['3:0']);
  });

  it('a compact range restored from its edge hashes continues the same tree', () => {
    const full = CompactRange.empty();
    for (const h of hashes.slice(0, 5)) full.append(h);
    const restored = CompactRange.of(
      5,
      full.edge.map((s) => s.hash),
    );
    for (const h of hashes.slice(5)) {
      full.append(h);
      restored.append(h);
    }
    expect(hex(restored.root())).toBe(ROOTS[7]);
    expect(() => CompactRange.of(5, [hashes[0]!])).toThrow(RangeError);
  });
});
