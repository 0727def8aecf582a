/**
 * The Python client (clients/python) against the whole stack: its pytest suite runs with an
 * application's credentials — decisions in order with their evidence, filter_allowed streaming
 * rows in batches, the token renewed before it expires and after a 401, problems naming the
 * field. The generator's venv (openapi-python-client and pytest, pinned) is provisioned here, as
 * `npm run gen` does: clients/python/scripts/install-generator.sh (idempotent).
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@accord/local-stack';
import { startStack, type Stack } from './harness';

jest.setTimeout(300_000);

const PYTHON = join(REPO_ROOT, 'clients', 'python');
let stack: Stack;
let venv: string;

beforeAll(async () => {
  venv = execFileSync(join(PYTHON, 'scripts', 'install-generator.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  stack = await startStack('python-client');
}, 300_000);
afterAll(async () => stack?.stop());

test('the pytest suite passes against the live stack', async () => {
  const creds = await stack.bootstrap({ account: 'pyco', app: 'pipeline', scopes: ['consent'] });
  const env = {
    ...process.env,
    ACCORD_BASE_URL: stack.baseUrl,
    ACCORD_CLIENT_ID: creds.clientId,
    ACCORD_CLIENT_SECRET: creds.clientSecret,
    ACCORD_API_KEY: creds.apiKey,
    PYTHONPATH: PYTHON,
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(join(venv, 'bin', 'python'), ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], {
      cwd: PYTHON,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('close', (c) => resolve({ code: c, out: text }));
  });
  if (code !== 0) console.log(out);
  expect(code).toBe(0);
  // every test ran (none skipped or deselected)
  expect(out).toMatch(/\b7 passed\b/);
});
