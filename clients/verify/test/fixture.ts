/**
 * A small signed log built with the package's own hashing rules and standard JOSE signing, as
 * an installation would publish it: events as the API answers them, receipts, heads, proofs.
 */
import { CompactSign, exportJWK, generateKeyPair, SignJWT, type JWK, type KeyLike } from 'jose';
import { eventLeaf, inMemory, leafHash, rootOf, TREE_HEAD_TYP, treeHeadPayloadBytes, type TreeHead } from '../src';

export interface Signer {
  kid: string;
  privateKey: KeyLike;
  jwk: JWK;
}

export async function signer(kid: string): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

export const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

export function event(i: number): Record<string, unknown> {
  return {
    id: `0192f3a1b2c3d4e5f6a7b8${i.toString(16).padStart(2, '0')}`,
    subject: `user-${i % 3}`,
    issuer: 'https://shop.example',
    target: 'https://shop.example/privacy',
    scope: i % 2 ? 'newsletter' : 'analytics',
    action: i % 3 === 0 ? null : i % 2 === 0,
    token: `tok-${i}`,
    createdAt: new Date(Date.UTC(2026, 10, 23, 7, 0, i)).toISOString(),
    appId: 'app-1',
  };
}

export class Log {
  readonly events: Array<Record<string, unknown>>;
  readonly leaves: Buffer[];

  constructor(
    size: number,
    readonly key: Signer,
    readonly account = 'acc-1',
  ) {
    this.events = Array.from({ length: size }, (_, i) => event(i));
    this.leaves = this.events.map((e) => leafHash(eventLeaf(e)));
  }

  root(size: number): string {
    return b64(rootOf(this.leaves.slice(0, size)));
  }

  async head(size: number, opts: { key?: Signer; typ?: string; account?: string; timestamp?: string } = {}): Promise<TreeHead> {
    const key = opts.key ?? this.key;
    const timestamp = opts.timestamp ?? new Date(Date.UTC(2026, 10, 23, 8, 0, size)).toISOString();
    const payload = { treeSize: size, rootHash: this.root(size), timestamp, account: opts.account ?? this.account };
    const signature = await new CompactSign(treeHeadPayloadBytes(payload))
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: opts.typ ?? TREE_HEAD_TYP })
      .sign(key.privateKey);
    return { treeSize: size, rootHash: payload.rootHash, timestamp, signature };
  }

  proof(index: number, size: number) {
    return {
      leafIndex: index,
      treeSize: size,
      leafHash: b64(this.leaves[index]!),
      auditPath: inMemory.inclusionProof(this.leaves.slice(0, size), index).map(b64),
    };
  }

  consistency(first: number, second: number) {
    return { first, second, proof: inMemory.consistencyProof(this.leaves.slice(0, second), first).map(b64) };
  }

  /** The receipt of event i, with a log anchor when `anchorSize` is given. */
  async receipt(i: number, anchorSize?: number, key: Signer = this.key): Promise<string> {
    const ev = this.events[i]!;
    const accord: Record<string, unknown> = {
      eventId: ev.id,
      action: ev.action,
      scope: ev.scope,
      token: ev.token,
      issuer: ev.issuer,
      target: ev.target,
      createdAt: ev.createdAt,
      ...(anchorSize !== undefined ? { log: { leafIndex: i, treeSize: anchorSize, rootHash: this.root(anchorSize) } } : {}),
    };
    return new SignJWT({ version: 'KI-CR-v1.1.0', accord })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
      .setSubject(String(ev.subject))
      .setJti(String(ev.id))
      .setIssuedAt()
      .sign(key.privateKey);
  }
}
