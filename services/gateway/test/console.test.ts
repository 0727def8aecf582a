/**
 * Console API component tests: the gateway's /console/api against the real services (real
 * MongoDB-wire server, NATS), as the console's pages call it.
 */
import { startStack, type Stack } from '../../../e2e/harness';
import { asUser, consoleLink, signIn, startReceiver, type ConsoleUser, type Receiver } from '@accord/testkit';

// Each test makes several round trips through the stack; a loaded shared machine needs more than jest's 5 s.
jest.setTimeout(60_000);

let stack: Stack;
let owner: ConsoleUser;
beforeAll(async () => {
  // No API key cache: the rotation test checks the oauth service's answer at once.
  stack = await startStack('gwconsole', { env: { ACCORD_API_KEY_CACHE_MS: '0' } });
  await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] });
  await stack.bootstrap({ account: 'globex', app: 'shop', scopes: ['consent', 'webhooks'] });
  owner = await signIn(stack, 'acme');
}, 120_000);
afterAll(async () => stack?.stop());

const tokenWith = (clientId: string, clientSecret: string) =>
  stack.request('POST', '/oauth/v0/token', { json: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } });

describe('sign-in and sessions', () => {
  it('a console link signs in once and sets an HttpOnly, SameSite=Strict cookie scoped to /console (not Secure on loopback)', async () => {
    const link = await consoleLink(stack, 'acme', 'alice', 'developer');
    const first = await stack.request('POST', '/console/api/session', { json: { link } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ account: { name: 'acme' }, member: { name: 'alice', role: 'developer' } });
    expect(first.body.csrfToken).toMatch(/^[\w-]{43}$/);
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^accord_console=cs_[\w-]+; Path=\/console; HttpOnly; SameSite=Strict$/);
    const again = await stack.request('POST', '/console/api/session', { json: { link } });
    expect(again.status).toBe(401);
    expect(again.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('an unknown link and a missing link are refused with problems', async () => {
    expect((await stack.request('POST', '/console/api/session', { json: { link: 'cln_nope' } })).status).toBe(401);
    const bad = await stack.request('POST', '/console/api/session', { json: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: '/link' })]);
  });

  it('the API answers 401 without a session cookie and with a forged one', async () => {
    expect((await stack.request('GET', '/console/api/applications')).status).toBe(401);
    const forged = await stack.request('GET', '/console/api/applications', { headers: { cookie: 'accord_console=cs_forged' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('set-cookie')).toMatch(/accord_console=; .*Max-Age=0/);
  });

  it('sign-out ends the session; sign-out everywhere ends every session of the member', async () => {
    const a = await signIn(stack, 'acme', 'bob', 'developer');
    const b = await signIn(stack, 'acme', 'bob', 'developer');
    const c = await signIn(stack, 'acme', 'carol', 'developer');
    expect((await asUser(stack, a)('DELETE', '/session')).status).toBe(204);
    expect((await asUser(stack, a)('GET', '/session')).status).toBe(401);
    expect((await asUser(stack, b)('GET', '/session')).status).toBe(200);

    const d = await signIn(stack, 'acme', 'bob', 'developer');
    const out = await asUser(stack, d)('POST', '/session/revoke-all');
    expect(out.status).toBe(200);
    expect(out.body.revoked).toBe(2); // b and d
    expect((await asUser(stack, b)('GET', '/session')).status).toBe(401);
    expect((await asUser(stack, d)('GET', '/session')).status).toBe(401);
    expect((await asUser(stack, c)('GET', '/session')).status).toBe(200); // another member is not signed out
  });
});

describe('CSRF', () => {
  it('a change without the CSRF header, with a wrong one, or from another origin is refused; with it, it succeeds', async () => {
    const call = asUser(stack, owner);
    const none = await call('POST', '/applications', { name: 'x' }, { csrf: false });
    expect(none.status).toBe(403);
    expect(none.body.type).toBe('urn:accord:problem:csrf');
    expect((await call('POST', '/applications', { name: 'x' }, { csrf: 'A'.repeat(43) })).status).toBe(403);
    expect((await call('POST', '/applications', { name: 'x' }, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const ok = await call('POST', '/applications', { name: 'csrf-ok' }, { headers: { origin: stack.baseUrl } });
    expect(ok.status).toBe(201);
  });
});

describe('roles', () => {
  it('a viewer reads everything and changes nothing', async () => {
    const viewer = asUser(stack, await signIn(stack, 'acme', 'victor', 'viewer'));
    const apps = await viewer('GET', '/applications');
    expect(apps.status).toBe(200);
    const appId = apps.body[0].id;
    for (const [method, path, body] of [
      ['POST', '/applications', { name: 'nope' }],
      ['POST', `/applications/${appId}/rotate-secret`, {}],
      ['POST', `/applications/${appId}/disable`, undefined],
      ['POST', `/applications/${appId}/tokens`, {}],
      ['POST', '/api-key/rotate', {}],
      ['POST', `/applications/${appId}/webhooks`, { url: 'http://127.0.0.1:9/x', events: ['consent'] }],
      // Express answers a mounted router's root with a trailing slash too; the table does not spell it
      ['POST', `/applications/${appId}/webhooks/`, { url: 'http://127.0.0.1:9/x', events: ['consent'] }],
      ['DELETE', `/applications/${appId}/webhooks/${'0'.repeat(32)}`, undefined],
      ['PATCH', `/applications/${appId}/dataprocessing/dpgroups/${'0'.repeat(24)}`, { name: 'x' }],
    ] as const) {
      const res = await viewer(method, path, body);
      expect({ path, status: res.status, type: res.body.type }).toEqual({ path, status: 403, type: 'urn:accord:problem:console-role' });
    }
    expect((await viewer('GET', `/applications/${appId}/webhooks`)).status).toBe(200);
    expect((await viewer('GET', '/api-key')).status).toBe(200);
  });

  it('a developer manages applications but cannot rotate the API key; an owner can', async () => {
    const dev = asUser(stack, await signIn(stack, 'acme', 'dora', 'developer'));
    expect((await dev('POST', '/applications', { name: 'dev-app', scopes: ['consent'] })).status).toBe(201);
    expect((await dev('POST', '/api-key/rotate', { graceSeconds: 0 })).status).toBe(403);
  });
});

describe('account isolation', () => {
  it("a session of one account cannot see or touch another account's applications, tokens or webhooks", async () => {
    const globex = asUser(stack, await signIn(stack, 'globex'));
    const theirApp = (await globex('GET', '/applications')).body[0].id as string;
    const call = asUser(stack, owner);
    const mine = (await call('GET', '/applications')).body as Array<{ id: string }>;
    expect(mine.map((a) => a.id)).not.toContain(theirApp);
    expect((await call('GET', `/applications/${theirApp}/token-families`)).status).toBe(404);
    expect((await call('POST', `/applications/${theirApp}/tokens`, {})).status).toBe(404);
    expect((await call('POST', `/applications/${theirApp}/rotate-secret`, {})).status).toBe(404);
    expect((await call('POST', `/applications/${theirApp}/disable`)).status).toBe(404);
    expect((await call('GET', `/applications/${theirApp}/webhooks`)).status).toBe(404);
    const token = await call('POST', `/applications/${mine[0]!.id}/tokens`, {});
    const fam = (await globex('GET', `/applications/${theirApp}/token-families`)).body;
    expect(fam).toEqual([]);
    const ownFamilies = (await call('GET', `/applications/${mine[0]!.id}/token-families`)).body as Array<{ id: string }>;
    expect(token.status).toBe(201);
    expect((await globex('POST', `/token-families/${ownFamilies[0]!.id}/revoke`)).status).toBe(404);
  });
});

describe('applications, tokens and the API key', () => {
  it('creates an application whose secret (shown once) gets tokens; rotation with grace keeps the old secret working; disabling stops both', async () => {
    const call = asUser(stack, owner);
    const created = await call('POST', '/applications', { name: 'billing', scopes: ['webhooks', 'consent'] });
    expect(created.status).toBe(201);
    const { application, clientSecret } = created.body;
    expect(application.scopes).toEqual(['consent', 'webhooks']);
    expect(clientSecret).toMatch(/^cs_/);
    const listed = (await call('GET', '/applications')).body.find((a: { id: string }) => a.id === application.id);
    expect(JSON.stringify(listed)).not.toContain(clientSecret);
    expect((await tokenWith(application.clientId, clientSecret)).status).toBe(200);

    const rotated = await call('POST', `/applications/${application.id}/rotate-secret`, { graceSeconds: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.application.previousSecretExpiresAt).toBeTruthy();
    expect((await tokenWith(application.clientId, clientSecret)).status).toBe(200);
    expect((await tokenWith(application.clientId, rotated.body.clientSecret)).status).toBe(200);

    const hard = await call('POST', `/applications/${application.id}/rotate-secret`, { graceSeconds: 0 });
    expect((await tokenWith(application.clientId, rotated.body.clientSecret)).status).toBe(401);
    expect((await tokenWith(application.clientId, hard.body.clientSecret)).status).toBe(200);

    const disabled = await call('POST', `/applications/${application.id}/disable`);
    expect(disabled.body.disabledAt).toBeTruthy();
    expect((await tokenWith(application.clientId, hard.body.clientSecret)).status).toBe(401);
    expect((await call('POST', `/applications/${application.id}/tokens`, {})).status).toBe(400);
  });

  it('bad input names the field at fault', async () => {
    const call = asUser(stack, owner);
    const res = await call('POST', '/applications', { name: '', scopes: ['email'] });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['/name', '/scopes/0']);
    const appId = (await call('GET', '/applications')).body[0].id;
    const grace = await call('POST', `/applications/${appId}/rotate-secret`, { graceSeconds: 10 ** 9 });
    expect(grace.body.errors).toEqual([expect.objectContaining({ field: '/graceSeconds' })]);
  });

  it('a token created in the console works against the API; its refresh token family can be listed and revoked', async () => {
    const call = asUser(stack, owner);
    const app = (await call('GET', '/applications')).body.find((a: { name: string }) => a.name === 'web');
    const t = await call('POST', `/applications/${app.id}/tokens`, { scopes: ['webhooks'] });
    expect(t.status).toBe(201);
    expect(t.body.scope).toBe('webhooks');
    expect((await stack.request('GET', '/webhooks/v0', { token: t.body.access_token })).status).toBe(200);
    expect((await stack.request('GET', '/dataprocessing/v0/dpgroups', { token: t.body.access_token })).status).toBe(403);

    const families = (await call('GET', `/applications/${app.id}/token-families`)).body;
    expect(families[0]).toMatchObject({ revokedAt: null });
    const revoked = await call('POST', `/token-families/${families[0].id}/revoke`);
    expect(revoked.body.revokedAt).toBeTruthy();
    const refresh = await stack.request('POST', '/oauth/v0/token', {
      json: { grant_type: 'refresh_token', refresh_token: t.body.refresh_token, client_id: app.clientId, client_secret: 'unknown-to-the-console' },
    });
    expect(refresh.status).toBe(401); // the console never had the client secret; the family is revoked anyway
  });

  it('the API key is shown masked; rotation with grace keeps the old key valid, without grace it stops', async () => {
    const acme = await stack.bootstrap({ account: 'acme', app: 'keys', scopes: ['consent'] });
    const token = await stack.token(acme, 'consent');
    const call = asUser(stack, owner);
    const info = await call('GET', '/api-key');
    expect(info.body.masked).toBe(`ak_…${acme.apiKey.slice(-4)}`);
    expect(JSON.stringify(info.body)).not.toContain(acme.apiKey);

    const rotated = await call('POST', '/api-key/rotate', { graceSeconds: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.apiKey).toMatch(/^ak_/);
    expect(rotated.body.previousExpiresAt).toBeTruthy();
    const search = (apiKey: string) => stack.request('GET', '/consent/v0/consents/statistics', { token, apiKey });
    expect((await search(acme.apiKey)).status).toBe(200);
    expect((await search(rotated.body.apiKey)).status).toBe(200);

    const hard = await call('POST', '/api-key/rotate', { graceSeconds: 0 });
    expect((await search(hard.body.apiKey)).status).toBe(200);
    expect((await search(rotated.body.apiKey)).status).toBe(401);
  });
});

describe('webhooks', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('registers a webhook for an application, sends a test event, and shows the delivery in the log', async () => {
    const call = asUser(stack, owner);
    const app = (await call('GET', '/applications')).body.find((a: { name: string }) => a.name === 'web');
    const url = receiver.url;
    const w = await call('POST', `/applications/${app.id}/webhooks`, { url, events: ['consent'] });
    expect(w.status).toBe(201);
    expect(w.body.secret).toMatch(/^whsec_/);
    expect((await call('POST', `/applications/${app.id}/webhooks/${w.body.id}/test`)).status).toBe(202);
    let deliveries: Array<{ status: string; attempts: Array<{ statusCode: number }> }> = [];
    for (let i = 0; i < 50 && deliveries[0]?.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      deliveries = (await call('GET', `/applications/${app.id}/webhooks/${w.body.id}/deliveries`)).body;
    }
    expect(deliveries[0]).toMatchObject({ status: 'succeeded', attempts: [expect.objectContaining({ statusCode: 204 })] });
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
    const edited = await call('PATCH', `/applications/${app.id}/webhooks/${w.body.id}`, { url: url + '2' });
    expect(edited.body.url).toBe(url + '2');
    expect((await call('DELETE', `/applications/${app.id}/webhooks/${w.body.id}`)).status).toBe(204);
  });
});

describe('statistics', () => {
  it('counts the events per day by action in the range, lists current states per target, and exports CSV', async () => {
    const creds = await stack.bootstrap({ account: 'acme', app: 'stats', scopes: ['consent'] });
    const token = await stack.token(creds, 'consent');
    const events = [
      { subject: 's1', issuer: 'i', target: 'newsletter', action: true },
      { subject: 's2', issuer: 'i', target: 'newsletter', action: false },
      { subject: 's3', issuer: 'i', target: '=cmd', action: true },
    ];
    expect((await stack.request('POST', '/consent/v0/consents', { token, apiKey: creds.apiKey, json: events })).status).toBe(201);
    const call = asUser(stack, owner);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    let s = (await call('GET', `/applications/${creds.appId}/statistics?from=${yesterday}&to=${today}`)).body;
    for (let i = 0; i < 20 && s.targets.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100)); // current states follow the answer
      s = (await call('GET', `/applications/${creds.appId}/statistics?from=${yesterday}&to=${today}`)).body;
    }
    expect(s.days).toEqual([
      { day: yesterday, accepted: 0, declined: 0, noAction: 0 },
      { day: today, accepted: 2, declined: 1, noAction: 0 },
    ]);
    expect(s.topTargets[0]).toMatchObject({ target: 'newsletter', events: 2, currentAccepted: 1, currentDeclined: 1 });

    const csv = await call('GET', `/applications/${creds.appId}/statistics.csv?from=${today}&to=${today}`);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain(`accord-statistics-${today}-${today}.csv`);
    expect(csv.body).toContain(`day,accepted,declined,no_action\r\n${today},2,1,0\r\n`);
    expect(csv.body).toContain("'=cmd,1,1,0,0"); // a formula-like target is defused

    // Another account's session sees nothing of this application.
    const globex = asUser(stack, await signIn(stack, 'globex', 'g2'));
    expect((await globex('GET', `/applications/${creds.appId}/statistics`)).status).toBe(404);
  });

  it('refuses a bad date or a range over 366 days, naming the field', async () => {
    const call = asUser(stack, owner);
    const appId = (await call('GET', '/applications')).body[0].id;
    const bad = await call('GET', `/applications/${appId}/statistics?from=2026-13-01`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('from');
    const long = await call('GET', `/applications/${appId}/statistics?from=2020-01-01&to=2026-01-01`);
    expect(long.status).toBe(400);
    expect(long.body.errors[0].field).toBe('/to_day');
  });
});

describe('data processing', () => {
  it('is the /dataprocessing/v0 API acting as the chosen application: developers edit, viewers read, other accounts see nothing', async () => {
    const call = asUser(stack, owner);
    const app = (await call('GET', '/applications')).body.find((a: { name: string }) => a.name === 'web');
    const base = `/applications/${app.id}/dataprocessing`;
    const g = await call('POST', `${base}/dpgroups`, { name: 'Newsletter', purpose: 'Marketing e-mail' });
    expect(g.status).toBe(201);
    expect(g.body.appId).toBe(app.id);
    const s = await call('POST', `${base}/dpgroups/${g.body.id}/specs`, { data: 'e-mail', purpose: 'send the newsletter', action: 'use' });
    expect(s.status).toBe(201);
    const edited = await call('PATCH', `${base}/dpspecs/${s.body.id}`, { purpose: 'send the weekly newsletter' });
    expect(edited.body.version).toBe(2);
    const versions = (await call('GET', `${base}/dpspecs/${s.body.id}/versions`)).body;
    expect(versions.map((v: { version: number; spec: { purpose: string } }) => [v.version, v.spec.purpose])).toEqual([[1, 'send the newsletter']]);
    const policy = await call('GET', `${base}/dpgroups/${g.body.id}/policy`);
    expect(policy.headers.get('content-type')).toMatch(/^text\/html/);
    expect(policy.body).toContain('send the weekly newsletter');

    const viewer = asUser(stack, await signIn(stack, 'acme', 'vic2', 'viewer'));
    expect((await viewer('GET', `${base}/dpspecs/${s.body.id}`)).status).toBe(200);
    expect((await viewer('PATCH', `${base}/dpspecs/${s.body.id}`, { purpose: 'x' })).status).toBe(403);

    const globex = asUser(stack, await signIn(stack, 'globex', 'g3'));
    const theirApp = (await globex('GET', '/applications')).body[0].id;
    expect((await globex('GET', `/applications/${theirApp}/dataprocessing/dpspecs/${s.body.id}`)).status).toBe(404);
    expect((await globex('GET', `/applications/${theirApp}/dataprocessing/dpgroups`)).body).toEqual([]);
  });
});

describe('imports', () => {
  const ISSUER = 'https://shop.example';
  const line = (o: Record<string, unknown>) =>
    JSON.stringify({ subject: 'imp-u1', issuer: ISSUER, target: 'newsletter', action: true, createdAt: '2019-05-01T10:00:00.000Z', ...o });
  const ndjson = { 'content-type': 'application/x-ndjson' };

  it('a developer imports as the chosen application and reads the progress back, a bad line named by line and field; a viewer only reads', async () => {
    const creds = await stack.bootstrap({ account: 'acme', app: 'migration', scopes: ['consent'] });
    const dev = asUser(stack, await signIn(stack, 'acme', 'imp-dev', 'developer'));
    const body = [
      line({ externalId: 'c-1' }),
      line({ subject: 'imp-u2', action: 'maybe', externalId: 'c-2' }),
      line({ subject: 'imp-u3', externalId: 'c-3' }),
    ].join('\n');
    const posted = await dev('POST', `/applications/${creds.appId}/imports`, body, { headers: ndjson });
    expect(posted.status).toBe(202);
    expect(posted.body).toMatchObject({ state: 'done', read: 3, stored: 2, duplicates: 0, refused: 1, errors: [{ line: 2, field: 'action' }] });
    const got = await dev('GET', `/applications/${creds.appId}/imports/${posted.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(posted.body);

    // The events are the application's, with their original time; the same file again stores nothing.
    const token = await stack.token(creds, 'consent');
    const found = await stack.request('GET', `/consent/v0/consents/search?subject=imp-u1&issuer=${encodeURIComponent(ISSUER)}&target=newsletter`, {
      token,
      apiKey: creds.apiKey,
    });
    expect(found.body).toEqual([expect.objectContaining({ appId: creds.appId, createdAt: '2019-05-01T10:00:00.000Z' })]);
    const again = await dev('POST', `/applications/${creds.appId}/imports`, body, { headers: ndjson });
    expect(again.body).toMatchObject({ state: 'done', stored: 0, duplicates: 2, refused: 1 });

    // A viewer follows the import but cannot start one; nor can anyone without the CSRF token.
    const viewer = asUser(stack, await signIn(stack, 'acme', 'imp-viewer', 'viewer'));
    const refused = await viewer('POST', `/applications/${creds.appId}/imports`, body, { headers: ndjson });
    expect([refused.status, refused.body.type]).toEqual([403, 'urn:accord:problem:console-role']);
    expect((await viewer('GET', `/applications/${creds.appId}/imports/${posted.body.id}`)).body).toEqual(posted.body);
    const noCsrf = await dev('POST', `/applications/${creds.appId}/imports`, body, { headers: ndjson, csrf: false });
    expect([noCsrf.status, noCsrf.body.type]).toEqual([403, 'urn:accord:problem:csrf']);
  });

  it("another account's import and application are a 404, in either direction", async () => {
    const call = asUser(stack, owner);
    const mine = (await call('GET', '/applications')).body[0].id as string;
    const globex = asUser(stack, await signIn(stack, 'globex', 'imp-g'));
    const theirs = (await globex('GET', '/applications')).body[0].id as string;
    const their = await globex('POST', `/applications/${theirs}/imports`, line({ subject: 'imp-g1', externalId: 'g-1' }), { headers: ndjson });
    expect(their.status).toBe(202);
    const own = await call('POST', `/applications/${mine}/imports`, line({ subject: 'imp-a1', externalId: 'a-1' }), { headers: ndjson });
    expect(own.status).toBe(202);

    expect((await call('GET', `/applications/${mine}/imports/${their.body.id}`)).status).toBe(404); // their import, through my application
    expect((await call('GET', `/applications/${theirs}/imports/${their.body.id}`)).status).toBe(404); // their application
    expect((await call('POST', `/applications/${theirs}/imports`, line({ subject: 'imp-a2', externalId: 'a-2' }), { headers: ndjson })).status).toBe(404);
    expect((await globex('GET', `/applications/${theirs}/imports/${own.body.id}`)).status).toBe(404);
    expect((await call('GET', `/applications/${mine}/imports/${own.body.id}`)).status).toBe(200);
  });
});

describe('allowed browser origins', () => {
  const preflight = (origin: string) => stack.request('OPTIONS', '/consent/v0/consents', { headers: { origin, 'access-control-request-method': 'POST' } });

  it('a developer replaces the origins (canonical, de-duplicated); they are listed and a consent-session preflight from them passes, until removed', async () => {
    const dev = asUser(stack, await signIn(stack, 'acme', 'otto', 'developer'));
    const app = (await dev('GET', '/applications')).body.find((a: { name: string }) => a.name === 'web');
    expect(app.allowedOrigins).toEqual([]);
    expect((await preflight('https://shop.example')).status).toBe(403);

    const set = await dev('PUT', `/applications/${app.id}/origins`, { origins: ['https://Shop.Example:443', 'http://localhost:3000', 'https://shop.example'] });
    expect(set.status).toBe(200);
    expect(set.body.allowedOrigins).toEqual(['https://shop.example', 'http://localhost:3000']);
    const listed = (await dev('GET', '/applications')).body.find((a: { id: string }) => a.id === app.id);
    expect(listed.allowedOrigins).toEqual(['https://shop.example', 'http://localhost:3000']);
    const ok = await preflight('https://shop.example');
    expect(ok.status).toBeLessThan(300);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');

    expect((await dev('PUT', `/applications/${app.id}/origins`, { origins: [] })).body.allowedOrigins).toEqual([]);
    expect((await preflight('https://shop.example')).status).toBe(403);
  });

  it('refuses what is not an origin with problem+json naming each field, and changes nothing', async () => {
    const call = asUser(stack, owner);
    const app = (await call('GET', '/applications')).body.find((a: { name: string }) => a.name === 'web');
    expect((await call('PUT', `/applications/${app.id}/origins`, { origins: ['https://keep.example'] })).status).toBe(200);
    const bad = await call('PUT', `/applications/${app.id}/origins`, {
      origins: ['https://ok.example', 'https://shop.example/path', 'https://*.example', 'ftp://files.example', 'shop.example'],
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['/origins/1', '/origins/2', '/origins/3', '/origins/4']);
    const tooMany = await call('PUT', `/applications/${app.id}/origins`, { origins: Array.from({ length: 51 }, (_, i) => `https://a${i}.example`) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0].field).toBe('/origins');
    const missing = await call('PUT', `/applications/${app.id}/origins`, {});
    expect(missing.body.errors[0].field).toBe('/origins');
    const after = (await call('GET', '/applications')).body.find((a: { id: string }) => a.id === app.id);
    expect(after.allowedOrigins).toEqual(['https://keep.example']);
  });

  it('a viewer cannot change them, a change needs the CSRF token, and another account cannot touch them', async () => {
    const call = asUser(stack, owner);
    const app = (await call('GET', '/applications')).body.find((a: { name: string }) => a.name === 'web');
    await call('PUT', `/applications/${app.id}/origins`, { origins: ['https://keep.example'] });
    const viewer = asUser(stack, await signIn(stack, 'acme', 'vera', 'viewer'));
    const refused = await viewer('PUT', `/applications/${app.id}/origins`, { origins: ['https://evil.example'] });
    expect(refused.status).toBe(403);
    expect(refused.body.type).toBe('urn:accord:problem:console-role');
    const noCsrf = await call('PUT', `/applications/${app.id}/origins`, { origins: ['https://evil.example'] }, { csrf: false });
    expect(noCsrf.body.type).toBe('urn:accord:problem:csrf');
    const globex = asUser(stack, await signIn(stack, 'globex'));
    expect((await globex('PUT', `/applications/${app.id}/origins`, { origins: ['https://evil.example'] })).status).toBe(404);
    expect((await call('GET', '/applications')).body.find((a: { id: string }) => a.id === app.id).allowedOrigins).toEqual(['https://keep.example']);
  });
});

describe('members', () => {
  const linkToken = (link: string) => decodeURIComponent(/#link=(.+)$/.exec(link)![1]!);

  it('an owner invites a member with a role: the one-time link signs in as that member; the name cannot be invited twice', async () => {
    const call = asUser(stack, owner);
    const invite = await call('POST', '/members', { name: 'nina', role: 'developer' });
    expect(invite.status).toBe(201);
    expect(invite.body.link).toMatch(new RegExp(`^${stack.baseUrl}/console/#link=cln_`));
    expect(invite.body.member).toMatchObject({ name: 'nina', role: 'developer' });
    const members = (await call('GET', '/members')).body as Array<{ name: string; role: string }>;
    expect(members).toContainEqual(expect.objectContaining({ name: 'nina', role: 'developer' }));
    expect(members).toContainEqual(expect.objectContaining({ name: 'owner', role: 'owner' }));

    const link = linkToken(invite.body.link);
    const signedIn = await stack.request('POST', '/console/api/session', { json: { link } });
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.member).toMatchObject({ name: 'nina', role: 'developer' });
    expect((await stack.request('POST', '/console/api/session', { json: { link } })).status).toBe(401);

    const again = await call('POST', '/members', { name: 'nina', role: 'viewer' });
    expect(again.status).toBe(409);
    expect(again.body.type).toBe('urn:accord:problem:conflict');
    const bad = await call('POST', '/members', { name: '', role: 'admin' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['/name', '/role']);
  });

  it("an owner changes a member's role (effective on the member's next request) and removes a member (its sessions end)", async () => {
    const call = asUser(stack, owner);
    const pat = await signIn(stack, 'acme', 'pat', 'developer');
    const asPat = asUser(stack, pat);
    const demoted = await call('PATCH', `/members/${pat.body.member.id}`, { role: 'viewer' });
    expect(demoted.status).toBe(200);
    expect(demoted.body).toMatchObject({ id: pat.body.member.id, role: 'viewer' });
    expect((await asPat('GET', '/session')).body.member.role).toBe('viewer');
    expect((await asPat('POST', '/applications', { name: 'x' })).status).toBe(403);
    const badRole = await call('PATCH', `/members/${pat.body.member.id}`, { role: 'admin' });
    expect(badRole.body.errors[0].field).toBe('/role');

    expect((await call('DELETE', `/members/${pat.body.member.id}`)).status).toBe(204);
    expect((await asPat('GET', '/session')).status).toBe(401);
    const members = (await call('GET', '/members')).body as Array<{ id: string }>;
    expect(members.map((m) => m.id)).not.toContain(pat.body.member.id);
    expect((await call('DELETE', `/members/${pat.body.member.id}`)).status).toBe(404);
  });

  it('the account never loses its last owner: demoting or removing it is a 409 problem; with a second owner both work', async () => {
    await stack.bootstrap({ account: 'initech', app: 'tps', scopes: ['consent'] });
    const bill = await signIn(stack, 'initech', 'bill', 'owner');
    const asBill = asUser(stack, bill);
    const demote = await asBill('PATCH', `/members/${bill.body.member.id}`, { role: 'developer' });
    expect(demote.status).toBe(409);
    expect(demote.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(demote.body.detail).toMatch(/at least one owner/);
    expect((await asBill('DELETE', `/members/${bill.body.member.id}`)).status).toBe(409);
    expect((await asBill('GET', '/session')).body.member.role).toBe('owner');

    const peter = await asBill('POST', '/members', { name: 'peter', role: 'owner' });
    expect((await asBill('PATCH', `/members/${bill.body.member.id}`, { role: 'developer' })).status).toBe(200);
    // bill is a developer now: members are the owners' business.
    expect((await asBill('DELETE', `/members/${peter.body.member.id}`)).status).toBe(403);
    const asPeter = asUser(stack, await signIn(stack, 'initech', 'peter'));
    expect((await asPeter('DELETE', `/members/${peter.body.member.id}`)).status).toBe(409);
    expect((await asPeter('DELETE', `/members/${bill.body.member.id}`)).status).toBe(204);
  });

  it('developers and viewers only read the members; changes need the CSRF token; another account cannot touch them', async () => {
    const target = (await asUser(stack, owner)('POST', '/members', { name: 'quinn', role: 'viewer' })).body.member;
    for (const role of ['developer', 'viewer']) {
      const user = asUser(stack, await signIn(stack, 'acme', `m-${role}`, role));
      expect((await user('GET', '/members')).status).toBe(200);
      for (const [method, path, body] of [
        ['POST', '/members', { name: 'zed', role: 'owner' }],
        ['PATCH', `/members/${target.id}`, { role: 'owner' }],
        ['DELETE', `/members/${target.id}`, undefined],
      ] as const) {
        const res = await user(method, path, body);
        expect({ role, method, status: res.status, type: res.body.type }).toEqual({ role, method, status: 403, type: 'urn:accord:problem:console-role' });
      }
    }
    const call = asUser(stack, owner);
    expect((await call('PATCH', `/members/${target.id}`, { role: 'owner' }, { csrf: false })).body.type).toBe('urn:accord:problem:csrf');
    expect((await call('DELETE', `/members/${target.id}`, undefined, { csrf: false })).status).toBe(403);

    const globex = asUser(stack, await signIn(stack, 'globex', 'gowner'));
    expect((await globex('GET', '/members')).body.map((m: { id: string }) => m.id)).not.toContain(target.id);
    expect((await globex('PATCH', `/members/${target.id}`, { role: 'owner' })).status).toBe(404);
    expect((await globex('DELETE', `/members/${target.id}`)).status).toBe(404);
    expect((await call('GET', '/members')).body).toContainEqual(expect.objectContaining({ id: target.id, role: 'viewer' }));
  });
});
