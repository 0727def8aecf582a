import type { OutboxStats } from '../metrics';
import type { Models } from './models';

/** The outbox metrics read from the consent_outbox collection. */
export function mongoOutboxStats(models: Pick<Models, 'outbox'>): OutboxStats {
  return {
    async pending() {
      const col = models.outbox.collection;
      const [count, oldest] = await Promise.all([
        col.countDocuments({}),
        col
          .find({}, { projection: { createdAt: 1 } })
          .sort({ createdAt: 1 })
          .limit(1)
          .next() as Promise<{ createdAt?: Date } | null>,
      ]);
      return { count, oldestStoredAt: oldest?.createdAt ?? null };
    },
  };
}
