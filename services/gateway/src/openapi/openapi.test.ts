import { buildDocument } from './index';
import { toFieldErrors, validatorFor } from './validate';

const doc = buildDocument('https://accord.example.com') as {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
};

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  test('is OpenAPI 3.1 and every $ref resolves to a component schema', () => {
    expect(doc.openapi).toBe('3.1.0');
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) {
      const m = /^#\/components\/schemas\/(.+)$/.exec(r);
      expect(m && doc.components.schemas[m[1]!] !== undefined ? r : `unresolved ${r}`).toBe(r);
    }
  });

  test('operation ids are unique and every operation documents its responses', () => {
    const ids: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        expect(Object.keys(op.responses ?? {}).length).toBeGreaterThan(0);
        if (op.operationId) ids.push(op.operationId);
        expect(path.startsWith('/')).toBe(true);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('every component schema compiles for request validation', () => {
    for (const name of Object.keys(doc.components.schemas)) expect(() => validatorFor(name, 'body')).not.toThrow();
  });

  test('every operation behind the account limits and the token endpoint documents its 429 with Retry-After and RateLimit headers', () => {
    const ops = Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>).flatMap(
      ([p, o]) =>
        Object.values(o)
          .filter((op) => op && typeof op === 'object' && 'responses' in op)
          .map((op) => [p, op] as const),
    );
    const limited = ops.filter(([p]) => /^\/(consent|dataprocessing|webhooks)\/v0\/|^\/oauth\/v0\/token$/.test(p));
    expect(limited.length).toBeGreaterThan(10);
    for (const [, op] of limited) expect(Object.keys(op.responses['429']?.headers ?? {}).sort()).toEqual(['RateLimit', 'RateLimit-Policy', 'Retry-After']);
    expect(doc.paths['/healthz']!.get!.responses!['429']).toBeUndefined();
  });

  test('every operation that can find a backing service down (503) documents its deadline too (504)', () => {
    const ops = Object.values(doc.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>).flatMap((o) =>
      Object.values(o).filter((op) => op?.responses),
    );
    const reaching = ops.filter((op) => op.responses!['503']);
    expect(reaching.length).toBeGreaterThan(20);
    for (const op of reaching) expect(op.responses!['504']).toBeDefined();
    expect(doc.paths['/consent/v0/consents']!.post!.responses!['504']).toBeDefined();
  });

  test('the system endpoints and the token endpoint are documented', () => {
    for (const p of ['/healthz', '/readyz', '/.well-known/jwks.json', '/openapi.json', '/oauth/v0/token']) expect(doc.paths[p]).toBeDefined();
  });
});

describe('validation errors', () => {
  test('name the missing field, the unknown field and the bad value by JSON pointer', () => {
    const validate = validatorFor('TokenRequest', 'body');
    expect(validate({ scope: 1 })).toBe(false);
    const fields = toFieldErrors(validate.errors, 'body').map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['/grant_type', '/scope']));
  });

  test('query errors name the parameter without a leading slash', () => {
    const validate = validatorFor('TokenRequest', 'query');
    expect(validate({ grant_type: 'password' })).toBe(false);
    expect(toFieldErrors(validate.errors, 'query')[0]).toEqual({ field: 'grant_type', message: expect.stringContaining('client_credentials') });
  });
});
