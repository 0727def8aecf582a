/**
 * `npm run bench:log`: proof latency of the consent log at 1M leaves (BENCH_LOG_LEAVES), on the
 * local MongoDB-compatible server, through LogRepository (the code the endpoints call).
 *
 * Fills one account's log as the sequencer would leave it (leaves, complete-subtree hashes,
 * signed heads), then measures: sequencing the last batches through LogRepository.append,
 * inclusion proofs of random leaves against the latest and an older head, consistency proofs;
 * with the reads each costs (queries, documents), which is what must stay O(log n).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMongo, createLogger, syncIndexes } from '@accord/common';
import { defineLogModels, LogRepository, signTreeHead } from '@accord/consent';
import { startInfra } from '@accord/local-stack';
import { CompactRange, hashFromBase64, leafHash, verifyConsistency, verifyInclusion } from '@accord/proofs';

const N = Number(process.env.BENCH_LOG_LEAVES ?? 1_000_000);
const PROOFS = Number(process.env.BENCH_LOG_PROOFS ?? 2000);
const APPEND_BATCHES = 10;
const APPEND_BATCH = 1000;
const CHUNK = 20_000;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const leafOf = (i: number) => leafHash(Buffer.from(`bench-event-${i}`));

async function main(): Promise<void> {
  if (!Number.isSafeInteger(N) || N < APPEND_BATCHES * APPEND_BATCH * 2)
    throw new Error(`BENCH_LOG_LEAVES must be at least ${APPEND_BATCHES * APPEND_BATCH * 2}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'accord-bench-log-'));
  const infra = await startInfra({ dataDir, ephemeral: true });
  const logger = createLogger('bench', 'warn');
  const conn = await connectMongo(infra.mongoUrl.replace(/\/[^/?]*(\?|$)/, '/accord_bench_log$1'), logger);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const key = { kid: 'bench', alg: 'ES256' as const, privateKey };
  const account = 'bench-account';
  const sign = (treeSize: number, rootHash: Buffer) => signTreeHead({ account, treeSize, rootHash, timestamp: new Date() }, key);
  console.log(`consent log bench: ${N} leaves on ${infra.description}`);
  try {
    const models = defineLogModels(conn);
    await syncIndexes(conn);
    const repo = new LogRepository(models);

    // 1. the log as sequencing leaves it, written in bulk (the part before the measured appends)
    const bulk = N - APPEND_BATCHES * APPEND_BATCH;
    const range = CompactRange.empty();
    const heads: number[] = [];
    let leaves: object[] = [];
    let nodes: object[] = [];
    const flush = async () => {
      await Promise.all([
        leaves.length ? models.leaves.collection.insertMany(leaves as never[], { ordered: false }) : undefined,
        nodes.length ? models.nodes.collection.insertMany(nodes as never[], { ordered: false }) : undefined,
      ]);
      leaves = [];
      nodes = [];
    };
    const fillStart = Date.now();
    for (let i = 0; i < bulk; i++) {
      const h = leafOf(i);
      leaves.push({ _id: `${account}/${i}`, accountId: account, leafIndex: i, eventId: `ev-${i}`, leafHash: h, at: new Date() });
      for (const s of range.append(h)) nodes.push({ _id: `${s.level}/${s.index}/${account}`, h: s.hash });
      if (leaves.length >= CHUNK) {
        await flush();
        if ((i + 1) % (CHUNK * 10) === 0) {
          heads.push(i + 1);
          const signed = await sign(i + 1, range.root());
          await models.heads.collection.insertOne({
            _id: `${account}/${i + 1}`,
            accountId: account,
            treeSize: i + 1,
            rootHash: signed.rootHash,
            timestamp: new Date(signed.timestamp),
            signature: signed.signature,
            kid: 'bench',
          } as never);
          process.stdout.write(`\r  filled ${i + 1} leaves (${Math.round((i + 1) / ((Date.now() - fillStart) / 1000))}/s)`);
        }
      }
    }
    await flush();
    const signed = await sign(bulk, range.root());
    await models.heads.collection.insertOne({
      _id: `${account}/${bulk}`,
      accountId: account,
      treeSize: bulk,
      rootHash: signed.rootHash,
      timestamp: new Date(signed.timestamp),
      signature: signed.signature,
      kid: 'bench',
    } as never);
    heads.push(bulk);
    console.log(`\r  filled ${bulk} leaves in ${((Date.now() - fillStart) / 1000).toFixed(0)} s`);

    // 2. the last batches through the sequencer's own path
    const appendMs: number[] = [];
    for (let b = 0; b < APPEND_BATCHES; b++) {
      const entries = Array.from({ length: APPEND_BATCH }, (_, k) => {
        const i = bulk + b * APPEND_BATCH + k;
        return { eventId: `ev-${i}`, leafHash: leafOf(i) };
      });
      const t = performance.now();
      const head = await repo.append(account, entries, sign);
      appendMs.push(performance.now() - t);
      heads.push(head!.treeSize);
    }
    const latest = (await repo.latestHead(account))!;
    if (latest.treeSize !== N) throw new Error(`latest head is ${latest.treeSize}, expected ${N}`);

    // 3. inclusion proofs of random leaves, against the latest and an older head
    const rows: string[][] = [];
    const proofRun = async (name: string, treeSize: number | undefined) => {
      const size = treeSize ?? N;
      const root = hashFromBase64(treeSize ? (await repo.head(account, treeSize))!.rootHash : latest.rootHash)!;
      const ms: number[] = [];
      const before = { ...repo.reads };
      for (let k = 0; k < PROOFS; k++) {
        const i = Math.floor(Math.random() * size);
        const t = performance.now();
        const out = await repo.inclusionProof(account, `ev-${i}`, treeSize);
        ms.push(performance.now() - t);
        if (out.kind !== 'proof') throw new Error(`leaf ${i}: ${out.kind}`);
        if (
          k % 50 === 0 &&
          !verifyInclusion(
            i,
            size,
            leafOf(i),
            out.proof.auditPath.map((h) => hashFromBase64(h)!),
            root,
          )
        )
          throw new Error(`leaf ${i}: proof does not verify`);
      }
      rows.push([
        name,
        String(PROOFS),
        percentile(ms, 50).toFixed(2),
        percentile(ms, 99).toFixed(2),
        ((repo.reads.queries - before.queries) / PROOFS).toFixed(1),
        ((repo.reads.documents - before.documents) / PROOFS).toFixed(1),
      ]);
    };
    await proofRun(`inclusion proof, head of ${N}`, undefined);
    const older = heads[Math.floor(heads.length / 2)]!;
    await proofRun(`inclusion proof, head of ${older}`, older);

    const cms: number[] = [];
    const before = { ...repo.reads };
    const cn = Math.min(PROOFS, 500);
    for (let k = 0; k < cn; k++) {
      const first = heads[Math.floor(Math.random() * (heads.length - 1))]!;
      const t = performance.now();
      const out = await repo.consistencyProof(account, first, N);
      cms.push(performance.now() - t);
      if (out.kind !== 'proof') throw new Error(out.kind);
      if (k % 50 === 0) {
        const r1 = hashFromBase64((await repo.head(account, first))!.rootHash)!;
        if (
          !verifyConsistency(
            first,
            N,
            r1,
            hashFromBase64(latest.rootHash)!,
            out.proof.map((h) => hashFromBase64(h)!),
          )
        )
          throw new Error(`consistency ${first}..${N} does not verify`);
      }
    }
    // (the verification reads of every 50th proof are counted too: one head lookup each)
    rows.push([
      `consistency proof, head → ${N}`,
      String(cn),
      percentile(cms, 50).toFixed(2),
      percentile(cms, 99).toFixed(2),
      ((repo.reads.queries - before.queries) / cn).toFixed(1),
      ((repo.reads.documents - before.documents) / cn).toFixed(1),
    ]);
    rows.push([
      `append ${APPEND_BATCH} leaves + sign head`,
      String(APPEND_BATCHES),
      percentile(appendMs, 50).toFixed(1),
      percentile(appendMs, 99).toFixed(1),
      '—',
      '—',
    ]);

    const head = ['operation', 'count', 'p50 ms', 'p99 ms', 'queries/op', 'docs/op'];
    const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
    const line = (r: string[]) => r.map((v, c) => (c === 0 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join('  ');
    console.log(`\n${line(head)}\n${rows.map(line).join('\n')}`);
    console.log(`\n${N} leaves: ${await models.nodes.collection.estimatedDocumentCount()} subtree hashes stored; log2(n) = ${Math.log2(N).toFixed(1)}`);
  } finally {
    await conn.close();
    await infra.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
