import { isDuplicateKey, mapLimit } from '@accord/common';
import type { ExportFilter } from '../../app/ports';
import { copyOptionalFields, withSignals, type ConsentEvent, type Signals } from '../../domain/consent';
import { driverCollection, type CurrentDoc, type CurrentEvent, type EventDoc, type Models } from './models';

/** What the MongoDB adapter's parts share: the mapping between events and documents, and a few reads. */

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
  copyOptionalFields(doc, ev);
  return withSignals(doc, ev);
}

/** An export's id bounds as a condition on `_id` (ExportFilter: `after` and `before` exclusive, `from` inclusive); undefined without bounds. */
export function idBounds(q: Pick<ExportFilter, 'after' | 'from' | 'before'>): Record<string, string> | undefined {
  const id: Record<string, string> = {};
  if (q.after !== undefined) id.$gt = q.after;
  if (q.from !== undefined) id.$gte = q.from;
  if (q.before !== undefined) id.$lt = q.before;
  return Object.keys(id).length ? id : undefined;
}

/** The signals a document (an event, or a current state's copy) holds, absent ones absent. */
export function signalsOf(d: { [K in keyof Signals]?: Signals[K] | null }): Signals {
  const out: Signals = {};
  if (d.gpc != null) out.gpc = d.gpc;
  if (d.tcString != null && d.tcf != null) {
    const t = d.tcf;
    out.tcString = d.tcString;
    out.tcf = {
      version: t.version,
      policyVersion: t.policyVersion,
      cmpId: t.cmpId,
      cmpVersion: t.cmpVersion,
      purposes: [...t.purposes],
      legitimateInterests: [...t.legitimateInterests],
      specialFeatures: [...t.specialFeatures],
    };
  }
  if (d.gppString != null && d.gpp != null) {
    const g = d.gpp;
    out.gppString = d.gppString;
    out.gpp = { sections: [...g.sections] };
    if (g.saleOptOut != null) out.gpp.saleOptOut = g.saleOptOut;
    if (g.sharingOptOut != null) out.gpp.sharingOptOut = g.sharingOptOut;
    if (g.targetedAdvertisingOptOut != null) out.gpp.targetedAdvertisingOptOut = g.targetedAdvertisingOptOut;
  }
  if (d.jurisdiction != null) out.jurisdiction = d.jurisdiction;
  if (d.addtlConsent != null) out.addtlConsent = d.addtlConsent;
  return out;
}

/** The lifecycle fields an event or its current copy may hold (absent on events that have none). */
function lifecycleOf(d: { targetVersion?: number | null; expiresAt?: Date | null }): Pick<ConsentEvent, 'targetVersion' | 'expiresAt'> {
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
  if (doc.importedAt != null) ev.importedAt = new Date(doc.importedAt);
  return Object.assign(ev, lifecycleOf(doc), signalsOf(doc));
}

/**
 * The newest event of a state, as its current document keeps it (`id` first: see CurrentDoc),
 * and its place in the expiry queue: `xq`, due when the event lapses (a claim pushes it forward,
 * an announcement moves it past any time), so a move keeps it.
 */
export function currentEvent(ev: ConsentEvent, xq: Date | undefined = ev.expiresAt): CurrentEvent {
  const cur: CurrentEvent = { id: ev.id, appId: ev.appId, action: ev.action, token: ev.token, createdAt: ev.createdAt };
  if (ev.source !== undefined) cur.source = ev.source;
  if (ev.delegate !== undefined) cur.delegate = ev.delegate;
  Object.assign(cur, lifecycleOf(ev), signalsOf(ev));
  if (ev.importedAt !== undefined) cur.importedAt = ev.importedAt;
  // the expiry queue, last (see CurrentEvent.xq)
  if (xq !== undefined) cur.xq = xq;
  return cur;
}

/** The newest event a current document holds: `cur`, or Accord 0.1's flat fields, whichever is newer. */
export function newestOf(d: CurrentDoc): (Partial<CurrentEvent> & { id: string; appId: string }) | undefined {
  const flat = d.eventId
    ? { id: d.eventId, appId: d.appId ?? '', action: d.action ?? null, token: d.token, createdAt: d.createdAt, source: d.source, delegate: d.delegate }
    : undefined;
  if (d.cur && (!flat || d.cur.id > flat.id)) return d.cur;
  return flat;
}

/**
 * The events current documents hold, in the documents' order (one per document; none for a
 * document whose event cannot be read). Accord 0.1's documents without the copy are read from
 * consent_events.
 */
export async function eventsOfCurrent(m: Models, docs: CurrentDoc[]): Promise<Array<ConsentEvent | undefined>> {
  const out: Array<ConsentEvent | undefined> = [];
  const missing: Array<[number, string]> = [];
  docs.forEach((d, i) => {
    const e = newestOf(d);
    // the state's identity from the document, the rest from its copy of the newest event
    if (e && e.token !== undefined && e.createdAt !== undefined)
      out[i] = fromDoc(
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
      );
    else if (e) missing.push([i, e.id]);
  });
  await mapLimit(missing, 8, async ([i, id]) => {
    const doc = await m.events.findById(id).lean<EventDoc>().exec();
    if (doc && doc.accountId === docs[i]!.accountId) out[i] = fromDoc(doc);
  });
  out.length = docs.length;
  return out;
}

/**
 * The events of requests stored whole, in their order: an event naming its request's last event
 * (`part`) is dropped unless that event is among the documents or stored (one lookup by `_id`,
 * only when any is in doubt).
 */
export async function settledOnly<D extends Pick<EventDoc, '_id' | 'part'>>(m: Models, docs: D[]): Promise<D[]> {
  const doubt = await unsettled(m, docs);
  return doubt.size ? docs.filter((d) => !d.part || !doubt.has(d.part)) : docs;
}

/** The last events named by these documents (`part`) that are neither among them nor stored. */
export async function unsettled(m: Models, docs: Array<Pick<EventDoc, '_id' | 'part'>>): Promise<Set<string>> {
  const have = new Set(docs.map((d) => d._id));
  const ask = [...new Set(docs.flatMap((d) => (d.part && !have.has(d.part) ? [d.part] : [])))];
  if (!ask.length) return new Set();
  const stored = await driverCollection(m.events)
    .find({ _id: { $in: ask }, gone: { $exists: false } }, { projection: { _id: 1 } })
    .toArray();
  const found = new Set(stored.map((d) => d._id));
  return new Set(ask.filter((id) => !found.has(id)));
}

/**
 * bulkWrite of upserts by _id (unordered). Two replicas creating the same document at once
 * may see E11000 on the upsert that lost (MongoDB retries most such upserts itself); an op
 * that failed so was not applied, so it is sent again.
 */
export async function bulkUpserts<O>(send: (ops: O[]) => Promise<unknown>, ops: O[]): Promise<void> {
  let pending = ops;
  for (let attempt = 0; pending.length; attempt++) {
    try {
      await send(pending);
      return;
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as Array<{ index: number; code: number }>;
      if (attempt >= 3 || !list.length || list.some((w) => !isDuplicateKey(w))) throw err;
      pending = list.map((w) => pending[w.index]!);
    }
  }
}

/** A Buffer from what the driver gives for binary data (a Buffer, or BSON Binary). */
export const asBuffer = (b: unknown): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from((b as { buffer: Uint8Array }).buffer));
