import { createLogger, loadSigningKeys } from '@accord/common';
import { CredentialCrypto } from '../domain/secrets';
import { memoryOAuthStore } from '../store/memory/store';
import { ConsoleCore } from './console';
import { OAuthCore } from './oauth';

// The console's session rules on the memory store (the contract test holds MongoDB to the same), with a clock the test moves.
let core: ConsoleCore;
let oauth: OAuthCore;
let acme: { accountId: string; apiKey: string };
let now = new Date('2026-01-01T00:00:00Z');
const advance = (seconds: number) => (now = new Date(now.getTime() + seconds * 1000));
const limits = { idleTimeoutSeconds: 600, absoluteTimeoutSeconds: 3600 };

beforeAll(async () => {
  const store = memoryOAuthStore();
  const crypto = new CredentialCrypto('test-hash-key-test-hash-key-test-hash-key');
  const clock = () => now;
  const { keys } = await loadSigningKeys(undefined);
  const logger = createLogger('oauth-test', 'silent');
  oauth = new OAuthCore({ store, crypto, signingKeys: keys, baseUrl: 'http://accord.test', accessTokenTtl: 3600, refreshTokenTtl: 86400, logger, now: clock });
  core = new ConsoleCore({ store, oauth, crypto, now: clock });
  const b = await oauth.bootstrap({ accountName: 'acme', appName: 'web', scopes: [] });
  acme = { accountId: b.account.id, apiKey: b.apiKey };
});

const signIn = async (role = 'owner') => {
  const link = await core.createLink({ accountName: 'acme', memberName: `m-${role}`, role, ttlSeconds: 0 });
  return (await core.redeemLink(link.token, limits, 'jest')).token;
};

describe('console sessions', () => {
  it('end after the idle timeout without requests; each request restarts the idle clock', async () => {
    const token = await signIn();
    advance(500);
    await expect(core.session(token)).resolves.toMatchObject({ account: { name: 'acme' } });
    advance(500); // 1000 s since sign-in, 500 s since the last request
    await expect(core.session(token)).resolves.toBeDefined();
    advance(601);
    await expect(core.session(token)).rejects.toThrow(/idle/);
  });

  it('end at the absolute timeout however active they are', async () => {
    const token = await signIn();
    for (let i = 0; i < 7; i++) {
      advance(500);
      await core.session(token);
    }
    advance(101); // 3601 s after sign-in
    await expect(core.session(token)).rejects.toThrow(/absolute/);
  });

  it('a link works once and not after its 15 minutes', async () => {
    const link = await core.createLink({ accountName: 'acme', memberName: 'once', role: 'viewer', ttlSeconds: 0 });
    await core.redeemLink(link.token, limits, '');
    await expect(core.redeemLink(link.token, limits, '')).rejects.toThrow(/expired or already used/);
    const late = await core.createLink({ accountName: 'acme', memberName: 'late', role: 'viewer', ttlSeconds: 0 });
    advance(901);
    await expect(core.redeemLink(late.token, limits, '')).rejects.toThrow(/expired or already used/);
  });

  it('links need an existing account, a known role and a ttl within 15 minutes', async () => {
    await expect(core.createLink({ accountName: 'nobody', memberName: '', role: '', ttlSeconds: 0 })).rejects.toThrow(/not found/);
    await expect(core.createLink({ accountName: 'acme', memberName: 'x', role: 'admin', ttlSeconds: 901 })).rejects.toMatchObject({
      fields: [
        { field: '/role', message: expect.any(String) },
        { field: '/ttl_seconds', message: expect.any(String) },
      ],
    });
  });

  it('the previous API key works until its grace period ends, then only the new one does', async () => {
    const rotated = await core.rotateApiKey(acme.accountId, 60);
    await expect(oauth.validateApiKey(acme.apiKey)).resolves.toBe(acme.accountId);
    await expect(oauth.validateApiKey(rotated.apiKey)).resolves.toBe(acme.accountId);
    expect(rotated.info.masked).toBe(`ak_…${rotated.apiKey.slice(-4)}`);
    advance(61);
    await expect(oauth.validateApiKey(acme.apiKey)).rejects.toThrow(/unknown API key/);
    await expect(oauth.validateApiKey(rotated.apiKey)).resolves.toBe(acme.accountId);
    expect((await core.apiKeyInfo(acme.accountId)).previousExpiresAt).toBeNull();
  });
});
