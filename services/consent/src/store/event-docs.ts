import { isDuplicateKey, mapLimit } from '@accord/common';
import type { ConsentEvent } from '../domain/consent';
import type { CurrentDoc, CurrentEvent, EventDoc, Models } from './models';

/** What the consent repositories share: mapping between events and documents, and bulk upserts. */

export function toDoc(ev: ConsentEvent): EventDoc {
  const doc: EventDoc = {
    _id: ev.id,
    accountId: ev.accountId,
    appId: ev.appId,
    subject: ev.subject,
    issuer: ev.issuer,
    target: ev.target,
    scope: ev.scope,
    action: ev.action,
    token: ev.token,
    createdAt: ev.createdAt,
  };
  if (ev.source !== undefined) doc.source = ev.source;
  if (ev.delegate !== undefined) doc.delegate = ev.delegate;
  if (ev.targetVersion !== undefined) doc.targetVersion = ev.targetVersion;
  if (ev.expiresAt !== undefined) doc.expiresAt = ev.expiresAt;
  return doc;
}

/** The lifecycle fields an event or its current copy may hold (absent on events that have none). */
export function lifecycleOf(d: { targetVersion?: number | null; expiresAt?: Date | null }): Pick<ConsentEvent, 'targetVersion' | 'expiresAt'> {
  const out: Pick<ConsentEvent, 'targetVersion' | 'expiresAt'> = {};
  if (d.targetVersion != null) out.targetVersion = d.targetVersion;
  if (d.expiresAt != null) out.expiresAt = new Date(d.expiresAt);
  return out;
}

export function fromDoc(doc: Omit<EventDoc, 'accountId'> & { accountId?: string }, accountId?: string): ConsentEvent {
  const ev: ConsentEvent = {
    id: doc._id,
    accountId: doc.accountId ?? accountId ?? '',
    appId: doc.appId,
    subject: doc.subject,
    issuer: doc.issuer,
    target: doc.target,
    scope: doc.scope,
    action: doc.action ?? null,
    token: doc.token,
    createdAt: new Date(doc.createdAt),
  };
  if (doc.source != null) ev.source = doc.source;
  if (doc.delegate != null) ev.delegate = doc.delegate;
  if (doc.erasedAt != null) ev.erasedAt = new Date(doc.erasedAt);
  return Object.assign(ev, lifecycleOf(doc));
}

/** The newest event a current document holds: `cur`, or Accord 0.1's flat fields, whichever is newer. */
export function newestOf(d: CurrentDoc): (Partial<CurrentEvent> & { id: string; appId: string }) | undefined {
  const flat = d.eventId
    ? { id: d.eventId, appId: d.appId ?? '', action: d.action ?? null, token: d.token, createdAt: d.createdAt, source: d.source, delegate: d.delegate }
    : undefined;
  if (d.cur && (!flat || d.cur.id > flat.id)) return d.cur;
  return flat;
}

/** The newest event of a state, as its current document keeps it (`id` first: see CurrentDoc). */
export function currentEvent(ev: ConsentEvent): CurrentEvent {
  const cur: CurrentEvent = { id: ev.id, appId: ev.appId, action: ev.action, token: ev.token, createdAt: ev.createdAt };
  if (ev.source !== undefined) cur.source = ev.source;
  if (ev.delegate !== undefined) cur.delegate = ev.delegate;
  Object.assign(cur, lifecycleOf(ev));
  // the expiry queue, last (see CurrentEvent.xq): due when the event lapses
  if (ev.expiresAt !== undefined) cur.xq = ev.expiresAt;
  return cur;
}

/** The events that current documents hold (Accord 0.1's documents without the copy: read from consent_events). */
export async function eventsOfCurrent(m: Models, docs: CurrentDoc[]): Promise<ConsentEvent[]> {
  const findById = async (accountId: string, id: string): Promise<ConsentEvent | undefined> => {
    const doc = (await m.events.collection.findOne({ _id: id } as never)) as unknown as EventDoc | null;
    return doc && doc.accountId === accountId ? fromDoc(doc) : undefined;
  };
  const out: ConsentEvent[] = [];
  const missing: string[] = [];
  for (const d of docs) {
    const e = newestOf(d);
    if (!e) continue;
    // the state's identity from the document, the rest from its copy of the newest event
    if (e.token !== undefined && e.createdAt !== undefined)
      out.push(
        fromDoc(
          {
            ...e,
            _id: e.id,
            action: e.action ?? null,
            token: e.token,
            createdAt: e.createdAt,
            subject: d.subject,
            issuer: d.issuer,
            target: d.target,
            scope: d.scope,
          },
          d.accountId,
        ),
      );
    else missing.push(e.id);
  }
  if (missing.length) out.push(...(await mapLimit(missing, 8, (id) => findById(docs[0]!.accountId, id))).filter((e): e is ConsentEvent => !!e));
  return out;
}

/** The current documents of one subject and issuer for these targets (at most `limit`). */
export async function currentDocs(m: Models, accountId: string, subject: string, issuer: string, targets: string[], limit: number): Promise<CurrentDoc[]> {
  // most selective first (see search)
  const filter: Record<string, unknown> = { subject };
  if (targets.length === 1) filter.target = targets[0];
  Object.assign(filter, { issuer, accountId });
  if (targets.length > 1) filter.target = { $in: targets };
  return (await m.current.collection
    .find(filter as never)
    .limit(limit)
    .toArray()) as unknown as CurrentDoc[];
}

/**
 * bulkWrite of upserts by _id (unordered). Two replicas creating the same document at once
 * may see E11000 on the upsert that lost (MongoDB retries most such upserts itself); an op
 * that failed so was not applied, so it is sent again.
 */
export async function bulkUpserts(coll: { bulkWrite(ops: never[], o: object): Promise<unknown> }, ops: object[]): Promise<void> {
  let pending = ops;
  for (let attempt = 0; pending.length; attempt++) {
    try {
      await coll.bulkWrite(pending as never[], { ordered: false });
      return;
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as Array<{ index: number; code: number }>;
      if (attempt >= 3 || !list.length || list.some((w) => !isDuplicateKey(w))) throw err;
      pending = list.map((w) => pending[w.index]!);
    }
  }
}
