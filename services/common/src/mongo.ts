import mongoose, { type Connection } from 'mongoose';
import { sleep } from './async';
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
      // No command buffering: while the database is unreachable a command fails after server
      // selection (3 s, within every caller's deadline) instead of waiting in mongoose's queue.
      const conn = await mongoose
        .createConnection(url, { serverSelectionTimeoutMS: 3_000, bufferCommands: false, autoIndex: false, autoCreate: true })
        .asPromise();
      logger.info({ db: conn.name }, 'connected to MongoDB');
      return conn;
    } catch (err) {
      logger.warn({ attempt, attempts, err: (err as Error).message, url: redactUrl(url) }, 'cannot connect to MongoDB; retrying');
      if (attempt >= attempts) throw new Error(`cannot connect to MongoDB at ${redactUrl(url)}: ${(err as Error).message}`);
      await sleep(delayMs);
    }
  }
}

/**
 * Creates the indexes declared on a connection's models (autoIndex is off so this is explicit).
 * mongoose creates each model's collection in the background as soon as the model is defined
 * (autoCreate): that is awaited first, so no createIndex races the creation of its collection —
 * on a fresh data directory mongo-java-server refused the loser ("Document with key
 * 'accord.dpgroups' already existed"), and the first `npm start` died.
 */
export async function syncIndexes(conn: Connection): Promise<void> {
  for (const model of Object.values(conn.models)) {
    await model.init();
    await model.createIndexes();
  }
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}

/**
 * Readiness follows the database: NOT_SERVING while the connection is lost, SERVING again once
 * the driver reconnects (so /readyz turns red during an outage and green by itself after it).
 * Our own close at shutdown (mongoose passes through `disconnecting` first) is no loss to warn of.
 */
export function followDatabase(conn: Connection, setServing: (serving: boolean) => void, logger: Logger): void {
  let closing = false;
  conn.on('disconnecting', () => (closing = true));
  conn.on('disconnected', () => {
    if (!closing) logger.warn('lost the connection to MongoDB; not ready until it is back');
    setServing(false);
  });
  conn.on('reconnected', () => {
    logger.info('connected to MongoDB again; ready');
    setServing(true);
  });
}

/** MongoDB's duplicate key error code (E11000). */
const DUPLICATE_KEY = 11000;

/**
 * Whether a write failed only because a unique index already holds the key: a single write's
 * error (code 11000), or a bulk write's whose every write error is one (an unordered bulkWrite or
 * insertMany that also failed otherwise is not a duplicate).
 */
export function isDuplicateKey(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; writeErrors?: unknown };
  if (e.writeErrors !== undefined && e.writeErrors !== null) {
    const list = ([] as unknown[]).concat(e.writeErrors);
    if (list.length) return list.every((w) => writeErrorCode(w) === DUPLICATE_KEY);
  }
  return e.code === DUPLICATE_KEY;
}

/**
 * The code of one write error of a bulk write: the driver's WriteError has it as a getter over
 * `err`, and mongoose's insertMany hands on copies of them (`{...writeError, index}`) that keep
 * only `err` and `index`.
 */
export function writeErrorCode(w: unknown): unknown {
  if (typeof w !== 'object' || w === null) return undefined;
  const e = w as { code?: unknown; err?: { code?: unknown } };
  return e.code ?? e.err?.code;
}
