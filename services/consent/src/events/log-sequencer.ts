import { randomUUID } from 'node:crypto';
import { mapLimit, PeriodicTask, type Logger } from '@accord/common';
import { eventLeafHash, type SignedTreeHead } from '../domain/log';
import { LogContentionError, type LogTree } from '../app/log-tree';
import type { LeafQueue, LogPendingLeaf } from '../app/log-queue';
import type { LogPendingEvent, TreeHeadRecord } from '../app/ports';
import type { PublicationMarks } from './publication-marks';

/** Accounts sequenced at once within a pass (each is a few commands in sequence). */
const ACCOUNTS_IN_PARALLEL = 8;

/** Longest pause between two looks for waiting events while there are none. */
const IDLE_MAX_MS = 2_000;
/** Writes nudged within this window are sequenced by one pass. */
const NUDGE_MS = 20;
/**
 * Under steady writes, a pass starts at most this often (ms): every pass costs about ten commands
 * (pending events, lease, leaves, subtree nodes, signed head, marks, the head's webhook lookup)
 * whatever its size, so passes back to back cost more per event the busier the replica is. With
 * one pass per 200 ms the log's commands per second stay flat as writes grow, and an event still
 * has its leaf well within the 2 s promise (docs/consent-log.md).
 */
const BUSY_GAP_MS = 200;

export interface SequencerOptions {
  /** How often waiting events are looked for while there are some (idle: backs off to 2 s; a write here nudges at once). */
  pollMs: number;
  /** How long one replica sequences an account before another may take over (renewed every pass). */
  leaseMs: number;
  /** Most events per signed head. */
  batchSize: number;
  /** The events waiting for their leaf (marked on their own documents by the write). */
  queue: Pick<LeafQueue, 'accounts' | 'pending' | 'markLogged'>;
  /**
   * The relay's acknowledged ids still to mark (OutboxRelay.marks): those of the sequenced events
   * are marked published in the update that marks them logged, instead of one update each.
   */
  published?: Pick<PublicationMarks, 'take' | 'restore'>;
  sign(account: string, treeSize: number, rootHash: Buffer): Promise<SignedTreeHead>;
  /** A new head was published (NATS subject, `log.tree_head` webhooks). Failures are logged, never retried here. */
  onHead?(head: TreeHeadRecord): Promise<void> | void;
  logger: Logger;
  now?: () => Date;
}

/**
 * Gives waiting consent events their leaves, behind the write (never in front of a 201: the
 * write only marks its event documents, in the insert it does anyway).
 *
 * Every replica runs one; per account, one of them at a time holds the lease and sequences.
 * Correctness does not rest on the lease (a paused holder may still write after it expired):
 * positions are primary keys, so a stale sequencer's write fails and it re-reads. The lease
 * only keeps replicas from wasting work. A crash anywhere leaves events still marked and possibly
 * leaves without a head; the next holder finishes both (LogTree.append skips events that
 * already have a leaf).
 *
 * A pass visits every account with waiting events (a few at a time), whatever their number, so
 * no account waits longer than one pass for its leaves however many accounts write.
 */
export class LogSequencer {
  readonly owner = randomUUID();
  private readonly passes: PeriodicTask<number>;
  private again = false;
  private readonly held = new Set<string>();
  /** The largest head this sequencer published per account (a pass with nothing new publishes nothing). */
  private readonly published = new Map<string, number>();

  private idleMs: number;
  private nudged = false;
  /** No pass starts before this time (ms since epoch): the pacing of passes under steady writes. */
  private notBefore = 0;

  constructor(
    private readonly repo: LogTree,
    private readonly opts: SequencerOptions,
  ) {
    this.idleMs = opts.pollMs;
    this.passes = new PeriodicTask({
      run: () => {
        this.nudged = false;
        return this.runOnce();
      },
      next: (n) => this.afterPass(n ?? 0),
      logger: opts.logger,
      failure: 'consent log: sequencing pass failed; retrying',
    });
  }

  start(): void {
    this.passes.start();
  }

  /**
   * After a write: sequence soon. Nudges within NUDGE_MS share one pass (and one signed head),
   * which also keeps the pass out of the write's answer path; a pass under way runs again.
   */
  nudge(): void {
    if (this.passes.stopped) return;
    if (this.passes.running) this.again = true;
    else if (!this.nudged) {
      this.nudged = true;
      this.passes.runIn(Math.max(NUDGE_MS, this.notBefore - Date.now()));
    }
  }

  async stop(): Promise<void> {
    await this.passes.stop();
    await Promise.allSettled([...this.held].map((a) => this.repo.store.releaseLease(a, this.owner)));
    this.held.clear();
  }

  /** One pass over every account with waiting events; resolves with the number of events given a leaf. */
  async runOnce(): Promise<number> {
    const accounts = await this.opts.queue.accounts();
    const done = await mapLimit(accounts, ACCOUNTS_IN_PARALLEL, (account) => (this.passes.stopped ? Promise.resolve(0) : this.sequenceAccount(account)));
    return done.reduce((a, b) => a + b, 0);
  }

  private async sequenceAccount(account: string): Promise<number> {
    const now = this.opts.now?.() ?? new Date();
    if (!(await this.repo.store.takeLease(account, this.owner, now, new Date(now.getTime() + this.opts.leaseMs)))) {
      this.held.delete(account);
      return 0;
    }
    this.held.add(account);
    let done = 0;
    let after: string | undefined;
    // bounded: a backlog is worked off over several passes, renewing the lease between them
    for (let round = 0; round < 10 && !this.passes.stopped; round++) {
      const { events: ready, last, full } = await this.opts.queue.pending(account, this.opts.batchSize, after);
      // events of requests not stored whole are skipped (left waiting): go on after them
      after = last;
      if (!ready.length) {
        if (full) continue;
        break;
      }
      let head: TreeHeadRecord | undefined;
      try {
        head = await this.repo.append(
          account,
          ready.map((e: LogPendingLeaf) => ({ eventId: e.id, leafHash: e.leafHash ?? eventLeafHash(e as LogPendingEvent) })),
          (size, root) => this.opts.sign(account, size, root),
        );
      } catch (err) {
        if (err instanceof LogContentionError) {
          this.opts.logger.info({ account }, 'consent log: another sequencer is writing this log; backing off');
          break;
        }
        throw err;
      }
      const ids = ready.map((e) => e.id);
      const published = this.opts.published?.take(ids) ?? [];
      try {
        await this.opts.queue.markLogged(ids, published);
      } catch (err) {
        this.opts.published?.restore(published);
        throw err;
      }
      done += ready.length;
      if (head) await this.publish(head);
      if (!full) break;
    }
    return done;
  }

  private async publish(head: TreeHeadRecord): Promise<void> {
    if ((this.published.get(head.accountId) ?? -1) >= head.treeSize) return;
    this.published.set(head.accountId, head.treeSize);
    try {
      await this.opts.onHead?.(head);
    } catch (err) {
      this.opts.logger.warn({ err, account: head.accountId, treeSize: head.treeSize }, 'consent log: publishing a tree head failed');
    }
  }

  /** The pause before the next pass, after one that gave `found` events their leaves. */
  private afterPass(found: number): number {
    const again = this.again;
    this.again = false;
    // While passes find nothing the pause doubles, up to IDLE_MAX_MS: an idle replica sends
    // one small query every 2 s, and a write here nudges it at once.
    this.idleMs = found || again ? this.opts.pollMs : Math.min(this.idleMs * 2, Math.max(this.opts.pollMs, IDLE_MAX_MS));
    // a pass that found work paces the next one (writes meanwhile wait for it together)
    const gap = Math.min(BUSY_GAP_MS, this.opts.pollMs);
    this.notBefore = found ? Date.now() + gap : 0;
    if (again) this.nudged = true;
    return again ? (found ? gap : NUDGE_MS) : this.idleMs;
  }
}
