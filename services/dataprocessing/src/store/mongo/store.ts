import { isDuplicateKey } from '@accord/common';
import type { RegistryStore } from '../../app/ports';
import type { Action, GroupRecord, GroupState, LegalBasis, SpecRecord, SpecState, SpecVersionRecord, TextRecord, TextType } from '../../domain/model';
import { regimesOf, versionFields } from '../../domain/specs';
import type { GroupDoc, Models, SpecDoc, SpecFieldsDoc, SpecVersionDoc, TextDoc } from './models';

/**
 * The registry's storage on MongoDB, through mongoose models: finds, inserts guarded by unique
 * keys and single-document updates conditional on what they change, so it is exact with any
 * number of writers and replicas without transactions. Lookups by id filter on `_id` alone and
 * check the account in code (one key lookup on any server, whatever else the filter names).
 */
export class MongoRegistryStore implements RegistryStore {
  constructor(private readonly m: Models) {}

  async insertGroup(g: GroupRecord): Promise<void> {
    await this.m.Group.create({ _id: g.id, ...omit(g, 'id') });
  }

  async findGroup(accountId: string, id: string, opts: { includeDeleted?: boolean } = {}): Promise<GroupRecord | null> {
    const doc = await this.m.Group.findOne({ _id: id }).lean<GroupDoc>();
    if (!doc || doc.accountId !== accountId) return null;
    return opts.includeDeleted || !doc.deletedAt ? toGroup(doc) : null;
  }

  async listGroups(accountId: string, afterId: string | null, limit: number): Promise<GroupRecord[]> {
    const docs = await this.m.Group.find({ accountId, deletedAt: null, ...(afterId ? { _id: { $gt: afterId } } : {}) })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<GroupDoc[]>();
    return docs.map(toGroup);
  }

  async updateGroup(accountId: string, id: string, state: GroupState, updatedAt: Date): Promise<GroupRecord | null> {
    // conditional on the group being live: an update racing with the deletion cannot revive it
    const doc = await this.m.Group.findOneAndUpdate({ _id: id, accountId, deletedAt: null }, { $set: { ...state, updatedAt } }, { new: true }).lean<GroupDoc>();
    return doc ? toGroup(doc) : null;
  }

  async markGroupDeleted(accountId: string, id: string, at: Date): Promise<boolean> {
    // of concurrent deletions exactly one matches the live group
    const res = await this.m.Group.updateOne({ _id: id, accountId, deletedAt: null }, { $set: { deletedAt: at } });
    return res.modifiedCount === 1;
  }

  async insertSpec(s: SpecRecord): Promise<void> {
    await this.m.Spec.create({ _id: s.id, ...omit(s, 'id') });
  }

  async findSpec(accountId: string, id: string): Promise<SpecRecord | null> {
    const doc = await this.m.Spec.findOne({ _id: id }).lean<SpecDoc>();
    return doc && doc.accountId === accountId ? toSpec(doc) : null;
  }

  async listSpecs(accountId: string, groupId: string, afterId: string | null, limit: number): Promise<SpecRecord[]> {
    const docs = await this.m.Spec.find({ accountId, groupId, deletedAt: null, ...(afterId ? { _id: { $gt: afterId } } : {}) })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<SpecDoc[]>();
    return docs.map(toSpec);
  }

  async rollForward(v: SpecVersionRecord): Promise<void> {
    const doc = await this.m.Spec.findOne({ _id: v.specId }, { version: 1, accountId: 1, reconsentSince: 1 }).lean<
      Pick<SpecDoc, 'version' | 'accountId' | 'reconsentSince'>
    >();
    if (!doc || doc.accountId !== v.accountId || doc.version >= v.version) return;
    // A material change since the document's version: the signal for the consent service's
    // renewal fan-out, in the same single-document write (never lost, no extra command).
    const material = v.reconsentSince > (doc.reconsentSince ?? 1) ? { $max: { renewalPending: v.reconsentSince } } : {};
    // conditional on the version: of two writers rolling forward at once, the older never wins last
    await this.m.Spec.updateOne({ _id: v.specId, version: { $lt: v.version } }, { $set: versionFields(v), ...material });
  }

  async pendingRenewals(limit: number): Promise<Array<{ accountId: string; specId: string; version: number }>> {
    // no sort: the sparse `renewal_pending` index alone answers (an idle poll finds it empty);
    // acknowledged specifications leave it, so a limit never starves the others for long
    const docs = await this.m.Spec.find({ renewalPending: { $exists: true } }, { accountId: 1, renewalPending: 1 })
      .limit(limit)
      .lean<Array<Pick<SpecDoc, '_id' | 'accountId' | 'renewalPending'>>>();
    return docs.map((d) => ({ accountId: d.accountId, specId: d._id, version: d.renewalPending! }));
  }

  async ackRenewal(specId: string, version: number): Promise<void> {
    await this.m.Spec.updateOne({ _id: specId, renewalPending: version }, { $unset: { renewalPending: 1 } });
  }

  async insertVersion(v: SpecVersionRecord): Promise<boolean> {
    try {
      await this.m.SpecVersion.create({ _id: versionKey(v.specId, v.version), ...v });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async listVersions(accountId: string, specId: string, fromVersion: number, toVersion: number): Promise<SpecVersionRecord[]> {
    const keys = [];
    for (let v = fromVersion; v < toVersion; v++) keys.push(versionKey(specId, v));
    if (!keys.length) return [];
    const found = await Promise.all(keys.map((_id) => this.m.SpecVersion.findOne({ _id }).lean<SpecVersionDoc>()));
    return found
      .filter((d): d is SpecVersionDoc => d !== null && d.accountId === accountId)
      .map((d) => versionFromDoc(d))
      .sort((a, b) => b.version - a.version);
  }

  async findVersion(accountId: string, specId: string, version: number): Promise<SpecVersionRecord | null> {
    const doc = await this.m.SpecVersion.findOne({ _id: versionKey(specId, version) }).lean<SpecVersionDoc>();
    return doc && doc.accountId === accountId ? versionFromDoc(doc) : null;
  }

  async dropVersion(accountId: string, specId: string, version: number): Promise<void> {
    const doc = await this.findVersion(accountId, specId, version);
    if (doc) await this.m.SpecVersion.deleteOne({ _id: versionKey(specId, version) });
  }
}

const versionKey = (specId: string, version: number) => `${specId}:${version}`;

function omit<T extends object, K extends keyof T>(o: T, k: K): Omit<T, K> {
  const { [k]: _dropped, ...rest } = o;
  return rest;
}

function toGroup(d: GroupDoc): GroupRecord {
  return {
    id: d._id,
    accountId: d.accountId,
    appId: d.appId,
    name: d.name ?? '',
    description: d.description ?? '',
    purpose: d.purpose ?? '',
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    deletedAt: d.deletedAt ?? null,
  };
}

function toTexts(texts: TextDoc[] | undefined): TextRecord[] {
  return (texts ?? []).map((t) => ({
    id: t.id,
    value: t.value,
    language: t.language,
    type: t.type as TextType,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  }));
}

function toState(d: SpecFieldsDoc): SpecState {
  return {
    data: d.data,
    purpose: d.purpose,
    action: d.action as Action,
    sensitive: d.sensitive,
    consentTarget: d.consentTarget,
    location: d.location,
    duration: d.duration ?? null,
    legalBasis: (d.legalBasis ?? null) as LegalBasis | null,
    externalHref: d.externalHref ?? null,
    ...(d.consentValidityDays != null ? { consentValidityDays: d.consentValidityDays } : {}),
    regimes: regimesOf(d.regimes as SpecState['regimes'] | undefined),
    ...(d.consentMode?.length ? { consentMode: d.consentMode as SpecState['consentMode'] } : {}),
  };
}

/** A specification's record from its document (its state's fields at the top level, as `toState` reads them). */
function toSpec(d: SpecDoc): SpecRecord {
  const { _id: id, accountId, groupId, appId, nextTextId, version, createdAt, updatedAt } = d;
  return {
    id,
    accountId,
    groupId,
    appId,
    ...toState(d),
    texts: toTexts(d.texts),
    nextTextId,
    version,
    reconsentSince: d.reconsentSince ?? 1,
    createdAt,
    updatedAt,
    deletedAt: d.deletedAt ?? null,
  };
}

/** A version's record from its document (`_id` is `<specId>:<version>`, both also fields of their own). */
function versionFromDoc({ _id, reconsentSince, state, texts, deletedAt, ...rest }: SpecVersionDoc): SpecVersionRecord {
  return { ...rest, reconsentSince: reconsentSince ?? 1, state: toState(state), texts: toTexts(texts), deletedAt: deletedAt ?? null };
}
