import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@accord/common';
import { limitsv1 } from '@accord/proto';
import { bearer, startStack, type Credentials, type Stack } from './harness';
import { exportLineLeaf, leafHash } from '@accord/proofs';
import { proofOf, verifyFiles, writeIn } from './log-proofs';

jest.setTimeout(120_000);
let stack: Stack;
let from: Credentials;
let into: Credentials;
let tokens: { from: string; into: string };

beforeAll(async () => {
  stack = await startStack('import');
  from = await stack.bootstrap({ account: 'import-from', app: 'old-cmp', scopes: ['consent'] });
  into = await stack.bootstrap({ account: 'import-into', app: 'migration', scopes: ['consent', 'dataprocessing'] });
  tokens = { from: await stack.token(from, 'consent'), into: await stack.token(into, 'consent') };
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});
let dir: string | undefined;
afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

const ISSUER = 'https://shop.example';
const TARGET = 'https://shop.example/privacy';
type Who = 'from' | 'into';
const creds = (who: Who) => (who === 'from' ? from : into);
const as = (who: Who, method: string, path: string, json?: unknown) =>
  stack.request(method, path, { token: tokens[who], apiKey: creds(who).apiKey, ...(json !== undefined ? { json } : {}) });
const postImport = (who: Who, body: string, type = 'application/x-ndjson', extra: { token?: string; apiKey?: string } = {}) =>
  stack.request('POST', '/consent/v0/imports', {
    token: extra.token ?? tokens[who],
    apiKey: extra.apiKey ?? creds(who).apiKey,
    headers: { 'content-type': type },
    json: body,
  });
const exportLines = async (who: Who, params: Record<string, string> = {}) => {
  const res = await fetch(`${stack.baseUrl}/consent/v0/consents/export?${new URLSearchParams(params).toString()}`, {
    headers: { authorization: `Bearer ${tokens[who]}`, 'x-api-key': creds(who).apiKey },
  });
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
};
/** An event as it reads in any registry: without what the registry gives (id, the writing application, importedAt). */
const portable = (e: Record<string, unknown>) => {
  const { id: _id, appId: _app, importedAt: _imp, ...rest } = e;
  return rest;
};
const byContent = (a: Record<string, unknown>, b: Record<string, unknown>) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
const line = (o: Record<string, unknown>) =>
  JSON.stringify({ subject: 'u-1', issuer: ISSUER, target: TARGET, action: true, createdAt: '2019-05-01T10:00:00.000Z', ...o });

describe('import with the original times', () => {
  test('export from one account, import into another: every event, current state and decision is the same', async () => {
    const subjects = ['ann', 'ben', 'cat'];
    const posted = await as(
      'from',
      'POST',
      '/consent/v0/consents',
      subjects.flatMap((subject, i) => [
        { subject, issuer: ISSUER, target: TARGET, scope: 'newsletter', action: true, source: 'https://shop.example/signup' },
        { subject, issuer: ISSUER, target: TARGET, scope: 'profiling', action: i % 2 === 0, gpc: i === 1, jurisdiction: 'DE' },
        { subject, issuer: ISSUER, target: TARGET, scope: 'ads', action: null, expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
      ]),
    );
    expect(posted.status).toBe(201);
    // a later change of mind, so that current states are not simply every event
    expect(
      (await as('from', 'POST', '/consent/v0/consents', { subject: 'ann', issuer: ISSUER, target: TARGET, scope: 'newsletter', action: false })).status,
    ).toBe(201);
    const exported = await exportLines('from');
    expect(exported).toHaveLength(10);

    const res = await postImport('into', exported.map((e) => JSON.stringify(e)).join('\n') + '\n');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: 'done', read: 10, stored: 10, duplicates: 0, refused: 0, errors: [] });
    expect(res.headers.get('location')).toBe(`${stack.baseUrl}/consent/v0/imports/${res.body.id}`);
    const progress = await as('into', 'GET', `/consent/v0/imports/${res.body.id}`);
    expect(progress.status).toBe(200);
    expect(progress.body).toMatchObject({ id: res.body.id, state: 'done', stored: 10 });

    const imported = await exportLines('into');
    expect(imported.map(portable).sort(byContent)).toEqual(exported.map(portable).sort(byContent));
    for (const e of imported) {
      expect(e.appId).toBe(into.appId);
      expect(Date.parse(String(e.importedAt))).toBeGreaterThanOrEqual(Date.parse(String(e.createdAt)));
    }
    for (const subject of subjects) {
      const q = new URLSearchParams({ subject, issuer: ISSUER, target: TARGET, current: 'true' }).toString();
      const a = (await as('from', 'GET', `/consent/v0/consents/search?${q}`)).body as Array<Record<string, unknown>>;
      const b = (await as('into', 'GET', `/consent/v0/consents/search?${q}`)).body as Array<Record<string, unknown>>;
      expect(b.map(portable).sort(byContent)).toEqual(a.map(portable).sort(byContent));
    }
    const items = subjects.flatMap((subject) =>
      ['newsletter', 'profiling', 'ads', 'none'].map((scope) => ({ subject, issuer: ISSUER, target: TARGET, scope })),
    );
    const decided = async (who: Who) =>
      ((await as(who, 'POST', '/consent/v0/decisions', { items })).body.decisions as Array<Record<string, unknown>>).map((d) => [
        d.subject,
        d.scope,
        d.allowed,
        d.basis,
      ]);
    expect(await decided('into')).toEqual(await decided('from'));

    // the receipt and the event say which time is which
    const ev = imported[0]!;
    const receipt = await as('into', 'GET', `/consent/v0/consents/${String(ev.id)}/receipt`);
    expect(receipt.status).toBe(200);
    const claims = JSON.parse(Buffer.from(String(receipt.body.receipt).split('.')[1]!, 'base64url').toString()) as { accord: Record<string, unknown> };
    expect(claims.accord).toMatchObject({ createdAt: ev.createdAt, importedAt: ev.importedAt });
    // its log leaf commits to both times: the receipt, the proof and the event verify offline
    const proof = await proofOf((m, path) => as('into', m, path), String(ev.id));
    const anchored = await as('into', 'GET', `/consent/v0/consents/${String(ev.id)}/receipt`);
    dir = mkdtempSync(join(tmpdir(), 'accord-e2e-import-'));
    const write = writeIn(dir);
    const files = {
      receipt: write('r.jwt', anchored.body.receipt),
      proof: write('p.json', proof),
      head: write('h.json', (await as('into', 'GET', '/consent/v0/log/tree-head')).body),
      jwks: write('jwks.json', (await stack.request('GET', '/.well-known/jwks.json')).body),
      event: write('e.json', ev),
    };
    expect(await verifyFiles(files)).toEqual({ code: 0, out: expect.stringMatching(/verified$/) });
    // the same event passed off as written today, not imported, does not
    const { importedAt: _importedAt, ...asIfLive } = ev;
    expect((await verifyFiles({ ...files, event: write('e-live.json', asIfLive) })).code).toBe(1);

    // the same file again stores nothing twice
    const again = await postImport('into', exported.map((e) => JSON.stringify(e)).join('\n'));
    expect(again.body).toMatchObject({ state: 'done', read: 10, stored: 0, duplicates: 10 });
    expect(await exportLines('into')).toHaveLength(10);
  });

  test('with linked identities: the export with links=true imports into another account, and links, current states and decisions across identities are the same', async () => {
    const a = await stack.bootstrap({ account: 'links-from', app: 'old-cmp', scopes: ['consent'] });
    const b = await stack.bootstrap({ account: 'links-into', app: 'migration', scopes: ['consent'] });
    const tok = { a: await stack.token(a, 'consent'), b: await stack.token(b, 'consent') };
    const on = (who: 'a' | 'b') => (method: string, path: string, json?: unknown) =>
      stack.request(method, path, { token: tok[who], apiKey: (who === 'a' ? a : b).apiKey, ...(json !== undefined ? { json } : {}) });
    const [A, B] = [on('a'), on('b')];
    const pause = () => new Promise((r) => setTimeout(r, 5));
    const consent = async (subject: string, scope: string, action: boolean | null) => {
      expect((await A('POST', '/consent/v0/consents', { subject, issuer: ISSUER, target: TARGET, scope, action })).status).toBe(201);
      await pause();
    };
    const link = async (identity: string, subject: string | null) => {
      const res = await A('POST', '/consent/v0/subjects/links', { issuer: ISSUER, identity, subject });
      expect(res.status).toBe(201);
      await pause();
      return res.body as Record<string, unknown>;
    };
    // ann: an anonymous laptop, then signed in, then a phone; ben: a tablet moved to ann; cat: a device unlinked
    await consent('dev-laptop', 'newsletter', true);
    await consent('dev-laptop', 'ads', true);
    await link('dev-laptop', 'ann');
    await consent('ann', 'ads', false);
    await consent('dev-phone', 'newsletter', false);
    const phoneLinked = await link('dev-phone', 'ann');
    await consent('dev-tablet', 'profiling', true);
    await link('dev-tablet', 'ben');
    await consent('ben', 'profiling', false);
    await link('dev-tablet', 'ann');
    await consent('dev-old', 'ads', true);
    await link('dev-old', 'cat');
    await link('dev-old', null);
    await consent('cat', 'newsletter', null);

    const exportOf = async (call: typeof A, params: Record<string, string>) => {
      const res = await fetch(`${stack.baseUrl}/consent/v0/consents/export?${new URLSearchParams(params).toString()}`, {
        headers: { authorization: `Bearer ${call === A ? tok.a : tok.b}`, 'x-api-key': (call === A ? a : b).apiKey },
      });
      expect(res.status).toBe(200);
      return (await res.text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    const exported = await exportOf(A, { links: 'true' });
    expect(exported).toHaveLength(14);
    expect(exported.filter((l) => l.type === 'subject.linked')).toHaveLength(6);

    const res = await stack.request('POST', '/consent/v0/imports', {
      token: tok.b,
      apiKey: b.apiKey,
      headers: { 'content-type': 'application/x-ndjson' },
      json: exported.map((l) => JSON.stringify(l)).join('\n') + '\n',
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: 'done', read: 14, stored: 14, duplicates: 0, refused: 0, errors: [] });

    // every event and link is the same, with its original time and order
    const imported = await exportOf(B, { links: 'true' });
    expect(imported.map(portable)).toEqual(exported.map(portable));
    for (const l of imported) expect(l.appId).toBe(b.appId);
    // current states and decisions resolve across the same identities, naming the same identity
    const names = ['ann', 'dev-laptop', 'dev-phone', 'dev-tablet', 'ben', 'cat', 'dev-old'];
    for (const subject of names) {
      const query = new URLSearchParams({ subject, issuer: ISSUER, target: TARGET, current: 'true' }).toString();
      const [x, y] = await Promise.all(
        [A, B].map(async (call) => (await call('GET', `/consent/v0/consents/search?${query}`)).body as Array<Record<string, unknown>>),
      );
      expect({ subject, states: y!.map(portable).sort(byContent) }).toEqual({ subject, states: x!.map(portable).sort(byContent) });
    }
    const items = names.flatMap((subject) => ['newsletter', 'ads', 'profiling'].map((scope) => ({ subject, issuer: ISSUER, target: TARGET, scope })));
    const decided = async (call: typeof A, at?: string) =>
      ((await call('POST', '/consent/v0/decisions', { items, ...(at ? { at } : {}) })).body.decisions as Array<Record<string, unknown>>).map((d) => [
        d.subject,
        d.scope,
        d.allowed,
        d.basis,
        d.identity,
      ]);
    const now = await decided(A);
    expect(now.filter((d) => d[0] === 'ann' && d[1] === 'profiling')).toEqual([['ann', 'profiling', true, 'consent', 'dev-tablet']]);
    expect(await decided(B)).toEqual(now);
    // and as the links stood before the phone was linked
    const before = new Date(Date.parse(String(phoneLinked.createdAt)) - 1).toISOString();
    expect(await decided(B, before)).toEqual(await decided(A, before));

    // the imported links' leaves are in the second account's log, with importedAt: each rebuilt from its export line
    for (const l of imported.filter((x) => x.type === 'subject.linked')) {
      expect(Date.parse(String(l.importedAt))).toBeGreaterThan(Date.parse(String(l.createdAt)));
      const proof = await proofOf(B, String(l.id));
      expect(proof.leafHash).toBe(leafHash(exportLineLeaf(l)).toString('base64'));
    }
    // posting the file again stores nothing twice; a link line that would chain is that line's error naming the field
    const again = await stack.request('POST', '/consent/v0/imports', {
      token: tok.b,
      apiKey: b.apiKey,
      headers: { 'content-type': 'application/x-ndjson' },
      json: [
        ...exported.map((l) => JSON.stringify(l)),
        JSON.stringify({ type: 'subject.linked', issuer: ISSUER, identity: 'ann', subject: 'ben', createdAt: '2024-01-01T00:00:00.000Z' }),
      ].join('\n'),
    });
    expect(again.body).toMatchObject({ state: 'done', read: 15, stored: 0, duplicates: 14, refused: 1, errors: [{ line: 15, field: 'identity' }] });
  });

  test('an old imported event never overrides a newer live one, and decisions at a past time see it', async () => {
    expect((await as('into', 'POST', '/consent/v0/consents', { subject: 'dan', issuer: ISSUER, target: TARGET, action: false })).status).toBe(201);
    const res = await postImport('into', line({ subject: 'dan', action: true, createdAt: '2019-05-01T10:00:00.000Z' }));
    expect(res.body).toMatchObject({ state: 'done', stored: 1 });
    const q = new URLSearchParams({ subject: 'dan', issuer: ISSUER, target: TARGET, current: 'true' }).toString();
    const current = (await as('into', 'GET', `/consent/v0/consents/search?${q}`)).body as Array<Record<string, unknown>>;
    expect(current.map((e) => [e.action, e.importedAt])).toEqual([[false, undefined]]);
    const now = await as('into', 'POST', '/consent/v0/decisions', { items: [{ subject: 'dan', issuer: ISSUER, target: TARGET }] });
    expect(now.body.decisions[0]).toMatchObject({ allowed: false, basis: 'declined' });
    const then = await as('into', 'POST', '/consent/v0/decisions', {
      at: '2020-01-01T00:00:00.000Z',
      items: [{ subject: 'dan', issuer: ISSUER, target: TARGET }],
    });
    expect(then.body.decisions[0]).toMatchObject({ allowed: true, basis: 'consent' });
  });

  test('bad lines are reported by line and field, in NDJSON and CSV; the good ones are stored', async () => {
    const nd = await postImport(
      'into',
      [
        line({ subject: 'eve', externalId: 'eve-1' }),
        line({ subject: 'eve', createdAt: '2999-01-01T00:00:00Z' }),
        '{"subject":',
        line({ subject: '', externalId: 'x' }),
        line({ colour: 'red' }),
      ].join('\n'),
    );
    expect(nd.status).toBe(202);
    expect(nd.body).toMatchObject({ state: 'done', read: 5, stored: 1, refused: 4 });
    expect(nd.body.errors.map((e: Record<string, unknown>) => [e.line, e.field])).toEqual([
      [2, 'createdAt'],
      [3, ''],
      [4, 'subject'],
      [5, 'colour'],
    ]);
    const csv = await postImport(
      'into',
      [
        'subject,issuer,target,action,createdAt,scope,externalId',
        `fay,${ISSUER},${TARGET},true,2018-02-03T04:05:06Z,email,fay-1`,
        `fay,${ISSUER},"${TARGET}",maybe,2018-02-03T04:05:06Z,,fay-2`,
      ].join('\r\n'),
      'text/csv',
    );
    expect(csv.body).toMatchObject({ state: 'done', read: 2, stored: 1, refused: 1, errors: [{ line: 3, field: 'action' }] });
    const bad = await postImport('into', 'subject,issuer,colour\nx,y,z', 'text/csv');
    expect(bad.body.state).toBe('failed');
    expect(bad.body.errors.map((e: Record<string, unknown>) => e.field)).toEqual(expect.arrayContaining(['colour', 'target', 'action', 'createdAt']));
  });

  test('an import cut off half-way (the connection dropped) resumes by posting the file again, with no duplicate', async () => {
    const total = 1500;
    const lines = Array.from(
      { length: total },
      (_, i) => line({ subject: `bulk-${i}`, createdAt: new Date(Date.UTC(2021, 0, 1) + i * 1000).toISOString() }) + '\n',
    );
    // send 1,100 lines, wait until two batches are stored, then drop the connection
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${stack.baseUrl}/consent/v0/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.into}`, 'x-api-key': into.apiKey, 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(lines.slice(0, 1100).join(''));
      const poll = async () => {
        for (let i = 0; i < 100; i++) {
          const got = await exportLines('into', { target: TARGET, since: '2021-01-01T00:00:00.000Z', until: '2022-01-01T00:00:00.000Z' });
          if (got.length >= 1000) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        req.destroy();
      };
      void poll();
    });
    const part = (await exportLines('into', { since: '2021-01-01T00:00:00.000Z', until: '2022-01-01T00:00:00.000Z' })).length;
    expect(part).toBeGreaterThanOrEqual(1000);
    expect(part).toBeLessThan(total);
    const resumed = await postImport('into', lines.join(''));
    expect(resumed.body).toMatchObject({ state: 'done', read: total, stored: total - part, duplicates: part, refused: 0 });
    const all = await exportLines('into', { since: '2021-01-01T00:00:00.000Z', until: '2022-01-01T00:00:00.000Z' });
    expect(all).toHaveLength(total);
    expect(new Set(all.map((e) => e.subject)).size).toBe(total);
  });

  test('only an application’s token with the consent scope may import; never a session, never another account’s import', async () => {
    const body = line({ subject: 'gus' });
    expect((await stack.request('POST', '/consent/v0/imports', { headers: { 'content-type': 'application/x-ndjson' }, json: body })).status).toBe(401);
    const dpOnly = await stack.token(into, 'dataprocessing');
    expect((await postImport('into', body, 'application/x-ndjson', { token: dpOnly })).status).toBe(403);
    // another account's API key with this token
    expect((await postImport('into', body, 'application/x-ndjson', { apiKey: from.apiKey })).status).toBe(403);
    const mine = await postImport('into', body);
    expect((await as('from', 'GET', `/consent/v0/imports/${mine.body.id}`)).status).toBe(404);
    // a browser's consent session
    const minted = await as('into', 'POST', '/consent/v0/sessions', { subject: 'gus', issuer: ISSUER, targets: [TARGET] });
    expect(minted.status).toBe(201);
    const session = String(minted.body.sessionToken);
    expect(
      (await stack.request('POST', '/consent/v0/imports', { token: session, headers: { 'content-type': 'application/x-ndjson' }, json: body })).status,
    ).toBe(403);
    expect((await stack.request('GET', `/consent/v0/imports/${mine.body.id}`, { token: session })).status).toBe(403);
    // a body of another type
    expect((await postImport('into', '{}', 'application/json')).status).toBe(415);
  });

  test('imported events count against the daily event limit: lines not stored are given back, a batch past the limit fails the import', async () => {
    const c = await stack.bootstrap({ account: 'import-limited', app: 'migration', scopes: ['consent'] });
    const limits = createClient(limitsv1.LimitsServiceService, stack.env.ACCORD_OAUTH_ADDR!, { retries: 0 });
    try {
      await limits.setAccountLimits(
        { accountId: c.accountId, limits: { maxEventsPerDay: 5 }, clear: false },
        { metadata: bearer(stack.env.ACCORD_ADMIN_TOKEN!) },
      );
    } finally {
      limits.close();
    }
    const token = await stack.token(c, 'consent');
    const post = (body: string) => postImport('into', body, 'application/x-ndjson', { token, apiKey: c.apiKey });
    const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => line({ subject: `${tag}-${i}` })).join('\n');
    // three lines, one refused: two count
    expect((await post(lines(2, 'a') + '\nnot json')).body).toMatchObject({ state: 'done', stored: 2, refused: 1 });
    await new Promise((r) => setTimeout(r, 300)); // the refund is sent after the answer
    // four more would make six: the batch is not sent, the import fails saying why
    const over = await post(lines(4, 'b'));
    expect(over.body).toMatchObject({ state: 'failed', stored: 0, failure: expect.stringContaining('daily event limit (5)') });
    // three more fit exactly
    expect((await post(lines(3, 'c'))).body).toMatchObject({ state: 'done', stored: 3 });
    const rest = await stack.request('POST', '/consent/v0/consents', {
      token,
      apiKey: c.apiKey,
      json: { subject: 'x', issuer: ISSUER, target: TARGET, action: true },
      unchecked: true,
    });
    expect(rest.status).toBe(429);
  });
});
