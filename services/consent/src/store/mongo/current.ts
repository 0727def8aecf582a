import type { AnyBulkWriteOperation, mongo } from 'mongoose';
import { newestPerState, type ConsentEvent } from '../../domain/consent';
import { decidedEvent, withAskedStrings, type DecidedEvent, type DecisionStrings } from '../../domain/decision';
import type { CurrentStateStore } from '../../app/ports';
import { bulkUpserts, currentEvent, eventsOfCurrent } from './docs';
import { driverCollection, type CurrentDoc, type Models } from './models';

/** The `$max` upsert that makes `ev` the current event of the state `_id` unless a newer one is (see CurrentDoc). */
export function currentUpsert(_id: string, ev: ConsentEvent, xq?: Date): AnyBulkWriteOperation<CurrentDoc> & mongo.AnyBulkWriteOperation<CurrentDoc> {
  return {
    updateOne: {
      filter: { _id },
      update: {
        $max: { cur: currentEvent(ev, xq === undefined ? ev.expiresAt : xq) },
        $setOnInsert: { accountId: ev.accountId, subject: ev.subject, issuer: ev.issuer, target: ev.target, scope: ev.scope },
      },
      upsert: true,
    },
  };
}

/**
 * What a decision reads of a current document (DecidedEvent), and what tells a copy from Accord
 * 0.1's flat form: a batch of 1,000 decodes a fifth of the fields of the whole documents (no
 * subject, issuer, target, scope, token, TCF or GPP strings), which was the largest part of the
 * consent service's CPU per decision.
 */
const DECISION_FIELDS = {
  accountId: 1,
  eventId: 1,
  'cur.id': 1,
  'cur.action': 1,
  'cur.targetVersion': 1,
  'cur.expiresAt': 1,
  'cur.gpc': 1,
  'cur.jurisdiction': 1,
} as const;
/** DECISION_FIELDS and the TC string, for calls that ask TCF vendors (read only then: strings are long). */
const DECISION_FIELDS_TCF = { ...DECISION_FIELDS, 'cur.tcString': 1 } as const;
/** The projection of a decisions call: the AC string too when it asks Google ATPs. */
const decisionFields = (opts: DecisionStrings | undefined) => {
  const fields = opts?.tcString ? DECISION_FIELDS_TCF : DECISION_FIELDS;
  return opts?.addtlConsent ? { ...fields, 'cur.addtlConsent': 1 } : fields;
};

/** The current documents of one subject and issuer for these targets (at most `limit`). */
export function currentDocs(m: Models, accountId: string, subject: string, issuer: string, targets: string[], limit: number): Promise<CurrentDoc[]> {
  // served by the `states` index
  const filter: mongo.Filter<CurrentDoc> = { subject, issuer, accountId };
  if (targets.length) filter.target = targets.length === 1 ? targets[0] : { $in: targets };
  return driverCollection(m.current).find(filter).limit(limit).toArray();
}

/**
 * consent_current (see CurrentStateStore): one document per state holding a copy of its newest
 * event, so a current search or GetCurrentStates reads one document per state.
 */
export function mongoCurrentStateStore(m: Models): CurrentStateStore {
  return {
    /**
     * The domain's "newest event wins" (domain/consent.ts, `supersedes`: createdAt, then id) within the
     * batch, then `$max: {cur: <event>}` by _id, upserting: MongoDB applies each atomically and
     * keeps the larger `cur`, which orders by its id (the first field), the same order since every
     * id begins with its event's createdAt (imported events' too), so racing writers of
     * any replica leave the newest event current, in any order of arrival. An upsert by _id that races another's first insert is retried by MongoDB itself
     * (>= 4.2); a duplicate-key error reaching us anyway is retried here.
     *
     * Through the driver's collection, not the model: mongoose's bulkWrite clones and casts every
     * operation, which cost about 14 µs of CPU per operation, some three times the driver's own
     * work (2 ms more per batch of 100 events; measured on the CI database, a micro-benchmark of
     * both calls in alternating rounds), and this runs in front of every 201. The operations are
     * built here from typed events, so the casting adds nothing.
     */
    async apply(events) {
      const newest = newestPerState(events);
      await bulkUpserts(
        (ops) => driverCollection(m.current).bulkWrite(ops, { ordered: false }),
        [...newest.entries()].map(([key, ev]) => currentUpsert(key, ev)),
      );
    },

    /** Through the driver, as every read a request waits for (see driverCollection). */
    async byKeys(accountId, keys) {
      const out = new Map<string, ConsentEvent>();
      if (!keys.length) return out;
      const docs = await driverCollection(m.current)
        .find(keys.length === 1 ? { _id: keys[0]! } : { _id: { $in: keys } })
        .toArray();
      const mine = docs.filter((d) => d.accountId === accountId);
      (await eventsOfCurrent(m, mine)).forEach((ev, i) => ev && out.set(mine[i]!._id, ev));
      return out;
    },

    /** byKeys with DECISION_FIELDS only; a state still in Accord 0.1's flat form is read whole (byKeys). */
    async forDecisions(accountId, keys, opts) {
      const out = new Map<string, DecidedEvent>();
      if (!keys.length) return out;
      const docs = await driverCollection(m.current)
        .find(keys.length === 1 ? { _id: keys[0]! } : { _id: { $in: keys } }, { projection: decisionFields(opts) })
        .toArray();
      const flat: string[] = [];
      for (const d of docs) {
        if (d.accountId !== accountId) continue;
        if (d.cur && (!d.eventId || d.cur.id > d.eventId)) out.set(d._id, decidedEvent(d.cur));
        else flat.push(d._id);
      }
      if (flat.length) for (const [k, e] of await this.byKeys(accountId, flat)) out.set(k, withAskedStrings(decidedEvent(e), opts));
      return out;
    },

    async ofSubject(accountId, subject, issuer, targets, limit) {
      return (await eventsOfCurrent(m, await currentDocs(m, accountId, subject, issuer, targets, limit))).filter((e): e is ConsentEvent => !!e);
    },
  };
}
