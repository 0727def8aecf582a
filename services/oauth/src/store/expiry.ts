import type { Logger } from '@accord/common';
import type { Model } from 'mongoose';
import type { RefreshTokenDoc } from './models';

/**
 * Expired refresh tokens (spent or not) are deleted. MongoDB does it with a TTL index; FerretDB
 * 1.x has no TTL indexes ("expireAfterSeconds is not implemented"), so there a plain index on
 * expiresAt plus a periodic deleteMany does the same (idempotent, safe on every replica).
 * Expired tokens are rejected on use either way; deletion only bounds the collection's size.
 */
export async function ensureRefreshTokenExpiry(
  model: Model<RefreshTokenDoc>,
  logger: Logger,
  sweepEveryMs = 10 * 60_000,
): Promise<{ mode: 'ttl-index' | 'sweeper'; stop(): void }> {
  try {
    await model.collection.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 });
    return { mode: 'ttl-index', stop: () => undefined };
  } catch (err) {
    logger.info({ reason: (err as Error).message }, 'TTL indexes unavailable; expired refresh tokens are swept periodically');
  }
  await model.collection.createIndex({ expiresAt: 1 }, { name: 'expiresAt_1' });
  const sweep = async () => {
    try {
      const res = await model.deleteMany({ expiresAt: { $lt: new Date() } }).exec();
      if (res.deletedCount) logger.debug({ deleted: res.deletedCount }, 'expired refresh tokens deleted');
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'refresh token sweep failed; will retry');
    }
  };
  const timer = setInterval(() => void sweep(), sweepEveryMs);
  timer.unref();
  void sweep();
  return { mode: 'sweeper', stop: () => clearInterval(timer) };
}
