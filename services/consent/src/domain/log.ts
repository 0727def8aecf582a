/**
 * The consent log's rules on the service side: what a leaf is, and how a tree head is signed.
 * The hashing itself is @accord/proofs's (shared/proofs: one module for the service and the offline verifier).
 */
import { CompactSign } from 'jose';
import type { KeyObject } from 'node:crypto';
import { eventLeaf, leafHash, toBase64, TREE_HEAD_TYP, treeHeadPayloadBytes, type LogAnchor, type TreeHead, type TreeHeadPayload } from '@accord/proofs';
import type { ConsentEvent } from './consent';

/**
 * The fields of an event that its log leaf commits to: what POST /consents answers for a new
 * event (the REST JSON, consentEventJson in @accord/proto, gives the same object for it). Kept
 * apart from the REST form on purpose: receipts already issued and the offline verifier depend
 * on these exact bytes, while the REST form may gain fields (`expired`, `renewalRequired`,
 * `erasedAt` are shown on reads but are not part of the leaf). Fields an event does not have
 * are absent, so adding one (the signals) leaves every earlier leaf as it was.
 */
export interface LeafJson extends Pick<
  ConsentEvent,
  | 'id'
  | 'subject'
  | 'issuer'
  | 'target'
  | 'source'
  | 'scope'
  | 'delegate'
  | 'action'
  | 'token'
  | 'appId'
  | 'targetVersion'
  | 'gpc'
  | 'tcString'
  | 'tcf'
  | 'gppString'
  | 'gpp'
  | 'jurisdiction'
  | 'addtlConsent'
> {
  createdAt: string;
  expiresAt?: string;
  /** Imported events only: when the event came into the registry (`createdAt` is the subject's original time). */
  importedAt?: string;
}

/** The object an event's log leaf is the RFC 8785 JSON of. Never change what it gives an event: leaves already in logs would stop verifying. */
export function leafJson(ev: ConsentEvent): LeafJson {
  return {
    id: ev.id,
    subject: ev.subject,
    issuer: ev.issuer,
    target: ev.target,
    ...(ev.source !== undefined ? { source: ev.source } : {}),
    scope: ev.scope,
    ...(ev.delegate !== undefined ? { delegate: ev.delegate } : {}),
    action: ev.action,
    token: ev.token,
    createdAt: ev.createdAt.toISOString(),
    appId: ev.appId,
    ...(ev.targetVersion !== undefined ? { targetVersion: ev.targetVersion } : {}),
    ...(ev.expiresAt !== undefined ? { expiresAt: ev.expiresAt.toISOString() } : {}),
    ...(ev.gpc !== undefined ? { gpc: ev.gpc } : {}),
    ...(ev.tcString !== undefined ? { tcString: ev.tcString } : {}),
    ...(ev.tcf ? { tcf: { ...ev.tcf } } : {}),
    ...(ev.gppString !== undefined ? { gppString: ev.gppString } : {}),
    ...(ev.gpp ? { gpp: { ...ev.gpp } } : {}),
    ...(ev.jurisdiction !== undefined ? { jurisdiction: ev.jurisdiction } : {}),
    // added with Google's Additional Consent: events without one keep their leaf
    ...(ev.addtlConsent !== undefined ? { addtlConsent: ev.addtlConsent } : {}),
    ...(ev.importedAt !== undefined ? { importedAt: ev.importedAt.toISOString() } : {}),
  };
}

/** The leaf hash of an event: SHA-256(0x00 ‖ JCS(leafJson(event))). */
export function eventLeafHash(ev: ConsentEvent): Buffer {
  return leafHash(eventLeaf(leafJson(ev) as unknown as Record<string, unknown>));
}

export interface SignedTreeHead extends TreeHead {
  account: string;
  kid: string;
}

/**
 * Signs the head of an account's log: a compact JWS (alg of the key, `kid`, typ
 * accord-tree-head+jws) over the RFC 8785 JSON of {treeSize, rootHash, timestamp, account}.
 * The key is the receipt key, so heads verify with the keys in /.well-known/jwks.json.
 */
export async function signTreeHead(
  head: { account: string; treeSize: number; rootHash: Uint8Array; timestamp: Date },
  key: { kid: string; alg: 'ES256' | 'RS256'; privateKey: KeyObject },
): Promise<SignedTreeHead> {
  if (!head.account) throw new TypeError('a tree head belongs to an account');
  if (!Number.isSafeInteger(head.treeSize) || head.treeSize < 0) throw new TypeError('treeSize must be a non-negative integer');
  if (head.rootHash.length !== 32) throw new TypeError('rootHash must be 32 bytes');
  const payload: TreeHeadPayload = {
    treeSize: head.treeSize,
    rootHash: toBase64(head.rootHash),
    timestamp: head.timestamp.toISOString(),
    account: head.account,
  };
  const signature = await new CompactSign(treeHeadPayloadBytes(payload))
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: TREE_HEAD_TYP })
    .sign(key.privateKey);
  return { treeSize: payload.treeSize, rootHash: payload.rootHash, timestamp: payload.timestamp, signature, account: head.account, kid: key.kid };
}

/** The public form of a head (GET /consent/v0/log/tree-head). */
export function publicHead(h: SignedTreeHead): TreeHead {
  return { treeSize: h.treeSize, rootHash: h.rootHash, timestamp: h.timestamp, signature: h.signature };
}

/** The receipt's `accord.log` anchor once the event is sequenced. */
export function logAnchor(leafIndex: number, head: Pick<TreeHead, 'treeSize' | 'rootHash'>): LogAnchor {
  if (leafIndex >= head.treeSize) throw new RangeError(`leaf ${leafIndex} is not in the tree of ${head.treeSize}`);
  return { leafIndex, treeSize: head.treeSize, rootHash: head.rootHash };
}
