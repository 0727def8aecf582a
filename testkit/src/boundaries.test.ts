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
    expect(out).toMatch(/16 dependency violations/);
  });

  test('report an import cycle with its path', () => {
    expect(out).toMatch(/no-cycle: services\/shop\/src\/store\/audit\.ts →\s+services\/shop\/src\/store\/orders\.ts →\s+services\/shop\/src\/store\/audit\.ts/);
  });

  test('report an import cycle made of a type-only import too', () => {
    expect(out).toMatch(
      /no-cycle: services\/shop\/src\/pages\/orders-page\.ts →\s+services\/shop\/src\/pages\/shell\.ts →\s+services\/shop\/src\/pages\/orders-page\.ts/,
    );
  });

  test('report a service that imports a client package (what both share lives in shared/)', () => {
    expect(out).toContain('services-without-clients: services/shop/src/log.ts → clients/verify/src/index.ts');
  });

  test('report a domain module that imports the store', () => {
    expect(out).toContain('domain-without-io: services/shop/src/domain/order.ts → services/shop/src/store/orders.ts');
  });

  test('report a domain module that imports a database library, even for types only', () => {
    expect(out).toMatch(/domain-without-io: services\/shop\/src\/domain\/order\.ts → .*node_modules\/mongoose\//);
  });

  // the rooms of a service, one rule per row of the README's table
  test('report a config.ts or metrics.ts that imports a room of its service', () => {
    expect(out).toContain('config-only-common: services/shop/src/config.ts → services/shop/src/domain/order.ts');
    expect(out).toContain('metrics-only-common: services/shop/src/metrics.ts → services/shop/src/domain/order.ts');
  });

  test('report a use case that takes a store module or a database library instead of its port', () => {
    expect(out).toContain('app-through-ports: services/shop/src/app/checkout.ts → services/shop/src/store/orders.ts');
    expect(out).toMatch(/app-through-ports: services\/shop\/src\/app\/checkout\.ts → .*node_modules\/mongoose\//);
    expect(out).not.toContain('→ services/shop/src/app/ports.ts');
  });

  test('report a store module that calls a use case or an adapter (the port it implements is allowed)', () => {
    expect(out).toContain('store-holds-queries: services/shop/src/store/receipts.ts → services/shop/src/app/checkout.ts');
    expect(out).toContain('store-holds-queries: services/shop/src/store/receipts.ts → services/shop/src/events/publisher.ts');
  });

  test('report a gRPC handler that reads the store or a database library itself', () => {
    expect(out).toContain('grpc-translates-only: services/shop/src/grpc/handlers.ts → services/shop/src/store/orders.ts');
    expect(out).toMatch(/grpc-translates-only: services\/shop\/src\/grpc\/handlers\.ts → .*node_modules\/mongoose\//);
  });

  test('report gateway middleware that imports a route (a route importing its middleware is allowed)', () => {
    expect(out).toContain('middleware-without-routes: services/shop/src/middleware/limits.ts → services/shop/src/routes/orders.ts');
    expect(out).not.toContain('→ services/shop/src/middleware/auth.ts');
  });

  test('report a NATS job that borrows from the gRPC adapter or reads a store module', () => {
    expect(out).toContain('events-without-grpc: services/shop/src/events/publisher.ts → services/shop/src/grpc/handlers.ts');
    expect(out).toContain('jobs-through-ports: services/shop/src/events/publisher.ts → services/shop/src/store/orders.ts');
  });
});
