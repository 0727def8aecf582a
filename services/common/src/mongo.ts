import mongoose, { type Connection } from 'mongoose';
import type { Logger } from './logger';

/**
 * Opens a dedicated mongoose connection (never the global one, so several services can share a
 * process in tests), retrying at start with a clear log line per failed attempt.
 */
export async function connectMongo(url: string, logger: Logger, opts: { attempts?: number; delayMs?: number } = {}): Promise<Connection> {
  const attempts = opts.attempts ?? 30;
  const delayMs = opts.delayMs ?? 1_000;
  for (let attempt = 1; ; attempt++) {
    try {
      const conn = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 5_000, autoIndex: false, autoCreate: true }).asPromise();
      logger.info({ db: conn.name }, 'connected to MongoDB');
      return conn;
    } catch (err) {
      logger.warn({ attempt, attempts, err: (err as Error).message, url: redactUrl(url) }, 'cannot connect to MongoDB; retrying');
      if (attempt >= attempts) throw new Error(`cannot connect to MongoDB at ${redactUrl(url)}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}

/** Creates the indexes declared on a connection's models (autoIndex is off so this is explicit). */
export async function syncIndexes(conn: Connection): Promise<void> {
  for (const model of Object.values(conn.models)) await model.createIndexes();
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}
