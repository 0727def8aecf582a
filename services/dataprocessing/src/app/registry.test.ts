import { ConflictError, NotFoundError } from '@accord/common';
import { MemoryRegistryStore } from '../store/memory/store';
import { Registry } from './registry';

let n = 0;
const newId = () => (++n).toString(16).padStart(24, '0');
const noConsent = { currentStates: async () => [] };

async function setup(opts: { maxAttempts?: number; now?: () => Date } = {}) {
  const store = new MemoryRegistryStore();
  const reg = new Registry(store, noConsent, { baseUrl: 'https://accord.test', defaultLocation: 'EU', newId, ...opts });
  const g = await reg.createGroup('acc', 'app', { name: 'G' });
  const s = await reg.createSpec('acc', 'app', g.id, { data: 'd', purpose: 'p0', action: 'use' });
  return { store, reg, g, s };
}

describe('a change of a specification', () => {
  it('that loses the race for its version number re-reads and applies on top of the winner', async () => {
    const { store, reg, s } = await setup();
    let raced = false;
    store.beforeInsertVersion = async (v) => {
      if (raced || v.version !== 2) return;
      raced = true;
      // another writer makes version 2 first (purpose "other") and rolls the document forward
      const other = { ...v, state: { ...v.state, purpose: 'other', data: 'other data' }, appId: 'other-app' };
      await store.insertVersion(other);
      await store.rollForward(other);
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
    store.failNext('rollForward', new Error('crash'));
    await expect(reg.updateSpec('acc', 'app', s.id, { purpose: 'p1' }, ['purpose'])).rejects.toThrow('crash');
    expect((await store.findSpec('acc', s.id))!.version).toBe(1);
    expect(await reg.getSpec('acc', s.id)).toMatchObject({ version: 2, purpose: 'p1' });
    expect(await store.findSpec('acc', s.id)).toMatchObject({ version: 2, purpose: 'p1' });
    // and the next change builds on it
    expect(await reg.updateSpec('acc', 'app', s.id, { purpose: 'p2' }, ['purpose'])).toMatchObject({ version: 3 });
  });

  it('gives up with a conflict after too many lost races', async () => {
    const { store, reg, s } = await setup({ maxAttempts: 3 });
    store.beforeInsertVersion = async (v) => void (await store.insertVersion({ ...v, state: { ...v.state, purpose: `other-${v.version}` } }));
    await expect(reg.updateSpec('acc', 'app', s.id, { purpose: 'mine' }, ['purpose'])).rejects.toThrow(ConflictError);
  });

  it('drops exactly the version that falls out of the newest 100 previous ones', async () => {
    const { store, reg, s } = await setup();
    for (let i = 1; i <= 101; i++) await reg.updateSpec('acc', 'app', s.id, { purpose: `p${i}` }, ['purpose']);
    const kept = (await store.listVersions('acc', s.id, 1, 103)).map((v) => v.version);
    expect(kept).toEqual(Array.from({ length: 101 }, (_, i) => 102 - i)); // 101..2 previous + 102 current
    expect((await reg.listVersions('acc', s.id)).map((v) => v.version)).toEqual(Array.from({ length: 100 }, (_, i) => 101 - i));
  });

  it('is refused on a deleted specification, whose last state stays readable', async () => {
    const { reg, s } = await setup();
    await reg.deleteSpec('acc', 'app', s.id);
    await expect(reg.updateSpec('acc', 'app', s.id, { purpose: 'x' }, ['purpose'])).rejects.toThrow(NotFoundError);
    expect(await reg.getSpec('acc', s.id)).toMatchObject({ version: 2, purpose: 'p0', deletedAt: expect.any(Date) });
  });
});

describe('a specification as it was at a moment (decisions in the past)', () => {
  it('is the version current then: the newest made at or before it; none before it was made', async () => {
    let clock = Date.parse('2030-03-01T00:00:00Z');
    const { reg, s } = await setup({ now: () => new Date(clock) });
    clock += 60_000;
    await reg.updateSpec('acc', 'app', s.id, { purpose: 'p1' }, ['purpose']); // version 2 at +1 min
    clock += 60_000;
    await reg.updateSpec('acc', 'app', s.id, { purpose: 'p2' }, ['purpose']); // version 3 at +2 min
    const at = (minutes: number) => new Date(Date.parse('2030-03-01T00:00:00Z') + minutes * 60_000);
    const asOf = async (m: number) => (await reg.specForConsent('acc', s.id, undefined, at(m))).spec;
    expect(await asOf(0)).toMatchObject({ version: 1, purpose: 'p0' });
    expect(await asOf(1.5)).toMatchObject({ version: 2, purpose: 'p1' });
    expect(await asOf(2)).toMatchObject({ version: 3, purpose: 'p2' });
    expect(await asOf(60)).toMatchObject({ version: 3, purpose: 'p2' });
    await expect(asOf(-1)).rejects.toThrow(NotFoundError);
    // a version asked for by number wins over the moment
    expect((await reg.specForConsent('acc', s.id, 1, at(60))).spec).toMatchObject({ version: 1 });
  });
});
