import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// `npm run lint` runs dependency-cruiser with the repository's rules (.dependency-cruiser.js). This
// proves the rules bite: on a small service that breaks them on purpose (testkit/fixtures, which
// the normal lint neither cruises nor lints) the same command must fail and name each breach.
const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(__dirname, '..', 'fixtures', 'boundaries');

function cruise(): { status: number | null; out: string } {
  const bin = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const r = spawnSync(process.execPath, [bin, 'services', '--config', join(ROOT, '.dependency-cruiser.js'), '--output-type', 'err'], {
    cwd: FIXTURE,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('the boundary rules of npm run lint', () => {
  const { status, out } = cruise();

  test('fail the lint when a rule is broken', () => {
    expect(status).not.toBe(0);
    expect(out).toMatch(/3 dependency violations/);
  });

  test('report an import cycle with its path', () => {
    expect(out).toMatch(/no-cycle: services\/shop\/src\/store\/audit\.ts →\s+services\/shop\/src\/store\/orders\.ts →\s+services\/shop\/src\/store\/audit\.ts/);
  });

  test('report a domain module that imports the store', () => {
    expect(out).toContain('domain-without-io: services/shop/src/domain/order.ts → services/shop/src/store/orders.ts');
  });

  test('report a domain module that imports a database library, even for types only', () => {
    expect(out).toMatch(/domain-without-io: services\/shop\/src\/domain\/order\.ts → .*node_modules\/mongoose\//);
  });
});
