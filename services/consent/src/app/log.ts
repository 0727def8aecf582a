import { AbortedError, InvalidArgumentError, NotFoundError } from '@accord/common';
import { EVENT_ID_PATTERN } from '../domain/consent';
import { requireAccount } from './consents';
import type { LogTree } from './log-tree';
import type { LogQueueStore, TreeHeadRecord } from './ports';

/** How long a caller should wait before asking again for the proof of an event not yet sequenced (seconds). */
export const PROOF_RETRY_AFTER_S = 2;

export interface PublicTreeHead {
  treeSize: number;
  rootHash: string;
  timestamp: string;
  signature: string;
}

const publicOf = (h: TreeHeadRecord): PublicTreeHead => ({
  treeSize: h.treeSize,
  rootHash: h.rootHash,
  timestamp: h.timestamp.toISOString(),
  signature: h.signature,
});

/** The consent log's read use cases (docs/consent-log.md): what the gRPC handlers call. */
export class ConsentLog {
  constructor(
    private readonly repo: LogTree,
    /** The log's queue: whether an event without a leaf is waiting for one (409) or unknown (404). */
    private readonly queue: Pick<LogQueueStore, 'isPending'>,
  ) {}

  async treeHead(accountId: string): Promise<PublicTreeHead> {
    requireAccount(accountId);
    const head = await this.repo.latestHead(accountId);
    if (!head) throw new NotFoundError('The consent log of this account has no tree head yet: no consent event has been sequenced.');
    return publicOf(head);
  }

  /** ABORTED (HTTP 409 with Retry-After) while the event waits for its leaf. */
  async inclusionProof(accountId: string, id: string, treeSize?: number) {
    requireAccount(accountId);
    if (!EVENT_ID_PATTERN.test(id)) throw new NotFoundError('Consent event not found');
    if (treeSize !== undefined && (!Number.isSafeInteger(treeSize) || treeSize < 1)) throw InvalidArgumentError.field('treeSize', 'must be a positive integer');
    let out = await this.repo.inclusionProof(accountId, id, treeSize);
    if (out.kind === 'no-leaf') {
      // waiting for its leaf, or sequenced between the two reads: the sequencer unmarks an event
      // only after its leaf is written, so once unmarked, a second read finds the leaf if there is one
      if (await this.queue.isPending(accountId, id)) out = { kind: 'unsequenced' };
      else out = await this.repo.inclusionProof(accountId, id, treeSize);
    }
    if (out.kind === 'proof') return out.proof;
    if (out.kind === 'unsequenced')
      throw new AbortedError(`The consent event is not in the log yet; it is sequenced within seconds. Retry after ${PROOF_RETRY_AFTER_S} s.`);
    if (out.kind === 'no-head') throw InvalidArgumentError.field('treeSize', `is not the size of a tree head that contains this event`);
    throw new NotFoundError('Consent event not found');
  }

  async consistencyProof(accountId: string, first: number, second: number) {
    requireAccount(accountId);
    const errors = [];
    if (!Number.isSafeInteger(first) || first < 1) errors.push({ field: 'first', message: 'must be a positive integer' });
    if (!Number.isSafeInteger(second) || second < 1) errors.push({ field: 'second', message: 'must be a positive integer' });
    else if (!errors.length && first > second) errors.push({ field: 'first', message: 'must not be larger than second' });
    if (errors.length) throw new InvalidArgumentError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    const out = await this.repo.consistencyProof(accountId, first, second);
    if (out.kind === 'beyond-head') throw InvalidArgumentError.field('second', `is beyond the latest tree head (${out.latest})`);
    return out;
  }
}
