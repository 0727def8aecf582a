import { randomBytes } from 'node:crypto';
import { hashKey, stateKey } from '../domain/consent';
import { pseudonym, redaction } from '../domain/erasure';
import { eventLeafHash } from '../domain/log';
import { bulkUpserts, fromDoc, newestOf } from './event-docs';
import type { CurrentDoc, ErasureDoc, EventDoc, Models } from './models';

/** Documents one erasure step reads and rewrites per round trip. */
const ERASE_BATCH = 1000;

export interface ErasureResult {
  subjectHash: string;
  events: number;
  states: number;
}

/** Erasure of a subject (docs/consent.md, Erasure) and the account's erasure records. */
export class ErasureRepository {
  constructor(private readonly m: Models) {}

  /**
   * Replaces the subject (and the sources and delegates of its events) by keyed hashes in every
   * event of the account (of `issuer` only, when given), moves its current states to the
   * pseudonymous subject, and moves its distinct-subject markers, keeping every count. Batched:
   * each step reads and rewrites up to ERASE_BATCH documents per round trip (one find, one
   * bulkWrite), never one round trip per event.
   *
   * Each event is rewritten by one atomic update conditional on its subject still being the one
   * read, so concurrent erasures never double-hash. An event still waiting for its log leaf gets
   * the leaf hash of its answered form (`logh`) in that same update, so whichever the sequencer
   * reads, the original or the redacted document, its leaf is the answered event's.
   *
   * Events of the subject written while the erasure runs are new data: those stored before its
   * last find are erased, later ones are not (erase again to erase them).
   */
  async eraseSubject(accountId: string, subject: string, issuer: string | undefined, key: Buffer, at: Date): Promise<ErasureResult> {
    const subjectHash = pseudonym(key, subject);
    const apps = new Set<string>();
    const events = await this.eraseEvents(accountId, subject, issuer, key, at, apps);
    const states = await this.moveCurrentStates(accountId, subject, issuer, key);
    await this.moveSubjectMarkers(accountId, subject, subjectHash, [...apps]);
    return { subjectHash, events, states };
  }

  /**
   * Rewrites the subject's events batch by batch until none is left in clear. No sort and no
   * cursor: a rewritten event no longer matches, so each find (served by the `search` index's
   * `accountId, subject` prefix) returns the next ones, including events a concurrent write stored
   * meanwhile.
   */
  private async eraseEvents(accountId: string, subject: string, issuer: string | undefined, key: Buffer, at: Date, apps: Set<string>): Promise<number> {
    let done = 0;
    let stalled = 0;
    for (;;) {
      const filter: Record<string, unknown> = { subject, accountId };
      if (issuer !== undefined) filter.issuer = issuer;
      const docs = (await this.m.events.collection
        .find(filter as never, { projection: { pub: 0, claim: 0 } })
        .limit(ERASE_BATCH)
        .toArray()) as unknown as EventDoc[];
      if (!docs.length) return done;
      const ops = docs.map((d) => {
        apps.add(d.appId);
        const set: Record<string, unknown> = { ...redaction(key, d), erasedAt: at };
        // the leaf of an event not yet sequenced: from the event as answered, before redaction
        if (d.logq) set.logh = eventLeafHash(fromDoc(d)).toString('base64');
        return { updateOne: { filter: { _id: d._id, subject: d.subject }, update: { $set: set } } };
      });
      const res = await this.m.events.collection.bulkWrite(ops as never[], { ordered: false });
      done += res.modifiedCount;
      // a concurrent erasure may have taken a batch; events that match and never change are a fault
      stalled = res.modifiedCount ? 0 : stalled + 1;
      if (stalled >= 3) throw new Error('consent erasure: events of the subject could not be rewritten');
    }
  }

  /**
   * Current states of the subject whose current event is erased move to the state of the
   * pseudonymous subject (their `_id` is an unkeyed hash of the subject, so it cannot stay):
   * `$max` upsert of the new one, then removal of the old one only if its current event is still
   * the one moved (a concurrent write of new data keeps its state). States whose current event
   * is not erased (new data written meanwhile) stay.
   */
  private async moveCurrentStates(accountId: string, subject: string, issuer: string | undefined, key: Buffer): Promise<number> {
    let moved = 0;
    // states whose current event is new data (not erased): they stay, and are not read again
    const kept: string[] = [];
    for (;;) {
      const filter: Record<string, unknown> = { subject };
      if (issuer !== undefined) filter.issuer = issuer;
      filter.accountId = accountId;
      if (kept.length) filter._id = { $nin: kept };
      const docs = (await this.m.current.collection
        .find(filter as never)
        .limit(ERASE_BATCH)
        .toArray()) as unknown as CurrentDoc[];
      if (!docs.length) return moved;
      const newest = docs.map((d) => newestOf(d));
      const ids = newest.filter((e) => !!e).map((e) => e.id);
      const erased = new Set(
        (
          (await this.m.events.collection
            .find({ _id: { $in: ids }, erasedAt: { $exists: true } } as never, { projection: { _id: 1 } })
            .toArray()) as unknown as Array<{ _id: string }>
        ).map((e) => e._id),
      );
      const ops: object[] = [];
      docs.forEach((d, i) => {
        const e = newest[i];
        if (!e || !erased.has(e.id)) {
          kept.push(d._id);
          return;
        }
        const r = redaction(key, { subject: d.subject, source: e.source ?? null, delegate: e.delegate ?? null });
        const cur: Record<string, unknown> = { ...e };
        for (const f of Object.keys(cur)) if (cur[f] === undefined) delete cur[f];
        if (r.source) cur.source = r.source;
        if (r.delegate) cur.delegate = r.delegate;
        ops.push({
          updateOne: {
            filter: { _id: stateKey(accountId, r.subject, d.issuer, d.target, d.scope) },
            update: { $max: { cur }, $setOnInsert: { accountId, subject: r.subject, issuer: d.issuer, target: d.target, scope: d.scope } },
            upsert: true,
          },
        });
        // only while its current event is still the one moved: a concurrent write of new data keeps the state
        ops.push({ deleteOne: { filter: d.cur ? { _id: d._id, 'cur.id': e.id } : { _id: d._id, eventId: e.id } } });
        moved++;
      });
      if (ops.length) await bulkUpserts(this.m.current.collection, ops);
    }
  }

  /**
   * Distinct subjects stay counted once: per application whose events were erased and that has no
   * event of the subject in clear left (an erasure narrowed by issuer may leave some), the
   * marker of the subject moves to the pseudonym (one bulkWrite).
   */
  private async moveSubjectMarkers(accountId: string, subject: string, subjectHash: string, apps: string[]): Promise<void> {
    const ops: object[] = [];
    for (const appId of apps) {
      if (await this.m.events.collection.findOne({ subject, accountId, appId } as never, { projection: { _id: 1 } })) continue;
      ops.push({ deleteOne: { filter: { _id: `subject:${hashKey([accountId, appId, subject])}` } } });
      ops.push({
        updateOne: {
          filter: { _id: `subject:${hashKey([accountId, appId, subjectHash])}` },
          update: { $setOnInsert: { kind: 'subject', accountId, appId } },
          upsert: true,
        },
      });
    }
    if (ops.length) await bulkUpserts(this.m.stats.collection, ops);
  }

  /** Records an erasure (never the subject in clear). */
  async recordErasure(rec: Omit<ErasureDoc, '_id'>): Promise<ErasureDoc> {
    const doc: ErasureDoc = { _id: `${rec.erasedAt.getTime().toString(16).padStart(12, '0')}${randomBytes(10).toString('hex')}`, ...rec };
    if (doc.issuer === undefined) delete doc.issuer;
    await this.m.erasures.collection.insertOne(doc as never);
    return doc;
  }

  /** The account's erasure records, newest first, after `cursor` (the id of the last one received). */
  async erasures(accountId: string, limit: number, cursor?: string): Promise<ErasureDoc[]> {
    const filter: Record<string, unknown> = { accountId };
    if (cursor) filter._id = { $lt: cursor };
    return (await this.m.erasures.collection
      .find(filter as never)
      .sort({ _id: -1 })
      .limit(limit)
      .toArray()) as unknown as ErasureDoc[];
  }
}
