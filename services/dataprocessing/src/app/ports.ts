import type { GroupRecord, GroupState, SpecRecord, SpecVersionRecord } from '../domain/model';
import type { CurrentEvent } from '../domain/views';

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

  /** Stores the document of a new specification (its version 1 record is stored first). */
  insertSpec(spec: SpecRecord): Promise<void>;
  /** The specification document (a copy of a version record; possibly behind the newest one), or null. */
  findSpec(accountId: string, id: string): Promise<SpecRecord | null>;
  /** Live specifications of a group with id > afterId, oldest first. */
  listSpecs(accountId: string, groupId: string, afterId: string | null, limit: number): Promise<SpecRecord[]>;
  /** Copies a version record into the specification document unless the document is already at that version or newer. */
  rollForward(version: SpecVersionRecord): Promise<void>;

  /**
   * Stores a new version record; false when that (spec, version) exists already (another
   * writer made that version first). This insert is the one atomic step of every change.
   */
  insertVersion(version: SpecVersionRecord): Promise<boolean>;
  /** Versions in [fromVersion, toVersion), newest first. */
  listVersions(accountId: string, specId: string, fromVersion: number, toVersion: number): Promise<SpecVersionRecord[]>;
  /** One version record (a primary-key lookup). */
  findVersion(accountId: string, specId: string, version: number): Promise<SpecVersionRecord | null>;
  dropVersion(accountId: string, specId: string, version: number): Promise<void>;

  /**
   * Specifications (any account) whose latest material version was not yet acknowledged by the
   * consent service's `consent.renewal_required` fan-out, by id. rollForward records it when it
   * raises a specification's reconsentSince (the same write as the change itself).
   */
  pendingRenewals(limit: number): Promise<Array<{ accountId: string; specId: string; version: number }>>;
  /** The fan-out of that version is done: clears the signal unless a later material version replaced it. */
  ackRenewal(specId: string, version: number): Promise<void>;
}

/** The consent service, as the dashboard needs it. */
export interface ConsentStates {
  currentStates(req: { accountId: string; subject: string; issuer: string; targets: string[] }): Promise<CurrentEvent[]>;
}
