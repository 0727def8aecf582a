import { stateKey } from '../domain/consent';
import { erasedImportKey, pseudonym, redaction } from '../domain/erasure';
import { eventLeafHash } from '../domain/log';
import type { ErasureStore, EventRewrite, StateMove } from './ports';

/** Documents one erasure step reads and rewrites per round trip. */
const ERASE_BATCH = 1000;
/** Rounds in a row that change nothing before an erasure gives up (a concurrent erasure may take one batch). */
const MAX_STALLED = 3;

/** One erasure: whose subject, of which issuer (all when undefined), under which account key. */
interface Erasure {
  store: ErasureStore;
  accountId: string;
  subject: string;
  issuer: string | undefined;
  key: Buffer;
}

/**
 * Erases a subject (docs/consent.md, Erasure): replaces the subject (and the sources and
 * delegates of its events) by keyed hashes in every event of the account (of `issuer` only, when
 * given), moves its current states to the pseudonymous subject, and moves its distinct-subject
 * markers, keeping every count. Batched: each step reads and rewrites up to ERASE_BATCH documents
 * per round trip, never one round trip per event. Resolves with the pseudonym and how many
 * events and states changed.
 *
 * Each event is rewritten by one atomic update conditional on its subject still being the one
 * read, so concurrent erasures never double-hash. An event still waiting for its log leaf gets
 * the leaf hash of its answered form in that same update, so whichever the sequencer reads, the
 * original or the redacted event, its leaf is the answered event's.
 *
 * Events of the subject written while the erasure runs are new data: those stored before its
 * last read are erased, later ones are not (erase again to erase them).
 */
export async function eraseSubject(
  store: ErasureStore,
  accountId: string,
  subject: string,
  issuer: string | undefined,
  key: Buffer,
  at: Date,
): Promise<{ subjectHash: string; events: number; states: number }> {
  const job: Erasure = { store, accountId, subject, issuer, key };
  const subjectHash = pseudonym(key, subject);
  const apps = new Set<string>();
  const events = await eraseEvents(job, at, apps);
  const states = await moveCurrentStates(job);
  // distinct subjects stay counted once: per application whose events were erased and that has
  // no event of the subject in clear left (an erasure narrowed by issuer may leave some)
  const moved: string[] = [];
  for (const appId of apps) if (!(await store.hasInClear(accountId, appId, subject))) moved.push(appId);
  if (moved.length) await store.moveSubjectMarkers(accountId, subject, subjectHash, moved);
  return { subjectHash, events, states };
}

/** Rewrites the subject's events batch by batch until none is left in clear (a rewritten event no longer matches). */
async function eraseEvents({ store, accountId, subject, issuer, key }: Erasure, at: Date, apps: Set<string>): Promise<number> {
  let done = 0;
  let stalled = 0;
  for (;;) {
    const events = await store.inClear(accountId, subject, issuer, ERASE_BATCH);
    if (!events.length) return done;
    const rewrites = events.map((e): EventRewrite => {
      apps.add(e.appId);
      const { logPending, importKey, ...event } = e;
      const set: EventRewrite['set'] = { ...redaction(key, event), erasedAt: at };
      // an imported event's key may hold personal data (its externalId, a hash of the subject's line)
      if (importKey) set.importKey = erasedImportKey(key, accountId, importKey);
      // the leaf of an event not yet sequenced: from the event as answered, before redaction
      if (logPending) set.leafHash = eventLeafHash(event);
      return { id: e.id, subject: e.subject, set };
    });
    const changed = await store.rewrite(rewrites);
    done += changed;
    // a concurrent erasure may have taken a batch; events that match and never change are a fault
    stalled = changed ? 0 : stalled + 1;
    if (stalled >= MAX_STALLED) throw new Error('consent erasure: events of the subject could not be rewritten');
  }
}

/**
 * Current states of the subject whose current event is erased move to the state of the
 * pseudonymous subject (their key is an unkeyed hash of the subject, so it cannot stay), keeping
 * their place in the expiry queue; the old state goes only while its current event is still the
 * one moved (a concurrent write of new data keeps it). States whose current event is not erased
 * (new data written meanwhile) stay.
 */
async function moveCurrentStates({ store, accountId, subject, issuer, key }: Erasure): Promise<number> {
  let moved = 0;
  // states whose current event is new data (not erased): they stay, and are not read again
  const kept: string[] = [];
  for (;;) {
    const states = await store.statesOf(accountId, subject, issuer, kept, ERASE_BATCH);
    if (!states.length) return moved;
    const erased = await store.erased(states.flatMap((s) => (s.event ? [s.event.id] : [])));
    const moves: StateMove[] = [];
    for (const s of states) {
      const e = s.event;
      if (!e || !erased.has(e.id)) {
        kept.push(s.key);
        continue;
      }
      const r = redaction(key, { subject: e.subject, source: e.source ?? null, delegate: e.delegate ?? null });
      const event = { ...e, subject: r.subject };
      if (r.source) event.source = r.source;
      if (r.delegate) event.delegate = r.delegate;
      moves.push({
        from: s.key,
        eventId: e.id,
        to: stateKey(accountId, r.subject, e.issuer, e.target, e.scope),
        event,
        ...(s.expiryDue ? { expiryDue: s.expiryDue } : {}),
      });
      moved++;
    }
    if (moves.length) await store.moveStates(moves);
  }
}
