import type { Connection } from 'mongoose';
import { connectMongo, syncIndexes } from '@accord/common';
import { testLogger } from '@accord/testkit';
import type { ConsentStore } from '../src/app/ports';
import type { LogModels } from '../src/store/mongo/log-models';
import type { Models } from '../src/store/mongo/models';
import { consentStoreOn } from '../src/store/mongo/store';

export interface MongoStoreHandle {
  store: ConsentStore;
  models: Models;
  logModels: LogModels;
  conn: Connection;
}

/** The MongoDB consent store on a connection of its own to `mongoUrl` (indexes created); `close` ends the connection. */
export async function openStore(mongoUrl: string): Promise<MongoStoreHandle & { close(): Promise<void> }> {
  const conn = await connectMongo(mongoUrl, testLogger('t'));
  const handle = { ...consentStoreOn(conn), conn };
  await syncIndexes(conn);
  return { ...handle, close: () => conn.close() };
}

/** Runs `body` with the MongoDB consent store on a connection of its own to `mongoUrl`, closed after, passed or failed. */
export async function withStore(mongoUrl: string, body: (h: MongoStoreHandle) => Promise<void>): Promise<void> {
  const h = await openStore(mongoUrl);
  try {
    await body(h);
  } finally {
    await h.close();
  }
}
