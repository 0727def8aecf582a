import { Schema, type Connection, type Model } from 'mongoose';
import type { LinkStore } from '../../app/ports';
import { isDuplicateKey, nullableFields, requiredFields } from '@accord/common';
import type { LinkEvent } from '../../domain/link';
import { idBounds } from './docs';
import { driverCollection } from './models';

/**
 * consent_links: the link events of linked identities (domain/link.ts), _id = the link's id
 * (time-ordered hex). Never changed once inserted, except by erasure (identity and subject become
 * keyed hashes, `erasedAt` set).
 */
export interface LinkDoc extends Omit<LinkEvent, 'id' | 'erasedAt' | 'importedAt'> {
  _id: string;
  erasedAt?: Date;
  /** Imported links: when, and the key that stores the line once in its account (`import_key` of consent_events' kind). */
  importedAt?: Date;
  importKey?: string;
  /** The outbox: due for the relay from then on, until published (`subject.linked`); `claim` names the relay round that took it. */
  pub?: Date;
  claim?: string;
  /** The account id while the link waits for its consent-log leaf, and the leaf hash (base64) until then. */
  logq?: string;
  logh?: string;
}

export function defineLinkModel(conn: Connection): Model<LinkDoc> {
  const links = new Schema<LinkDoc>(
    {
      ...requiredFields({ _id: String, accountId: String, appId: String, issuer: String, identity: String }),
      ...nullableFields({ subject: String }),
      ...requiredFields({ createdAt: Date }),
      erasedAt: Date,
      importedAt: Date,
      importKey: String,
      pub: Date,
      claim: String,
      logq: String,
      logh: String,
    },
    { versionKey: false, _id: false, collection: 'consent_links' },
  );
  // the relay: links not yet on NATS (sparse: published links leave the index)
  links.index({ pub: 1 }, { name: 'unpublished_links', sparse: true });
  // the log's queue: links waiting for their leaf, by account and id (sparse: sequenced links leave it)
  links.index({ logq: 1, _id: 1 }, { name: 'links_log_pending', sparse: true });
  // an identity's links, newest first (its current link is the first)
  links.index({ accountId: 1, identity: 1, issuer: 1, _id: -1 }, { name: 'identity_links' });
  // the links naming a subject (a subject without links costs one empty index probe)
  links.index({ accountId: 1, subject: 1, issuer: 1, _id: -1 }, { name: 'subject_links' });
  // the account's links in id order: the NDJSON export with links=true
  links.index({ accountId: 1, _id: 1 }, { name: 'account_links' });
  // an imported link is stored once per key (the key begins with the account; sparse: links made here have none)
  links.index({ importKey: 1 }, { name: 'link_import_key', unique: true, sparse: true });
  return conn.model('ConsentLink', links);
}

const linkOf = ({ _id, ...d }: LinkDoc): LinkEvent => {
  const out: LinkEvent = {
    id: _id,
    accountId: d.accountId,
    appId: d.appId,
    issuer: d.issuer,
    identity: d.identity,
    subject: d.subject ?? null,
    createdAt: d.createdAt,
  };
  if (d.importedAt) out.importedAt = d.importedAt;
  if (d.erasedAt) out.erasedAt = d.erasedAt;
  return out;
};

export function mongoLinkStore(model: Model<LinkDoc>): LinkStore {
  const col = driverCollection(model);
  const idBelow = (before: string | undefined) => (before === undefined ? {} : { _id: { $lt: before } });
  return {
    async insert(link, pubAt, leafHash) {
      const { id, erasedAt: _e, ...rest } = link;
      await col.insertOne({ _id: id, ...rest, pub: pubAt, logq: link.accountId, logh: leafHash.toString('base64') });
    },
    async logAccounts() {
      return (await col.distinct('logq')).filter((a): a is string => typeof a === 'string');
    },
    async logPending(accountId, limit, after) {
      const docs = await col
        .find(after === undefined ? { logq: accountId } : { logq: accountId, _id: { $gt: after } }, { projection: { _id: 1, logh: 1 } })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      return {
        links: docs.map((d) => ({ id: d._id, leafHash: Buffer.from(d.logh ?? '', 'base64') })),
        ...(docs.length ? { last: docs.at(-1)!._id } : {}),
        full: docs.length === limit,
      };
    },
    async markLogged(ids) {
      if (ids.length) await col.updateMany({ _id: { $in: ids } }, { $unset: { logq: '', logh: '' } });
    },
    async isLogPending(accountId, id) {
      return (await col.findOne({ _id: id, logq: accountId }, { projection: { _id: 1 } })) !== null;
    },
    /** Served by the sparse `unpublished_links` index. */
    async claimDue(claim, now, until, limit) {
      const res = await col.updateMany({ pub: { $lte: now } }, { $set: { pub: until, claim } });
      if (!res.modifiedCount) return [];
      return (
        await col
          .find({ claim, pub: { $exists: true } })
          .sort({ _id: 1 })
          .limit(limit)
          .toArray()
      ).map(linkOf);
    },
    async markPublished(ids) {
      if (ids.length) await col.updateMany({ _id: { $in: ids } }, { $unset: { pub: '', claim: '' } });
    },
    async any(accountId) {
      return (await col.findOne({ accountId }, { projection: { _id: 1 } })) !== null;
    },
    /** Served by `identity_links` and `subject_links` (an $or of two index scans). */
    async naming(accountId, issuer, names, before, limit) {
      const docs = await col
        .find({
          $or: [
            { accountId, identity: { $in: names }, issuer, ...idBelow(before) },
            { accountId, subject: { $in: names }, issuer, ...idBelow(before) },
          ],
        })
        .sort({ _id: -1 })
        .limit(limit)
        .toArray();
      return docs.map(linkOf);
    },
    async ofIdentities(accountId, issuer, identities, before, limit) {
      const docs = await col
        .find({ accountId, identity: { $in: identities }, ...(issuer === undefined ? {} : { issuer }), ...idBelow(before) })
        .sort({ _id: -1 })
        .limit(limit)
        .toArray();
      return docs.map(linkOf);
    },
    async list(q) {
      const filter = {
        accountId: q.accountId,
        issuer: q.issuer,
        ...(q.identity !== undefined ? { identity: q.identity } : {}),
        ...(q.subject !== undefined ? { subject: q.subject } : {}),
        ...idBelow(q.before),
      };
      return (await col.find(filter).sort({ _id: -1 }).limit(q.limit).toArray()).map(linkOf);
    },
    async inClear(accountId, name, issuer, limit) {
      const byIssuer = issuer === undefined ? {} : { issuer };
      const docs = await col
        .find({
          $or: [
            { accountId, identity: name, ...byIssuer },
            { accountId, subject: name, ...byIssuer },
          ],
        })
        .sort({ _id: -1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => (d.importKey ? { ...linkOf(d), importKey: d.importKey } : linkOf(d)));
    },
    /** Served by `account_links`, or with a subject by `identity_links` and `subject_links` (an $or of two index scans). */
    async exportPage(q) {
      const base: Record<string, unknown> = { accountId: q.accountId };
      if (q.appId !== undefined) base.appId = q.appId;
      const id = idBounds(q);
      if (id) base._id = id;
      const filter =
        q.subject === undefined
          ? base
          : {
              $or: [
                { ...base, identity: q.subject },
                { ...base, subject: q.subject },
              ],
            };
      return (await col.find(filter).sort({ _id: 1 }).limit(q.limit).toArray()).map(linkOf);
    },
    async insertImported(link, leafHash) {
      const { id, erasedAt: _e, ...rest } = link;
      try {
        // no `pub`: imported history is not announced (webhooks get what happens)
        await col.insertOne({ _id: id, ...rest, logq: link.accountId, logh: leafHash.toString('base64') });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async importedKeys(keys) {
      if (!keys.length) return new Set();
      const docs = await col.find({ importKey: { $in: keys } }, { projection: { importKey: 1 } }).toArray();
      return new Set(docs.map((d) => d.importKey!));
    },
    async rewrite(rewrites) {
      if (!rewrites.length) return 0;
      const res = await col.bulkWrite(
        rewrites.map((r) => ({ updateOne: { filter: { _id: r.id, identity: r.identity }, update: { $set: r.set } } })),
        { ordered: false },
      );
      return res.modifiedCount;
    },
  };
}
