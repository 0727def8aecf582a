import { createHash, randomUUID } from 'node:crypto';
import type { JetStreamClient } from 'nats';
import { eventSubject, PeriodicTask, sleep, type Logger } from '@accord/common';
import { eventMessage } from '../domain/wire';
import type { PendingRenewal, RenewalJob, RenewalSignals, RenewalStore, StateEvent } from '../app/ports';
import { publishBusEvent, type BusEncoding, type ConsentBusEvent } from './bus-event';

/** The event type announcing that a state's consent is due for renewal (webhooks opt in to it). */
export const RENEWAL_EVENT = 'consent.renewal_required';

export interface RenewalOptions {
  prefix: string;
  /** How bus events are written (default protobuf). */
  encoding?: BusEncoding;
  /** Pause between two looks for material changes (an idle look is one gRPC call, one database command on the data processing side). */
  intervalMs: number;
  /** How long a job belongs to one replica before another may continue it (extended after every page). */
  leaseMs: number;
  publishTimeoutMs: number;
  /** Most announcements per second per replica. */
  ratePerSecond: number;
  logger: Pick<Logger, 'warn'>;
  /** States read per page (capped so that a page takes at most a third of the lease at the rate). */
  batch?: number;
}

/**
 * The bus event of one announcement: the state's current event with `renewalRequired` set, and the
 * specification's `reconsentSince` (the material version); webhooks receive the event as REST
 * shows it plus `reconsentSince`.
 * Its id is derived from (state, version): however often a page is published again (a replica
 * that died after publishing, before recording progress), it is one JetStream message
 * (Nats-Msg-Id dedupe) and one webhook delivery; a later material version is a new id.
 */
export function renewalBusEvent(s: StateEvent, version: number, occurredAt: Date): ConsentBusEvent {
  const id = createHash('sha256').update(`${RENEWAL_EVENT}\0${s.key}\0${version}`).digest('hex').slice(0, 32);
  return {
    id,
    type: RENEWAL_EVENT,
    accountId: s.event.accountId,
    appId: s.event.appId,
    occurredAt,
    event: { ...eventMessage(s.event), renewalRequired: true },
    reconsentSince: version,
  };
}

/** The targets naming a specification: its URL and `urn:accord:dpspec:<id>`, each also with a trailing slash. */
export function targetsOf(p: Pick<PendingRenewal, 'specId' | 'target'>): string[] {
  const url = p.target.replace(/\/+$/, '');
  const urn = `urn:accord:dpspec:${p.specId}`;
  return [url, `${url}/`, urn, `${urn}/`];
}

/** Spaces calls `1/rate` seconds apart (across concurrent callers). */
function pacer(ratePerSecond: number): () => Promise<void> {
  const gap = 1000 / ratePerSecond;
  let next = 0;
  return async () => {
    const now = Date.now();
    const at = Math.max(next, now);
    next = at + gap;
    if (at > now) await sleep(at - now);
  };
}

/**
 * Announces material changes of specifications: one `consent.renewal_required` event per current
 * state consented to an older version, once per state and material version (docs/consent.md,
 * "Renewal webhooks").
 *
 * The signal cannot be lost: the data processing service records the material version on the
 * specification in the same single-document write as the change (`renewalPending`), and clears
 * it only when this side acknowledges the completed fan-out of that version (a later material
 * version is kept). Each replica asks for pending specifications every `intervalMs` (idle: one
 * gRPC call, one database command there; nothing on the consent database).
 *
 * The fan-out is a job document per (specification, version), created by upsert, worked by the
 * replica holding its lease (one atomic update claims it). States are read by key, a page at a
 * time, published at most `ratePerSecond`, then the job records the last key and extends its
 * lease (only while still the owner). A replica that dies leaves the job to be continued after
 * the lease from the last recorded key; states of a page published twice are JetStream
 * duplicates, dropped by message id. A state re-consented to the new version before its page is
 * read is not announced (the page only reads states consented to an older version). The
 * specification update itself never waits for any of this.
 */
export class RenewalAnnouncer {
  private readonly looks: PeriodicTask<number>;
  private readonly pace: () => Promise<void>;
  readonly owner = randomUUID();

  constructor(
    private readonly repo: RenewalStore,
    private readonly signals: RenewalSignals,
    private readonly js: Pick<JetStreamClient, 'publish'>,
    private readonly opts: RenewalOptions,
  ) {
    this.pace = pacer(opts.ratePerSecond);
    this.looks = new PeriodicTask({
      run: () => this.runOnce(),
      next: () => opts.intervalMs,
      logger: opts.logger,
      failure: 'renewal: look for material changes failed',
    });
  }

  start(): void {
    this.looks.start();
  }

  stop(): Promise<void> {
    return this.looks.stop();
  }

  private get pageSize(): number {
    const byLease = Math.floor((this.opts.ratePerSecond * this.opts.leaseMs) / 3000);
    return Math.max(1, Math.min(this.opts.batch ?? 500, byLease));
  }

  /** One look: works every pending specification this replica can claim. Resolves with the number announced. */
  async runOnce(now: () => Date = () => new Date()): Promise<number> {
    const pending = await this.signals.pending(100);
    let announced = 0;
    for (const p of pending) {
      if (this.looks.stopped) break;
      const job = await this.repo.job({ accountId: p.accountId, specId: p.specId, version: p.version, targets: targetsOf(p) }, now());
      if (!job.done) {
        if (job.leaseUntil.getTime() > now().getTime()) continue; // another replica works on it
        const claimed = await this.repo.claim(job.id, this.owner, now(), this.leaseFrom(now()));
        if (!claimed) continue;
        const r = await this.work(claimed, now);
        announced += r.announced;
        if (!r.done) continue;
      }
      await this.signals.ack(p.specId, p.version);
    }
    return announced;
  }

  /** Pages through the job's states from its last recorded key; done when the last page was read and recorded. */
  private leaseFrom(now: Date): Date {
    return new Date(now.getTime() + this.opts.leaseMs);
  }

  private async work(job: RenewalJob, now: () => Date): Promise<{ announced: number; done: boolean }> {
    let after = job.lastKey;
    let announced = 0;
    for (;;) {
      if (this.looks.stopped) return { announced, done: false };
      const page = await this.repo.page(job.accountId, job.targets, job.version, after, this.pageSize);
      let failed = 0;
      let firstError: unknown;
      await Promise.all(
        page.states.map(async (s) => {
          await this.pace();
          const m = renewalBusEvent(s, job.version, job.createdAt);
          try {
            await publishBusEvent(this.js, eventSubject(this.opts.prefix, RENEWAL_EVENT, m.accountId, m.appId), m, {
              timeout: this.opts.publishTimeoutMs,
              encoding: this.opts.encoding,
            });
          } catch (err) {
            failed++;
            firstError ??= err;
          }
        }),
      );
      if (failed) {
        // progress stays at the previous page: this replica or another continues there after the lease
        this.opts.logger.warn(
          { count: failed, err: (firstError as Error)?.message, job: job.id, retryInMs: this.opts.leaseMs },
          'renewal: publish failed; will retry',
        );
        return { announced, done: false };
      }
      announced += page.states.length;
      if (page.lastKey !== undefined) {
        if (!(await this.repo.advance(job.id, this.owner, page.lastKey, page.states.length, this.leaseFrom(now())))) return { announced, done: false };
        after = page.lastKey;
      }
      if (!page.full) return { announced, done: await this.repo.finish(job.id, this.owner) };
    }
  }
}
