import { EventEmitter } from 'node:events';
import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import type { Connection } from 'mongoose';
import type { Logger } from './logger';
import { followDatabase, isDuplicateKey, syncIndexes } from './mongo';

describe('syncIndexes', () => {
  it("creates a model's indexes only once mongoose has finished creating its collection", async () => {
    const steps: string[] = [];
    const model = (name: string) => ({
      init: () => new Promise<void>((resolve) => setTimeout(() => (steps.push(`${name} collection`), resolve()), 5)),
      createIndexes: async () => void steps.push(`${name} indexes`),
    });
    await syncIndexes({ models: { A: model('A'), B: model('B') } } as unknown as Connection);
    expect(steps).toEqual(['A collection', 'A indexes', 'B collection', 'B indexes']);
  });
});

describe('followDatabase', () => {
  const follow = () => {
    const conn = new EventEmitter();
    const serving: boolean[] = [];
    const warn = jest.fn();
    const info = jest.fn();
    followDatabase(conn as unknown as Connection, (s) => serving.push(s), { warn, info } as unknown as Logger);
    return { conn, serving, warn, info };
  };

  it('a lost connection is a warning and NOT_SERVING, its return SERVING again', () => {
    const { conn, serving, warn, info } = follow();
    conn.emit('disconnected');
    conn.emit('reconnected');
    expect(serving).toEqual([false, true]);
    expect(warn).toHaveBeenCalledWith('lost the connection to MongoDB; not ready until it is back');
    expect(info).toHaveBeenCalledTimes(1);
  });

  it('our own close at shutdown (disconnecting, then disconnected) is no warning', () => {
    const { conn, serving, warn } = follow();
    conn.emit('disconnecting');
    conn.emit('disconnected');
    expect(serving).toEqual([false]);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('isDuplicateKey', () => {
  /** A bulk write's error (code 11000) with these write errors. */
  const bulkError = (...writeErrors: Array<{ code: number; index: number }>) => ({ code: 11000, writeErrors });

  it('recognises a single write refused by a unique index', () => {
    expect(isDuplicateKey(new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 }))).toBe(true);
    expect(isDuplicateKey({ code: 11000 })).toBe(true);
  });

  it('recognises a bulk write whose every write error is a duplicate key', () => {
    expect(isDuplicateKey(bulkError({ code: 11000, index: 0 }, { code: 11000, index: 3 }))).toBe(true);
    // the driver gives one write error as an object, several as an array
    expect(isDuplicateKey({ writeErrors: { code: 11000, index: 0 } })).toBe(true);
    // mongoose's insertMany passes on copies of the driver's WriteErrors, which keep only `err` and `index`
    expect(isDuplicateKey({ writeErrors: [{ err: { code: 11000 }, index: 2 }] })).toBe(true);
    expect(isDuplicateKey({ writeErrors: [{ err: { code: 121 }, index: 2 }] })).toBe(false);
  });

  it('is false for a bulk write that also failed for another reason', () => {
    expect(isDuplicateKey(bulkError({ code: 11000, index: 0 }, { code: 121, index: 1 }))).toBe(false);
  });

  it('is false for other errors and for values that are not errors', () => {
    expect(isDuplicateKey(new MongoServerError({ message: 'not primary', code: 10107 }))).toBe(false);
    expect(isDuplicateKey(new Error('E11000 in a message only'))).toBe(false);
    expect(isDuplicateKey(undefined)).toBe(false);
    expect(isDuplicateKey('11000')).toBe(false);
  });

  it('recognises the driver’s own bulk write error', () => {
    const err = new MongoBulkWriteError(
      { message: 'E11000', code: 11000, writeErrors: [{ index: 0, code: 11000, errmsg: 'E11000' }] } as never,
      { insertedCount: 0, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0, insertedIds: {}, upsertedIds: {} } as never,
    );
    expect(isDuplicateKey(err)).toBe(true);
  });
});
