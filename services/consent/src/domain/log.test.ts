import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { exportJWK, type JWK } from 'jose';
import { eventLeaf, inMemory, leafHash, rootOf, verifyBundle, verifyInclusion, verifyTreeHead } from '@accord/proofs';
import type { ConsentEvent } from './consent';
import { eventLeafHash, leafJson, logAnchor, publicHead, signTreeHead } from './log';
import { receiptClaims, signReceipt } from './receipt';

const ev = (i: number, over: Partial<ConsentEvent> = {}): ConsentEvent => ({
  id: `0193a5c2f1e8000000a1b2c3d4e5f6${i.toString(16).padStart(2, '0')}`,
  accountId: 'acc',
  appId: 'app',
  subject: `user-${i}`,
  issuer: 'https://shop.example',
  target: 'https://shop.example/privacy',
  scope: 'newsletter',
  action: i % 2 === 0,
  token: `T${i}`,
  createdAt: new Date(Date.UTC(2026, 10, 20, 10, 15, i)),
  ...over,
});

async function key(kind: 'ec' | 'rsa', kid: string): Promise<{ kid: string; alg: 'ES256' | 'RS256'; privateKey: KeyObject; jwk: JWK }> {
  const pair = kind === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, alg: kind === 'ec' ? 'ES256' : 'RS256', privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid } };
}

describe('log leaves of consent events', () => {
  it('the leaf is the RFC 8785 JSON of the event as the API answers it (appId included, accountId not)', () => {
    const e = ev(1, { source: 'web' });
    expect(eventLeaf(leafJson(e) as never).toString()).toBe(
      '{"action":false,"appId":"app","createdAt":"2026-11-20T10:15:01.000Z","id":"0193a5c2f1e8000000a1b2c3d4e5f601","issuer":"https://shop.example","scope":"newsletter","source":"web","subject":"user-1","target":"https://shop.example/privacy","token":"T1"}',
    );
    expect(eventLeafHash(e).equals(leafHash(eventLeaf(leafJson(e) as never)))).toBe(true);
  });

  it('any change to an answered field changes the leaf hash; the account (not answered) does not', () => {
    const base = eventLeafHash(ev(2));
    for (const over of [
      { action: null },
      { action: false },
      { subject: 'user-x' },
      { createdAt: new Date(Date.UTC(2026, 10, 20, 10, 15, 3)) },
      { delegate: 'agent' },
    ])
      expect(eventLeafHash(ev(2, over)).equals(base)).toBe(false);
    expect(eventLeafHash(ev(2, { accountId: 'other' })).equals(base)).toBe(true);
  });

  it('an event without signals has the leaf it always had; signals are committed to as answered', () => {
    // the leaf of ev(1) with a source, as the first test pins it: absent signals add nothing
    expect(eventLeafHash(ev(1, { source: 'web' })).toString('base64')).toBe(
      leafHash(eventLeaf(leafJson(ev(1, { source: 'web' })) as never)).toString('base64'),
    );
    expect(Object.keys(leafJson(ev(1)))).not.toEqual(expect.arrayContaining(['gpc']));
    const signalled = ev(3, {
      action: null,
      gpc: true,
      jurisdiction: 'US-CA',
      gppString: 'DBABzw~1YYN',
      gpp: { sections: ['uspv1'], saleOptOut: true },
      tcString: 'CQ',
      tcf: { version: 2, policyVersion: 5, cmpId: 10, cmpVersion: 2, purposes: [1], legitimateInterests: [], specialFeatures: [] },
    });
    expect(leafJson(signalled)).toMatchObject({ gpc: true, jurisdiction: 'US-CA', gpp: { sections: ['uspv1'], saleOptOut: true }, tcf: { purposes: [1] } });
    for (const over of [
      { gpc: false },
      { jurisdiction: 'US' },
      { gpp: { sections: ['uspv1'], saleOptOut: false } },
      { tcString: 'CR' },
      { addtlConsent: '2~1~dv.' },
    ])
      expect(eventLeafHash({ ...signalled, ...over }).equals(eventLeafHash(signalled))).toBe(false);
  });
});

describe('signed tree heads', () => {
  it.each(['ec', 'rsa'] as const)('a head signed with the receipt key (%s) verifies with the published JWK Set and carries the account', async (kind) => {
    const k = await key(kind, `kid-${kind}`);
    const leaves = [1, 2, 3].map((i) => eventLeafHash(ev(i)));
    const h = await signTreeHead({ account: 'acc', treeSize: 3, rootHash: rootOf(leaves), timestamp: new Date('2026-11-23T07:00:00.123Z') }, k);
    expect(publicHead(h)).toEqual({ treeSize: 3, rootHash: rootOf(leaves).toString('base64'), timestamp: '2026-11-23T07:00:00.123Z', signature: h.signature });
    const v = await verifyTreeHead(publicHead(h), { keys: [k.jwk] });
    expect(v).toEqual({ ok: true, value: { treeSize: 3, rootHash: h.rootHash, timestamp: h.timestamp, account: 'acc', kid: `kid-${kind}` } });
  });

  it('a head is refused by a verifier who holds other keys, and any edit of it breaks the signature', async () => {
    const k = await key('ec', 'k1');
    const h = publicHead(await signTreeHead({ account: 'acc', treeSize: 1, rootHash: eventLeafHash(ev(1)), timestamp: new Date() }, k));
    expect((await verifyTreeHead(h, { keys: [(await key('ec', 'k1')).jwk] })).ok).toBe(false);
    expect((await verifyTreeHead({ ...h, treeSize: 2 }, { keys: [k.jwk] })).ok).toBe(false);
  });

  it('refuses to sign a head that is not one (no account, negative size, a root of the wrong length)', async () => {
    const k = await key('ec', 'k1');
    const ok = { account: 'acc', treeSize: 1, rootHash: Buffer.alloc(32), timestamp: new Date() };
    await expect(signTreeHead({ ...ok, account: '' }, k)).rejects.toThrow(TypeError);
    await expect(signTreeHead({ ...ok, treeSize: -1 }, k)).rejects.toThrow(TypeError);
    await expect(signTreeHead({ ...ok, rootHash: Buffer.alloc(20) }, k)).rejects.toThrow(TypeError);
  });
});

describe('receipts anchored in the log', () => {
  const settings = { baseUrl: 'https://accord.example', jurisdiction: 'EU', controllerName: 'Acme', controllerContact: '', language: 'en' };

  it('a receipt carries accord.log only when an anchor is given, and the anchor must contain its leaf', () => {
    const root = Buffer.alloc(32, 1).toString('base64');
    expect((receiptClaims(ev(1), undefined, settings, { kty: 'EC' }).accord as Record<string, unknown>).log).toBeUndefined();
    const claims = receiptClaims(ev(1), undefined, settings, { kty: 'EC' }, logAnchor(4, { treeSize: 9, rootHash: root }));
    expect((claims.accord as Record<string, unknown>).log).toEqual({ leafIndex: 4, treeSize: 9, rootHash: root });
    expect(() => logAnchor(9, { treeSize: 9, rootHash: root })).toThrow(RangeError);
  });

  it('a receipt, a proof and a head made by the service verify with the offline verifier', async () => {
    const k = await key('ec', 'k1');
    const events = Array.from({ length: 6 }, (_, i) => ev(i));
    const leaves = events.map(eventLeafHash);
    const head = await signTreeHead({ account: 'acc', treeSize: 6, rootHash: rootOf(leaves), timestamp: new Date() }, k);
    const anchor = logAnchor(4, head);
    const receipt = await signReceipt(receiptClaims(events[4]!, undefined, settings, k.jwk, anchor), k);
    const auditPath = inMemory.inclusionProof(leaves, 4);
    expect(verifyInclusion(4, 6, leaves[4]!, auditPath, rootOf(leaves))).toBe(true);
    const proof = { leafIndex: 4, treeSize: 6, leafHash: leaves[4]!.toString('base64'), auditPath: auditPath.map((p) => p.toString('base64')) };
    const r = await verifyBundle({ receipt, proof, head: publicHead(head), jwks: { keys: [k.jwk] }, event: leafJson(events[4]!) });
    expect(r.checks.filter((c) => c.result !== 'ok')).toEqual([]);
    expect(r.ok).toBe(true);
  });
});
