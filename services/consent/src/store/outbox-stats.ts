import type { OutboxStats } from '../metrics';
import type { Models } from './models';

/**
 * The outbox metrics read from consent_events, where an event is its own outbox record while
 * it carries `pub` (removed once JetStream acknowledged it). Event ids are time-ordered, so the
 * smallest unpublished id is the oldest.
 */
export function mongoOutboxStats(models: Pick<Models, 'events'>): OutboxStats {
  return {
    async pending() {
      const col = models.events.collection;
      const unpublished = { pub: { $exists: true } } as never;
      const [count, oldest] = await Promise.all([
        col.countDocuments(unpublished),
        col
          .find(unpublished, { projection: { createdAt: 1 } })
          .sort({ _id: 1 })
          .limit(1)
          .next() as Promise<{ createdAt?: Date } | null>,
      ]);
      return { count, oldestStoredAt: oldest?.createdAt ?? null };
    },
  };
}
