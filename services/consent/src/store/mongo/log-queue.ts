import type { LogPendingEvent, LogQueueStore } from '../../app/ports';
import { fromDoc, settledOnly } from './docs';
import type { EventDoc, Models } from './models';

/**
 * The consent log's queue (docs/consent-log.md): events waiting for their leaf are marked on
 * their own documents (`logq`: the account id) by the insert; the sequencer reads them.
 */
export function mongoLogQueueStore(m: Models): LogQueueStore {
  return {
    /** One `distinct` over the sparse `log_pending` index. */
    async accounts() {
      return m.events.distinct<'logq', string>('logq').exec();
    },
    /**
     * An erased event carries the leaf hash of its answered form (`logh`, set with the redaction):
     * the leaf is never computed from a redacted document.
     */
    async pending(accountId, limit, after) {
      const docs = await m.events
        .find(after === undefined ? { logq: accountId } : { logq: accountId, _id: { $gt: after } })
        .sort({ _id: 1 })
        .limit(limit)
        .lean<EventDoc[]>()
        .exec();
      const events: LogPendingEvent[] = (await settledOnly(m, docs)).map((d) =>
        d.logh ? Object.assign(fromDoc(d), { leafHash: Buffer.from(d.logh, 'base64') }) : fromDoc(d),
      );
      return { events, ...(docs.length ? { last: docs.at(-1)!._id } : {}), full: docs.length === limit };
    },
    async markLogged(ids) {
      // sequenced, so its request is known to be stored whole: `part` goes too
      if (ids.length) await m.events.updateMany({ _id: { $in: ids } }, { $unset: { logq: '', part: '' } }).exec();
    },
    async isPending(accountId, id) {
      const doc = await m.events.findById(id, { logq: 1 }).lean<Pick<EventDoc, 'logq'>>().exec();
      return doc?.logq === accountId;
    },
  };
}
