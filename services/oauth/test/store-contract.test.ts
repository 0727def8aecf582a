/**
 * The oauth store's contract (app/ports.ts), run against both adapters: the memory adapter the
 * unit tests use, and the MongoDB adapter on the CI database. What passes here for one passes for
 * the other, so a use case tested against memory behaves the same on MongoDB.
 * (node-oidc-provider's adapter test is the model: one suite, any adapter.)
 */
import { describeStoreContract, memoryAdapter, mongoAdapter } from '@accord/testkit';
import type { Account, Application, ConsoleLink, ConsoleSession, Member, TokenFamily } from '../src/app/ports';
import { memoryOAuthStore } from '../src/store/memory/store';
import { oauthStoreOn } from '../src/store/mongo/store';

const adapters = [memoryAdapter(() => memoryOAuthStore()), mongoAdapter('oauthstorecontract', (conn) => oauthStoreOn(conn).store)];

const T0 = new Date('2030-01-01T00:00:00Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
let seq = 0;
const id = (prefix: string) => `${prefix}-${(++seq).toString().padStart(6, '0')}`;

const account = (over: Partial<Account> = {}): Account => ({
  id: id('acc'),
  name: id('name'),
  apiKeyHash: id('akh'),
  apiKeyEnc: 'enc',
  createdAt: T0,
  previousApiKeyHash: null,
  previousApiKeyExpiresAt: null,
  apiKeyRotatedAt: null,
  ...over,
});
const application = (accountId: string, over: Partial<Application> = {}): Application => ({
  id: id('app'),
  accountId,
  name: 'web',
  clientId: id('cl'),
  secretHash: id('sh'),
  scopes: ['consent'],
  createdAt: T0,
  allowedOrigins: [],
  disabledAt: null,
  previousSecretHash: null,
  previousSecretExpiresAt: null,
  secretRotatedAt: null,
  ...over,
});
const family = (over: Partial<TokenFamily> = {}): TokenFamily => ({
  id: id('fam'),
  clientId: 'cl',
  applicationId: 'app',
  accountId: 'acc',
  scopes: ['consent', 'webhooks'],
  gen: 0,
  createdAt: T0,
  expiresAt: at(3600),
  revokedAt: null,
  revokedReason: null,
  ...over,
});
const member = (accountId: string, over: Partial<Member> = {}): Member => ({
  id: id('mem'),
  accountId,
  name: id('member'),
  role: 'owner',
  subject: null,
  createdAt: T0,
  ...over,
});
const session = (over: Partial<ConsoleSession> = {}): ConsoleSession => ({
  hash: id('sess'),
  sessionId: id('sid'),
  accountId: 'acc',
  memberId: 'mem',
  csrfToken: 'csrf',
  createdAt: T0,
  expiresAt: at(3600),
  idleTimeoutMs: 600_000,
  lastSeenAt: T0,
  revokedAt: null,
  userAgent: 'jest',
  ...over,
});
const ids = (xs: Array<{ id: string }>) => xs.map((x) => x.id);

describeStoreContract('the oauth store', adapters, (s) => {
  describe('accounts', () => {
    it('are found by id, name, API key hash and previous key hash, listed oldest first, and a taken name is refused', async () => {
      const a = account({ createdAt: at(2) });
      const b = account({ createdAt: at(1), previousApiKeyHash: 'old-hash', previousApiKeyExpiresAt: at(60) });
      expect(await s.accounts.insert(a)).toBe(true);
      expect(await s.accounts.insert(b)).toBe(true);
      expect(await s.accounts.byId(a.id)).toEqual(a);
      expect(await s.accounts.byName(a.name)).toEqual(a);
      expect(await s.accounts.byApiKeyHash(b.apiKeyHash)).toEqual(b);
      expect(await s.accounts.byPreviousApiKeyHash('old-hash')).toEqual(b);
      expect(await s.accounts.byId('nobody')).toBeUndefined();
      expect(ids(await s.accounts.list())).toEqual([b.id, a.id]);
      const racers = await Promise.all([s.accounts.insert(account({ name: 'same' })), s.accounts.insert(account({ name: 'same' }))]);
      expect(racers.sort()).toEqual([false, true]);
    });

    it('rotate their API key, keeping the previous one for a grace period or not', async () => {
      const a = account();
      await s.accounts.insert(a);
      const graced = await s.accounts.rotateApiKey(a.id, { hash: 'h2', enc: 'e2' }, { hash: a.apiKeyHash, expiresAt: at(60) }, at(1));
      expect(graced).toEqual({
        ...a,
        apiKeyHash: 'h2',
        apiKeyEnc: 'e2',
        apiKeyRotatedAt: at(1),
        previousApiKeyHash: a.apiKeyHash,
        previousApiKeyExpiresAt: at(60),
      });
      expect(await s.accounts.byApiKeyHash('h2')).toEqual(graced);
      const at_once = await s.accounts.rotateApiKey(a.id, { hash: 'h3', enc: 'e3' }, null, at(2));
      expect(at_once).toMatchObject({ apiKeyHash: 'h3', previousApiKeyHash: null, previousApiKeyExpiresAt: null, apiKeyRotatedAt: at(2) });
      expect(await s.accounts.rotateApiKey('nobody', { hash: 'h4', enc: 'e4' }, null, at(3))).toBeUndefined();
    });
  });

  describe('applications', () => {
    it('are found by id (within an account when given) and by client id, listed per account oldest first', async () => {
      const a = application('acc', { createdAt: at(2) });
      const b = application('acc', { createdAt: at(1), allowedOrigins: ['https://shop.example'] });
      const other = application('acc-other');
      for (const app of [a, b, other]) await s.applications.insert(app);
      expect(await s.applications.get({ id: a.id })).toEqual(a);
      expect(await s.applications.get({ id: a.id, accountId: 'acc' })).toEqual(a);
      expect(await s.applications.get({ id: a.id, accountId: 'acc-other' })).toBeUndefined();
      expect(await s.applications.get({ clientId: b.clientId })).toEqual(b);
      expect(await s.applications.get({ clientId: 'nobody' })).toBeUndefined();
      expect(ids(await s.applications.ofAccount('acc'))).toEqual([b.id, a.id]);
      await expect(s.applications.insert({ ...application('acc'), clientId: a.clientId })).rejects.toThrow();
    });

    it('update the fields given and answer the application after, by id within an account or by client id', async () => {
      const a = application('acc');
      await s.applications.insert(a);
      const change = { secretHash: 'new', previousSecretHash: a.secretHash, previousSecretExpiresAt: at(60), secretRotatedAt: at(1) };
      expect(await s.applications.update({ id: a.id, accountId: 'acc' }, change)).toEqual({ ...a, ...change });
      expect(await s.applications.update({ clientId: a.clientId }, { disabledAt: at(2) })).toEqual({ ...a, ...change, disabledAt: at(2) });
      expect(await s.applications.update({ id: a.id, accountId: 'acc-other' }, { disabledAt: null })).toBeUndefined();
      expect(await s.applications.update({ clientId: 'nobody' }, { disabledAt: null })).toBeUndefined();
      expect((await s.applications.get({ id: a.id }))?.disabledAt).toEqual(at(2));
    });

    it('tell whether any application allows a browser origin', async () => {
      const a = application('acc');
      await s.applications.insert(a);
      expect(await s.applications.anyAllowsOrigin('https://shop.example')).toBe(false);
      await s.applications.update({ id: a.id }, { allowedOrigins: ['https://shop.example', 'https://other.example'] });
      expect(await s.applications.anyAllowsOrigin('https://shop.example')).toBe(true);
      expect(await s.applications.anyAllowsOrigin('https://evil.example')).toBe(false);
    });
  });

  describe('token families', () => {
    it('are stored in one write, each on its own: a taken id fails that family only', async () => {
      const [a, b, c] = [family(), family(), family()];
      expect((await s.families.insertMany([a!])).size).toBe(0);
      const failed = await s.families.insertMany([b!, { ...c!, id: a!.id }, c!]);
      expect([...failed.keys()]).toEqual([1]);
      expect(await s.families.get(b!.id)).toEqual(b);
      expect(await s.families.get(c!.id)).toEqual(c);
      expect(await s.families.get(a!.id)).toEqual(a);
    });

    it('list those of a client newest first, at most the limit', async () => {
      const [old, mid, recent] = [family({ createdAt: at(1) }), family({ createdAt: at(2) }), family({ createdAt: at(3) })];
      await s.families.insertMany([old!, recent!, mid!, family({ clientId: 'other' }), family({ accountId: 'acc-other' })]);
      expect(ids(await s.families.ofClient('acc', 'cl', 10))).toEqual([recent!.id, mid!.id, old!.id]);
      expect(ids(await s.families.ofClient('acc', 'cl', 2))).toEqual([recent!.id, mid!.id]);
    });

    it('spend a refresh token once: the family as it was, only for its client, generation, live and granted scopes', async () => {
      const f = family();
      await s.families.insertMany([f]);
      const q = { familyId: f.id, gen: 0, clientId: 'cl', scopes: ['consent'], now: at(10) };
      expect(await s.families.spend({ ...q, clientId: 'other' })).toBeUndefined();
      expect(await s.families.spend({ ...q, scopes: ['consent', 'dataprocessing'] })).toBeUndefined();
      expect(await s.families.spend({ ...q, now: at(3600) })).toBeUndefined();
      expect(await s.families.spend({ ...q, familyId: 'nobody' })).toBeUndefined();
      const spent = await Promise.all([s.families.spend(q), s.families.spend(q)]);
      expect(spent.filter((x) => x !== undefined)).toEqual([f]);
      expect((await s.families.get(f.id))?.gen).toBe(1);
      expect(await s.families.spend({ ...q, gen: 1, scopes: [] })).toEqual({ ...f, gen: 1 });
      await s.families.revoke(f.id, at(20), 'reuse');
      expect(await s.families.spend({ ...q, gen: 2 })).toBeUndefined();
    });

    it('are revoked once (the first reason stays), within an account when given, and all live ones of a client at once', async () => {
      const [a, b, c] = [family(), family(), family({ clientId: 'other' })];
      await s.families.insertMany([a!, b!, c!]);
      expect(await s.families.revoke(a!.id, at(1), 'reuse', 'acc-other')).toBeUndefined();
      expect(await s.families.revoke(a!.id, at(1), 'reuse', 'acc')).toEqual({ ...a, revokedAt: at(1), revokedReason: 'reuse' });
      expect(await s.families.revoke(a!.id, at(2), 'again')).toEqual({ ...a, revokedAt: at(1), revokedReason: 'reuse' });
      expect(await s.families.revoke('nobody', at(2), 'x')).toBeUndefined();
      expect(await s.families.revokeOfClient('cl', at(3), 'rotated')).toBe(1);
      expect(await s.families.get(b!.id)).toMatchObject({ revokedAt: at(3), revokedReason: 'rotated' });
      expect((await s.families.get(c!.id))?.revokedAt).toBeNull();
    });
  });

  describe('console members, links and sessions', () => {
    it('members: one name per account, found by id within their account, by name and by subject, listed oldest first', async () => {
      const a = member('acc', { createdAt: at(2), subject: 'https://idp sub-1' });
      const b = member('acc', { createdAt: at(1) });
      expect(await s.members.insert(a)).toBe(true);
      expect(await s.members.insert(b)).toBe(true);
      expect(await s.members.insert(member('acc', { name: a.name }))).toBe(false);
      expect(await s.members.insert(member('acc-other', { name: a.name }))).toBe(true);
      expect(await s.members.get('acc', a.id)).toEqual(a);
      expect(await s.members.get('acc-other', a.id)).toBeUndefined();
      expect(await s.members.byName('acc', b.name)).toEqual(b);
      expect(await s.members.bySubject('https://idp sub-1')).toEqual([a]);
      expect(ids(await s.members.ofAccount('acc'))).toEqual([b.id, a.id]);
    });

    it('members: owners counted, a role changed (answering the member before), a member deleted (answering it)', async () => {
      const [a, b] = [member('acc'), member('acc', { role: 'viewer' })];
      await s.members.insert(a);
      await s.members.insert(b);
      expect(await s.members.countOwners('acc')).toBe(1);
      expect(await s.members.setRole('acc', b.id, 'owner')).toEqual(b);
      expect(await s.members.countOwners('acc')).toBe(2);
      expect(await s.members.setRole('acc-other', b.id, 'viewer')).toBeUndefined();
      expect(await s.members.delete('acc-other', a.id)).toBeUndefined();
      expect(await s.members.delete('acc', a.id)).toEqual(a);
      expect(await s.members.delete('acc', a.id)).toBeUndefined();
      expect(await s.members.countOwners('acc')).toBe(1);
    });

    it("links: spent once, and only before they expire; a member's links dropped", async () => {
      const link = (over: Partial<ConsoleLink> = {}): ConsoleLink => ({
        hash: id('link'),
        accountId: 'acc',
        memberId: 'mem',
        createdAt: T0,
        expiresAt: at(900),
        usedAt: null,
        ...over,
      });
      const [a, late, other] = [link(), link(), link({ memberId: 'mem-2' })];
      for (const l of [a, late, other]) await s.links.insert(l);
      const spent = await Promise.all([s.links.spend(a.hash, at(1)), s.links.spend(a.hash, at(1))]);
      expect(spent.filter((x) => x !== undefined)).toEqual([{ ...a, usedAt: at(1) }]);
      expect(await s.links.spend(late.hash, at(900))).toBeUndefined();
      await s.links.deleteOfMember('acc', 'mem');
      expect(await s.links.spend(late.hash, at(2))).toBeUndefined();
      expect(await s.links.spend(other.hash, at(2))).toEqual({ ...other, usedAt: at(2) });
    });

    it('sessions: read by hash, touched, revoked once, and all live ones of a member revoked at once', async () => {
      const [a, b, c] = [session(), session(), session({ memberId: 'mem-2' })];
      for (const x of [a, b, c]) await s.sessions.insert(x);
      expect(await s.sessions.get(a.hash)).toEqual(a);
      expect(await s.sessions.get('nobody')).toBeUndefined();
      await s.sessions.touch(a.hash, at(30));
      await s.sessions.revoke(a.hash, at(40));
      await s.sessions.revoke(a.hash, at(50));
      expect(await s.sessions.get(a.hash)).toEqual({ ...a, lastSeenAt: at(30), revokedAt: at(40) });
      expect(await s.sessions.revokeOfMember('acc', 'mem', at(60))).toBe(1);
      expect((await s.sessions.get(b.hash))?.revokedAt).toEqual(at(60));
      expect((await s.sessions.get(c.hash))?.revokedAt).toBeNull();
    });
  });

  describe('account limits', () => {
    it('overrides: set field by field, read back, cleared', async () => {
      expect(await s.limits.overrides('acc')).toEqual({});
      await s.limits.setOverrides('acc', { requestsPerSecond: 2.5, burst: 10 }, at(1));
      await s.limits.setOverrides('acc', { burst: 20, maxEventsPerDay: 0 }, at(2));
      expect(await s.limits.overrides('acc')).toEqual({ requestsPerSecond: 2.5, burst: 20, maxEventsPerDay: 0 });
      await s.limits.clearOverrides('acc');
      expect(await s.limits.overrides('acc')).toEqual({});
    });

    it('daily counts: admitted while within the maximum, all or nothing, concurrently exact, and given back', async () => {
      expect(await s.limits.counted('acc:2030-01-01')).toBe(0);
      expect(await s.limits.admit('acc:2030-01-01', 4, 10, at(86_400))).toBe(4);
      expect(await s.limits.admit('acc:2030-01-01', 7, 10, at(86_400))).toBeUndefined();
      const admitted = await Promise.all(Array.from({ length: 8 }, () => s.limits.admit('acc:2030-01-01', 1, 10, at(86_400))));
      expect(admitted.filter((x) => x !== undefined)).toHaveLength(6);
      expect(await s.limits.counted('acc:2030-01-01')).toBe(10);
      await s.limits.giveBack('acc:2030-01-01', 3);
      await s.limits.giveBack('acc:2030-01-01', 30); // more than counted: nothing
      expect(await s.limits.counted('acc:2030-01-01')).toBe(7);
      expect(await s.limits.counted('acc:2030-01-02')).toBe(0);
    });
  });
});

describe('the oauth store on MongoDB', () => {
  const adapter = mongoAdapter('oauthstoreolddocs', (conn) => oauthStoreOn(conn));
  let h: Awaited<ReturnType<typeof adapter.open>>;
  beforeAll(async () => {
    h = await adapter.open();
    await h.reset();
  });
  afterAll(async () => h.close());

  it('reads accounts and applications written before key rotation, disabling and allowed origins existed: null and no origins', async () => {
    const { store, models } = h.store;
    await models.accounts.collection.insertOne({ _id: 'acc-old' as never, name: 'old', apiKeyHash: 'akh-old', apiKeyEnc: 'enc', createdAt: T0 });
    const app = { accountId: 'acc-old', name: 'web', clientId: 'cl-old', secretHash: 'sh-old', scopes: ['consent'], createdAt: T0 };
    await models.applications.collection.insertOne({ _id: 'app-old' as never, ...app });
    expect(await store.accounts.byId('acc-old')).toEqual(account({ id: 'acc-old', name: 'old', apiKeyHash: 'akh-old' }));
    expect(await store.applications.get({ id: 'app-old' })).toEqual(application('acc-old', { id: 'app-old', ...app }));
  });
});
