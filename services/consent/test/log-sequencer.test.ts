import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { exportJWK } from 'jose';
import { testEnv } from '@accord/local-stack';
import { hashFromBase64, rootOf, verifyConsistency, verifyInclusion, verifyTreeHead } from '@accord/proofs';
import type { ConsentEvent } from '../src/domain/consent';
import { eventLeafHash, signTreeHead } from '../src/domain/log';
import { LogSequencer, type SequencerOptions } from '../src/events/log-sequencer';
import { ConsentLog } from '../src/app/log';
import { LogTree } from '../src/app/log-tree';
import type { ConsentStore, TreeHeadRecord } from '../src/app/ports';
import type { LogModels } from '../src/store/mongo/log-models';
import { openStore } from './store';
import { sleep, eventually, testLogger } from '@accord/testkit';

jest.setTimeout(60_000);
let close: () => Promise<void>;
let models: LogModels;
/** The store: events are marked as waiting for their leaf by the insert itself. */
let events: ConsentStore;
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const key = { kid: 'seq-test', alg: 'ES256' as const, privateKey };
const logger = testLogger('t');

beforeAll(async () => {
  ({ close, logModels: models, store: events } = await openStore(testEnv('logseq').mongoUrl));
});
afterAll(async () => close?.());

let seq = 0;
const newEvent = (accountId: string): ConsentEvent => {
  seq++;
  return {
    id: String(seq).padStart(32, '0'), // the shape of an event id (EVENT_ID_PATTERN)
    accountId,
    appId: 'app',
    subject: `user-${seq % 7}`,
    issuer: 'https://shop.example',
    target: 'https://shop.example/privacy',
    scope: 'newsletter',
    action: seq % 2 === 0,
    token: `T${seq}`,
    createdAt: new Date(),
  };
};

function sequencer(over: Partial<SequencerOptions> = {}): LogSequencer {
  return new LogSequencer(new LogTree(events.log), {
    pollMs: 50,
    leaseMs: 400,
    batchSize: 25,
    queue: events.logQueue,
    sign: (account, treeSize, rootHash) => signTreeHead({ account, treeSize, rootHash, timestamp: new Date() }, key),
    logger,
    ...over,
  });
}

/** A write as the write path does it: the event's insert, nothing else. */
async function write(accountId: string): Promise<ConsentEvent> {
  const ev = newEvent(accountId);
  await events.events.insert([[ev]], new Date(Date.now() + 60_000));
  return ev;
}

async function expectSoundLog(account: string, written: ConsentEvent[]): Promise<TreeHeadRecord> {
  const repo = new LogTree(events.log);
  const head = await eventually(
    async () => {
      const h = await repo.latestHead(account);
      return h && h.treeSize === written.length ? h : undefined;
    },
    30_000,
    `the head of ${account} to reach ${written.length}`,
  );
  const leaves = await models.leaves.collection.find({ accountId: account } as never, { sort: { leafIndex: 1 } }).toArray();
  // no gap, no duplicate, every written event exactly once
  expect(leaves.map((l) => l.leafIndex)).toEqual(written.map((_, i) => i));
  expect(leaves.map((l) => l.eventId as string).sort()).toEqual(written.map((e) => e.id).sort());
  // the head is the tree of the events' leaves in the log's order, signed
  const byId = new Map(written.map((e) => [e.id, e]));
  expect(head.rootHash).toBe(rootOf(leaves.map((l) => eventLeafHash(byId.get(l.eventId as string)!))).toString('base64'));
  const jwk = { ...(await exportJWK(createPublicKey(privateKey))), kid: 'seq-test' };
  expect((await verifyTreeHead({ ...head, timestamp: head.timestamp.toISOString() }, { keys: [jwk] })).ok).toBe(true);
  // every event proves into it, and every earlier head is a prefix of it
  for (const ev of written) {
    const out = await repo.inclusionProof(account, ev.id);
    if (out.kind !== 'proof') throw new Error(`${ev.id}: ${out.kind}`);
    expect(
      verifyInclusion(
        out.proof.leafIndex,
        out.proof.treeSize,
        eventLeafHash(ev),
        out.proof.auditPath.map((h) => hashFromBase64(h)!),
        hashFromBase64(head.rootHash)!,
      ),
    ).toBe(true);
  }
  for (const h of await models.heads.collection.find({ accountId: account } as never).toArray()) {
    const c = await repo.consistencyProof(account, h.treeSize as number, head.treeSize);
    if (c.kind !== 'proof') throw new Error(c.kind);
    expect(
      verifyConsistency(
        h.treeSize as number,
        head.treeSize,
        hashFromBase64(h.rootHash as string)!,
        hashFromBase64(head.rootHash)!,
        c.proof.map((p) => hashFromBase64(p)!),
      ),
    ).toBe(true);
  }
  expect((await events.logQueue.pending(account, 10)).events).toEqual([]);
  return head;
}

describe('log sequencing (real database)', () => {
  it('three replicas sequencing while eight writers write to two accounts: every event once, no gap, signed heads that extend each other', async () => {
    const replicas = [sequencer(), sequencer(), sequencer()];
    const published: TreeHeadRecord[] = [];
    replicas.push(sequencer({ onHead: (h) => void published.push(h) }));
    replicas.forEach((r) => r.start());
    const written: Record<string, ConsentEvent[]> = { 'acc-w1': [], 'acc-w2': [] };
    try {
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          const account = w % 2 ? 'acc-w1' : 'acc-w2';
          for (let i = 0; i < 15; i++) {
            written[account]!.push(await write(account));
            replicas[w % replicas.length]!.nudge();
            if (i % 5 === 0) await sleep(20);
          }
        }),
      );
      await expectSoundLog('acc-w1', written['acc-w1']!);
      await expectSoundLog('acc-w2', written['acc-w2']!);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
    }
    // heads are published once each, never a smaller one after a larger one of the same account
    for (const acc of ['acc-w1', 'acc-w2']) {
      const sizes = published.filter((h) => h.accountId === acc).map((h) => h.treeSize);
      expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
      expect(new Set(sizes).size).toBe(sizes.length);
    }
  });

  it('a sequencer killed between writing leaves and signing the head: another replica takes over after its lease and finishes', async () => {
    const account = 'acc-killed';
    const repo = new LogTree(events.log);
    const written: ConsentEvent[] = [];
    for (let i = 0; i < 12; i++) written.push(await write(account));
    // the doomed replica dies inside its first append, after the leaves and nodes, before the head
    let killedAt = 0;
    const doomed = sequencer({
      leaseMs: 3000,
      sign: async () => {
        killedAt = Date.now();
        throw new Error('killed');
      },
    });
    await expect(doomed.runOnce()).rejects.toThrow('killed');
    expect(await repo.leafCount(account)).toBe(12);
    expect(await repo.latestHead(account)).toBeUndefined();
    // its lease is still held (it never released it): a second replica waits it out, then takes over
    const successor = sequencer();
    expect(await successor.runOnce()).toBe(0);
    for (let i = 0; i < 5; i++) written.push(await write(account));
    successor.start();
    try {
      await expectSoundLog(account, written);
    } finally {
      await successor.stop();
    }
    expect(killedAt).toBeGreaterThan(0);
  });

  it('a sequencer killed after signing the head but before unmarking its events: the successor skips them (no duplicate leaf) and unmarks them', async () => {
    const account = 'acc-unmarked';
    const written: ConsentEvent[] = [];
    for (let i = 0; i < 7; i++) written.push(await write(account));
    const doomed = sequencer({
      queue: {
        accounts: () => events.logQueue.accounts(),
        pending: (a, n, after) => events.logQueue.pending(a, n, after),
        markLogged: async () => {
          throw new Error('killed');
        },
      },
    });
    await expect(doomed.runOnce()).rejects.toThrow('killed');
    expect((await events.logQueue.pending(account, 10)).events.length).toBe(7);
    expect((await new LogTree(events.log).latestHead(account))?.treeSize).toBe(7);
    await doomed.stop(); // releases its lease, as a restarted replica's would have expired
    const successor = sequencer();
    for (let i = 0; i < 2; i++) written.push(await write(account));
    expect(await successor.runOnce()).toBe(9);
    await expectSoundLog(account, written);
    await successor.stop();
  });

  it('the proof of a stored event waiting for its leaf is ABORTED (409 at the gateway); an unknown event, or one of another account, is NOT_FOUND; once sequenced it proves', async () => {
    const account = 'acc-proof';
    const log = new ConsentLog(new LogTree(events.log), events.logQueue);
    const ev = await write(account);
    await expect(log.inclusionProof(account, ev.id)).rejects.toMatchObject({ code: status.ABORTED });
    await expect(log.inclusionProof('acc-other', ev.id)).rejects.toMatchObject({ code: status.NOT_FOUND });
    await expect(log.inclusionProof(account, 'f'.repeat(32))).rejects.toMatchObject({ code: status.NOT_FOUND });
    const s = sequencer();
    expect(await s.runOnce()).toBeGreaterThanOrEqual(1);
    await s.stop();
    expect(await log.inclusionProof(account, ev.id)).toMatchObject({ leafIndex: 0, treeSize: 1 });
  });

  it('one pass sequences every one of 150 accounts with waiting events (none starved behind the first 100)', async () => {
    const accounts = Array.from({ length: 150 }, (_, i) => `acc-many-${String(i).padStart(3, '0')}`);
    const written = await Promise.all(accounts.map((a) => write(a)));
    const s = sequencer();
    try {
      expect(await s.runOnce()).toBe(150);
    } finally {
      await s.stop();
    }
    const tree = new LogTree(events.log);
    for (const [i, a] of accounts.entries()) {
      expect((await tree.latestHead(a))?.treeSize).toBe(1);
      expect((await tree.inclusionProof(a, written[i]!.id)).kind).toBe('proof');
    }
    expect((await events.logQueue.accounts()).filter((a) => a.startsWith('acc-many-'))).toEqual([]);
  });
});
