import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { exportJWK, type JWK } from 'jose';
import { testEnv } from '@accord/local-stack';
import { hashFromBase64, leafHash, rootOf, verifyConsistency, verifyInclusion, verifyTreeHead } from '@accord/proofs';
import { signTreeHead } from '../src/domain/log';
import { LogContentionError, LogTree } from '../src/app/log-tree';
import type { LogTreeStore } from '../src/app/ports';
import type { LogModels } from '../src/store/mongo/log-models';
import { openStore } from './store';

let close: () => Promise<void>;
let models: LogModels;
let store: LogTreeStore;
let jwk: JWK;
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const key = { kid: 'log-test', alg: 'ES256' as const, privateKey };

beforeAll(async () => {
  const h = await openStore(testEnv('logstore').mongoUrl);
  ({ close, logModels: models } = h);
  store = h.store.log;
  jwk = { ...(await exportJWK(createPublicKey(privateKey))), kid: 'log-test' };
});
afterAll(async () => close?.());

const leafOf = (account: string, i: number) => leafHash(Buffer.from(`${account}#${i}`));
const entry = (account: string, i: number) => ({ eventId: `${account}-ev-${String(i).padStart(6, '0')}`, leafHash: leafOf(account, i) });
const signer = (account: string) => (treeSize: number, rootHash: Buffer) => signTreeHead({ account, treeSize, rootHash, timestamp: new Date() }, key);
const b = (s: string) => hashFromBase64(s)!;

describe('consent log store (real database)', () => {
  it('appends in batches, signs a head per batch, and every head has the RFC 9162 root of its leaves', async () => {
    const repo = new LogTree(store);
    const acc = 'acc-batches';
    const sizes: number[] = [];
    let n = 0;
    for (const batch of [1, 1, 2, 5, 8, 3, 13, 21, 7]) {
      const head = await repo.append(
        acc,
        Array.from({ length: batch }, (_, i) => entry(acc, n + i)),
        signer(acc),
      );
      n += batch;
      sizes.push(n);
      expect(head?.treeSize).toBe(n);
      expect(head?.rootHash).toBe(rootOf(Array.from({ length: n }, (_, i) => leafOf(acc, i))).toString('base64'));
    }
    const latest = await repo.latestHead(acc);
    const v = await verifyTreeHead(
      { treeSize: latest!.treeSize, rootHash: latest!.rootHash, timestamp: latest!.timestamp.toISOString(), signature: latest!.signature },
      { keys: [jwk] },
    );
    expect(v).toMatchObject({ ok: true, value: { account: acc, treeSize: 61 } });
    // appending events that already have a leaf changes nothing
    expect((await repo.append(acc, [entry(acc, 3), entry(acc, 60)], signer(acc)))?.treeSize).toBe(61);
    expect(await repo.leafCount(acc)).toBe(61);
  });

  it('serves an inclusion proof for every leaf, against the latest head and against each older head, that verifies', async () => {
    const repo = new LogTree(store);
    const acc = 'acc-batches';
    const latest = (await repo.latestHead(acc))!;
    for (let i = 0; i < latest.treeSize; i++) {
      const out = await repo.inclusionProof(acc, entry(acc, i).eventId);
      if (out.kind !== 'proof') throw new Error(`leaf ${i}: ${out.kind}`);
      expect(out.proof.leafIndex).toBe(i);
      expect(verifyInclusion(i, out.proof.treeSize, b(out.proof.leafHash), out.proof.auditPath.map(b), b(latest.rootHash))).toBe(true);
    }
    for (const size of [1, 2, 4, 9, 17, 20, 33, 54]) {
      const out = await repo.inclusionProof(acc, entry(acc, 0).eventId, size);
      if (out.kind !== 'proof') throw new Error(`size ${size}: ${out.kind}`);
      expect(verifyInclusion(0, size, b(out.proof.leafHash), out.proof.auditPath.map(b), b(out.head.rootHash))).toBe(true);
    }
    // a size that never had a head, a leaf beyond the asked head
    expect((await repo.inclusionProof(acc, entry(acc, 0).eventId, 3)).kind).toBe('no-head');
    expect((await repo.inclusionProof(acc, entry(acc, 20).eventId, 9)).kind).toBe('no-head');
  });

  it('serves a consistency proof between any two sizes up to the latest head that verifies, and refuses beyond it', async () => {
    const repo = new LogTree(store);
    const acc = 'acc-batches';
    const headSizes = [1, 2, 4, 9, 17, 20, 33, 54, 61];
    const roots = new Map<number, Buffer>();
    for (const s of headSizes) roots.set(s, b((await repo.head(acc, s))!.rootHash));
    for (const first of headSizes)
      for (const second of headSizes.filter((s) => s >= first)) {
        const out = await repo.consistencyProof(acc, first, second);
        if (out.kind !== 'proof') throw new Error(out.kind);
        expect({ first, second, ok: verifyConsistency(first, second, roots.get(first)!, roots.get(second)!, out.proof.map(b)) }).toEqual({
          first,
          second,
          ok: true,
        });
      }
    expect(await repo.consistencyProof(acc, 3, 62)).toEqual({ kind: 'beyond-head', latest: 61 });
  });

  it('a proof costs three queries and at most 2·log2(n) stored subtrees, whatever the leaf', async () => {
    const repo = new LogTree(store);
    const acc = 'acc-batches';
    for (const i of [0, 17, 33, 60]) {
      const before = { ...repo.reads };
      await repo.inclusionProof(acc, entry(acc, i).eventId);
      expect(repo.reads.queries - before.queries).toBe(3);
      expect(repo.reads.documents - before.documents).toBeLessThanOrEqual(2 + 2 * Math.ceil(Math.log2(61)));
    }
  });

  it('tells an event without a leaf from one whose leaf no head covers yet, and never shows another account its leaves', async () => {
    const repo = new LogTree(store);
    expect((await repo.inclusionProof('acc-q', 'nope')).kind).toBe('no-leaf');
    expect((await repo.inclusionProof('acc-q', entry('acc-batches', 1).eventId)).kind).toBe('no-leaf');
    expect((await repo.inclusionProof('acc-batches', entry('acc-batches', 1).eventId)).kind).toBe('proof');
  });

  it('finishes the work of a sequencer that died after writing leaves: no gap, no duplicate, the same root', async () => {
    const repo = new LogTree(store);
    const acc = 'acc-crash';
    await repo.append(
      acc,
      Array.from({ length: 5 }, (_, i) => entry(acc, i)),
      signer(acc),
    );
    // the dead sequencer got leaves 5..8 in, then nothing (no nodes, no head)
    await models.leaves.collection.insertMany(
      Array.from({ length: 4 }, (_, i) => ({
        _id: `${acc}/${5 + i}`,
        eventId: entry(acc, 5 + i).eventId,
        accountId: acc,
        leafIndex: 5 + i,
        leafHash: leafOf(acc, 5 + i),
        at: new Date(),
      })) as never[],
    );
    expect((await repo.inclusionProof(acc, entry(acc, 6).eventId)).kind).toBe('unsequenced');
    // its successor retries the same events (still marked as waiting) plus new ones
    const head = await repo.append(
      acc,
      Array.from({ length: 6 }, (_, i) => entry(acc, 5 + i)),
      signer(acc),
    );
    expect(head?.treeSize).toBe(11);
    expect(head?.rootHash).toBe(rootOf(Array.from({ length: 11 }, (_, i) => leafOf(acc, i))).toString('base64'));
    const leaves = await models.leaves.collection.find({ accountId: acc } as never, { sort: { leafIndex: 1 } }).toArray();
    expect(leaves.map((l) => l.leafIndex)).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(new Set(leaves.map((l) => l.eventId)).size).toBe(11);
  });

  it.each(['acc-race-1', 'acc-race-2', 'acc-race-3'])(
    'several sequencers racing on one account (%s) never give two events one position or one event two positions',
    async (acc) => {
      const repos = Array.from({ length: 4 }, () => new LogTree(store));
      const total = 40;
      // every sequencer tries to sequence every event (as with an expired lease), in rounds, retrying after contention
      const run = async (repo: LogTree, offset: number) => {
        for (let round = 0; round < 60; round++) {
          const batch = Array.from({ length: 5 }, (_, i) => entry(acc, (offset + round * 5 + i) % total));
          try {
            await repo.append(acc, batch, signer(acc));
          } catch (err) {
            if (!(err instanceof LogContentionError)) throw err;
          }
          if ((await repo.leafCount(acc)) === total && (await repo.latestHead(acc))?.treeSize === total) return;
        }
      };
      await Promise.all(repos.map((r, i) => run(r, i * 10)));
      const leaves = await models.leaves.collection.find({ accountId: acc } as never, { sort: { leafIndex: 1 } }).toArray();
      expect(leaves.map((l) => l.leafIndex)).toEqual(Array.from({ length: total }, (_, i) => i));
      expect(new Set(leaves.map((l) => l.eventId)).size).toBe(total);
      const head = (await repos[0]!.latestHead(acc))!;
      expect(head.treeSize).toBe(total);
      // the root is the tree of the leaves in the order the log gave them
      expect(head.rootHash).toBe(
        rootOf(leaves.map((l) => Buffer.from((l.leafHash as unknown as { buffer: Uint8Array }).buffer ?? l.leafHash))).toString('base64'),
      );
      // every head any of them published is a prefix of the final tree
      const heads = await models.heads.collection.find({ accountId: acc } as never).toArray();
      for (const h of heads) {
        const out = await repos[0]!.consistencyProof(acc, h.treeSize, total);
        if (out.kind !== 'proof') throw new Error(out.kind);
        expect(verifyConsistency(h.treeSize, total, b(h.rootHash), b(head.rootHash), out.proof.map(b))).toBe(true);
      }
    },
  );

  it('concurrent takers of a free lease: exactly one wins', async () => {
    const t0 = new Date('2026-11-23T07:00:00Z');
    const until = new Date(t0.getTime() + 1000);
    const wins = await Promise.all(['p', 'q', 'r', 's'].map((o) => store.takeLease('acc-lease-2', o, t0, until)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
});
