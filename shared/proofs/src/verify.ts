/**
 * What a regulator or a data subject checks with nothing but files: a consent receipt, an
 * inclusion proof, a signed tree head and the installation's JWK Set (optionally the event as
 * the API returned it, and a consistency proof from the receipt's log anchor to the head). A link
 * event (linked identities) has no receipt: the link itself, with its proof, head and keys.
 *
 * Every check is reported; the bundle verifies only when none fails. The receipt is tied to the
 * proven leaf either by the event itself (its leaf hash is recomputed and its fields compared
 * with the receipt's) or by the receipt's signed log anchor `accord.log` (the same leaf index,
 * and a root that the head extends).
 */
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { hashFromBase64 } from './encoding';
import { eventLeaf, linkLeaf } from './jcs';
import { leafHash, verifyConsistency, verifyInclusion } from './merkle';
import { SIGNING_ALGORITHMS, verifyTreeHead, type Verdict } from './tree-head';

export interface InclusionProof {
  leafIndex: number;
  treeSize: number;
  leafHash: string;
  auditPath: string[];
}

export interface ConsistencyProof {
  first: number;
  second: number;
  proof: string[];
}

/** The log anchor a receipt carries once its event is sequenced. */
export interface LogAnchor {
  leafIndex: number;
  treeSize: number;
  rootHash: string;
}

export interface Check {
  name: string;
  /** 'skipped': not applicable with the files given; does not fail the bundle. */
  result: 'ok' | 'failed' | 'skipped';
  detail: string;
}

export interface Bundle {
  /** A consent event's receipt; absent for a link, which has none (`link` instead). */
  receipt?: string;
  /** A link event as the API answered or exported it: its leaf is rebuilt and must be the proven leaf. */
  link?: unknown;
  proof: unknown;
  head: unknown;
  jwks: unknown;
  event?: unknown;
  consistency?: unknown;
}

const isIndex = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

export function parseInclusionProof(doc: unknown): Verdict<InclusionProof> {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, reason: 'the proof is not a JSON object' };
  const p = doc as Record<string, unknown>;
  if (!isIndex(p.leafIndex)) return { ok: false, reason: 'leafIndex is not a non-negative integer' };
  if (!isIndex(p.treeSize) || p.treeSize <= p.leafIndex) return { ok: false, reason: 'treeSize is not an integer above leafIndex' };
  if (!hashFromBase64(p.leafHash)) return { ok: false, reason: 'leafHash is not a 32-byte hash in standard base64' };
  if (!Array.isArray(p.auditPath) || !p.auditPath.every((h) => hashFromBase64(h)))
    return { ok: false, reason: 'auditPath is not a list of 32-byte hashes in standard base64' };
  return { ok: true, value: { leafIndex: p.leafIndex, treeSize: p.treeSize, leafHash: p.leafHash as string, auditPath: p.auditPath as string[] } };
}

export function parseConsistencyProof(doc: unknown): Verdict<ConsistencyProof> {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, reason: 'the consistency proof is not a JSON object' };
  const p = doc as Record<string, unknown>;
  if (!isIndex(p.first) || !isIndex(p.second) || p.first > p.second) return { ok: false, reason: 'first and second are not sizes with first ≤ second' };
  if (!Array.isArray(p.proof) || !p.proof.every((h) => hashFromBase64(h)))
    return { ok: false, reason: 'proof is not a list of 32-byte hashes in standard base64' };
  return { ok: true, value: { first: p.first, second: p.second, proof: p.proof as string[] } };
}

function parseAnchor(v: unknown): LogAnchor | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const a = v as Record<string, unknown>;
  return isIndex(a.leafIndex) && isIndex(a.treeSize) && hashFromBase64(a.rootHash)
    ? { leafIndex: a.leafIndex, treeSize: a.treeSize, rootHash: a.rootHash as string }
    : undefined;
}

/** Receipt claim (under `accord`) ⇄ event field that must agree. */
const RECEIPT_FIELDS: Array<[claim: string, field: string]> = [
  ['eventId', 'id'],
  ['action', 'action'],
  ['scope', 'scope'],
  ['token', 'token'],
  ['issuer', 'issuer'],
  ['target', 'target'],
  ['source', 'source'],
  ['delegate', 'delegate'],
  ['createdAt', 'createdAt'],
  // an imported event: when it came into the registry (createdAt is the subject's original time)
  ['importedAt', 'importedAt'],
];

export async function verifyBundle(b: Bundle): Promise<{ ok: boolean; checks: Check[] }> {
  const checks: Check[] = [];
  const ok = (name: string, detail: string) => checks.push({ name, result: 'ok', detail });
  const fail = (name: string, detail: string) => checks.push({ name, result: 'failed', detail });
  const skip = (name: string, detail: string) => checks.push({ name, result: 'skipped', detail });
  const done = () => ({ ok: checks.length > 0 && checks.every((c) => c.result !== 'failed'), checks });

  const jwks = b.jwks as JSONWebKeySet;
  if (!jwks || typeof jwks !== 'object' || !Array.isArray(jwks.keys)) {
    fail('keys', 'the JWK Set has no "keys" list');
    return done();
  }

  // 1. the head is signed by the installation
  const head = await verifyTreeHead(b.head, jwks);
  if (!head.ok) fail('tree head', head.reason);
  else
    ok(
      'tree head',
      `signed by key ${head.value.kid} for account ${head.value.account}: ${head.value.treeSize} events, root ${head.value.rootHash}, at ${head.value.timestamp}`,
    );

  // 2. the receipt is signed by the installation (a link has none)
  let claims: JWTPayload | undefined;
  if (b.receipt === undefined) {
    if (b.link !== undefined) skip('receipt', 'a link event has no receipt: its leaf is rebuilt from the link');
    else fail('receipt', 'no receipt given (a link event is verified with the link instead)');
  } else
    try {
      claims = (await jwtVerify(b.receipt.trim(), createLocalJWKSet(jwks), { algorithms: SIGNING_ALGORITHMS, typ: 'JWT' })).payload;
      ok('receipt', `signed receipt ${String(claims.jti)} for subject ${String(claims.sub)}`);
    } catch (err) {
      fail('receipt', `the receipt does not verify with the given keys: ${(err as Error).message}`);
    }
  const accord = (claims?.accord ?? {}) as Record<string, unknown>;
  const anchor = parseAnchor(accord.log);

  // 3. the proof puts its leaf into the head's tree
  const proof = parseInclusionProof(b.proof);
  if (!proof.ok) fail('inclusion', proof.reason);
  if (!proof.ok || !head.ok) return done();
  const p = proof.value;
  if (p.treeSize !== head.value.treeSize) fail('inclusion', `the proof is for a tree of ${p.treeSize} events, the head is of ${head.value.treeSize}`);
  else if (
    !verifyInclusion(
      p.leafIndex,
      p.treeSize,
      hashFromBase64(p.leafHash)!,
      p.auditPath.map((h) => hashFromBase64(h)!),
      hashFromBase64(head.value.rootHash)!,
    )
  )
    fail('inclusion', `the audit path does not lead from leaf ${p.leafIndex} to the head's root`);
  else ok('inclusion', `leaf ${p.leafIndex} is in the signed tree of ${p.treeSize} events`);

  // 3b. a link event: its rebuilt leaf is the proven leaf
  if (b.link !== undefined) {
    let leaf: Buffer | undefined;
    try {
      leaf = leafHash(linkLeaf(b.link as Record<string, unknown>));
    } catch (err) {
      fail('link', `the link cannot be made a leaf: ${(err as Error).message}`);
    }
    if (leaf && !leaf.equals(hashFromBase64(p.leafHash)!)) fail('link', `the link's leaf hash ${leaf.toString('base64')} is not the proven leaf ${p.leafHash}`);
    else if (leaf) ok('link', `the link ${String((b.link as Record<string, unknown>).id)} is the proven leaf (its RFC 8785 leaf, type subject.linked)`);
  }

  if (!claims) return done();

  // 4. the proven leaf is the receipt's event
  let bound = false;
  if (b.event !== undefined) {
    const ev = b.event as Record<string, unknown>;
    let leaf: Buffer | undefined;
    try {
      leaf = leafHash(eventLeaf(ev));
    } catch (err) {
      fail('event', `the event is not a JSON object: ${(err as Error).message}`);
    }
    if (leaf) {
      const mismatch = RECEIPT_FIELDS.filter(([c, f]) => JSON.stringify(accord[c]) !== JSON.stringify(ev[f])).map(([, f]) => f);
      if (claims.jti !== ev.id) mismatch.unshift('id (receipt jti)');
      if (claims.sub !== ev.subject) mismatch.push('subject');
      if (mismatch.length) fail('event', `the event differs from the receipt in: ${mismatch.join(', ')}`);
      else if (!leaf.equals(hashFromBase64(p.leafHash)!))
        fail('event', `the event's leaf hash ${leaf.toString('base64')} is not the proven leaf ${p.leafHash}`);
      else {
        ok('event', `the event is the receipt's, and its RFC 8785 leaf is the proven leaf`);
        bound = true;
      }
    }
  }

  if (!anchor) {
    if (!bound && b.event === undefined) fail('anchor', 'the receipt carries no log anchor (accord.log); pass the event (--event) to tie it to the proof');
    else skip('anchor', 'the receipt carries no log anchor (it was issued before its event was sequenced)');
    return done();
  }
  if (anchor.leafIndex !== p.leafIndex) {
    fail('anchor', `the receipt places its event at leaf ${anchor.leafIndex}, the proof at ${p.leafIndex}`);
    return done();
  }
  if (anchor.treeSize === head.value.treeSize) {
    if (anchor.rootHash === head.value.rootHash) ok('anchor', `the receipt's anchor is this head (leaf ${anchor.leafIndex}, ${anchor.treeSize} events)`);
    else fail('anchor', `the receipt's anchor root ${anchor.rootHash} differs from the head's of the same size: the log forked`);
    return done();
  }
  // the anchor and the head are two heads of the same log: the smaller must be a prefix of the larger
  const name = 'anchor';
  const [small, large] =
    anchor.treeSize < head.value.treeSize
      ? [
          { size: anchor.treeSize, root: anchor.rootHash, what: "the receipt's anchor" },
          { size: head.value.treeSize, root: head.value.rootHash, what: 'the head' },
        ]
      : [
          { size: head.value.treeSize, root: head.value.rootHash, what: 'the head' },
          { size: anchor.treeSize, root: anchor.rootHash, what: "the receipt's anchor" },
        ];
  if (b.consistency === undefined) {
    const why = `the receipt's anchor is the tree of ${anchor.treeSize} events; pass a consistency proof (--consistency) from ${small.size} to ${large.size}`;
    if (bound) skip(name, why);
    else fail(name, why);
    return done();
  }
  const c = parseConsistencyProof(b.consistency);
  if (!c.ok) fail(name, c.reason);
  else if (c.value.first !== small.size || c.value.second !== large.size)
    fail(name, `the consistency proof is from ${c.value.first} to ${c.value.second}, needed from ${small.size} to ${large.size}`);
  else if (
    !verifyConsistency(
      small.size,
      large.size,
      hashFromBase64(small.root)!,
      hashFromBase64(large.root)!,
      c.value.proof.map((h) => hashFromBase64(h)!),
    )
  )
    fail(name, `${large.what} (${large.size} events) does not extend ${small.what} (${small.size}): the log was rewritten or forked`);
  else ok(name, `${large.what} (${large.size} events) extends ${small.what} (${small.size}); the receipt's event is leaf ${anchor.leafIndex}`);
  return done();
}
