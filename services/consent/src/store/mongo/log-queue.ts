import type { LogPendingEvent, LogQueueStore } from '../../app/ports';
import { fromDoc, settledOnly } from './docs';
import { driverCollection, type EventDoc, type Models } from './models';

/**
 * The consent log's queue (docs/consent-log.md): events waiting for their leaf are marked on
 * their own documents (`logq`: the account id) by the insert; the sequencer reads them, every
 * pass, through the driver (see driverCollection).
 */
export function mongoLogQueueStore(m: Models): LogQueueStore {
  const queue = driverCollection(m.events);
  return {
    /** One `distinct` over the sparse `log_pending` index. */
    async accounts() {
      return (await queue.distinct('logq')).filter((a): a is string => typeof a === 'string');
    },
    /**
     * An erased event carries the leaf hash of its answered form (`logh`, set with the redaction):
     * the leaf is never computed from a redacted document.
     */
    async pending(accountId, limit, after) {
      const docs = await queue
        .find(after === undefined ? { logq: accountId } : { logq: accountId, _id: { $gt: after } })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      const ready: LogPendingEvent[] = (await settledOnly(m, docs)).map((d) =>
        d.logh ? Object.assign(fromDoc(d), { leafHash: Buffer.from(d.logh, 'base64') }) : fromDoc(d),
      );
      return { events: ready, ...(docs.length ? { last: docs.at(-1)!._id } : {}), full: docs.length === limit };
    },
    async markLogged(ids, published = []) {
      // sequenced, so its request is known to be stored whole: `part` goes too; the published
      // lose their outbox marks in the same command (one document update each, not two)
      if (!ids.length) return;
      const both = new Set(published);
      const logOnly = both.size ? ids.filter((id) => !both.has(id)) : ids;
      const logged = { logq: '', part: '' } as const;
      if (!both.size) await queue.updateMany({ _id: { $in: logOnly } }, { $unset: logged });
      else
        await queue.bulkWrite(
          [
            { updateMany: { filter: { _id: { $in: [...both] } }, update: { $unset: { ...logged, pub: '', claim: '' } } } },
            ...(logOnly.length ? [{ updateMany: { filter: { _id: { $in: logOnly } }, update: { $unset: logged } } }] : []),
          ],
          { ordered: false },
        );
    },
    async isPending(accountId, id) {
      const doc = await m.events.findById(id, { logq: 1 }).lean<Pick<EventDoc, 'logq'>>().exec();
      return doc?.logq === accountId;
    },
  };
}
