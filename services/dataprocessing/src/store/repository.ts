import type { RegistryStore } from '../domain/ports';
import type { Action, GroupRecord, GroupState, LegalBasis, SpecRecord, SpecState, SpecVersionRecord, TextRecord, TextType } from '../domain/model';
import type { GroupDoc, Models, SpecDoc, SpecFieldsDoc, SpecVersionDoc, TextDoc } from './models';

/** Mongoose implementation of the registry's storage: plain finds, inserts guarded by unique indexes, single-document updates. */
export class MongoRegistryStore implements RegistryStore {
  constructor(private readonly m: Models) {}

  async insertGroup(g: GroupRecord): Promise<void> {
    await this.m.Group.create({ _id: g.id, ...omit(g, 'id') });
  }

  async findGroup(accountId: string, id: string, opts: { includeDeleted?: boolean } = {}): Promise<GroupRecord | null> {
    const doc = await this.m.Group.findOne({ _id: id, accountId, ...(opts.includeDeleted ? {} : { deletedAt: null }) }).lean<GroupDoc>();
    return doc ? toGroup(doc) : null;
  }

  async listGroups(accountId: string, afterId: string | null, limit: number): Promise<GroupRecord[]> {
    const docs = await this.m.Group.find({ accountId, deletedAt: null, ...(afterId ? { _id: { $gt: afterId } } : {}) })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<GroupDoc[]>();
    return docs.map(toGroup);
  }

  async updateGroup(accountId: string, id: string, state: GroupState, updatedAt: Date): Promise<GroupRecord | null> {
    const doc = await this.m.Group.findOneAndUpdate({ _id: id, accountId, deletedAt: null }, { $set: { ...state, updatedAt } }, { new: true }).lean<GroupDoc>();
    return doc ? toGroup(doc) : null;
  }

  async markGroupDeleted(accountId: string, id: string, at: Date): Promise<boolean> {
    const res = await this.m.Group.updateOne({ _id: id, accountId, deletedAt: null }, { $set: { deletedAt: at } });
    return res.modifiedCount === 1;
  }

  async insertSpec(s: SpecRecord): Promise<void> {
    await this.m.Spec.create({ _id: s.id, ...omit(s, 'id') });
  }

  async findSpec(accountId: string, id: string): Promise<SpecRecord | null> {
    const doc = await this.m.Spec.findOne({ _id: id, accountId }).lean<SpecDoc>();
    return doc ? toSpec(doc) : null;
  }

  async listSpecs(accountId: string, groupId: string, afterId: string | null, limit: number): Promise<SpecRecord[]> {
    const docs = await this.m.Spec.find({ accountId, groupId, deletedAt: null, ...(afterId ? { _id: { $gt: afterId } } : {}) })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<SpecDoc[]>();
    return docs.map(toSpec);
  }

  async rollForward(v: SpecVersionRecord): Promise<void> {
    await this.m.Spec.updateOne(
      { _id: v.specId, accountId: v.accountId, version: { $lt: v.version } },
      { $set: { ...v.state, texts: v.texts, nextTextId: v.nextTextId, appId: v.appId, updatedAt: v.createdAt, version: v.version, deletedAt: v.deletedAt } },
    );
  }

  async insertVersion(v: SpecVersionRecord): Promise<boolean> {
    try {
      await this.m.SpecVersion.create(v);
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  async latestVersion(accountId: string, specId: string): Promise<SpecVersionRecord | null> {
    const doc = await this.m.SpecVersion.findOne({ accountId, specId }).sort({ version: -1 }).lean<SpecVersionDoc>();
    return doc ? versionFromDoc(doc) : null;
  }

  async listVersions(accountId: string, specId: string, fromVersion: number, toVersion: number): Promise<SpecVersionRecord[]> {
    const docs = await this.m.SpecVersion.find({ accountId, specId, version: { $gte: fromVersion, $lt: toVersion } })
      .sort({ version: -1 })
      .lean<SpecVersionDoc[]>();
    return docs.map((d) => versionFromDoc(d));
  }

  async findVersion(accountId: string, specId: string, version: number): Promise<SpecVersionRecord | null> {
    const doc = await this.m.SpecVersion.findOne({ accountId, specId, version }).lean<SpecVersionDoc>();
    return doc ? versionFromDoc(doc) : null;
  }

  async dropVersionsBelow(accountId: string, specId: string, belowVersion: number): Promise<void> {
    await this.m.SpecVersion.deleteMany({ accountId, specId, version: { $lt: belowVersion } });
  }
}

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
  return (texts ?? []).map((t) => ({ id: t.id, value: t.value, language: t.language, type: t.type as TextType, createdAt: t.createdAt, updatedAt: t.updatedAt }));
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
  };
}

function toSpec(d: SpecDoc): SpecRecord {
  return {
    id: d._id,
    accountId: d.accountId,
    groupId: d.groupId,
    appId: d.appId,
    ...toState(d),
    texts: toTexts(d.texts),
    nextTextId: d.nextTextId,
    version: d.version,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    deletedAt: d.deletedAt ?? null,
  };
}

function versionFromDoc(d: SpecVersionDoc): SpecVersionRecord {
  return {
    accountId: d.accountId,
    specId: d.specId,
    version: d.version,
    createdAt: d.createdAt,
    appId: d.appId,
    groupId: d.groupId,
    specCreatedAt: d.specCreatedAt,
    state: toState(d.state),
    texts: toTexts(d.texts),
    nextTextId: d.nextTextId,
    deletedAt: d.deletedAt ?? null,
  };
}
