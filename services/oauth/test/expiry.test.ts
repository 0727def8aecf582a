import { connectMongo, syncIndexes } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import type { Connection } from 'mongoose';
import { ensureExpiry } from '../src/store/mongo/expiry';
import { defineModels, type OAuthModels } from '../src/store/mongo/models';
import { testLogger } from '@accord/testkit';

// Expired documents leave the database: TTL indexes where the server has them, a sweep otherwise.
let conn: Connection;
let models: OAuthModels;

beforeAll(async () => {
  conn = await connectMongo(testEnv('oauthexpiry').mongoUrl, testLogger('oauth-test'));
  models = defineModels(conn);
  await syncIndexes(conn);
});
afterAll(async () => conn?.close());

it('expired token families are deleted by the expiry sweep (or TTL index)', async () => {
  const expiry = await ensureExpiry([models.tokenFamilies], testLogger('t'), 60_000);
  await expiry.stop();
  const past = new Date(Date.now() - 1000);
  const future = new Date(Date.now() + 60_000);
  const family = (_id: string, expiresAt: Date) =>
    models.tokenFamilies.create({
      _id,
      clientId: 'c',
      applicationId: 'p',
      accountId: 'a',
      scopes: ['consent'],
      gen: 0,
      createdAt: past,
      expiresAt,
      revokedAt: null,
      revokedReason: null,
    });
  await family('old-family', past);
  await family('live-family', future);
  if (expiry.mode === 'sweeper') {
    await expiry.sweep();
    expect(await models.tokenFamilies.exists({ _id: 'old-family' })).toBeNull();
    expect(await models.tokenFamilies.exists({ _id: 'live-family' })).not.toBeNull();
  } else {
    // MongoDB's TTL monitor runs every 60 s; checking the index is what this test can do quickly.
    const indexes = await models.tokenFamilies.collection.indexes();
    expect(indexes.find((i) => i.name === 'expiresAt_ttl')?.expireAfterSeconds).toBe(0);
  }
});
