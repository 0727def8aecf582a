import { connectMongo, loadSigningKeys, syncIndexes } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import type { Connection } from 'mongoose';
import { CredentialCrypto } from '../src/domain/secrets';
import { OAuthCore } from '../src/app/oauth';
import { ensureExpiry } from '../src/store/expiry';
import { defineModels, type OAuthModels } from '../src/store/models';
import { OAuthRepository } from '../src/store/repository';
import { testLogger } from '@accord/testkit';

// The core on a real database with a controllable clock: lifetimes without waiting.
let conn: Connection;
let models: OAuthModels;
let clock = new Date('2030-01-01T00:00:00Z');
let core: OAuthCore;

beforeAll(async () => {
  const logger = testLogger('oauth-test');
  conn = await connectMongo(testEnv('oauthexpiry').mongoUrl, logger);
  models = defineModels(conn);
  await syncIndexes(conn);
  const { keys } = await loadSigningKeys(undefined);
  core = new OAuthCore({
    repo: new OAuthRepository(models),
    crypto: new CredentialCrypto('e'.repeat(32)),
    signingKeys: keys,
    baseUrl: 'http://accord.test',
    accessTokenTtl: 3600,
    refreshTokenTtl: 1000,
    logger,
    now: () => clock,
  });
});
afterAll(async () => conn?.close());

it('refresh tokens expire at the end of their family, which refreshes do not extend', async () => {
  const b = await core.bootstrap({ accountName: 'exp', appName: 'a', scopes: ['consent'] });
  const creds = { clientId: b.application.clientId, clientSecret: b.clientSecret, scope: '' };
  const first = await core.issueToken({ ...creds, grantType: 'client_credentials', refreshToken: '' });
  clock = new Date(clock.getTime() + 900_000); // 900 s of 1000
  const second = await core.issueToken({ ...creds, grantType: 'refresh_token', refreshToken: first.refreshToken });
  clock = new Date(clock.getTime() + 100_000); // exactly the family's end
  await expect(core.issueToken({ ...creds, grantType: 'refresh_token', refreshToken: second.refreshToken })).rejects.toMatchObject({
    error: 'invalid_grant',
    description: 'the refresh token has expired',
  });
  // A new grant starts a new family.
  const fresh = await core.issueToken({ ...creds, grantType: 'client_credentials', refreshToken: '' });
  await expect(core.issueToken({ ...creds, grantType: 'refresh_token', refreshToken: fresh.refreshToken })).resolves.toMatchObject({ scope: 'consent' });
});

it('expired token families are deleted by the expiry sweep (or TTL index)', async () => {
  const expiry = await ensureExpiry([models.tokenFamilies] as never[], testLogger('t'), 60_000);
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
