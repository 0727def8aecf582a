import { Schema, type Connection, type Model } from 'mongoose';
import { requiredFields } from '@accord/common';
import type { LogLeaf, TreeHeadRecord } from '../../app/ports';

/**
 * The verifiable consent log (docs/consent-log.md). One append-only Merkle tree per account,
 * RFC 9162 hashing. The leaves collection is the log itself (the commit record of sequencing);
 * nodes and heads are derived from it and can always be recomputed, so a sequencer that dies
 * half-way leaves nothing a successor cannot finish. No plaintext of an event is kept here:
 * erasing a subject's events never touches these collections.
 */

/**
 * consent_log_leaves: one per sequenced event, _id = `<accountId>/<leafIndex>`. The position is
 * the primary key, so two sequencers can never both fill it (the fence between them; unique
 * `_id` is the one guarantee every MongoDB-compatible server gives atomically). An event gets at
 * most one position because a sequencer only writes at the next free position after reading
 * which events already have one (and `eventId` is unique as well).
 */
export interface LogLeafDoc extends LogLeaf {
  _id: string;
}

/**
 * consent_log_nodes: the hash of every complete subtree of every account's tree, written once
 * when the subtree completes. _id = `<level>/<index>/<accountId>` (the 2^level leaves from
 * index·2^level on; level 0 is a leaf). Any proof is a fold of at most 2·log2(n) of them, read
 * with one `_id $in` query. About 2n documents for n leaves.
 */
export interface LogNodeDoc {
  _id: string;
  h: Buffer;
}

/** consent_log_heads: every signed head, _id = `<accountId>/<treeSize>`. */
export interface LogHeadDoc extends TreeHeadRecord {
  _id: string;
}

/** consent_log_leases: who sequences an account's log until when, _id = accountId. */
export interface LogLeaseDoc {
  _id: string;
  owner: string;
  until: Date;
}

export interface LogModels {
  leaves: Model<LogLeafDoc>;
  nodes: Model<LogNodeDoc>;
  heads: Model<LogHeadDoc>;
  leases: Model<LogLeaseDoc>;
}

const opts = { versionKey: false, _id: false } as const;

export function defineLogModels(conn: Connection): LogModels {
  const leaves = new Schema<LogLeafDoc>(
    { ...requiredFields({ _id: String }), accountId: String, leafIndex: Number, eventId: String, leafHash: Buffer, at: Date },
    { ...opts, collection: 'consent_log_leaves' },
  );
  // the proof of an event
  leaves.index({ eventId: 1 }, { name: 'event', unique: true });
  // the next free position, and the leaves a successor must finish
  leaves.index({ accountId: 1, leafIndex: 1 }, { name: 'position' });

  const nodes = new Schema<LogNodeDoc>({ ...requiredFields({ _id: String }), h: Buffer }, { ...opts, collection: 'consent_log_nodes' });

  const heads = new Schema<LogHeadDoc>(
    { ...requiredFields({ _id: String }), accountId: String, treeSize: Number, rootHash: String, timestamp: Date, signature: String, kid: String },
    { ...opts, collection: 'consent_log_heads' },
  );
  heads.index({ accountId: 1, treeSize: -1 }, { name: 'latest' });

  const leases = new Schema<LogLeaseDoc>({ ...requiredFields({ _id: String }), owner: String, until: Date }, { ...opts, collection: 'consent_log_leases' });

  return {
    leaves: conn.model<LogLeafDoc>('LogLeaf', leaves),
    nodes: conn.model<LogNodeDoc>('LogNode', nodes),
    heads: conn.model<LogHeadDoc>('LogHead', heads),
    leases: conn.model<LogLeaseDoc>('LogLease', leases),
  };
}
