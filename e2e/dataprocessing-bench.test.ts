import { benchDataprocessing } from '../bench/src/dataprocessing';
import { startStack, type Stack } from './harness';

// The benchmark of `npm run bench` must measure real answers: a short run through the whole
// stack must see no errors (non-2xx included) on any of its endpoints.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('dpbench');
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

test('the dataprocessing benchmark creates and reads specifications without errors', async () => {
  const creds = await stack.bootstrap({ account: 'bench', app: 'bench', scopes: ['dataprocessing'] });
  const token = await stack.token(creds, 'dataprocessing');
  const results = await benchDataprocessing({
    baseUrl: stack.baseUrl,
    token,
    apiKey: creds.apiKey,
    durationSec: Number(process.env.ACCORD_BENCH_SECONDS ?? 3),
  });
  console.log(JSON.stringify(results, null, 1));
  expect(results.map((r) => r.name)).toHaveLength(3);
  for (const r of results) {
    expect(r.errors).toBe(0);
    expect(r.requestsPerSec).toBeGreaterThan(0);
  }
  // every spec created by the benchmark is readable afterwards
  const groups = await stack.request('GET', '/dataprocessing/v0/dpgroups', { token });
  const specs = await stack.request('GET', `/dataprocessing/v0/dpgroups/${groups.body[0].id}/specs?limit=5`, { token });
  expect(specs.body.length).toBeGreaterThan(0);
}, 120_000);
