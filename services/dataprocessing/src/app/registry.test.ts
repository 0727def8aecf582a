import { ConflictError, NotFoundError } from '@accord/common';
import type { GroupRecord, GroupState, SpecRecord, SpecVersionRecord } from '../domain/model';
import type { RegistryStore } from './ports';
import { Registry } from './registry';
import { versionFields } from '../domain/specs';

/** An in-memory store with the same contract as the Mongo one, plus hooks to inject failures. */
class MemoryStore implements RegistryStore {
  groups = new Map<string, GroupRecord>();
  specs = new Map<string, SpecRecord>();
  versions = new Map<string, SpecVersionRecord>();
  /** Called before each version insert; may insert a competing version first. */
  beforeInsert?: (v: SpecVersionRecord) => void;
  /** When set, rollForward fails (a crash between the two steps of a change). */
  crashOnRollForward = false;

  async insertGroup(g: GroupRecord) {
    this.groups.set(g.id, { ...g });
  }
  async findGroup(accountId: string, id: string, opts: { includeDeleted?: boolean } = {}) {
    const g = this.groups.get(id);
    return g && g.accountId === accountId && (opts.includeDeleted || !g.deletedAt) ? { ...g } : null;
  }
  async listGroups(accountId: string, afterId: string | null, limit: number) {
    return [...this.groups.values()].filter((g) => g.accountId === accountId && !g.deletedAt && (!afterId || g.id > afterId)).slice(0, limit);
  }
  async updateGroup(accountId: string, id: string, state: GroupState, updatedAt: Date) {
    const g = await this.findGroup(accountId, id);
    if (!g) return null;
    const next = { ...g, ...state, updatedAt };
    this.groups.set(id, next);
    return next;
  }
  async markGroupDeleted(accountId: string, id: string, at: Date) {
    const g = await this.findGroup(accountId, id);
    if (!g) return false;
    this.groups.set(id, { ...g, deletedAt: at });
    return true;
  }
  async insertSpec(s: SpecRecord) {
    this.specs.set(s.id, { ...s });
  }
  async findSpec(accountId: string, id: string) {
    const s = this.specs.get(id);
    return s && s.accountId === accountId ? { ...s } : null;
  }
  async listSpecs(accountId: string, groupId: string, afterId: string | null, limit: number) {
    return [...this.specs.values()]
      .filter((s) => s.accountId === accountId && s.groupId === groupId && !s.deletedAt && (!afterId || s.id > afterId))
      .slice(0, limit);
  }
  async rollForward(v: SpecVersionRecord) {
    if (this.crashOnRollForward) throw new Error('crash');
    const s = this.specs.get(v.specId);
    if (!s || s.version >= v.version) return;
    this.specs.set(v.specId, { ...s, ...versionFields(v) });
  }
  async pendingRenewals() {
    return [];
  }
  async ackRenewal() {}
  async insertVersion(v: SpecVersionRecord) {
    this.beforeInsert?.(v);
    const key = `${v.specId}:${v.version}`;
    if (this.versions.has(key)) return false;
    this.versions.set(key, v);
    return true;
  }
  async listVersions(accountId: string, specId: string, from: number, to: number) {
    const out = [];
    for (let v = to - 1; v >= from; v--) {
      const r = await this.findVersion(accountId, specId, v);
      if (r) out.push(r);
    }
    return out;
  }
  async findVersion(accountId: string, specId: string, version: number) {
    const v = this.versions.get(`${specId}:${version}`);
    return v && v.accountId === accountId ? v : null;
  }
  async dropVersion(_accountId: string, specId: string, version: number) {
    this.versions.delete(`${specId}:${version}`);
  }
}

let n = 0;
const newId = () => (++n).toString(16).padStart(24, '0');
const noConsent = { currentStates: async () => [] };

async function setup(opts: { maxAttempts?: number } = {}) {
  const store = new MemoryStore();
  const reg = new Registry(store, noConsent, { baseUrl: 'https://accord.test', defaultLocation: 'EU', newId, ...opts });
  const g = await reg.createGroup('acc', 'app', { name: 'G' });
  const s = await reg.createSpec('acc', 'app', g.id, { data: 'd', purpose: 'p0', action: 'use' });
  return { store, reg, g, s };
}

describe('a change of a specification', () => {
  it('that loses the race for its version number re-reads and applies on top of the winner', async () => {
    const { store, reg, s } = await setup();
    let raced = false;
    store.beforeInsert = (v) => {
      if (raced || v.version !== 2) return;
      raced = true;
      // another writer makes version 2 first (purpose "other") and rolls the document forward
      const other = { ...v, state: { ...v.state, purpose: 'other', data: 'other data' }, appId: 'other-app' };
      store.versions.set(`${v.specId}:2`, other);
      void store.rollForward(other);
    };
    const updated = await reg.updateSpec('acc', 'mine', s.id, { purpose: 'mine' }, ['purpose']);
    expect(updated).toMatchObject({ version: 3, purpose: 'mine', data: 'other data', appId: 'mine' });
    const versions = await reg.listVersions('acc', s.id);
    expect(versions.map((v) => [v.version, v.spec.purpose, v.appId])).toEqual([
      [2, 'other', 'other-app'],
      [1, 'p0', 'app'],
    ]);
  });

  it('interrupted after its version was stored is visible at once and heals the document on the next read', async () => {
    const { store, reg, s } = await setup();
    store.crashOnRollForward = true;
    await expect(reg.updateSpec('acc', 'app', s.id, { purpose: 'p1' }, ['purpose'])).rejects.toThrow('crash');
    expect(store.specs.get(s.id)!.version).toBe(1);
    store.crashOnRollForward = false;
    expect(await reg.getSpec('acc', s.id)).toMatchObject({ version: 2, purpose: 'p1' });
    expect(store.specs.get(s.id)).toMatchObject({ version: 2, purpose: 'p1' });
    // and the next change builds on it
    expect(await reg.updateSpec('acc', 'app', s.id, { purpose: 'p2' }, ['purpose'])).toMatchObject({ version: 3 });
  });

  it('gives up with a conflict after too many lost races', async () => {
    const { store, reg, s } = await setup({ maxAttempts: 3 });
    store.beforeInsert = (v) => {
      const other = { ...v, state: { ...v.state, purpose: `other-${v.version}` } };
      store.versions.set(`${v.specId}:${v.version}`, other);
    };
    await expect(reg.updateSpec('acc', 'app', s.id, { purpose: 'mine' }, ['purpose'])).rejects.toThrow(ConflictError);
  });

  it('drops exactly the version that falls out of the newest 100 previous ones', async () => {
    const { store, reg, s } = await setup();
    for (let i = 1; i <= 101; i++) await reg.updateSpec('acc', 'app', s.id, { purpose: `p${i}` }, ['purpose']);
    const kept = [...store.versions.keys()].filter((k) => k.startsWith(s.id)).map((k) => Number(k.split(':')[1]));
    expect(kept.sort((a, b) => a - b)).toEqual(Array.from({ length: 101 }, (_, i) => i + 2)); // 2..101 previous + 102 current
    expect((await reg.listVersions('acc', s.id)).map((v) => v.version)).toEqual(Array.from({ length: 100 }, (_, i) => 101 - i));
  });

  it('is refused on a deleted specification, whose last state stays readable', async () => {
    const { reg, s } = await setup();
    await reg.deleteSpec('acc', 'app', s.id);
    await expect(reg.updateSpec('acc', 'app', s.id, { purpose: 'x' }, ['purpose'])).rejects.toThrow(NotFoundError);
    expect(await reg.getSpec('acc', s.id)).toMatchObject({ version: 2, purpose: 'p0', deletedAt: expect.any(Date) });
  });
});
