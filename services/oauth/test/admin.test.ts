import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata, status } from '@grpc/grpc-js';
import { freePort } from '@accord/local-stack';
import { runAdmin } from '../src';
import { ADMIN_TOKEN, startService, TEST_IDENTITIES, tokenRequest, type RunningService } from '@accord/testkit';

let svc: RunningService<'oauth'>;
beforeAll(async () => {
  svc = await startService('oauth', 'oauthadmin');
});
afterAll(async () => svc?.stop());

const bearer = (token: string) => {
  const m = new Metadata();
  m.set('authorization', `Bearer ${token}`);
  return m;
};

async function cli(argv: string[], env: NodeJS.ProcessEnv = { ACCORD_OAUTH_ADDR: svc.addr, ACCORD_ADMIN_TOKEN: ADMIN_TOKEN }, cwd?: string) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env, cwd });
  return { code, stdout, stderr };
}

describe('admin RPCs', () => {
  it('are refused without the admin token and with a wrong one', async () => {
    await expect(svc.clientAs('none').listAccounts({})).rejects.toMatchObject({ code: status.UNAUTHENTICATED });
    // Accord's own services are no operators: not even the gateway may call an admin RPC
    await expect(svc.client.listAccounts({})).rejects.toMatchObject({ code: status.PERMISSION_DENIED });
    await expect(svc.client.listAccounts({}, { metadata: bearer('wrong-token-wrong-token') })).rejects.toMatchObject({ code: status.UNAUTHENTICATED });
    await expect(svc.client.bootstrap({ accountName: 'x', appName: 'y', scopes: [] }, { metadata: bearer(ADMIN_TOKEN + 'x') })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
  });

  it('are disabled when the service has no admin token', async () => {
    const noAdmin = await startService('oauth', 'oauthnoadmin', { ACCORD_ADMIN_TOKEN: undefined });
    try {
      await expect(noAdmin.client.bootstrap({ accountName: 'x', appName: 'y', scopes: [] }, { metadata: noAdmin.admin })).rejects.toMatchObject({
        code: status.PERMISSION_DENIED,
      });
    } finally {
      await noAdmin.stop();
    }
  });

  it('bootstrap twice with one account name adds an application to the same account and returns the same API key', async () => {
    const a = await svc.client.bootstrap({ accountName: 'twice', appName: 'one', scopes: ['consent'] }, { metadata: svc.admin });
    const b = await svc.client.bootstrap({ accountName: 'twice', appName: 'two', scopes: ['webhooks', 'consent'] }, { metadata: svc.admin });
    expect(a.accountCreated).toBe(true);
    expect(b.accountCreated).toBe(false);
    expect(b.accountId).toBe(a.accountId);
    expect(b.apiKey).toBe(a.apiKey);
    expect(a.apiKey).toMatch(/^ak_[\w-]{43}$/);
    expect(a.clientSecret).toMatch(/^cs_[\w-]{43}$/);
    expect(a.clientId).toMatch(/^cl_[\w-]{22}$/);
    expect(b.clientId).not.toBe(a.clientId);
    expect(b.scopes).toEqual(['consent', 'webhooks']);
    const { applications } = await svc.client.listApplications({ accountId: a.accountId }, { metadata: svc.admin });
    expect(applications.map((x) => x.name)).toEqual(['one', 'two']);
    expect(JSON.stringify(applications)).not.toContain(a.clientSecret);
  });

  it('concurrent bootstraps of a new account name create one account', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => svc.client.bootstrap({ accountName: 'race', appName: `app${i}`, scopes: [] }, { metadata: svc.admin })),
    );
    expect(new Set(results.map((r) => r.accountId)).size).toBe(1);
    expect(new Set(results.map((r) => r.apiKey)).size).toBe(1);
    expect(results.filter((r) => r.accountCreated)).toHaveLength(1);
  });

  it('bootstrap rejects unknown scopes and missing names with field errors', async () => {
    await expect(svc.client.bootstrap({ accountName: 'x', appName: 'y', scopes: ['admin'] }, { metadata: svc.admin })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringContaining('/scopes'),
    });
    await expect(svc.client.bootstrap({ accountName: ' ', appName: '', scopes: [] }, { metadata: svc.admin })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringContaining('/account_name'),
    });
  });

  it('rotating the API key makes the old one unknown and the new one resolve', async () => {
    const a = await svc.client.bootstrap({ accountName: 'rotkey', appName: 'w', scopes: [] }, { metadata: svc.admin });
    const { apiKey } = await svc.client.rotateApiKey({ accountId: a.accountId }, { metadata: svc.admin });
    expect(apiKey).not.toBe(a.apiKey);
    await expect(svc.client.validateApiKey({ apiKey: a.apiKey })).rejects.toMatchObject({ code: status.NOT_FOUND });
    expect((await svc.client.validateApiKey({ apiKey })).accountId).toBe(a.accountId);
    // Bootstrap reads back the current key.
    expect((await svc.client.bootstrap({ accountName: 'rotkey', appName: 'w2', scopes: [] }, { metadata: svc.admin })).apiKey).toBe(apiKey);
  });

  it('answers NOT_FOUND for rotations and listings of unknown accounts and clients', async () => {
    await expect(svc.client.rotateApiKey({ accountId: 'nope' }, { metadata: svc.admin })).rejects.toMatchObject({ code: status.NOT_FOUND });
    await expect(svc.client.rotateClientSecret({ clientId: 'cl_nope' }, { metadata: svc.admin })).rejects.toMatchObject({ code: status.NOT_FOUND });
    await expect(svc.client.listApplications({ accountId: 'nope' }, { metadata: svc.admin })).rejects.toMatchObject({ code: status.NOT_FOUND });
  });
});

describe('admin CLI', () => {
  const KEYS = ['accountId', 'apiKey', 'appId', 'clientId', 'clientSecret', 'scopes'];

  it('bootstrap --json prints exactly one JSON object with the contract keys, and a rerun reuses the account and API key', async () => {
    const first = await cli(['bootstrap', '--account', 'cli-acme', '--app', 'web', '--scopes', 'consent,dataprocessing,webhooks', '--json']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.trim().split('\n')).toHaveLength(1);
    const one = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(Object.keys(one).sort()).toEqual(KEYS);
    expect(one.scopes).toEqual(['consent', 'dataprocessing', 'webhooks']);

    const second = await cli(['bootstrap', '--account', 'cli-acme', '--app', 'mobile', '--scopes', 'consent', '--json']);
    expect(second.code).toBe(0);
    const two = JSON.parse(second.stdout) as Record<string, unknown>;
    expect(Object.keys(two).sort()).toEqual(KEYS);
    expect(two.accountId).toBe(one.accountId);
    expect(two.apiKey).toBe(one.apiKey);
    expect(two.clientId).not.toBe(one.clientId);
    expect(two.scopes).toEqual(['consent']);

    // The printed credentials work.
    const t = await svc.client.issueToken(
      tokenRequest({ grantType: 'client_credentials', clientId: String(two.clientId), clientSecret: String(two.clientSecret) }),
    );
    expect(t.token?.scope).toBe('consent');
    expect((await svc.client.validateApiKey({ apiKey: String(two.apiKey) })).accountId).toBe(one.accountId);
  });

  it('finds the service through the state file of npm start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'accord-cli-'));
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ gatewayUrl: 'http://x', oauthAddr: svc.addr, adminToken: ADMIN_TOKEN }));
    const r = await cli(['accounts', '--json'], { ACCORD_STATE_FILE: 'state.json' }, dir);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(r.stdout) as { name: string }[]).map((a) => a.name)).toContain('cli-acme');

    const fromCwd = mkdtempSync(join(tmpdir(), 'accord-cli-'));
    const stateDir = join(fromCwd, '.accord', 'local');
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, 'state.json'), JSON.stringify({ oauthAddr: svc.addr, adminToken: ADMIN_TOKEN }));
    expect((await cli(['accounts'], {}, fromCwd)).code).toBe(0);
  });

  it('export finds the consent service in the state file, says how to point at it when it cannot, and reports an interruption with the cursor', async () => {
    const none = await cli(['export', '--account', 'acc'], { ACCORD_STATE_FILE: join(tmpdir(), 'no-such-accord-state.json') });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/ACCORD_CONSENT_ADDR/);
    const dir = mkdtempSync(join(tmpdir(), 'accord-cli-'));
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ oauthAddr: svc.addr, adminToken: ADMIN_TOKEN }));
    const noAddr = await cli(['export', '--account', 'acc'], { ACCORD_STATE_FILE: 'state.json' }, dir);
    expect(noAddr.stderr).toMatch(/no consentAddr/);
    // a consent address where nothing listens: the export fails, naming what to resume with
    const port = await freePort();
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ consentAddr: `127.0.0.1:${port}` }));
    const noKey = await cli(['export', '--account', 'acc'], { ACCORD_STATE_FILE: 'state.json' }, dir);
    expect(noKey.stderr).toMatch(/no adminServiceKey/);
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ consentAddr: `127.0.0.1:${port}`, adminServiceKey: TEST_IDENTITIES.admin }));
    const down = await cli(['export', '--account', 'acc', '--cursor', 'a'.repeat(32), '--quiet'], { ACCORD_STATE_FILE: 'state.json' }, dir);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/export interrupted after 0 events/);
    expect(down.stderr).toMatch(new RegExp(`resume with: --cursor ${'a'.repeat(32)}`));
  });

  it('lists applications, rotates a secret and an API key', async () => {
    const b = JSON.parse((await cli(['bootstrap', '--account', 'cli-rot', '--app', 'a', '--json'])).stdout) as Record<string, string>;
    const apps = await cli(['apps', '--account', b.accountId!, '--json']);
    expect(JSON.parse(apps.stdout)).toEqual([
      expect.objectContaining({ id: b.appId, clientId: b.clientId, scopes: ['consent', 'dataprocessing', 'webhooks'] }),
    ]);
    const rs = JSON.parse((await cli(['rotate-secret', '--client', b.clientId!, '--json'])).stdout) as Record<string, string>;
    expect(rs.clientSecret).toMatch(/^cs_/);
    expect(rs.clientSecret).not.toBe(b.clientSecret);
    const rk = JSON.parse((await cli(['rotate-api-key', '--account', b.accountId!, '--json'])).stdout) as Record<string, string>;
    expect(rk.apiKey).toMatch(/^ak_/);
    expect(rk.apiKey).not.toBe(b.apiKey);
    const human = await cli(['apps', '--account', b.accountId!]);
    expect(human.stdout).toContain(b.clientId);
  });

  it('says in one line on stderr, with exit code 1, when the service cannot be reached', async () => {
    const port = await freePort();
    const r = await cli(['accounts'], { ACCORD_OAUTH_ADDR: `127.0.0.1:${port}`, ACCORD_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: cannot reach the oauth service at 127.0.0.1:${port}: is \`npm start\` running?\n`);
  });

  it('explains a missing state file, a refused admin token, and bad arguments', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'accord-cli-'));
    const noState = await cli(['accounts'], {}, empty);
    expect(noState.code).toBe(1);
    expect(noState.stderr).toMatch(/^error: cannot find the oauth service: no state file at .*state\.json.*npm start.*\n$/);

    const refused = await cli(['accounts'], { ACCORD_OAUTH_ADDR: svc.addr, ACCORD_ADMIN_TOKEN: 'wrong-wrong-wrong-wrong' });
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain('refused the admin token');

    const missing = await cli(['bootstrap', '--app', 'x']);
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: 'error: bootstrap: --account is required (see --help)\n' });
    expect((await cli(['frobnicate'])).stderr).toContain('unknown command');
    expect((await cli(['accounts', '--bogus'])).code).toBe(1);
    const badScope = await cli(['bootstrap', '--account', 'x', '--app', 'y', '--scopes', 'consent,admin', '--json']);
    expect(badScope).toMatchObject({ code: 1, stdout: '' });
    expect(badScope.stderr).toContain('admin');
  });

  it('prints usage with --help', async () => {
    const r = await cli(['--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('bootstrap --account <name> --app <name>');
  });

  it('console-link prints a one-time sign-in URL on the gateway of ACCORD_BASE_URL, and refuses unknown accounts and roles', async () => {
    await cli(['bootstrap', '--account', 'linked', '--app', 'a']);
    const env = { ACCORD_OAUTH_ADDR: svc.addr, ACCORD_ADMIN_TOKEN: ADMIN_TOKEN, ACCORD_BASE_URL: 'https://accord.example/' };
    const plain = await cli(['console-link', '--account', 'linked'], env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^https:\/\/accord\.example\/console\/#link=cln_[\w-]{43}\n\(one use, valid until .+; signs in as owner \(owner\)\)/);
    const json = await cli(['console-link', '--account', 'linked', '--member', 'vera', '--role', 'viewer', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ url: expect.stringMatching(/#link=cln_/), member: 'vera', role: 'viewer' });
    const unknown = await cli(['console-link', '--account', 'nope'], env);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: account "nope" not found/) });
    const role = await cli(['console-link', '--account', 'linked', '--member', 'x', '--role', 'admin'], env);
    expect(role).toMatchObject({ code: 1, stderr: expect.stringContaining('/role: must be one of owner, developer, viewer') });
  });
});
