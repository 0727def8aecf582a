import type { ConsentEvent } from '../domain/consent';
import { fromDoc } from './event-docs';
import type { EventDoc, Models } from './models';

/** An event waiting for its log leaf; `leafHash` when an erasure fixed it before redacting the event. */
export type LogPendingEvent = ConsentEvent & { leafHash?: Buffer };

/**
 * The consent log's queue (docs/consent-log.md): events waiting for their leaf are marked on
 * their own documents (`logq`) by the write; the sequencer (events/log-sequencer.ts) reads them.
 */
export class LogQueueRepository {
  constructor(private readonly m: Models) {}

  /** Accounts with events waiting for their log leaf (at most `limit`). */
  async logPendingAccounts(limit: number): Promise<string[]> {
    const ids = (await this.m.events.collection.distinct('logq')) as string[];
    return ids.slice(0, limit);
  }

  /**
   * An account's events waiting for their log leaf, oldest first. An event erased while waiting
   * carries the leaf hash of its answered form (`logh`, set with the redaction): the leaf is never
   * computed from a redacted document.
   */
  async logPending(accountId: string, limit: number): Promise<LogPendingEvent[]> {
    const docs = (await this.m.events.collection
      .find({ logq: accountId } as never)
      .sort({ _id: 1 })
      .limit(limit)
      .toArray()) as unknown as EventDoc[];
    return docs.map((d) => (d.logh ? Object.assign(fromDoc(d), { leafHash: Buffer.from(d.logh, 'base64') }) : fromDoc(d)));
  }

  /** Sequenced: the events leave the log's queue. One command for any number of events. */
  async markLogged(ids: string[]): Promise<void> {
    if (ids.length) await this.m.events.collection.updateMany({ _id: { $in: ids } } as never, { $unset: { logq: '' } } as never);
  }

  /** Whether the account's event is stored and waiting for its log leaf. */
  async isLogPending(accountId: string, id: string): Promise<boolean> {
    const doc = (await this.m.events.collection.findOne({ _id: id } as never, { projection: { logq: 1 } })) as { logq?: string } | null;
    return doc?.logq === accountId;
  }
}
