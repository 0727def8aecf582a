import { stateKey, type ConsentEvent } from '../domain/consent';
import { bulkUpserts, currentDocs, currentEvent, eventsOfCurrent } from './event-docs';
import type { Models } from './models';

/**
 * The current state of each (account, subject, issuer, target, scope): one document holding a
 * copy of its newest event, so a current search or GetCurrentStates reads one document per state.
 */
export class CurrentStateRepository {
  constructor(private readonly m: Models) {}

  /**
   * Step 2: sets each state the batch touches to its newest event, unless a newer one is
   * current: `$max: {cur: <event>}` by _id, upserting. MongoDB applies each atomically and keeps
   * the larger `cur`, which is the newer event (its fixed-width, time-ordered id is the first
   * field), so racing writers of any replica leave the newest event current, in any order of
   * arrival. Idempotent. An upsert by _id that races another's first insert is retried by
   * MongoDB itself (>= 4.2); a duplicate-key error reaching us anyway is retried here.
   */
  async applyCurrent(events: ConsentEvent[]): Promise<void> {
    const newest = new Map<string, ConsentEvent>();
    for (const ev of events) {
      const key = stateKey(ev.accountId, ev.subject, ev.issuer, ev.target, ev.scope);
      const cur = newest.get(key);
      if (!cur || cur.id < ev.id) newest.set(key, ev);
    }
    await bulkUpserts(
      this.m.current.collection,
      [...newest.entries()].map(([_id, ev]) => ({
        updateOne: {
          filter: { _id },
          update: {
            $max: { cur: currentEvent(ev) },
            $setOnInsert: { accountId: ev.accountId, subject: ev.subject, issuer: ev.issuer, target: ev.target, scope: ev.scope },
          },
          upsert: true,
        },
      })),
    );
  }

  /** The current event of each (target, scope) of one subject and issuer, newest first. */
  async currentStates(accountId: string, subject: string, issuer: string, targets: string[], limit: number): Promise<ConsentEvent[]> {
    const docs = await currentDocs(this.m, accountId, subject, issuer, targets, limit);
    return (await eventsOfCurrent(this.m, docs)).sort((x, y) => (x.id < y.id ? 1 : -1));
  }
}
