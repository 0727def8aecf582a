import { generateKeyPairSync } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo, jwkToJson } from '@accord/common';
import { consentEventJson, type consentv1 } from '@accord/proto';
import type { JSONWebKeySet } from 'jose';
import { connect } from 'nats';
import { verifyBundle, verifyTreeHead } from '@accord/proofs';
import { publicHead } from '../src/domain/log';
import { LogTree } from '../src/app/log-tree';
import { defineLogModels } from '../src/store/mongo/log-models';
import { mongoLogTreeStore } from '../src/store/mongo/log-tree';
import { consentInput as input, startService, eventually, type RunningService, testLogger } from '@accord/testkit';

const A = { accountId: 'acc-log', appId: 'app-log' };
let svc: RunningService<'consent'>;
let second: RunningService<'consent'>;
let conn: Connection;
let logRepo: LogTree;

jest.setTimeout(60_000);
// the replicas of one installation share the receipt key (it signs receipts and tree heads)
const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const env = { ACCORD_CONSENT_LOG_POLL_MS: '100', ACCORD_CONSENT_LOG_LEASE_MS: '500', ACCORD_RECEIPT_SIGNING_KEYS: pem };

beforeAll(async () => {
  svc = await startService('consent', 'consentlog', env);
  // a second replica on the same database: the two share the sequencing
  second = await startService('consent', svc.env, env);
  conn = await connectMongo(svc.env.mongoUrl, testLogger('t'));
  logRepo = new LogTree(mongoLogTreeStore(defineLogModels(conn)));
});
afterAll(async () => {
  await second?.stop();
  await svc?.stop();
  await conn?.close();
});

/** The event as POST /consents answers it (the gateway's consentEventJson of the gRPC answer). */
const answered = (ev: consentv1.ConsentEvent): Record<string, unknown> => consentEventJson(ev);

describe('the consent log behind the write path', () => {
  it('events written through two replicas are sequenced; a later receipt is anchored and verifies offline with its proof and the signed head', async () => {
    const created: consentv1.ConsentEvent[] = [];
    for (let i = 0; i < 4; i++) {
      const client = i % 2 ? second.client : svc.client;
      const res = await client.createConsents({
        ...A,
        events: [input({ subject: `user-${i}`, scope: 'newsletter' }), input({ subject: `user-${i}`, scope: 'analytics' })],
      });
      created.push(...res.events);
    }
    const last = created[created.length - 1]!;
    // the receipt asked for after sequencing carries the anchor
    const receipt = await eventually(
      async () => {
        const r = (await svc.client.getReceipt({ accountId: A.accountId, id: last.id })).receipt;
        const claims = JSON.parse(Buffer.from(r.split('.')[1]!, 'base64url').toString()) as { accord: { log?: { treeSize: number } } };
        return claims.accord.log?.treeSize === created.length ? r : undefined;
      },
      20_000,
      'an anchored receipt',
    );

    const proof = await logRepo.inclusionProof(A.accountId, last.id);
    if (proof.kind !== 'proof') throw new Error(proof.kind);
    const head = publicHead({ ...proof.head, timestamp: proof.head.timestamp.toISOString(), account: A.accountId });
    const jwks = { keys: ((await svc.client.getReceiptKeys({})).jwks?.keys ?? []).map(jwkToJson) };
    const ok = await verifyBundle({ receipt, proof: proof.proof, head, jwks, event: answered(last) });
    expect(ok.checks.filter((c) => c.result !== 'ok')).toEqual([]);
    expect(ok.ok).toBe(true);

    // every event written has exactly one leaf
    const leaves = await conn.db!.collection('consent_log_leaves').find({ accountId: A.accountId }).toArray();
    expect(leaves.map((l) => l.eventId).sort()).toEqual(created.map((e) => e.id).sort());
    expect(leaves.map((l) => l.leafIndex).sort((a, b) => a - b)).toEqual(created.map((_, i) => i));

    // a tampered event does not verify
    const bad = await verifyBundle({ receipt, proof: proof.proof, head, jwks, event: { ...answered(last), action: !last.action } });
    expect(bad.ok).toBe(false);
  });

  it('publishes every new signed head on the NATS subject <prefix>.events.log.tree_head.<account>._, as GET tree-head serves it', async () => {
    const account = { accountId: 'acc-witness', appId: 'app-witness' };
    const nc = await connect({ servers: svc.env.natsUrl });
    const heads: Array<{ type: string; accountId: string; data: { treeSize: number } }> = [];
    const sub = nc.subscribe(`${svc.env.natsPrefix}.events.log.tree_head.${account.accountId}._`, {
      callback: (_err, m) => heads.push(JSON.parse(new TextDecoder().decode(m.data)) as (typeof heads)[number]),
    });
    try {
      for (let i = 0; i < 3; i++) await svc.client.createConsents({ ...account, events: [input({ subject: `witness-${i}` })] });
      const last = await eventually(async () => heads.find((h) => h.data.treeSize === 3), 20_000, 'the head of size 3 on NATS');
      expect(last).toMatchObject({ type: 'log.tree_head', accountId: account.accountId });
      expect(last.data).toEqual(await svc.client.getTreeHead({ accountId: account.accountId }));
      const jwks = { keys: ((await svc.client.getReceiptKeys({})).jwks?.keys ?? []).map(jwkToJson) };
      const verdict = await verifyTreeHead(last.data, jwks as unknown as JSONWebKeySet);
      expect(verdict.ok && verdict.value.account).toBe(account.accountId);
      // heads only grow, each published once
      const sizes = heads.map((h) => h.data.treeSize);
      expect(new Set(sizes).size).toBe(sizes.length);
      expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
    } finally {
      sub.unsubscribe();
      await nc.close();
    }
  });
});
