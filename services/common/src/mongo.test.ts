import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import { isDuplicateKey } from './mongo';

describe('isDuplicateKey', () => {
  it('recognises a single write refused by a unique index', () => {
    expect(isDuplicateKey(new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 }))).toBe(true);
    expect(isDuplicateKey({ code: 11000 })).toBe(true);
  });

  it('recognises a bulk write whose every write error is a duplicate key', () => {
    expect(
      isDuplicateKey({
        code: 11000,
        writeErrors: [
          { code: 11000, index: 0 },
          { code: 11000, index: 3 },
        ],
      }),
    ).toBe(true);
    // the driver gives one write error as an object, several as an array
    expect(isDuplicateKey({ writeErrors: { code: 11000, index: 0 } })).toBe(true);
  });

  it('is false for a bulk write that also failed for another reason', () => {
    expect(
      isDuplicateKey({
        code: 11000,
        writeErrors: [
          { code: 11000, index: 0 },
          { code: 121, index: 1 },
        ],
      }),
    ).toBe(false);
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
