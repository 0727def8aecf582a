/**
 * The Go and Python gRPC examples (clients/go/examples/consent, clients/python-grpc/examples/
 * consent.py) against the whole stack, run as a platform team runs them: each takes a token from
 * the gateway, records a consent with CreateConsents and asks Decide over gRPC with the token in
 * its metadata. What they stored must be what REST then finds with the same account's token, and
 * the decision must allow it; an example that fails must exit non-zero. `npm test` provisions the
 * Go binary and the Python venv (deploy/local/scripts/provision.js); the scripts called here do
 * nothing then, and build again only when the sources changed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@accord/local-stack';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(180_000);

const ISSUER = 'https://shop.example';
const TARGET = 'https://shop.example/privacy';
const PYTHON = join(REPO_ROOT, 'clients', 'python-grpc');

let stack: Stack;
let creds: Credentials;
let other: Credentials;
const command: Record<'go' | 'python', [string, string[]]> = { go: ['', []], python: ['', []] };

beforeAll(async () => {
  const script = (...p: string[]) => execFileSync(join(REPO_ROOT, ...p), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  command.go = [script('clients', 'go', 'scripts', 'build-example.sh'), []];
  const venv = script('clients', 'python-grpc', 'scripts', 'install-grpc-tools.sh');
  command.python = [join(venv, 'bin', 'python'), [join(PYTHON, 'examples', 'consent.py')]];
  stack = await startStack('grpc-clients');
  creds = await stack.bootstrap({ account: 'polyglot', app: 'backend', scopes: ['consent'] });
  other = await stack.bootstrap({ account: 'elsewhere', app: 'backend', scopes: ['consent'] });
}, 600_000);
afterAll(async () => stack?.stop());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one example with the README's variables (plus `env`); stopped after 60 s. */
function runExample(lang: 'go' | 'python', env: Record<string, string>): Promise<Run> {
  const [cmd, args] = command[lang];
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      env: {
        PATH: process.env.PATH ?? '',
        PYTHONPATH: PYTHON,
        PYTHONDONTWRITEBYTECODE: '1',
        ACCORD_BASE_URL: stack.baseUrl,
        ACCORD_CONSENT_ADDR: stack.env.ACCORD_CONSENT_ADDR!,
        ACCORD_CLIENT_ID: creds.clientId,
        ACCORD_CLIENT_SECRET: creds.clientSecret,
        ACCORD_ACCOUNT_ID: creds.accountId,
        ACCORD_APP_ID: creds.appId,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function search(subject: string) {
  const token = await stack.token(creds, 'consent');
  const query = new URLSearchParams({ subject, issuer: ISSUER, target: TARGET });
  const res = await stack.request('GET', `/consent/v0/consents/search?${query}`, { token, apiKey: creds.apiKey });
  expect(res.status).toBe(200);
  return res.body as Array<{ id: string; subject: string; action: boolean; appId: string }>;
}

describe.each(['go', 'python'] as const)('the %s example', (lang) => {
  test('records a consent over gRPC that REST finds with the same account, and Decide allows it', async () => {
    const subject = `${lang}-example-${Date.now()}`;
    const r = await runExample(lang, { ACCORD_SUBJECT: subject });
    if (r.code !== 0) throw new Error(`the ${lang} example exited with ${r.code}:\n${r.stdout}${r.stderr}`);
    const created = /^created consent event (\S+): subject=(\S+) target=(\S+) action=true at \S+$/m.exec(r.stdout);
    expect(created?.slice(2)).toEqual([subject, TARGET]);
    const id = created![1]!;
    expect(r.stdout).toMatch(new RegExp(`^decision: allowed=true basis=consent event=${id}$`, 'm'));

    // stored in the credentials' account, by their application, as REST sees it
    const found = await search(subject);
    expect(found.map((e) => [e.id, e.subject, e.action, e.appId])).toEqual([[id, subject, true, creds.appId]]);
  });

  test('naming another account in the messages is refused with PERMISSION_DENIED: exit code 1, nothing stored there', async () => {
    const subject = `${lang}-other-${Date.now()}`;
    const r = await runExample(lang, { ACCORD_SUBJECT: subject, ACCORD_ACCOUNT_ID: other.accountId });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: CreateConsents: .*(PermissionDenied|PERMISSION_DENIED)/m);
    const token = await stack.token(other, 'consent');
    const query = new URLSearchParams({ subject, issuer: ISSUER, target: TARGET });
    expect((await stack.request('GET', `/consent/v0/consents/search?${query}`, { token, apiKey: other.apiKey })).body).toEqual([]);
    expect(await search(subject)).toEqual([]);
  });

  test('fails with exit code 1 and the token endpoint’s answer when the client secret is wrong, and stores nothing', async () => {
    const subject = `${lang}-refused-${Date.now()}`;
    const r = await runExample(lang, { ACCORD_SUBJECT: subject, ACCORD_CLIENT_SECRET: 'not-the-secret' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: token endpoint: 401.*invalid_client/m);
    expect(r.stdout).toBe('');
    expect(await search(subject)).toEqual([]);
  });
});
