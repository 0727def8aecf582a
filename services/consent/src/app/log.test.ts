import { status } from '@grpc/grpc-js';
import { ConsentLog } from './log';
import type { LogTree, ProofOutcome } from './log-tree';

const ID = 'a'.repeat(32);
const proof = { leafIndex: 0, treeSize: 1, leafHash: 'AA==', auditPath: [] };

/** A log store answering the given outcomes in turn, and an event store with a fixed mark. */
function logWith(outcomes: ProofOutcome['kind'][], pending: boolean) {
  const seen: string[] = [];
  const repo = {
    inclusionProof: async () => {
      const kind = outcomes.shift()!;
      seen.push(kind);
      return kind === 'proof' ? { kind, proof, head: {} } : { kind };
    },
  } as unknown as LogTree;
  return { log: new ConsentLog(repo, { isPending: async () => pending }), seen };
}

describe('ConsentLog.inclusionProof without a leaf', () => {
  it('answers the proof when the event was sequenced between the leaf read and the mark read (no false 404)', async () => {
    const { log, seen } = logWith(['no-leaf', 'proof'], false);
    await expect(log.inclusionProof('acc', ID)).resolves.toEqual(proof);
    expect(seen).toEqual(['no-leaf', 'proof']);
  });

  it('is ABORTED (409 + Retry-After at the gateway) while the event is marked as waiting', async () => {
    const { log } = logWith(['no-leaf'], true);
    await expect(log.inclusionProof('acc', ID)).rejects.toMatchObject({ code: status.ABORTED });
  });

  it('is NOT_FOUND when the event is neither marked nor has a leaf on the second read', async () => {
    const { log } = logWith(['no-leaf', 'no-leaf'], false);
    await expect(log.inclusionProof('acc', ID)).rejects.toMatchObject({ code: status.NOT_FOUND });
  });
});
