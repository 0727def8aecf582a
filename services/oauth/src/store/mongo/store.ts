import { bulkWriteFailures, isDuplicateKey } from '@accord/common';
import type { Connection } from 'mongoose';
import { LIMIT_FIELDS, type AccountLimits } from '../../domain/limits';
import type { Account, Application, ApplicationKey, OAuthStore } from '../../app/ports';
import { defineModels, type AccountDoc, type ApplicationDoc, type OAuthModels } from './models';

/**
 * The oauth store on MongoDB (MongoDB ≥ 6; mongo-java-server in tests), through mongoose models:
 * finds on unique keys, inserts guarded by unique indexes, single-document conditional updates.
 * No transactions; exact with any number of replicas.
 */
export function mongoOAuthStore(m: OAuthModels): OAuthStore {
  /** Inserts a document; false when a unique key is taken. */
  const insertUnique = async (insert: () => Promise<unknown>): Promise<boolean> => {
    try {
      await insert();
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  };
  const appFilter = (key: ApplicationKey) =>
    'clientId' in key ? { clientId: key.clientId } : { _id: key.id, ...(key.accountId ? { accountId: key.accountId } : {}) };

  return {
    accounts: {
      insert: ({ id, ...a }) => insertUnique(() => m.accounts.create({ _id: id, ...a })),
      byId: async (id) => toAccount(await m.accounts.findById(id).lean<AccountDoc>().exec()),
      byName: async (name) => toAccount(await m.accounts.findOne({ name }).lean<AccountDoc>().exec()),
      byApiKeyHash: async (apiKeyHash) => toAccount(await m.accounts.findOne({ apiKeyHash }).lean<AccountDoc>().exec()),
      byPreviousApiKeyHash: async (previousApiKeyHash) => toAccount(await m.accounts.findOne({ previousApiKeyHash }).lean<AccountDoc>().exec()),
      list: async () => (await m.accounts.find().sort({ createdAt: 1, _id: 1 }).lean<AccountDoc[]>().exec()).map((d) => toAccount(d)!),
      rotateApiKey: async (id, next, previous, at) =>
        toAccount(
          await m.accounts
            .findOneAndUpdate(
              { _id: id },
              {
                $set: {
                  apiKeyHash: next.hash,
                  apiKeyEnc: next.enc,
                  apiKeyRotatedAt: at,
                  previousApiKeyHash: previous?.hash ?? null,
                  previousApiKeyExpiresAt: previous?.expiresAt ?? null,
                },
              },
              { new: true },
            )
            .lean<AccountDoc>()
            .exec(),
        ),
    },

    applications: {
      insert: async ({ id, ...a }) => void (await m.applications.create({ _id: id, ...a })),
      get: async (key) => toApplication(await m.applications.findOne(appFilter(key)).lean<ApplicationDoc>().exec()),
      ofAccount: async (accountId) =>
        (await m.applications.find({ accountId }).sort({ createdAt: 1, _id: 1 }).lean<ApplicationDoc[]>().exec()).map((d) => toApplication(d)!),
      update: async (key, change) =>
        toApplication(await m.applications.findOneAndUpdate(appFilter(key), { $set: change }, { new: true }).lean<ApplicationDoc>().exec()),
      anyAllowsOrigin: async (origin) => (await m.applications.exists({ allowedOrigins: origin }).exec()) !== null,
    },

    families: {
      /** Unordered, so one family's failure leaves the others stored. */
      async insertMany(families) {
        try {
          await m.tokenFamilies.insertMany(
            families.map(({ id, ...f }) => ({ _id: id, ...f })),
            { ordered: false, lean: true },
          );
          return new Map();
        } catch (err) {
          const failed = bulkWriteFailures(err);
          if (!failed) throw err;
          return failed;
        }
      },
      get: async (id) => fromDoc(await m.tokenFamilies.findById(id).lean().exec()),
      ofClient: async (accountId, clientId, limit) =>
        (await m.tokenFamilies.find({ accountId, clientId }).sort({ createdAt: -1 }).limit(limit).lean().exec()).map((d) => fromDoc(d)!),
      spend: async (q) =>
        fromDoc(
          await m.tokenFamilies
            .findOneAndUpdate(
              {
                _id: q.familyId,
                gen: q.gen,
                clientId: q.clientId,
                revokedAt: null,
                expiresAt: { $gt: q.now },
                ...(q.scopes.length ? { scopes: { $all: q.scopes } } : {}),
              },
              { $inc: { gen: 1 } },
            )
            .lean()
            .exec(),
        ),
      async revoke(id, at, reason, accountId) {
        const filter = { _id: id, ...(accountId ? { accountId } : {}) };
        await m.tokenFamilies.updateOne({ ...filter, revokedAt: null }, { $set: { revokedAt: at, revokedReason: reason } }).exec();
        return fromDoc(await m.tokenFamilies.findOne(filter).lean().exec());
      },
      revokeOfClient: async (clientId, at, reason) =>
        (await m.tokenFamilies.updateMany({ clientId, revokedAt: null }, { $set: { revokedAt: at, revokedReason: reason } }).exec()).modifiedCount,
    },

    members: {
      insert: ({ id, ...member }) => insertUnique(() => m.members.create({ _id: id, ...member })),
      get: async (accountId, id) => fromDoc(await m.members.findOne({ _id: id, accountId }).lean().exec()),
      byName: async (accountId, name) => fromDoc(await m.members.findOne({ accountId, name }).lean().exec()),
      bySubject: async (subject) => (await m.members.find({ subject }).sort({ createdAt: 1, _id: 1 }).lean().exec()).map((d) => fromDoc(d)!),
      ofAccount: async (accountId) => (await m.members.find({ accountId }).sort({ createdAt: 1, _id: 1 }).lean().exec()).map((d) => fromDoc(d)!),
      countOwners: (accountId) => m.members.countDocuments({ accountId, role: 'owner' }).exec(),
      setRole: async (accountId, id, role) =>
        fromDoc(await m.members.findOneAndUpdate({ _id: id, accountId }, { $set: { role } }, { new: false }).lean().exec()),
      delete: async (accountId, id) => fromDoc(await m.members.findOneAndDelete({ _id: id, accountId }).lean().exec()),
    },

    links: {
      insert: async ({ hash, ...link }) => void (await m.links.create({ _id: hash, ...link })),
      spend: async (hash, now) =>
        fromHashed(
          await m.links
            .findOneAndUpdate({ _id: hash, usedAt: null, expiresAt: { $gt: now } }, { $set: { usedAt: now } }, { new: true })
            .lean()
            .exec(),
        ),
      deleteOfMember: async (accountId, memberId) => void (await m.links.deleteMany({ accountId, memberId }).exec()),
    },

    sessions: {
      insert: async ({ hash, ...session }) => void (await m.sessions.create({ _id: hash, ...session })),
      get: async (hash) => fromHashed(await m.sessions.findById(hash).lean().exec()),
      touch: async (hash, at) => void (await m.sessions.updateOne({ _id: hash }, { $set: { lastSeenAt: at } }).exec()),
      revoke: async (hash, at) => void (await m.sessions.updateOne({ _id: hash, revokedAt: null }, { $set: { revokedAt: at } }).exec()),
      revokeOfMember: async (accountId, memberId, at) =>
        (await m.sessions.updateMany({ accountId, memberId, revokedAt: null }, { $set: { revokedAt: at } }).exec()).modifiedCount,
    },

    limits: {
      async overrides(accountId) {
        const doc = await m.limits.findById(accountId).lean().exec();
        const out: AccountLimits = {};
        for (const f of LIMIT_FIELDS) if (typeof doc?.[f] === 'number') out[f] = doc[f];
        return out;
      },
      setOverrides: async (accountId, limits, at) =>
        void (await m.limits.updateOne({ _id: accountId }, { $set: { ...limits, updatedAt: at } }, { upsert: true }).exec()),
      clearOverrides: async (accountId) => void (await m.limits.deleteOne({ _id: accountId }).exec()),
      counted: async (key) => (await m.usage.findById(key).lean().exec())?.events ?? 0,
      /**
       * The upsert matches the key's document only while `events <= max - count`; when it exists
       * but is too full, the upsert's insert collides on `_id`: refused.
       */
      async admit(key, count, max, expiresAt) {
        try {
          const doc = await m.usage
            .findOneAndUpdate(
              { _id: key, events: { $lte: max - count } },
              { $inc: { events: count }, $setOnInsert: { expiresAt } },
              { upsert: true, new: true },
            )
            .lean()
            .exec();
          return doc?.events ?? count;
        } catch (err) {
          if (isDuplicateKey(err)) return undefined;
          throw err;
        }
      },
      giveBack: async (key, count) => void (await m.usage.updateOne({ _id: key, events: { $gte: count } }, { $inc: { events: -count } }).exec()),
    },
  };
}

/** The oauth models on a connection, and the store over them (indexes are created by syncIndexes). */
export function oauthStoreOn(conn: Connection): { store: OAuthStore; models: OAuthModels } {
  const models = defineModels(conn);
  return { store: mongoOAuthStore(models), models };
}

/** A record from its document: `_id` is its id. */
function fromDoc<T extends { _id: string }>(doc: T | null): (Omit<T, '_id'> & { id: string }) | undefined {
  if (!doc) return undefined;
  const { _id, ...rest } = doc;
  return { id: _id, ...rest };
}

/** A record stored under the keyed hash of its secret: `_id` is its hash. */
function fromHashed<T extends { _id: string }>(doc: T | null): (Omit<T, '_id'> & { hash: string }) | undefined {
  if (!doc) return undefined;
  const { _id, ...rest } = doc;
  return { hash: _id, ...rest };
}

/**
 * `rec` with each of `keys` null where its document has none: fields added after the first
 * documents were written (the schema's `default: null` applies to new documents only).
 */
function withNulls<T extends object, K extends keyof T>(rec: T, keys: readonly K[]): T {
  const out = { ...rec };
  for (const k of keys) out[k] ??= null as T[K];
  return out;
}

function toAccount(d: AccountDoc | null): Account | undefined {
  const a = fromDoc(d);
  return a && withNulls(a, ['previousApiKeyHash', 'previousApiKeyExpiresAt', 'apiKeyRotatedAt']);
}

/** An application from its document (`allowedOrigins` is absent on applications that never had any). */
function toApplication(d: ApplicationDoc | null): Application | undefined {
  const a = fromDoc(d);
  return a && withNulls({ ...a, allowedOrigins: a.allowedOrigins ?? [] }, ['disabledAt', 'previousSecretHash', 'previousSecretExpiresAt', 'secretRotatedAt']);
}
