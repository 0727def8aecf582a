/**
 * Signed tree heads. A head is `{"treeSize","rootHash","timestamp","signature"}`; the signature
 * is a compact JWS whose payload is the RFC 8785 JSON of `{"treeSize","rootHash","timestamp",
 * "account"}` and whose protected header names the key (`kid`, published in
 * /.well-known/jwks.json) and the type `TREE_HEAD_TYP`, so that no other token this installation
 * signs (receipts are `JWT`) can pass for a head.
 */
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { canonicalJson } from './jcs';
import { hashFromBase64 } from './encoding';

export const TREE_HEAD_TYP = 'accord-tree-head+jws';
export const SIGNING_ALGORITHMS = ['ES256', 'RS256'];

export interface TreeHeadPayload {
  treeSize: number;
  /** Standard padded base64 of the 32-byte root. */
  rootHash: string;
  /** ISO 8601 (UTC). */
  timestamp: string;
  account: string;
}

export interface TreeHead {
  treeSize: number;
  rootHash: string;
  timestamp: string;
  signature: string;
}

/** The exact bytes a head's signature covers. */
export function treeHeadPayloadBytes(p: TreeHeadPayload): Buffer {
  return Buffer.from(canonicalJson({ treeSize: p.treeSize, rootHash: p.rootHash, timestamp: p.timestamp, account: p.account }), 'utf8');
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: string };

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Checks the shape of a head document (not its signature). */
export function parseTreeHead(doc: unknown): Verdict<TreeHead> {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, reason: 'the head is not a JSON object' };
  const h = doc as Record<string, unknown>;
  if (!Number.isSafeInteger(h.treeSize) || (h.treeSize as number) < 0) return { ok: false, reason: 'treeSize is not a non-negative integer' };
  if (!hashFromBase64(h.rootHash)) return { ok: false, reason: 'rootHash is not a 32-byte hash in standard base64' };
  if (typeof h.timestamp !== 'string' || !ISO_8601.test(h.timestamp) || Number.isNaN(Date.parse(h.timestamp)))
    return { ok: false, reason: 'timestamp is not an ISO 8601 date-time' };
  if (typeof h.signature !== 'string' || h.signature.split('.').length !== 3) return { ok: false, reason: 'signature is not a compact JWS' };
  return { ok: true, value: { treeSize: h.treeSize as number, rootHash: h.rootHash as string, timestamp: h.timestamp, signature: h.signature } };
}

/**
 * Verifies a head's signature with a JWK Set and that the signed payload is this head: same
 * size, root and time. Returns the signed payload (with the account) and the key id.
 */
export async function verifyTreeHead(doc: unknown, jwks: JSONWebKeySet): Promise<Verdict<TreeHeadPayload & { kid: string }>> {
  const parsed = parseTreeHead(doc);
  if (!parsed.ok) return parsed;
  const head = parsed.value;
  let payload: unknown;
  let kid: string;
  try {
    const res = await compactVerify(head.signature, createLocalJWKSet(jwks), { algorithms: SIGNING_ALGORITHMS });
    if (res.protectedHeader.typ !== TREE_HEAD_TYP)
      return { ok: false, reason: `the signature is not a tree head signature (typ ${String(res.protectedHeader.typ)})` };
    kid = res.protectedHeader.kid ?? '';
    payload = JSON.parse(Buffer.from(res.payload).toString('utf8'));
  } catch (err) {
    return { ok: false, reason: `the head's signature does not verify with the given keys: ${(err as Error).message}` };
  }
  const p = payload as Partial<TreeHeadPayload> | null;
  if (!p || typeof p !== 'object') return { ok: false, reason: 'the signed payload is not a JSON object' };
  for (const f of ['treeSize', 'rootHash', 'timestamp'] as const) {
    if (p[f] !== head[f]) return { ok: false, reason: `the signed ${f} (${String(p[f])}) differs from the head's (${String(head[f])})` };
  }
  if (typeof p.account !== 'string' || !p.account) return { ok: false, reason: 'the signed payload names no account' };
  return { ok: true, value: { treeSize: head.treeSize, rootHash: head.rootHash, timestamp: head.timestamp, account: p.account, kid } };
}
