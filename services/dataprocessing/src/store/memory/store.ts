import { copyRecord } from '@accord/common';
import type { RegistryStore } from '../../app/ports';
import type { GroupRecord, GroupState, SpecRecord, SpecVersionRecord } from '../../domain/model';
import { versionFields } from '../../domain/specs';

/**
 * The registry's storage in memory: the port's behaviour without a database, for unit tests of
 * the registry (fast, no I/O) and as the reference the contract test holds the MongoDB adapter to
 * (test/store-contract.test.ts). One process, no persistence; records go in and out as copies.
 *
 * Two hooks play what a test cannot otherwise time: `failNext` makes the next call of a method
 * fail (a crash between two steps of a change), and `beforeInsertVersion` runs before a version
 * insert (another writer making that version first); calls made from the hook do not run it again.
 */
export class MemoryRegistryStore implements RegistryStore {
  private readonly groups = new Map<string, GroupRecord>();
  private readonly specs = new Map<string, SpecRecord & { renewalPending?: number }>();
  private readonly versions = new Map<string, SpecVersionRecord>();
  private readonly failures = new Map<string, unknown>();
  beforeInsertVersion?: (v: SpecVersionRecord) => Promise<void> | void;

  /** The next call of `method` throws `error`. */
  failNext(method: keyof RegistryStore, error: unknown = new Error(`injected fault: ${method}`)): void {
    this.failures.set(method, error);
  }

  private fault(method: keyof RegistryStore): void {
    if (!this.failures.has(method)) return;
    const error = this.failures.get(method);
    this.failures.delete(method);
    throw error;
  }

  async insertGroup(g: GroupRecord): Promise<void> {
    if (this.groups.has(g.id)) throw new Error(`duplicate key: group ${g.id}`);
    this.groups.set(g.id, copyRecord(g));
  }

  async findGroup(accountId: string, id: string, opts: { includeDeleted?: boolean } = {}): Promise<GroupRecord | null> {
    const g = this.groups.get(id);
    return g && g.accountId === accountId && (opts.includeDeleted || !g.deletedAt) ? copyRecord(g) : null;
  }

  async listGroups(accountId: string, afterId: string | null, limit: number): Promise<GroupRecord[]> {
    return sortedById([...this.groups.values()].filter((g) => g.accountId === accountId && !g.deletedAt && (!afterId || g.id > afterId)))
      .slice(0, limit)
      .map((g) => copyRecord(g));
  }

  async updateGroup(accountId: string, id: string, state: GroupState, updatedAt: Date): Promise<GroupRecord | null> {
    this.fault('updateGroup');
    const g = this.groups.get(id);
    if (!g || g.accountId !== accountId || g.deletedAt) return null;
    const next = { ...g, ...copyRecord(state), updatedAt };
    this.groups.set(id, next);
    return copyRecord(next);
  }

  async markGroupDeleted(accountId: string, id: string, at: Date): Promise<boolean> {
    const g = this.groups.get(id);
    if (!g || g.accountId !== accountId || g.deletedAt) return false;
    this.groups.set(id, { ...g, deletedAt: at });
    return true;
  }

  async insertSpec(s: SpecRecord): Promise<void> {
    this.fault('insertSpec');
    if (this.specs.has(s.id)) throw new Error(`duplicate key: specification ${s.id}`);
    this.specs.set(s.id, copyRecord(s));
  }

  async findSpec(accountId: string, id: string): Promise<SpecRecord | null> {
    const s = this.specs.get(id);
    return s && s.accountId === accountId ? withoutSignal(s) : null;
  }

  async listSpecs(accountId: string, groupId: string, afterId: string | null, limit: number): Promise<SpecRecord[]> {
    return sortedById(
      [...this.specs.values()].filter((s) => s.accountId === accountId && s.groupId === groupId && !s.deletedAt && (!afterId || s.id > afterId)),
    )
      .slice(0, limit)
      .map(withoutSignal);
  }

  async rollForward(v: SpecVersionRecord): Promise<void> {
    this.fault('rollForward');
    const s = this.specs.get(v.specId);
    if (!s || s.accountId !== v.accountId || s.version >= v.version) return;
    const renewalPending = v.reconsentSince > s.reconsentSince ? Math.max(s.renewalPending ?? 0, v.reconsentSince) : s.renewalPending;
    this.specs.set(v.specId, { ...s, ...copyRecord(versionFields(v)), ...(renewalPending !== undefined ? { renewalPending } : {}) });
  }

  async pendingRenewals(limit: number): Promise<Array<{ accountId: string; specId: string; version: number }>> {
    return [...this.specs.values()]
      .filter((s) => s.renewalPending !== undefined)
      .slice(0, limit)
      .map((s) => ({ accountId: s.accountId, specId: s.id, version: s.renewalPending! }));
  }

  async ackRenewal(specId: string, version: number): Promise<void> {
    const s = this.specs.get(specId);
    if (s?.renewalPending === version) delete s.renewalPending;
  }

  async insertVersion(v: SpecVersionRecord): Promise<boolean> {
    const hook = this.beforeInsertVersion;
    if (hook) {
      this.beforeInsertVersion = undefined;
      try {
        await hook(copyRecord(v));
      } finally {
        this.beforeInsertVersion = hook;
      }
    }
    const key = versionKey(v.specId, v.version);
    if (this.versions.has(key)) return false;
    this.versions.set(key, copyRecord(v));
    return true;
  }

  async listVersions(accountId: string, specId: string, fromVersion: number, toVersion: number): Promise<SpecVersionRecord[]> {
    const out: SpecVersionRecord[] = [];
    for (let v = toVersion - 1; v >= fromVersion; v--) {
      const r = await this.findVersion(accountId, specId, v);
      if (r) out.push(r);
    }
    return out;
  }

  async findVersion(accountId: string, specId: string, version: number): Promise<SpecVersionRecord | null> {
    const v = this.versions.get(versionKey(specId, version));
    return v && v.accountId === accountId ? copyRecord(v) : null;
  }

  async dropVersion(accountId: string, specId: string, version: number): Promise<void> {
    const key = versionKey(specId, version);
    if (this.versions.get(key)?.accountId === accountId) this.versions.delete(key);
  }
}

const versionKey = (specId: string, version: number) => `${specId}:${version}`;
const sortedById = <T extends { id: string }>(xs: T[]): T[] => xs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

function withoutSignal(s: SpecRecord & { renewalPending?: number }): SpecRecord {
  const { renewalPending: _signal, ...spec } = copyRecord(s);
  return spec;
}
