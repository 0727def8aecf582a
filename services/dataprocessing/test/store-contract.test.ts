/**
 * The registry store's contract (app/ports.ts), run against both adapters: the memory adapter the
 * unit tests use, and the MongoDB adapter on the CI database. What passes here for one passes for
 * the other, so the registry tested against memory behaves the same on MongoDB.
 * (node-oidc-provider's adapter test is the model: one suite, any adapter.)
 */
import { describeStoreContract, memoryAdapter, mongoAdapter } from '@accord/testkit';
import type { RegistryStore } from '../src/app/ports';
import type { GroupRecord, SpecRecord, SpecVersionRecord } from '../src/domain/model';
import { specAsOf } from '../src/domain/specs';
import { validateSpec } from '../src/domain/validate';
import { MemoryRegistryStore } from '../src/store/memory/store';
import { defineModels } from '../src/store/mongo/models';
import { MongoRegistryStore } from '../src/store/mongo/store';

const adapters = [
  memoryAdapter<RegistryStore>(() => new MemoryRegistryStore()),
  mongoAdapter('dpstorecontract', (conn) => new MongoRegistryStore(defineModels(conn))),
];

let seq = 0;
/** ObjectId-like hex ids, increasing (ids sort in creation order). */
const newId = () => (0x6600000000 + ++seq).toString(16).padStart(24, '0');
const T0 = new Date('2030-01-01T00:00:00Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

function group(accountId: string, over: Partial<GroupRecord> = {}): GroupRecord {
  return { id: newId(), accountId, appId: 'app', name: 'G', description: 'd', purpose: 'p', createdAt: T0, updatedAt: T0, deletedAt: null, ...over };
}

/** The version-1 record of a new specification, and the specification it makes. */
function newSpec(accountId: string, groupId: string, over: Partial<SpecVersionRecord['state']> = {}): { v1: SpecVersionRecord; spec: SpecRecord } {
  const v1: SpecVersionRecord = {
    specId: newId(),
    accountId,
    version: 1,
    createdAt: T0,
    appId: 'app',
    groupId,
    specCreatedAt: T0,
    reconsentSince: 1,
    state: { ...validateSpec({ data: 'e-mail', purpose: 'newsletter', action: 'collect', legalBasis: 'CONSENT' }, { location: 'EU' }), ...over },
    texts: [{ id: 1, value: 'We write to you.', language: 'en', type: 'default', createdAt: T0, updatedAt: T0 }],
    nextTextId: 2,
    deletedAt: null,
  };
  return { v1, spec: specAsOf(v1) };
}

/** The next version of a record: fields changed, material or not (it then keeps reconsentSince). */
function next(v: SpecVersionRecord, state: Partial<SpecVersionRecord['state']>, material: boolean, s = v.version): SpecVersionRecord {
  const version = v.version + 1;
  return { ...v, version, createdAt: at(s), state: { ...v.state, ...state }, reconsentSince: material ? version : v.reconsentSince };
}

describeStoreContract('the registry store', adapters, (s) => {
  describe('groups', () => {
    it('reads a group back within its account only', async () => {
      const g = group('acc');
      await s.insertGroup(g);
      expect(await s.findGroup('acc', g.id)).toEqual(g);
      expect(await s.findGroup('acc-other', g.id)).toBeNull();
      expect(await s.findGroup('acc', newId())).toBeNull();
    });

    it('lists the live groups of an account by id after a cursor, at most the limit', async () => {
      const [a, b, c, d] = [group('acc'), group('acc'), group('acc-other'), group('acc')];
      for (const g of [d!, c!, b!, a!]) await s.insertGroup(g); // inserted out of order
      await s.markGroupDeleted('acc', b!.id, at(1));
      expect((await s.listGroups('acc', null, 10)).map((g) => g.id)).toEqual([a!.id, d!.id]);
      expect((await s.listGroups('acc', null, 1)).map((g) => g.id)).toEqual([a!.id]);
      expect((await s.listGroups('acc', a!.id, 10)).map((g) => g.id)).toEqual([d!.id]);
    });

    it('updates a live group of the account and answers it; a deleted or foreign group stays as it is', async () => {
      const g = group('acc');
      await s.insertGroup(g);
      const state = { name: 'Renamed', description: '', purpose: 'x' };
      expect(await s.updateGroup('acc', g.id, state, at(1))).toEqual({ ...g, ...state, updatedAt: at(1) });
      expect(await s.findGroup('acc', g.id)).toEqual({ ...g, ...state, updatedAt: at(1) });
      expect(await s.updateGroup('acc-other', g.id, { ...state, name: 'theirs' }, at(2))).toBeNull();

      expect(await s.markGroupDeleted('acc', g.id, at(3))).toBe(true);
      expect(await s.updateGroup('acc', g.id, { ...state, name: 'revived?' }, at(4))).toBeNull();
      expect(await s.findGroup('acc', g.id, { includeDeleted: true })).toEqual({ ...g, ...state, updatedAt: at(1), deletedAt: at(3) });
    });

    it('deletes a group once: a second deletion and one from another account find nothing to delete', async () => {
      const g = group('acc');
      await s.insertGroup(g);
      expect(await s.markGroupDeleted('acc-other', g.id, at(1))).toBe(false);
      const deletions = await Promise.all([s.markGroupDeleted('acc', g.id, at(2)), s.markGroupDeleted('acc', g.id, at(3))]);
      expect(deletions.sort()).toEqual([false, true]);
      expect(await s.findGroup('acc', g.id)).toBeNull();
      expect((await s.findGroup('acc', g.id, { includeDeleted: true }))?.deletedAt).toBeInstanceOf(Date);
      expect(await s.markGroupDeleted('acc', newId(), at(4))).toBe(false);
    });
  });

  describe('specifications and their versions', () => {
    it('reads a specification back within its account, and lists the live ones of a group by id after a cursor', async () => {
      const [x, y, z, other] = [newSpec('acc', 'g1'), newSpec('acc', 'g1'), newSpec('acc', 'g1'), newSpec('acc', 'g2')];
      for (const { spec } of [z!, other!, y!, x!]) await s.insertSpec(spec);
      expect(await s.findSpec('acc', x!.spec.id)).toEqual(x!.spec);
      expect(await s.findSpec('acc-other', x!.spec.id)).toBeNull();

      await s.insertVersion(x!.v1);
      const archived = { ...next(x!.v1, {}, false), deletedAt: at(1) };
      await s.rollForward(archived);
      expect((await s.listSpecs('acc', 'g1', null, 10)).map((sp) => sp.id)).toEqual([y!.spec.id, z!.spec.id]);
      expect((await s.listSpecs('acc', 'g1', null, 1)).map((sp) => sp.id)).toEqual([y!.spec.id]);
      expect((await s.listSpecs('acc', 'g1', y!.spec.id, 10)).map((sp) => sp.id)).toEqual([z!.spec.id]);
      expect(await s.listSpecs('acc-other', 'g1', null, 10)).toEqual([]);
      expect(await s.findSpec('acc', x!.spec.id)).toEqual(specAsOf(archived));
    });

    it('stores each (specification, version) once: the second insert of a version is refused, whoever makes it', async () => {
      const { v1 } = newSpec('acc', 'g');
      expect(await s.insertVersion(v1)).toBe(true);
      const v2 = next(v1, { purpose: 'mine' }, true);
      const theirs = { ...v2, appId: 'other-app', state: { ...v2.state, purpose: 'theirs' } };
      const won = await Promise.all([s.insertVersion(v2), s.insertVersion(theirs)]);
      expect(won.sort()).toEqual([false, true]);
      expect(await s.insertVersion(v1)).toBe(false);
      const stored = await s.findVersion('acc', v1.specId, 2);
      expect([v2, theirs]).toContainEqual(stored);
    });

    it('reads versions within their account: one by number, a range newest first skipping missing ones, and drops one', async () => {
      const { v1 } = newSpec('acc', 'g');
      const v2 = next(v1, { purpose: 'p2' }, true);
      const v4 = next(next(v2, { purpose: 'p3' }, false), { purpose: 'p4' }, false);
      for (const v of [v1, v2, v4]) await s.insertVersion(v);
      expect(await s.findVersion('acc', v1.specId, 2)).toEqual(v2);
      expect(await s.findVersion('acc-other', v1.specId, 2)).toBeNull();
      expect(await s.findVersion('acc', v1.specId, 3)).toBeNull();
      expect((await s.listVersions('acc', v1.specId, 1, 5)).map((v) => v.version)).toEqual([4, 2, 1]);
      expect((await s.listVersions('acc', v1.specId, 2, 4)).map((v) => v.version)).toEqual([2]);
      expect(await s.listVersions('acc-other', v1.specId, 1, 5)).toEqual([]);

      await s.dropVersion('acc-other', v1.specId, 1);
      expect(await s.findVersion('acc', v1.specId, 1)).toEqual(v1);
      await s.dropVersion('acc', v1.specId, 1);
      expect(await s.findVersion('acc', v1.specId, 1)).toBeNull();
      expect(await s.findVersion('acc', v1.specId, 2)).toEqual(v2);
    });

    it('rolls a specification forward to a newer version only: never back, never from another account', async () => {
      const { v1, spec } = newSpec('acc', 'g');
      await s.insertSpec(spec);
      const v2 = next(v1, { purpose: 'p2' }, false, 2);
      const v3 = next(v2, { purpose: 'p3' }, false, 3);
      await s.rollForward(v3);
      expect(await s.findSpec('acc', spec.id)).toEqual(specAsOf(v3));
      await s.rollForward(v2); // a slower writer of an older version
      await s.rollForward(v3);
      expect(await s.findSpec('acc', spec.id)).toEqual(specAsOf(v3));
      await s.rollForward({ ...next(v3, { purpose: 'theirs' }, false), accountId: 'acc-other' });
      expect(await s.findSpec('acc', spec.id)).toEqual(specAsOf(v3));
      await s.rollForward({ ...v3, specId: newId() }); // no such specification: nothing happens
      expect(await s.findSpec('acc', spec.id)).toEqual(specAsOf(v3));
    });
  });

  describe('the renewal signal', () => {
    it('is raised by a roll forward past a material change, and cleared by the acknowledgement of that version only', async () => {
      const { v1, spec } = newSpec('acc', 'g');
      const quiet = newSpec('acc', 'g');
      await s.insertSpec(spec);
      await s.insertSpec(quiet.spec);
      await s.rollForward(next(quiet.v1, { location: 'US' }, false));
      expect(await s.pendingRenewals(10)).toEqual([]);

      const v2 = next(v1, { purpose: 'p2' }, true);
      await s.rollForward(v2);
      expect(await s.pendingRenewals(10)).toEqual([{ accountId: 'acc', specId: spec.id, version: 2 }]);
      // two more changes, the first material, before the fan-out of version 2 is acknowledged
      const v3 = next(v2, { purpose: 'p3' }, true);
      const v4 = next(v3, { location: 'US' }, false);
      await s.rollForward(v4);
      await s.ackRenewal(spec.id, 2);
      expect(await s.pendingRenewals(10)).toEqual([{ accountId: 'acc', specId: spec.id, version: 3 }]);
      await s.ackRenewal(spec.id, 3);
      expect(await s.pendingRenewals(10)).toEqual([]);
      // a later change that is not material raises nothing again
      await s.rollForward(next(v4, { location: 'EU' }, false));
      expect(await s.pendingRenewals(10)).toEqual([]);
    });

    it('lists at most the limit, of any account', async () => {
      for (const acc of ['a', 'b', 'c']) {
        const { v1, spec } = newSpec(acc, 'g');
        await s.insertSpec(spec);
        await s.rollForward(next(v1, { purpose: 'new' }, true));
      }
      expect(await s.pendingRenewals(2)).toHaveLength(2);
      expect((await s.pendingRenewals(10)).map((p) => p.accountId).sort()).toEqual(['a', 'b', 'c']);
    });
  });
});
