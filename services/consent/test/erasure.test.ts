import { generateKeyPairSync } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { testEnv } from '@accord/local-stack';
import type { consentv1 } from '@accord/proto';
import type { ConsentEvent } from '../src/domain/consent';
import { accountErasureKey, pseudonym } from '../src/domain/erasure';
import { eventLeafHash, signTreeHead } from '../src/domain/log';
import { LogSequencer } from '../src/events/log-sequencer';
import { eraseSubject } from '../src/app/erasure';
import { LogTree } from '../src/app/log-tree';
import { openStore } from './store';
import { expectGrpcError, fieldErrors, consentInput as input, startService, eventually, type RunningService, testLogger } from '@accord/testkit';

jest.setTimeout(90_000);
const SECRET = 'erasure-test-secret-of-at-least-32-characters';
const A = { accountId: 'acc-erase', appId: 'app-erase-1', clientId: 'client-1' };
const B = { accountId: 'acc-erase', appId: 'app-erase-2' };
const OTHER = { accountId: 'acc-erase-other', appId: 'app-other' };
const SUBJECT = 'alice@example.com';
let svc: RunningService<'consent'>;

beforeAll(async () => {
  svc = await startService('consent', 'consenterase', { ACCORD_ERASURE_KEY: SECRET, ACCORD_CONSENT_LOG_POLL_MS: '100' });
});
afterAll(async () => svc?.stop());

const exportAll = async (accountId: string, subject?: string) =>
  (await svc.client.exportConsents({ accountId, cursor: '', limit: 1000, withTotal: false, ...(subject ? { subject } : {}) })).events;

describe('subject erasure through the service', () => {
  it('erases the subject from every event of the account across targets, scopes and applications; the events, their counts and states stay as evidence', async () => {
    const targets = ['https://shop.example/privacy', 'https://shop.example/terms', 'https://shop.example/ads'];
    const mine: consentv1.ConsentInput[] = targets.flatMap((target) => [
      input({ subject: SUBJECT, target, scope: 'newsletter', action: true, source: `https://shop.example/users/${SUBJECT}` }),
      input({ subject: SUBJECT, target, scope: 'profiling', action: false, delegate: 'agent Bob' }),
    ]);
    const a = (await svc.client.createConsents({ ...A, events: mine })).events;
    // a later event of one state (the state's current event moves with the erasure), from another application
    const b = (await svc.client.createConsents({ ...B, events: [input({ subject: SUBJECT, target: targets[0], scope: 'newsletter', action: false })] })).events;
    const bystander = (await svc.client.createConsents({ ...A, events: [input({ subject: 'bob', target: targets[0], action: true })] })).events;
    // the same subject in another account is not touched
    await svc.client.createConsents({ ...OTHER, events: [input({ subject: SUBJECT, action: true })] });
    const statsBefore = await svc.client.getStatistics(A);
    const statsBeforeB = await svc.client.getStatistics(B);

    const erasure = await svc.client.eraseSubject({ ...A, subject: SUBJECT });
    expect(erasure.events).toBe(7);
    expect(erasure.states).toBe(6);
    const hash = pseudonym(accountErasureKey(SECRET, A.accountId), SUBJECT);
    expect(erasure.subjectHash).toBe(hash);
    expect(JSON.stringify(erasure)).not.toContain('alice');

    // unfindable: search, current states, export by subject
    for (const target of targets) {
      const found = await svc.client.searchConsents({ accountId: A.accountId, subject: SUBJECT, issuer: 'https://shop.example', target, current: false });
      expect(found.events).toEqual([]);
      const current = await svc.client.searchConsents({ accountId: A.accountId, subject: SUBJECT, issuer: 'https://shop.example', target, current: true });
      expect(current.events).toEqual([]);
    }
    expect((await svc.client.getCurrentStates({ accountId: A.accountId, subject: SUBJECT, issuer: 'https://shop.example', targets: [] })).events).toEqual([]);
    expect(await exportAll(A.accountId, SUBJECT)).toEqual([]);
    // nowhere in the account's events; the bystander and the other account keep theirs
    const all = await exportAll(A.accountId);
    expect(all).toHaveLength(8);
    expect(JSON.stringify(all)).not.toMatch(/alice|agent Bob/);
    expect(all.find((e) => e.id === bystander[0]!.id)).toMatchObject({ subject: 'bob' });
    expect(await exportAll(OTHER.accountId, SUBJECT)).toHaveLength(1);

    // each event keeps its evidence: id, action, time, issuer, target, scope, token, application
    for (const ev of [...a, ...b]) {
      const now = await svc.client.getConsent({ accountId: A.accountId, id: ev.id });
      expect(now).toMatchObject({
        id: ev.id,
        action: ev.action,
        createdAt: ev.createdAt,
        issuer: ev.issuer,
        target: ev.target,
        scope: ev.scope,
        token: ev.token,
        appId: ev.appId,
      });
      expect(now.subject).toBe(hash);
      expect(now.erasedAt).toBeInstanceOf(Date);
      if (ev.source) expect(now.source).toMatch(/^erased:/);
      if (ev.delegate) expect(now.delegate).toMatch(/^erased:/);
      // a token lookup finds the evidence, never the subject
      const byToken = (await svc.client.getConsentsByToken({ accountId: A.accountId, token: ev.token })).events;
      expect(byToken.find((e) => e.id === ev.id)?.subject).toBe(hash);
    }
    // the states are those of the pseudonymous subject, same current events
    const states = await svc.client.getCurrentStates({ accountId: A.accountId, subject: hash, issuer: 'https://shop.example', targets: [] });
    expect(states.events.map((e) => e.id).sort()).toEqual([b[0]!.id, ...a.slice(1).map((e) => e.id)].sort());

    // statistics unchanged: events, actions, distinct subjects and current states per target
    expect(await svc.client.getStatistics(A)).toEqual(statsBefore);
    expect(await svc.client.getStatistics(B)).toEqual(statsBeforeB);

    // receipts of erased events are no longer issued (they name the subject)
    const err = await expectGrpcError(svc.client.getReceipt({ accountId: A.accountId, id: a[0]!.id }), status.FAILED_PRECONDITION);
    expect(err.details).toMatch(/erased/);

    // idempotent: nothing left to erase, and recorded again
    const again = await svc.client.eraseSubject({ ...A, subject: SUBJECT });
    expect({ events: again.events, states: again.states, subjectHash: again.subjectHash }).toEqual({ events: 0, states: 0, subjectHash: hash });
    expect(await svc.client.getStatistics(A)).toEqual(statsBefore);

    const list = await svc.client.listErasures({ accountId: A.accountId });
    expect(list.erasures.map((e) => [e.events, e.states, e.appId, e.clientId])).toEqual([
      [0, 0, A.appId, A.clientId],
      [7, 6, A.appId, A.clientId],
    ]);
    expect(JSON.stringify(list)).not.toContain('alice');
    expect((await svc.client.listErasures({ accountId: OTHER.accountId })).erasures).toEqual([]);
  });

  it('narrowed by issuer, only that issuer’s events are erased', async () => {
    await svc.client.createConsents({
      ...A,
      events: [input({ subject: 'carol', issuer: 'https://one.example' }), input({ subject: 'carol', issuer: 'https://two.example' })],
    });
    const distinct = (await svc.client.getStatistics(A)).distinctSubjects;
    const out = await svc.client.eraseSubject({ ...A, subject: 'carol', issuer: 'https://one.example' });
    expect([out.events, out.states, out.issuer]).toEqual([1, 1, 'https://one.example']);
    const left = await exportAll(A.accountId, 'carol');
    expect(left.map((e) => e.issuer)).toEqual(['https://two.example']);
    // carol still has an event in clear: counted once, not twice
    expect((await svc.client.getStatistics(A)).distinctSubjects).toBe(distinct);
  });

  it('events written after an erasure are new data: found again, and erased by the next erasure', async () => {
    await svc.client.createConsents({ ...A, events: [input({ subject: 'dave', action: true })] });
    expect((await svc.client.eraseSubject({ ...A, subject: 'dave' })).events).toBe(1);
    await svc.client.createConsents({ ...A, events: [input({ subject: 'dave', action: false })] });
    expect(await exportAll(A.accountId, 'dave')).toHaveLength(1);
    expect((await svc.client.eraseSubject({ ...A, subject: 'dave' })).events).toBe(1);
    expect(await exportAll(A.accountId, 'dave')).toEqual([]);
  });

  it('a subject with more events than one batch (1200 in 120 states) is erased in batches, counts unchanged', async () => {
    const many = Array.from({ length: 1200 }, (_, i) =>
      input({ subject: 'henry', target: `https://shop.example/t${i % 5}`, scope: `s${i % 120}`, ...(i % 3 === 2 ? {} : { action: i % 3 === 0 }) }),
    );
    for (let i = 0; i < many.length; i += 1000) await svc.client.createConsents({ ...A, events: many.slice(i, i + 1000) });
    const before = await svc.client.getStatistics(A);
    const out = await svc.client.eraseSubject({ ...A, subject: 'henry' });
    expect([out.events, out.states]).toEqual([1200, 120]);
    expect(await exportAll(A.accountId, 'henry')).toEqual([]);
    expect(await svc.client.getStatistics(A)).toEqual(before);
  });

  it('writes of the subject during an erasure are either erased or new data that the next erasure erases', async () => {
    const writes = Array.from({ length: 20 }, (_, i) =>
      svc.client.createConsents({ ...A, events: [input({ subject: 'ivy', scope: `s${i % 4}`, action: i % 2 === 0 })] }),
    );
    await writes[0];
    const [first] = await Promise.all([svc.client.eraseSubject({ ...A, subject: 'ivy' }), ...writes]);
    const second = await svc.client.eraseSubject({ ...A, subject: 'ivy' });
    expect(first!.events + second.events).toBe(20);
    expect(await exportAll(A.accountId, 'ivy')).toEqual([]);
    const current = await svc.client.searchConsents({
      accountId: A.accountId,
      subject: 'ivy',
      issuer: 'https://shop.example',
      target: 'https://shop.example/privacy',
      current: true,
    });
    expect(current.events).toEqual([]);
    const hash = pseudonym(accountErasureKey(SECRET, A.accountId), 'ivy');
    const states = await svc.client.getCurrentStates({ accountId: A.accountId, subject: hash, issuer: 'https://shop.example', targets: [] });
    expect(states.events.map((e) => e.scope).sort()).toEqual(['s0', 's1', 's2', 's3']);
  });

  it('a missing subject is INVALID_ARGUMENT naming /subject', async () => {
    const err = await expectGrpcError(svc.client.eraseSubject({ ...A, subject: ' ' }), status.INVALID_ARGUMENT);
    expect(fieldErrors(err).map((f) => f.field)).toEqual(['/subject']);
  });

  it('the log proofs of erased events still verify against heads signed after the erasure', async () => {
    const ev = (await svc.client.createConsents({ ...A, events: [input({ subject: 'erin' })] })).events[0]!;
    const leaf = async () => {
      try {
        return await svc.client.getInclusionProof({ accountId: A.accountId, id: ev.id });
      } catch {
        return undefined;
      }
    };
    const before = await eventually(leaf, 20_000, 'the proof');
    await svc.client.eraseSubject({ ...A, subject: 'erin' });
    await svc.client.createConsents({ ...A, events: [input({ subject: 'frank' })] });
    const after = await eventually(async () => {
      const p = await leaf();
      return p && p.treeSize > before.treeSize ? p : undefined;
    });
    expect(after.leafHash).toBe(before.leafHash);
    expect(after.leafIndex).toBe(before.leafIndex);
  });
});

describe('erasure of an event still waiting for its log leaf', () => {
  let close: () => Promise<void>;
  afterAll(async () => close?.());

  it('the leaf is the hash of the event as answered, never of the redacted document', async () => {
    const logger = testLogger('t');
    const h = await openStore(testEnv('erasepending').mongoUrl);
    close = h.close;
    const repo = h.store;
    const ev: ConsentEvent = {
      id: `${Date.now().toString(16).padStart(12, '0')}${'0'.repeat(6)}${'ab'.repeat(7)}`,
      accountId: 'acc-pending',
      appId: 'app',
      subject: 'gina',
      issuer: 'https://shop.example',
      target: 'https://shop.example/privacy',
      source: 'https://shop.example/users/gina',
      scope: 'default',
      action: true,
      token: 'GINA01',
      createdAt: new Date(),
    };
    // written (marked for the log), not sequenced yet: no sequencer has run
    await repo.events.insert([[ev]], new Date(Date.now() + 60_000));
    const key = accountErasureKey(SECRET, ev.accountId);
    expect((await eraseSubject(repo.erasure, ev.accountId, 'gina', undefined, key, new Date())).events).toBe(1);
    const { events: pending } = await repo.logQueue.pending(ev.accountId, 10);
    expect(pending).toHaveLength(1);
    expect(pending[0]!.subject).toMatch(/^erased:/);
    expect(pending[0]!.leafHash?.equals(eventLeafHash(ev))).toBe(true);

    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const logRepo = new LogTree(repo.log);
    const seq = new LogSequencer(logRepo, {
      pollMs: 50,
      leaseMs: 400,
      batchSize: 10,
      queue: repo.logQueue,
      sign: (account, treeSize, rootHash) => signTreeHead({ account, treeSize, rootHash, timestamp: new Date() }, { kid: 'k', alg: 'ES256', privateKey }),
      logger,
    });
    expect(await seq.runOnce()).toBe(1);
    await seq.stop();
    const proof = await logRepo.inclusionProof(ev.accountId, ev.id);
    expect(proof.kind).toBe('proof');
    if (proof.kind === 'proof') expect(Buffer.from(proof.proof.leafHash, 'base64').equals(eventLeafHash(ev))).toBe(true);
  });
});
