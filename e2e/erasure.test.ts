import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Credentials, type Stack } from './harness';
import { proofOf, verifyFiles, writeIn } from './log-proofs';

jest.setTimeout(90_000);
let stack: Stack;
let acme: Credentials;
let token: string;
let dir: string;
let write: (name: string, v: unknown) => string;

beforeAll(async () => {
  stack = await startStack('erasure');
  acme = await stack.bootstrap({ account: 'acme-erasure', app: 'web', scopes: ['consent'] });
  token = await stack.token(acme, 'consent');
  dir = mkdtempSync(join(tmpdir(), 'accord-e2e-erasure-'));
  write = writeIn(dir);
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const as = (method: string, path: string, json?: unknown) =>
  stack.request(method, path, { token, apiKey: acme.apiKey, ...(json !== undefined ? { json } : {}) });
const SUBJECT = 'alice@example.com';
const ISSUER = 'https://shop.example';
const TARGETS = ['https://shop.example/privacy', 'https://shop.example/terms', 'https://shop.example/ads'];
const q = (o: Record<string, string>) => new URLSearchParams(o).toString();
const exportText = async (params: Record<string, string> = {}) => {
  const res = await fetch(`${stack.baseUrl}/consent/v0/consents/export?${q(params)}`, {
    headers: { authorization: `Bearer ${token}`, 'x-api-key': acme.apiKey },
  });
  expect(res.status).toBe(200);
  return res.text();
};

describe('subject erasure on the real stack', () => {
  test('an erased subject is unfindable (search, current, token, export), counts stay, and its receipts’ log proofs still verify', async () => {
    const posted = await as(
      'POST',
      '/consent/v0/consents',
      TARGETS.flatMap((target) => [
        { subject: SUBJECT, issuer: ISSUER, target, scope: 'newsletter', action: true, source: `https://shop.example/users/${SUBJECT}` },
        { subject: SUBJECT, issuer: ISSUER, target, scope: 'profiling', action: false },
      ]),
    );
    expect(posted.status).toBe(201);
    const mine = posted.body as Array<Record<string, unknown>>;
    const bystander = (await as('POST', '/consent/v0/consents', { subject: 'bob', issuer: ISSUER, target: TARGETS[0], action: true })).body as Record<
      string,
      unknown
    >;
    await proofOf(as, String(bystander.id));
    // what the data subject kept: the event as answered and its (anchored) receipt
    const kept = mine[0]!;
    const receipt = await as('GET', `/consent/v0/consents/${kept.id}/receipt`);
    expect(receipt.status).toBe(200);
    const statsBefore = (await as('GET', '/consent/v0/consents/statistics')).body;

    const erased = await as('POST', '/consent/v0/subjects/erase', { subject: SUBJECT });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ events: 6, states: 6, appId: acme.appId, clientId: acme.clientId, subjectHash: expect.stringMatching(/^erased:/) });
    expect(JSON.stringify(erased.body)).not.toContain('alice');
    const hash = erased.body.subjectHash as string;

    // unfindable by the subject
    for (const target of TARGETS) {
      for (const current of ['false', 'true']) {
        const found = await as('GET', `/consent/v0/consents/search?${q({ subject: SUBJECT, issuer: ISSUER, target, current })}`);
        expect(found.status).toBe(200);
        expect(found.body).toEqual([]);
      }
    }
    expect(await exportText({ subject: SUBJECT })).toBe('');
    const all = await exportText();
    expect(all.trim().split('\n')).toHaveLength(7);
    expect(all).not.toContain('alice');
    // the evidence stays: by id and by token, redacted
    for (const ev of mine) {
      const byId = await as('GET', `/consent/v0/consents/${ev.id}`);
      expect(byId.body).toMatchObject({
        id: ev.id,
        action: ev.action,
        createdAt: ev.createdAt,
        target: ev.target,
        scope: ev.scope,
        subject: hash,
        erasedAt: expect.any(String),
      });
      const byToken = await as('GET', `/consent/v0/consents/token/${ev.token}`);
      expect(byToken.status).toBe(200);
      expect(JSON.stringify(byToken.body)).not.toContain('alice');
    }
    expect((await as('GET', '/consent/v0/consents/statistics')).body).toEqual(statsBefore);

    // the receipt is not issued again: it would name the subject
    const gone = await as('GET', `/consent/v0/consents/${kept.id}/receipt`);
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toMatch(/application\/problem\+json/);

    // the proof still exists, and with the kept receipt and event it verifies offline
    const proof = await proofOf(as, String(kept.id));
    const head = await as('GET', '/consent/v0/log/tree-head');
    const jwks = await stack.request('GET', '/.well-known/jwks.json');
    const files = {
      receipt: write('r.jwt', receipt.body.receipt),
      proof: write('p.json', proof),
      head: write('h.json', head.body),
      jwks: write('jwks.json', jwks.body),
      event: write('e.json', kept),
    };
    expect(await verifyFiles(files)).toEqual({ code: 0, out: expect.stringMatching(/verified$/) });
    // the redacted event is not what was logged: the operator cannot pass it off as the original
    const redacted = (await as('GET', `/consent/v0/consents/${kept.id}`)).body as Record<string, unknown>;
    const { erasedAt: _erasedAt, ...redactedAnswer } = redacted;
    expect((await verifyFiles({ ...files, event: write('e-redacted.json', redactedAnswer) })).code).toBe(1);
    // the bystander's proof verifies against the same head
    const other = await proofOf(as, String(bystander.id));
    expect(other.treeSize).toBe(head.body.treeSize);

    // recorded, without the subject in clear; erasing again changes nothing
    const again = await as('POST', '/consent/v0/subjects/erase', { subject: SUBJECT });
    expect(again.body).toMatchObject({ events: 0, states: 0, subjectHash: hash });
    const list = await as('GET', '/consent/v0/subjects/erasures');
    expect(list.status).toBe(200);
    expect((list.body as Array<Record<string, unknown>>).map((r) => [r.events, r.subjectHash])).toEqual([
      [0, hash],
      [6, hash],
    ]);
    expect(JSON.stringify(list.body)).not.toContain('alice');
    const paged = await as('GET', '/consent/v0/subjects/erasures?limit=1');
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('link')).toMatch(/cursor=[0-9a-f]{32}.*rel="next"/);
  });

  test('bad input is a problem naming the field; only POST', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, '/subject'],
      [{ subject: '   ' }, '/subject'],
      [{ subject: 42 }, '/subject'],
      [{ subject: 'x', extra: true }, '/extra'],
      [{ subject: 'x'.repeat(1025) }, '/subject'],
      [{ subject: 'erased:abc' }, '/subject'],
    ];
    for (const [body, field] of cases) {
      const res = await as('POST', '/consent/v0/subjects/erase', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect((res.body.errors as Array<{ field: string }>).map((e) => e.field)).toContain(field);
    }
    expect((await as('DELETE', '/consent/v0/subjects/erase')).status).toBe(405);
    expect((await as('GET', '/consent/v0/subjects/erasures?limit=0')).status).toBe(400);
  });
});
