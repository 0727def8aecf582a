import { Webhook } from 'standardwebhooks';
import { startReceiver } from '@accord/testkit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventLeaf, exportLineLeaf, hashFromBase64, leafHash, verifyInclusion } from '@accord/proofs';
import { startStack, type Credentials, type Stack } from './harness';
import { proofOf, verifyFiles, writeIn } from './log-proofs';

jest.setTimeout(90_000);
let stack: Stack;
let acme: Credentials;
let globex: Credentials;
let token: string;
let dpToken: string;
let globexToken: string;
let webhooksToken: string;

const ISSUER = 'https://shop.example';
const TARGET = 'https://shop.example/privacy';
const SHOP_ORIGIN = 'https://shop.example';

beforeAll(async () => {
  stack = await startStack('links');
  acme = await stack.bootstrap({ account: 'acme-links', app: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] });
  globex = await stack.bootstrap({ account: 'globex-links', app: 'api', scopes: ['consent'] });
  token = await stack.token(acme, 'consent');
  dpToken = await stack.token(acme, 'dataprocessing');
  webhooksToken = await stack.token(acme, 'webhooks');
  globexToken = await stack.token(globex, 'consent');
  await stack.setAllowedOrigins(acme.appId, [SHOP_ORIGIN]);
}, 120_000);
afterAll(async () => stack?.stop());

const as = (method: string, path: string, json?: unknown) =>
  stack.request(method, path, { token, apiKey: acme.apiKey, ...(json !== undefined ? { json } : {}) });
const q = (o: Record<string, string>) => new URLSearchParams(o).toString();
const link = (identity: string, subject: string | null) => as('POST', '/consent/v0/subjects/links', { issuer: ISSUER, identity, subject });
const consent = async (subject: string, scope: string, action: boolean) => {
  const res = await as('POST', '/consent/v0/consents', { subject, issuer: ISSUER, target: TARGET, scope, action });
  expect(res.status).toBe(201);
  await new Promise((r) => setTimeout(r, 5));
  return res.body as { id: string };
};
const decide = async (subject: string, scope: string, at?: string) => {
  const res = await as('POST', '/consent/v0/decisions', { ...(at ? { at } : {}), items: [{ subject, issuer: ISSUER, target: TARGET, scope }] });
  expect(res.status).toBe(200);
  return res.body.decisions[0] as { allowed: boolean; eventId?: string; identity?: string };
};
const current = async (subject: string) => {
  const res = await as('GET', `/consent/v0/consents/search?${q({ subject, issuer: ISSUER, target: TARGET, current: 'true' })}`);
  expect(res.status).toBe(200);
  return (res.body as Array<{ id: string; subject: string; scope: string }>).map((e) => [e.scope, e.subject]);
};

describe('linked identities on the real stack', () => {
  test('three identities of one person: current state and decisions resolve across them, naming the identity; plain search stays per identity', async () => {
    await consent('dev-laptop', 'ads', true);
    const phone = await consent('dev-phone', 'ads', false);
    const own = await consent('user-42', 'email', true);
    expect(await current('user-42')).toEqual([['email', 'user-42']]);

    const linked = await link('dev-laptop', 'user-42');
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({
      issuer: ISSUER,
      identity: 'dev-laptop',
      subject: 'user-42',
      appId: acme.appId,
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect((await link('dev-phone', 'user-42')).status).toBe(201);

    expect(await current('user-42')).toEqual([
      ['email', 'user-42'],
      ['ads', 'dev-phone'],
    ]);
    expect(await current('dev-laptop')).toEqual(await current('user-42'));
    expect(await decide('user-42', 'ads')).toMatchObject({ allowed: false, eventId: phone.id, identity: 'dev-phone' });
    expect(await decide('user-42', 'email')).toMatchObject({ allowed: true, eventId: own.id, identity: 'user-42' });

    const plain = await as('GET', `/consent/v0/consents/search?${q({ subject: 'user-42', issuer: ISSUER, target: TARGET })}`);
    expect((plain.body as unknown[]).length).toBe(1);
    const merged = await as('GET', `/consent/v0/consents/search?${q({ subject: 'user-42', issuer: ISSUER, target: TARGET, linked: 'true' })}`);
    expect((merged.body as Array<{ subject: string }>).map((e) => e.subject)).toEqual(['user-42', 'dev-phone', 'dev-laptop']);

    const listed = await as('GET', `/consent/v0/subjects/links?${q({ issuer: ISSUER, subject: 'user-42' })}`);
    expect(listed.status).toBe(200);
    expect((listed.body as Array<{ identity: string }>).map((l) => l.identity)).toEqual(['dev-phone', 'dev-laptop']);
    const exported = await stack.request('GET', `/consent/v0/consents/export?${q({ subject: 'user-42' })}`, {
      token,
      apiKey: acme.apiKey,
      headers: { accept: 'application/json' },
    });
    expect(exported.status).toBe(200);
    expect((exported.body as { links: Array<{ identity: string }> }).links.map((l) => l.identity)).toEqual(['dev-phone', 'dev-laptop']);
  });

  test('moving a device is a new link, unlinking one with subject null; a decision at a past `at` uses the links of then', async () => {
    const tablet = await consent('dev-tablet', 'sms', true);
    expect((await link('dev-tablet', 'user-50')).status).toBe(201);
    await new Promise((r) => setTimeout(r, 10));
    const then = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 10));
    expect((await link('dev-tablet', 'user-51')).status).toBe(201);
    expect(await decide('user-50', 'sms')).toMatchObject({ allowed: false });
    expect(await decide('user-51', 'sms')).toMatchObject({ allowed: true, identity: 'dev-tablet', eventId: tablet.id });
    expect(await decide('user-50', 'sms', then)).toMatchObject({ allowed: true, identity: 'dev-tablet' });
    expect(await decide('user-51', 'sms', then)).toMatchObject({ allowed: false });
    const unlinked = await link('dev-tablet', null);
    expect(unlinked.status).toBe(201);
    expect(unlinked.body.subject).toBeNull();
    expect(await decide('user-51', 'sms')).toMatchObject({ allowed: false });
    const history = await as('GET', `/consent/v0/subjects/links?${q({ issuer: ISSUER, identity: 'dev-tablet', history: 'true' })}`);
    expect((history.body as Array<{ subject: string | null }>).map((l) => l.subject)).toEqual([null, 'user-51', 'user-50']);
  });

  test('links never chain (409 naming the field), and bad input is a 400 naming the field', async () => {
    expect((await link('dev-x', 'user-60')).status).toBe(201);
    const chainUp = await link('user-60', 'user-61');
    expect(chainUp.status).toBe(409);
    expect(chainUp.body.errors).toEqual([expect.objectContaining({ field: 'identity' })]);
    const chainDown = await link('dev-y', 'dev-x');
    expect(chainDown.status).toBe(409);
    expect(chainDown.body.errors).toEqual([expect.objectContaining({ field: 'subject' })]);
    const same = await link('dev-z', 'dev-z');
    expect(same.status).toBe(400);
    expect(JSON.stringify(same.body.errors)).toContain('subject');
    const missing = await as('POST', '/consent/v0/subjects/links', { issuer: ISSUER, subject: 'u' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.errors)).toContain('identity');
    const neither = await as('GET', `/consent/v0/subjects/links?${q({ issuer: ISSUER })}`);
    expect(neither.status).toBe(400);
  });

  test('only an application token links: no credential 401, another account’s key or a missing scope 403, a consent session 403', async () => {
    const body = { issuer: ISSUER, identity: 'dev-evil', subject: 'user-42' };
    expect((await stack.request('POST', '/consent/v0/subjects/links', { json: body })).status).toBe(401);
    expect((await stack.request('POST', '/consent/v0/subjects/links', { token, apiKey: globex.apiKey, json: body })).status).toBe(403);
    expect((await stack.request('POST', '/consent/v0/subjects/links', { token: dpToken, apiKey: acme.apiKey, json: body })).status).toBe(403);
    // another account's token sees none of this account's links
    const other = await stack.request('GET', `/consent/v0/subjects/links?${q({ issuer: ISSUER, subject: 'user-42' })}`, {
      token: globexToken,
      apiKey: globex.apiKey,
    });
    expect(other.status).toBe(200);
    expect(other.body).toEqual([]);
    const session = await as('POST', '/consent/v0/sessions', { subject: 'dev-evil', issuer: ISSUER, targets: [TARGET] });
    expect(session.status).toBe(201);
    const asBrowser = (method: string, path: string, json?: unknown) =>
      stack.request(method, path, { token: session.body.sessionToken as string, headers: { origin: SHOP_ORIGIN }, ...(json ? { json } : {}) });
    expect((await asBrowser('POST', '/consent/v0/subjects/links', body)).status).toBe(403);
    expect((await asBrowser('GET', `/consent/v0/subjects/links?${q({ issuer: ISSUER, identity: 'dev-evil' })}`)).status).toBe(403);
    expect((await as('GET', `/consent/v0/subjects/links?${q({ issuer: ISSUER, identity: 'dev-evil' })}`)).body).toEqual([]);
  });

  test('a link reaches a subject.linked webhook with the link as data', async () => {
    const rx = await startReceiver();
    try {
      const w = (await stack.request('POST', '/webhooks/v0', { token: webhooksToken, json: { url: rx.url, events: ['subject.linked'] } })).body;
      const posted = await link('dev-hook', 'user-70');
      expect(posted.status).toBe(201);
      const got = await rx.waitFor(1);
      const payload = new Webhook(w.secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>) as { type: string; data: unknown };
      expect(payload).toMatchObject({ type: 'subject.linked', data: posted.body });
    } finally {
      await rx.close();
    }
  });

  test('erasing a subject erases its linked identities too, keeping the evidence', async () => {
    await consent('dev-e1', 'ads', true);
    await consent('user-80', 'email', true);
    expect((await link('dev-e1', 'user-80')).status).toBe(201);
    const erased = await as('POST', '/consent/v0/subjects/erase', { subject: 'user-80' });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ events: 2, states: 2 });
    expect(await current('user-80')).toEqual([]);
    expect(await current('dev-e1')).toEqual([]);
    const links = await as('GET', `/consent/v0/subjects/links?${q({ issuer: ISSUER, identity: 'dev-e1', history: 'true' })}`);
    expect(links.body).toEqual([]);
    const kept = await as('GET', `/consent/v0/subjects/links?${q({ issuer: ISSUER, subject: String(erased.body.subjectHash), history: 'true' })}`);
    expect(kept.body).toEqual([
      expect.objectContaining({ subject: erased.body.subjectHash, identity: expect.stringMatching(/^erased:/), erasedAt: expect.any(String) }),
    ]);
  });

  test('a link is a leaf of the consent log: its proof holds the hash of the link as answered, under the signed head', async () => {
    const posted = await link('dev-log', 'user-90');
    expect(posted.status).toBe(201);
    const l = posted.body as Record<string, unknown>;
    const proof = await proofOf(as, String(l.id));
    const leaf = { type: 'subject.linked', id: l.id, issuer: l.issuer, identity: l.identity, subject: l.subject, createdAt: l.createdAt, appId: l.appId };
    expect(proof.leafHash).toBe(leafHash(eventLeaf(leaf)).toString('base64'));
    const head = (await as('GET', '/consent/v0/log/tree-head')).body as { treeSize: number };
    expect(Number(proof.leafIndex)).toBeLessThan(head.treeSize);
    // the offline verifier ties the link itself (no receipt) to the signed head
    const dir = mkdtempSync(join(tmpdir(), 'accord-e2e-link-'));
    try {
      const write = writeIn(dir);
      const atHead = await as('GET', `/consent/v0/consents/${String(l.id)}/proof?treeSize=${head.treeSize}`);
      expect(atHead.status).toBe(200);
      const files = {
        link: write('l.json', l),
        proof: write('p.json', atHead.body),
        head: write('h.json', head),
        jwks: write('jwks.json', (await stack.request('GET', '/.well-known/jwks.json')).body),
      };
      expect(await verifyFiles(files)).toEqual({ code: 0, out: expect.stringMatching(/OK {3}link: .*\nverified$/) });
      expect((await verifyFiles({ ...files, link: write('l-moved.json', { ...l, subject: 'user-91' }) })).code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the NDJSON export holds the link events with links=true, as lines of their own among the events, filtered; each line’s leaf verifies', async () => {
    const exported = async (params: Record<string, string>) => {
      const res = await fetch(`${stack.baseUrl}/consent/v0/consents/export?${q(params)}`, {
        headers: { authorization: `Bearer ${globexToken}`, 'x-api-key': globex.apiKey },
      });
      expect(res.status).toBe(200);
      return (await res.text())
        .split('\n')
        .filter(Boolean)
        .map((x) => JSON.parse(x) as Record<string, unknown>);
    };
    const gx = (method: string, path: string, json?: unknown) =>
      stack.request(method, path, { token: globexToken, apiKey: globex.apiKey, ...(json !== undefined ? { json } : {}) });
    const e1 = await gx('POST', '/consent/v0/consents', { subject: 'gx-dev', issuer: ISSUER, target: TARGET, action: true });
    const l1 = await gx('POST', '/consent/v0/subjects/links', { issuer: ISSUER, identity: 'gx-dev', subject: 'gx-user' });
    const e2 = await gx('POST', '/consent/v0/consents', { subject: 'gx-user', issuer: ISSUER, target: TARGET, scope: 'email', action: false });
    await new Promise((r) => setTimeout(r, 5)); // since (below) is a millisecond bound
    const l2 = await gx('POST', '/consent/v0/subjects/links', { issuer: ISSUER, identity: 'gx-phone', subject: 'gx-other' });
    for (const r of [e1, l1, e2, l2]) expect(r.status).toBe(201);

    // by default every line is a consent event, as before
    expect((await exported({})).map((x) => x.id)).toEqual([e1.body.id, e2.body.id]);
    const all = await exported({ links: 'true' });
    expect(all.map((x) => x.id)).toEqual([e1.body.id, l1.body.id, e2.body.id, l2.body.id]);
    expect(all[1]).toEqual({ type: 'subject.linked', ...l1.body });
    expect(all.filter((x) => 'type' in x).map((x) => x.id)).toEqual([l1.body.id, l2.body.id]);
    // the cursor resumes both; subject names a link's identity or subject; since/until bound links too
    expect((await exported({ links: 'true', cursor: String(l1.body.id) })).map((x) => x.id)).toEqual([e2.body.id, l2.body.id]);
    expect((await exported({ links: 'true', subject: 'gx-user' })).map((x) => x.id)).toEqual([l1.body.id, e2.body.id]);
    expect((await exported({ links: 'true', since: String(l2.body.createdAt) })).map((x) => x.id)).toEqual([l2.body.id]);
    // not with target (a link names none), nor as DPV records or the one-subject JSON document
    for (const [params, accept] of [
      [{ links: 'true', target: TARGET }, undefined],
      [{ links: 'true', format: 'jsonld' }, undefined],
      [{ links: 'true', subject: 'gx-user' }, 'application/json'],
    ] as const) {
      const res = await stack.request('GET', `/consent/v0/consents/export?${q(params)}`, {
        token: globexToken,
        apiKey: globex.apiKey,
        ...(accept ? { headers: { accept } } : {}),
      });
      expect({ params, status: res.status, fields: (res.body.errors as Array<{ field: string }>).map((e) => e.field) }).toEqual({
        params,
        status: 400,
        fields: ['links'],
      });
    }

    // every line of the export is a leaf of the account's log: rebuilt from the line, proven under one signed head
    for (const x of all) await proofOf((m, path) => gx(m, path), String(x.id));
    const head = (await gx('GET', '/consent/v0/log/tree-head')).body as { treeSize: number; rootHash: string };
    for (const x of all) {
      const p = (await gx('GET', `/consent/v0/consents/${String(x.id)}/proof?treeSize=${head.treeSize}`)).body as {
        leafIndex: number;
        leafHash: string;
        auditPath: string[];
      };
      const leaf = leafHash(exportLineLeaf(x));
      expect({ id: x.id, leaf: leaf.toString('base64') }).toEqual({ id: x.id, leaf: p.leafHash });
      expect(
        verifyInclusion(
          p.leafIndex,
          head.treeSize,
          leaf,
          p.auditPath.map((h) => hashFromBase64(h)!),
          hashFromBase64(head.rootHash)!,
        ),
      ).toBe(true);
    }
  });
});
