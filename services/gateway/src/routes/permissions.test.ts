import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { KeyStore, loadConfig } from '@accord/common';
import { createApp } from '../app';
import { configShape } from '../config';
import type { GatewayContext } from '../context';
import { buildDocument } from '../openapi';
import type { OperationKey, Permission } from '../middleware/permissions';
import { PERMISSIONS } from './permissions';

interface Layer {
  rawPath?: string | string[];
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** Every route Express has, as `METHOD /path` with each parameter written `{}` (names differ between the routers and the document). */
function expressRoutes(stack: Layer[], prefix = ''): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    if (layer.route) {
      for (const path of [layer.route.path].flat()) {
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all')) {
          // a router mounted at /webhooks/v0 answers its '/' at /webhooks/v0 (the document's spelling)
          out.push(`${method.toUpperCase()} ${path === '/' && prefix ? prefix : prefix + path}`);
        }
      }
    } else if (layer.handle.stack) {
      const mount = [layer.rawPath ?? '/'].flat()[0]!;
      out.push(...expressRoutes(layer.handle.stack, mount === '/' ? prefix : prefix + mount));
    }
  }
  return out.map(shape);
}

const shape = (key: string) => key.replace(/\/:[^/]+/g, '/{}').replace(/\/\{[^}]+\}/g, '/{}');

function gateway() {
  // a built console, so that its page is one of the routes
  const consoleDir = mkdtempSync(join(tmpdir(), 'accord-console-'));
  mkdirSync(join(consoleDir, 'public'));
  writeFileSync(join(consoleDir, 'public', 'index.html'), '<!doctype html>');
  const config = loadConfig(configShape, { ACCORD_CONSOLE_DIR: consoleDir, ACCORD_CONSOLE_OIDC_ISSUER: 'https://idp.example' });
  const never = new Proxy({}, { get: () => new Proxy({}, { get: () => () => Promise.reject(new Error('no service in this test')) }) });
  const keys = new KeyStore(async () => [], 60_000, pino({ level: 'silent' }));
  const ctx = {
    config,
    logger: pino({ level: 'silent' }),
    clients: never,
    tokenKeys: keys,
    receiptKeys: keys,
    baseUrl: 'http://accord.test',
  } as unknown as GatewayContext;
  return createApp(ctx) as unknown as { router: { stack: Layer[] } };
}

describe('every route declares who may call it (routes/permissions.ts)', () => {
  const declared = new Set(Object.keys(PERMISSIONS).map(shape));
  const routes = new Set(expressRoutes(gateway().router.stack));
  const doc = buildDocument('http://accord.test') as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).map((m) => shape(`${m.toUpperCase()} ${path}`)),
  );

  test('the walk finds the routers (a guard against a walk that finds nothing)', () => {
    expect(routes.size).toBeGreaterThan(100);
    expect(routes).toContain('POST /consent/v0/consents');
    expect(routes).toContain('PATCH /console/api/applications/{}/webhooks/{}');
  });

  test('every route of the gateway has a declaration', () => {
    expect([...routes].filter((r) => !declared.has(r))).toEqual([]);
  });

  test('every operation of the OpenAPI document has a declaration', () => {
    expect(operations.filter((o) => !declared.has(o))).toEqual([]);
  });

  test('every declaration has its route', () => {
    expect([...declared].filter((d) => !routes.has(d))).toEqual([]);
  });

  test("the document's security of each operation says what its declaration says", () => {
    const expected = (p: Permission) =>
      p.who === 'public'
        ? []
        : p.who === 'client'
          ? [{}, { basic: [] }]
          : p.who === 'console'
            ? [{ consoleSession: [] }]
            : p.apiKey === 'required'
              ? [{ bearer: [], apiKey: [] }]
              : [{ bearer: [] }];
    const differ = Object.entries(doc.paths).flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete']
        .filter((m) => item[m])
        .map((m) => {
          const key = `${m.toUpperCase()} ${path}` as OperationKey;
          const security = (item[m] as { security?: unknown }).security ?? (doc as { security?: unknown }).security;
          return { key, security, declared: PERMISSIONS[key] && expected(PERMISSIONS[key]) };
        })
        .filter((o) => JSON.stringify(o.security) !== JSON.stringify(o.declared)),
    );
    expect(differ).toEqual([]);
  });
});
