import type { FilterQuery, mongo } from 'mongoose';
import { bulkWriteFailures, isDuplicateKey } from '@accord/common';
import type { EventStore, ExportFilter } from '../../app/ports';
import { stateKey, type ConsentEvent } from '../../domain/consent';
import { fromDoc, idBounds, settledOnly, toDoc } from './docs';
import { driverCollection, type EventDoc, type Models, type TombstoneDoc } from './models';

/** The filter of an export (and of its count): served by `export`, `app_latest` or `search`. */
function exportFilter(q: ExportFilter): FilterQuery<EventDoc> & mongo.Filter<EventDoc> {
  const filter: FilterQuery<EventDoc> & mongo.Filter<EventDoc> = { accountId: q.accountId };
  if (q.subject !== undefined) filter.subject = q.subject;
  if (q.appId !== undefined) filter.appId = q.appId;
  if (q.target !== undefined) filter.target = q.target;
  const id = idBounds(q);
  if (id) filter._id = id;
  return filter;
}

/** consent_events (see EventStore). */
export function mongoEventStore(m: Models): EventStore {
  const events = driverCollection(m.events);
  /**
   * Up to `limit` events of requests stored whole, in id order from the filter's start: one read,
   * and more only when a full page held events of requests not stored whole (dropped). Through
   * the driver, as every read a request waits for (see driverCollection).
   */
  const page = async (filter: mongo.Filter<EventDoc>, sort: 1 | -1, limit: number, projection?: Record<string, 0>) => {
    const out: EventDoc[] = [];
    let bound: string | undefined;
    for (;;) {
      const want = limit - out.length;
      const f: mongo.Filter<EventDoc> = bound === undefined ? filter : { $and: [filter, { _id: sort === 1 ? { $gt: bound } : { $lt: bound } }] };
      const docs = await events
        .find(f, projection ? { projection } : {})
        .sort({ _id: sort })
        .limit(want)
        .toArray();
      out.push(...(await settledOnly(m, docs)));
      if (docs.length < want || out.length >= limit) return out;
      bound = docs.at(-1)!._id;
    }
  };
  return {
    /**
     * One ordered insertMany; `logq` marks each event for the log in the same document, so no
     * stored event can miss the log, `pub` makes it its own outbox record, `part` names the
     * request's last event. Through the driver: mongoose's insertMany, even `lean`, passes every
     * document through an asynchronous step of its own before sending (see driverCollection).
     */
    async insert(requests, pubAt) {
      const docs: EventDoc[] = [];
      for (const req of requests) {
        const last = req.at(-1)!.id;
        for (const ev of req) {
          const doc: EventDoc = { ...toDoc(ev), pub: pubAt, logq: ev.accountId };
          if (ev.id !== last) doc.part = last;
          docs.push(doc);
        }
      }
      await events.insertMany(docs, { ordered: true });
    },

    async fence(ids) {
      const out = new Map<string, 'stored' | 'fenced'>();
      if (!ids.length) return out;
      const gone = new Date();
      let failed = new Map<number, unknown>();
      try {
        await m.events.insertMany(
          ids.map((_id): TombstoneDoc => ({ _id, gone })),
          { ordered: false, lean: true },
        );
      } catch (err) {
        const perDoc = bulkWriteFailures(err);
        if (!perDoc) throw err;
        failed = perDoc;
      }
      const taken: string[] = [];
      ids.forEach((id, i) => {
        if (!failed.has(i)) out.set(id, 'fenced');
        else if (isDuplicateKey(failed.get(i))) taken.push(id);
      });
      if (taken.length) {
        // the id was taken: by the event, or by an earlier tombstone
        const docs = await m.events
          .find({ _id: { $in: taken } }, { gone: 1 })
          .lean<Array<{ _id: string; gone?: Date }>>()
          .exec();
        for (const d of docs) out.set(d._id, d.gone ? 'fenced' : 'stored');
      }
      return out;
    },

    async withdraw(ids) {
      if (ids.length) await m.events.deleteMany({ _id: { $in: ids }, gone: { $exists: false } }).exec();
    },

    async findById(accountId, id) {
      // By _id alone (the account checked here): one primary-key lookup on every server.
      const doc = await events.findOne({ _id: id });
      if (!doc || doc.accountId !== accountId) return undefined;
      const [kept] = await settledOnly(m, [doc]);
      return kept && fromDoc(kept);
    },

    async findByToken(accountId, token, limit) {
      return (await page({ token, accountId }, -1, limit)).map((d) => fromDoc(d));
    },

    async history(q) {
      // Served by the `search` / `search_scope` indexes.
      const filter: mongo.Filter<EventDoc> = { subject: q.subject, target: q.target, issuer: q.issuer, accountId: q.accountId };
      if (q.scope !== undefined) filter.scope = q.scope;
      if (q.source !== undefined) filter.source = q.source;
      if (q.gpc !== undefined) filter.gpc = q.gpc;
      if (q.jurisdiction !== undefined) filter.jurisdiction = q.jurisdiction;
      if (q.before) filter._id = { $lt: q.before };
      return (await page(filter, -1, q.limit)).map((d) => fromDoc(d));
    },

    /**
     * One aggregation: the states' events below the bound, newest first, grouped by state (the
     * first of each group is its newest). An `$or` of the states' exact keys, so each branch is a
     * seek on `search_scope` on MongoDB; a newest event of a request not stored whole is left out
     * with its state (a request is settled within the publish lease, long before a past `at` is
     * asked about).
     */
    async newestBefore(accountId, refs, before) {
      const out = new Map<string, ConsentEvent>();
      if (!refs.length) return out;
      const or = refs.map((r) => ({ accountId, subject: r.subject, issuer: r.issuer, target: r.target, scope: r.scope }));
      const rows = await events
        .aggregate<{ doc: EventDoc }>([
          { $match: { $and: [or.length === 1 ? or[0]! : { $or: or }, { _id: { $lt: before } }] } },
          { $sort: { _id: -1 } },
          { $group: { _id: { s: '$subject', i: '$issuer', t: '$target', c: '$scope' }, doc: { $first: '$$ROOT' } } },
        ])
        .toArray();
      for (const d of await settledOnly(
        m,
        rows.map((r) => r.doc),
      ))
        out.set(stateKey(accountId, d.subject, d.issuer, d.target, d.scope), fromDoc(d));
      return out;
    },

    async exportPage(q) {
      // served by the `export` index, or `app_latest` with an application, or `search` with a subject; target is filtered in the scan
      return (await page(exportFilter(q), 1, q.limit, { pub: 0, claim: 0 })).map((d) => fromDoc(d));
    },

    async count(q, maxTimeMs) {
      try {
        return await m.events.countDocuments(exportFilter(q)).maxTimeMS(maxTimeMs).exec();
      } catch (err) {
        if ((err as { code?: unknown }).code === 50 /* MaxTimeMSExpired */) return undefined;
        throw err;
      }
    },

    async *actions(accountId, appId, from, to, limit) {
      // the (accountId, appId, _id) index, reading only _id, action and the request mark
      const docs = m.events
        .find({ accountId, appId, _id: { $gte: from, $lt: to } }, { _id: 1, action: 1, part: 1 })
        .sort({ _id: 1 })
        .limit(limit)
        .lean<Array<Pick<EventDoc, '_id' | 'action' | 'part'>>>()
        .cursor({ batchSize: 1000 });
      let chunk: Array<Pick<EventDoc, '_id' | 'action' | 'part'>> = [];
      const flush = async function* () {
        for (const d of await settledOnly(m, chunk)) yield { id: d._id, action: d.action ?? null };
        chunk = [];
      };
      for await (const d of docs) {
        chunk.push(d);
        if (chunk.length >= 1000) yield* flush();
      }
      yield* flush();
    },
  };
}
