/**
 * The link store's part of the consent store's contract (app/ports.ts LinkStore), against both
 * adapters, like test/store-contract.test.ts.
 */
import { describeStoreContract, memoryAdapter, mongoAdapter } from '@accord/testkit';
import type { ConsentStore } from '../src/app/ports';
import { buildLink, type LinkEvent } from '../src/domain/link';
import { memoryConsentStore } from '../src/store/memory/store';
import { consentStoreOn } from '../src/store/mongo/store';

const adapters = [memoryAdapter<ConsentStore>(() => memoryConsentStore()), mongoAdapter('linkcontract', (conn) => consentStoreOn(conn).store)];
const I = 'https://shop.example';
let t = Date.now() - 60_000;
const link = (identity: string, subject: string | null, over: { accountId?: string; issuer?: string } = {}): LinkEvent =>
  buildLink(over.accountId ?? 'acc', 'app', { issuer: over.issuer ?? I, identity, subject }, (t += 10));
const ids = (ls: LinkEvent[]) => ls.map((l) => l.id);
const LEAF = Buffer.alloc(32, 7);
const later = () => new Date(Date.now() + 60_000);

describeStoreContract('the consent store', adapters, (s) => {
  describe('links', () => {
    it('read back the links naming a name as identity or subject, newest first, within the account and issuer, below a bound', async () => {
      const store = s;
      const a = link('device-a', 'user-42');
      const b = link('phone-b', 'user-42');
      const c = link('device-a', null);
      const other = [link('device-a', 'user-42', { accountId: 'acc2' }), link('device-a', 'user-42', { issuer: 'https://other.example' })];
      for (const l of [a, b, c, ...other]) await store.links.insert(l, later(), LEAF);
      expect(ids(await store.links.naming('acc', I, ['user-42'], undefined, 10))).toEqual(ids([b, a]));
      expect(ids(await store.links.naming('acc', I, ['device-a'], undefined, 10))).toEqual(ids([c, a]));
      expect(ids(await store.links.naming('acc', I, ['device-a', 'user-42'], undefined, 10))).toEqual(ids([c, b, a]));
      expect(ids(await store.links.naming('acc', I, ['device-a', 'user-42'], c.id, 1))).toEqual(ids([b]));
      expect(await store.links.naming('acc', I, ['nobody'], undefined, 10)).toEqual([]);
      const back = (await store.links.naming('acc', I, ['device-a'], undefined, 10))[0]!;
      expect(back).toEqual(c);
      expect(back.subject).toBeNull();
      expect(ids(await store.links.ofIdentities('acc', I, ['device-a', 'phone-b'], undefined, 10))).toEqual(ids([c, b, a]));
      expect(ids(await store.links.ofIdentities('acc', undefined, ['device-a'], undefined, 10))).toEqual(ids([other[1]!, c, a]));
      expect(ids(await store.links.list({ accountId: 'acc', issuer: I, identity: 'device-a', limit: 10 }))).toEqual(ids([c, a]));
      expect(ids(await store.links.list({ accountId: 'acc', issuer: I, subject: 'user-42', before: b.id, limit: 10 }))).toEqual(ids([a]));
    });

    it('are rewritten by erasure only while their identity is the one read', async () => {
      const store = s;
      const a = link('device-a', 'user-42');
      await store.links.insert(a, later(), LEAF);
      expect(ids(await store.links.inClear('acc', 'user-42', undefined, 10))).toEqual(ids([a]));
      const at = new Date();
      const set = { identity: 'erased:d', subject: 'erased:u', erasedAt: at };
      expect(await store.links.rewrite([{ id: a.id, identity: 'device-a', set }])).toBe(1);
      expect(await store.links.rewrite([{ id: a.id, identity: 'device-a', set }])).toBe(0);
      expect(await store.links.inClear('acc', 'user-42', undefined, 10)).toEqual([]);
      expect((await store.links.naming('acc', I, ['erased:u'], undefined, 10))[0]).toEqual({ ...a, ...set });
    });

    it('an imported link is read for erasure with its import key, and rewritten under the key it is given', async () => {
      const store = s;
      const a = { ...link('device-a', 'user-42'), importedAt: new Date(), importKey: 'acc/x:crm-user-42@example.com' };
      const b = link('device-b', 'user-42');
      expect(await store.links.insertImported(a, LEAF)).toBe(true);
      await store.links.insert(b, later(), LEAF);
      expect((await store.links.inClear('acc', 'user-42', undefined, 10)).map((l) => [l.id, l.importKey])).toEqual([
        [b.id, undefined],
        [a.id, 'acc/x:crm-user-42@example.com'],
      ]);
      const set = { identity: 'erased:d', subject: 'erased:u', erasedAt: new Date(), importKey: 'acc/e:hashed' };
      expect(await store.links.rewrite([{ id: a.id, identity: 'device-a', set }])).toBe(1);
      expect(await store.links.importedKeys(['acc/x:crm-user-42@example.com', 'acc/e:hashed'])).toEqual(new Set(['acc/e:hashed']));
      // the key is never part of a link as read
      const { importKey: _k, ...readBack } = { ...a, ...set };
      expect((await store.links.naming('acc', I, ['erased:u'], undefined, 10))[0]).toEqual(readBack);
    });

    it('are their own outbox: claimed once when due until the lease runs out, and gone once published', async () => {
      const store = s;
      const now = Date.now();
      const a = link('device-a', 'user-42');
      const b = link('device-b', 'user-42');
      await store.links.insert(a, new Date(now - 1000), LEAF);
      await store.links.insert(b, new Date(now + 60_000), LEAF);
      expect(ids(await store.links.claimDue('c1', new Date(now), new Date(now + 30_000), 10))).toEqual(ids([a]));
      // claimed until then: another relay gets nothing before the lease runs out
      expect(await store.links.claimDue('c2', new Date(now + 1000), new Date(now + 31_000), 10)).toEqual([]);
      expect(ids(await store.links.claimDue('c3', new Date(now + 30_000), new Date(now + 60_000), 10))).toEqual(ids([a]));
      await store.links.markPublished([a.id]);
      expect(ids(await store.links.claimDue('c4', new Date(now + 60_000), new Date(now + 90_000), 10))).toEqual(ids([b]));
      await store.links.markPublished([b.id]);
      expect(await store.links.claimDue('c5', new Date(now + 120_000), new Date(now + 150_000), 10)).toEqual([]);
      // the link itself is unchanged by its outbox marks
      expect((await store.links.naming('acc', I, ['device-a'], undefined, 10))[0]).toEqual(a);
    });

    it('wait for their log leaf with the hash fixed at insert, by account and id, until marked logged', async () => {
      const store = s;
      const a = link('device-a', 'user-42');
      const b = link('device-b', 'user-42');
      const c = link('device-c', 'user-1', { accountId: 'acc2' });
      await store.links.insert(a, later(), Buffer.alloc(32, 1));
      await store.links.insert(b, later(), Buffer.alloc(32, 2));
      await store.links.insert(c, later(), Buffer.alloc(32, 3));
      expect((await store.links.logAccounts()).sort()).toEqual(['acc', 'acc2']);
      expect(await store.links.logPending('acc', 1)).toEqual({ links: [{ id: a.id, leafHash: Buffer.alloc(32, 1) }], last: a.id, full: true });
      expect(await store.links.logPending('acc', 10, a.id)).toEqual({ links: [{ id: b.id, leafHash: Buffer.alloc(32, 2) }], last: b.id, full: false });
      expect(await store.links.isLogPending('acc', a.id)).toBe(true);
      expect(await store.links.isLogPending('acc2', a.id)).toBe(false);
      await store.links.markLogged([a.id, b.id]);
      expect(await store.links.logPending('acc', 10)).toEqual({ links: [], full: false });
      expect(await store.links.isLogPending('acc', a.id)).toBe(false);
      expect(await store.links.logAccounts()).toEqual(['acc2']);
    });

    it('page the account’s links oldest first for the export, within the id bounds, by linking application and by a name they name', async () => {
      const store = s;
      const a = link('device-a', 'user-42');
      const b = { ...link('phone-b', 'user-7'), appId: 'app2' };
      const c = link('device-a', null);
      const d = link('tablet-d', 'device-a');
      const other = link('device-a', 'user-42', { accountId: 'acc2' });
      for (const l of [a, b, c, d, other]) await store.links.insert(l, later(), LEAF);
      expect(ids(await store.links.exportPage({ accountId: 'acc', limit: 10 }))).toEqual(ids([a, b, c, d]));
      expect(ids(await store.links.exportPage({ accountId: 'acc', after: a.id, limit: 2 }))).toEqual(ids([b, c]));
      expect(ids(await store.links.exportPage({ accountId: 'acc', from: b.id, before: d.id, limit: 10 }))).toEqual(ids([b, c]));
      expect(ids(await store.links.exportPage({ accountId: 'acc', appId: 'app2', limit: 10 }))).toEqual(ids([b]));
      expect(ids(await store.links.exportPage({ accountId: 'acc', subject: 'device-a', limit: 10 }))).toEqual(ids([a, c, d]));
      expect(ids(await store.links.exportPage({ accountId: 'acc', subject: 'device-a', after: a.id, limit: 1 }))).toEqual(ids([c]));
    });

    it('store an imported link once per import key, with its importedAt, waiting for its leaf and never due for the relay', async () => {
      const store = s;
      const importedAt = new Date();
      const a = { ...link('device-a', 'user-42'), importedAt, importKey: 'acc/x:line-1' };
      expect(await store.links.importedKeys(['acc/x:line-1', 'acc/x:line-2'])).toEqual(new Set());
      expect(await store.links.insertImported(a, Buffer.alloc(32, 4))).toBe(true);
      expect(await store.links.insertImported({ ...link('device-a', 'user-42'), importedAt, importKey: 'acc/x:line-1' }, LEAF)).toBe(false);
      expect(await store.links.importedKeys(['acc/x:line-1', 'acc/x:line-2'])).toEqual(new Set(['acc/x:line-1']));
      const { importKey: _k, ...stored } = a;
      expect(await store.links.naming('acc', I, ['device-a'], undefined, 10)).toEqual([stored]);
      expect(await store.links.logPending('acc', 10)).toEqual({ links: [{ id: a.id, leafHash: Buffer.alloc(32, 4) }], last: a.id, full: false });
      expect(await store.links.claimDue('c1', new Date(Date.now() + 3_600_000), new Date(Date.now() + 3_700_000), 10)).toEqual([]);
    });
  });
});
