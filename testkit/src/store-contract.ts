/// <reference types="jest" />
import { connectMongo, syncIndexes } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { testLogger } from './log';

type Connection = Awaited<ReturnType<typeof connectMongo>>;

/** One adapter of a storage port, opened once per suite and emptied before each case. */
export interface StoreAdapter<S> {
  name: string;
  open(): Promise<{ store: S; reset(): Promise<void>; close(): Promise<void> }>;
}

/** The memory adapter: a fresh store before each case. */
export function memoryAdapter<S>(make: () => S): StoreAdapter<S> {
  return {
    name: 'memory',
    async open() {
      const h = { store: make(), reset: async () => void (h.store = make()), close: async () => undefined };
      return h;
    },
  };
}

/** The MongoDB adapter on the CI database `database` (a name of its own per suite), every collection emptied before each case. */
export function mongoAdapter<S>(database: string, storeOn: (conn: Connection) => S): StoreAdapter<S> {
  return {
    name: 'MongoDB',
    async open() {
      const conn = await connectMongo(testEnv(database).mongoUrl, testLogger('t'));
      const store = storeOn(conn);
      await syncIndexes(conn);
      return {
        store,
        reset: async () => {
          for (const model of Object.values(conn.models)) await model.deleteMany({}).exec();
        },
        close: () => conn.close(),
      };
    },
  };
}

/**
 * A storage port's contract: the same cases against every adapter (the memory one the use cases'
 * unit tests use, the MongoDB one production uses), so what passes for one passes for the other.
 * node-oidc-provider's adapter test is the model: one suite, any adapter. `cases` declares the
 * tests on `s`, which stands for the adapter's store, empty at the start of each test (the memory
 * adapter makes a new one each time, so `s` forwards to whichever is current).
 */
export function describeStoreContract<S extends object>(title: string, adapters: Array<StoreAdapter<S>>, cases: (s: S) => void): void {
  describe.each(adapters)(`${title} ($name)`, (adapter) => {
    let h: Awaited<ReturnType<StoreAdapter<S>['open']>> | undefined;
    beforeAll(async () => {
      h = await adapter.open();
    });
    afterAll(async () => h?.close());
    beforeEach(async () => h!.reset());
    cases(new Proxy({} as S, { get: (_, key) => Reflect.get(h!.store, key) }));
  });
}
