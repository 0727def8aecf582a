import { createLogger, loadSigningKeys } from '@accord/common';
import { CredentialCrypto } from '../domain/secrets';
import { memoryOAuthStore } from '../store/memory/store';
import { ConsoleCore } from './console';
import { OAuthCore } from './oauth';
import type { OAuthStore, TokenFamily } from './ports';

// The token endpoint's use cases on the memory store (test/store-contract.test.ts holds MongoDB to
// the same), with a clock the test moves.
let clock = new Date('2030-01-01T00:00:00Z');
const crypto = new CredentialCrypto('e'.repeat(32));

async function setup(store: OAuthStore = memoryOAuthStore()) {
  const { keys } = await loadSigningKeys(undefined);
  const core = new OAuthCore({
    store,
    crypto,
    signingKeys: keys,
    baseUrl: 'http://accord.test',
    accessTokenTtl: 3600,
    refreshTokenTtl: 1000,
    clientCacheMs: 0,
    logger: createLogger('oauth-test', 'silent'),
    now: () => clock,
  });
  const b = await core.bootstrap({ accountName: 'acme', appName: 'a', scopes: ['consent'] });
  const creds = { clientId: b.application.clientId, clientSecret: b.clientSecret, scope: '' };
  const grant = () => core.issueToken({ ...creds, grantType: 'client_credentials', refreshToken: '' });
  const refresh = (refreshToken: string) => core.issueToken({ ...creds, grantType: 'refresh_token', refreshToken });
  return { core, store, b, grant, refresh };
}

describe('refresh tokens', () => {
  it('expire at the end of their family, which refreshes do not extend', async () => {
    const { grant, refresh } = await setup();
    const first = await grant();
    clock = new Date(clock.getTime() + 900_000); // 900 s of 1000
    const second = await refresh(first.refreshToken);
    clock = new Date(clock.getTime() + 100_000); // exactly the family's end
    await expect(refresh(second.refreshToken)).rejects.toMatchObject({ error: 'invalid_grant', description: 'the refresh token has expired' });
    // A new grant starts a new family.
    const fresh = await grant();
    await expect(refresh(fresh.refreshToken)).resolves.toMatchObject({ scope: 'consent' });
  });

  it('of concurrent grants are stored together: one insert for the families of one turn, and a family that fails fails only its grant', async () => {
    const base = memoryOAuthStore();
    const batches: TokenFamily[][] = [];
    let failNext = false;
    const store: OAuthStore = {
      ...base,
      families: {
        ...base.families,
        async insertMany(families) {
          batches.push(families);
          const failed = await base.families.insertMany(families.slice(failNext ? 1 : 0));
          if (!failNext) return failed;
          failNext = false;
          return new Map([[0, new Error('the first family was refused')]]);
        },
      },
    };
    const { grant, refresh } = await setup(store);
    const tokens = await Promise.all(Array.from({ length: 5 }, grant));
    expect(batches.map((b) => b.length)).toEqual([5]);
    await Promise.all(tokens.map((t) => refresh(t.refreshToken)));

    failNext = true;
    const outcomes = await Promise.allSettled(Array.from({ length: 3 }, grant));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
  });
});

describe('rotations by the admin', () => {
  it('end the grace period a rotation in the console gave the previous secret or API key', async () => {
    const { core, store, b, grant } = await setup();
    const console = new ConsoleCore({ store, oauth: core, crypto, now: () => clock });
    const rotated = await console.rotateSecret(b.account.id, b.application.id, 3600);
    const keyRotated = await console.rotateApiKey(b.account.id, 3600);
    await expect(grant()).resolves.toBeDefined(); // the first secret, in its grace period
    await expect(core.validateApiKey(b.apiKey)).resolves.toBe(b.account.id);

    const secret = await core.rotateClientSecret(b.application.clientId);
    const apiKey = await core.rotateApiKey(b.account.id);
    const withSecret = (clientSecret: string) =>
      core.issueToken({ clientId: b.application.clientId, clientSecret, scope: '', grantType: 'client_credentials', refreshToken: '' });
    for (const old of [b.clientSecret, rotated.clientSecret]) await expect(withSecret(old)).rejects.toMatchObject({ error: 'invalid_client' });
    await expect(withSecret(secret)).resolves.toBeDefined();
    for (const old of [b.apiKey, keyRotated.apiKey]) await expect(core.validateApiKey(old)).rejects.toThrow(/unknown API key/);
    await expect(core.validateApiKey(apiKey)).resolves.toBe(b.account.id);
  });
});
