import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { findBinary, startLocalMongo, waitForPort } from '@accord/local-stack';
import { findPostgresBinDir } from '../src/postgres';

const dirs: string[] = [];
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'accord-infra-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('local MongoDB-compatible server', () => {
  it('refuses an unknown ACCORD_FERRETDB_BACKEND with a message naming the choices', async () => {
    await expect(startLocalMongo(freshDir(), true, { ACCORD_FERRETDB_BACKEND: 'mysql' }, () => undefined)).rejects.toThrow(
      'ACCORD_FERRETDB_BACKEND must be postgresql or sqlite, not "mysql"',
    );
  });

  // Needs FerretDB and PostgreSQL's server binaries (CI installs both) and no mongod (which the
  // launcher would prefer); without them there is nothing of this launcher to exercise.
  const runnable = !findBinary('mongod') && !!findBinary('ferretdb') && !!findPostgresBinDir();
  (runnable ? it : it.skip)('runs FerretDB on its own PostgreSQL server, keeps the data across a restart, and stops both', async () => {
    const dir = freshDir();
    const first = await startLocalMongo(dir, false, { ACCORD_FERRETDB_BACKEND: 'postgresql' }, () => undefined);
    expect(first.description).toMatch(/^FerretDB on :\d+ \(PostgreSQL \d+ on :(\d+)\)$/);
    const pgPort = Number(/PostgreSQL \d+ on :(\d+)/.exec(first.description)![1]);
    let client = await new MongoClient(first.url).connect();
    await client
      .db()
      .collection('kept')
      .insertOne({ _id: 'x' as never, n: 1 });
    await client.close();
    await first.stop();
    await expect(waitForPort(pgPort, '127.0.0.1', 300)).rejects.toThrow(/nothing listening/);

    const second = await startLocalMongo(dir, false, { ACCORD_FERRETDB_BACKEND: 'postgresql' }, () => undefined);
    try {
      client = await new MongoClient(second.url).connect();
      expect(
        await client
          .db()
          .collection('kept')
          .findOne({ _id: 'x' as never }),
      ).toEqual({ _id: 'x', n: 1 });
      await client.close();
    } finally {
      await second.stop();
    }
  });
});
