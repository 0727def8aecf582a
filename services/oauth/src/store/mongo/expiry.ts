import { PeriodicTask, type Logger } from '@accord/common';
import type { Collection } from 'mongoose';

/** A model whose documents carry `expiresAt` (what ensureExpiry uses of it). */
export interface Expiring {
  collection: Pick<Collection, 'name' | 'createIndex'>;
  deleteMany(filter: { expiresAt: { $lt: Date } }): { exec(): Promise<{ deletedCount: number }> };
}

/**
 * Documents past their `expiresAt` are deleted. MongoDB does it with a TTL index; a server without
 * TTL indexes (mongo-java-server, the local and CI database) gets a plain index on expiresAt and a
 * periodic deleteMany instead (idempotent, safe on every replica). Expired refresh tokens, links
 * and sessions are refused on use either way, and a past day's count is never read again:
 * deletion only bounds storage.
 */
export async function ensureExpiry(
  models: Expiring[],
  logger: Logger,
  sweepEveryMs = 10 * 60_000,
): Promise<{ mode: 'ttl-index' | 'sweeper'; sweep(): Promise<void>; stop(): Promise<void> }> {
  let ttl = true;
  for (const model of models) {
    if (ttl) {
      try {
        await model.collection.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 });
        continue;
      } catch (err) {
        if (model !== models[0]) throw err;
        ttl = false;
        logger.info({ reason: (err as Error).message }, 'TTL indexes unavailable; expired refresh tokens are swept periodically');
      }
    }
    await model.collection.createIndex({ expiresAt: 1 }, { name: 'expiresAt_1' });
  }
  if (ttl) return { mode: 'ttl-index', sweep: async () => undefined, stop: async () => undefined };
  const sweep = async () => {
    for (const model of models) {
      try {
        const res = await model.deleteMany({ expiresAt: { $lt: new Date() } }).exec();
        if (res.deletedCount) logger.debug({ collection: model.collection.name, deleted: res.deletedCount }, 'expired documents deleted');
      } catch (err) {
        logger.warn({ collection: model.collection.name, err: (err as Error).message }, 'expiry sweep failed; will retry');
      }
    }
  };
  // a sweep never overlaps the previous one, and stop waits for the one under way (before the connection closes)
  const sweeps = new PeriodicTask({ run: sweep, next: () => sweepEveryMs, logger, failure: 'expiry sweep failed; will retry' });
  sweeps.start();
  return { mode: 'sweeper', sweep, stop: () => sweeps.stop() };
}
