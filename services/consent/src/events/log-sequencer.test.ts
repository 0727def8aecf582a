import { generateKeyPairSync } from 'node:crypto';
import { createLogger } from '@accord/common';
import { LogTree } from '../app/log-tree';
import { buildEvents, validateInputs } from '../domain/consent';
import { signTreeHead } from '../domain/log';
import { memoryConsentStore } from '../store/memory/store';
import { LogSequencer } from './log-sequencer';
import { PublicationMarks } from './publication-marks';

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

function setUp(batchSize = 100, published?: PublicationMarks) {
  const store = memoryConsentStore();
  const tree = new LogTree(store.log);
  const sequencer = new LogSequencer(tree, {
    pollMs: 50,
    leaseMs: 1000,
    batchSize,
    queue: store.logQueue,
    ...(published ? { published } : {}),
    sign: (account, treeSize, rootHash) => signTreeHead({ account, treeSize, rootHash, timestamp: new Date() }, { kid: 'k', alg: 'ES256', privateKey }),
    logger: createLogger('test', 'silent'),
  });
  const write = (accountId: string) =>
    store.events.insert(
      [buildEvents(accountId, 'app', validateInputs([{ subject: 's', issuer: 'i', target: 't', action: true }]))],
      new Date(Date.now() + 60_000),
    );
  return { store, tree, sequencer, write };
}

describe('the log sequencer with many accounts', () => {
  it('gives every one of 150 accounts writing steadily its leaves in each pass (none starved behind the first 100)', async () => {
    const { store, tree, sequencer, write } = setUp();
    const accounts = Array.from({ length: 150 }, (_, i) => `acc-${String(i).padStart(3, '0')}`);
    for (let pass = 1; pass <= 3; pass++) {
      await Promise.all(accounts.map(write));
      expect(await sequencer.runOnce()).toBe(150);
      expect(await store.logQueue.accounts()).toEqual([]);
      for (const a of [accounts[0]!, accounts[100]!, accounts[149]!]) expect((await tree.latestHead(a))?.treeSize).toBe(pass);
    }
    await sequencer.stop();
  });

  it('goes on past events of a request not stored whole, which wait without holding up the account', async () => {
    // one event per read: the request's event is read alone, and the next read goes on after it
    const { store, tree, sequencer } = setUp(1);
    const [a, b] = buildEvents(
      'acc',
      'app',
      validateInputs([
        { subject: 's', issuer: 'i', target: 't', action: true },
        { subject: 's', issuer: 'i', target: 't', action: false },
      ]),
    );
    // the insert stored the request's first event only
    store.faults.fail('events.insert', { after: 1 });
    await expect(store.events.insert([[a!, b!]], new Date())).rejects.toThrow();
    const later = buildEvents('acc', 'app', validateInputs(Array.from({ length: 3 }, () => ({ subject: 'x', issuer: 'i', target: 't', action: true }))));
    await store.events.insert(
      later.map((e) => [e]),
      new Date(),
    );
    expect(await sequencer.runOnce()).toBe(3);
    expect((await tree.latestHead('acc'))?.treeSize).toBe(3);
    expect(await store.logQueue.isPending('acc', a!.id)).toBe(true);
    await sequencer.stop();
  });
});

describe('the log sequencer and the publication marks', () => {
  it("marks the published events it sequences in the update that marks them logged, and leaves the others' to the relay", async () => {
    const marked: string[][] = [];
    const marks = new PublicationMarks({ markPublished: async (ids) => void marked.push(ids) }, createLogger('test', 'silent'), 60_000);
    const { store, sequencer, write } = setUp(100, marks);
    await write('acc');
    await write('acc');
    const [first, second] = (await store.logQueue.pending('acc', 10)).events;
    marks.add(first!.id);
    marks.add('published-elsewhere');
    const calls = store.calls.length;
    expect(await sequencer.runOnce()).toBe(2);
    // one write marked both events logged and the first one published too
    expect(store.calls.slice(calls).filter((c) => c.startsWith('logQueue.markLogged') || c.startsWith('outbox.'))).toEqual(['logQueue.markLogged']);
    expect(await store.outbox.pending()).toEqual({ count: 1, oldestStoredAt: second!.createdAt });
    expect(marks.take([first!.id])).toEqual([]);
    await marks.flush();
    expect(marked).toEqual([['published-elsewhere']]);
    await sequencer.stop();
  });
});
