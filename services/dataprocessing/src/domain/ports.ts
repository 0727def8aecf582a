import type { GroupRecord, GroupState, SpecRecord, SpecVersionRecord, TextRecord, SpecState } from './model';
import type { CurrentEvent } from './views';

/** What the registry needs from storage. Every method is scoped by account. */
export interface RegistryStore {
  insertGroup(group: GroupRecord): Promise<void>;
  /** A live group (not deleted), or null. */
  findGroup(accountId: string, id: string, opts?: { includeDeleted?: boolean }): Promise<GroupRecord | null>;
  /** Live groups with id > afterId, oldest first. */
  listGroups(accountId: string, afterId: string | null, limit: number): Promise<GroupRecord[]>;
  updateGroup(accountId: string, id: string, state: GroupState, updatedAt: Date): Promise<GroupRecord | null>;
  /** Marks a live group deleted; false when there was none. */
  markGroupDeleted(accountId: string, id: string, at: Date): Promise<boolean>;
  /** Archives every live specification of a group. */
  archiveSpecsOfGroup(accountId: string, groupId: string, at: Date): Promise<void>;

  insertSpec(spec: SpecRecord): Promise<void>;
  /** A specification, archived ones included, or null. */
  findSpec(accountId: string, id: string): Promise<SpecRecord | null>;
  /** Live specifications of a group with id > afterId, oldest first. */
  listSpecs(accountId: string, groupId: string, afterId: string | null, limit: number): Promise<SpecRecord[]>;
  /**
   * Compare-and-set: applies the change only when the live specification is still at
   * `expectedVersion`, bumping it to expectedVersion + 1. Null when it is not (lost a race,
   * archived or gone).
   */
  replaceSpecIfVersion(
    accountId: string,
    id: string,
    expectedVersion: number,
    next: { state: SpecState; texts: TextRecord[]; nextTextId: number; appId: string; updatedAt: Date },
  ): Promise<SpecRecord | null>;
  /** Archives a live specification; null when there was none. */
  archiveSpec(accountId: string, id: string, at: Date): Promise<SpecRecord | null>;

  /** Stores a version unless that (spec, version) is already stored (it is then identical). */
  putVersion(version: SpecVersionRecord): Promise<void>;
  /** Versions in [fromVersion, toVersion), newest first. */
  listVersions(accountId: string, specId: string, fromVersion: number, toVersion: number): Promise<SpecVersionRecord[]>;
  findVersion(accountId: string, specId: string, version: number): Promise<SpecVersionRecord | null>;
  /** Drops versions below `belowVersion`. */
  dropVersionsBelow(accountId: string, specId: string, belowVersion: number): Promise<void>;
}

/** The consent service, as the dashboard needs it. */
export interface ConsentStates {
  currentStates(req: { accountId: string; subject: string; issuer: string; targets: string[] }): Promise<CurrentEvent[]>;
}
