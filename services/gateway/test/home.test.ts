import type { AddressInfo } from 'node:net';
import express from 'express';
import { buildDocument } from '../src/openapi';
import { homeRoutes } from '../src/routes/home';

async function serve(links: Parameters<typeof homeRoutes>[0]) {
  const app = express();
  app.use(homeRoutes(links));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((r) => server.close(r)) };
}

const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);

describe('GET / (the start page)', () => {
  test('is a small HTML page linking the console, the API reference, the demo shop and the health endpoints', async () => {
    const s = await serve({ console: true, demoUrl: 'http://127.0.0.1:8090/demo/' });
    try {
      const res = await fetch(`${s.base}/`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(hrefs(html)).toEqual(['/console/', '/docs', '/openapi.json', 'http://127.0.0.1:8090/demo/', '/healthz', '/readyz', '/.well-known/jwks.json']);
      expect((await fetch(`${s.base}/`, { method: 'HEAD' })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  test('links no console when its pages are not served, and no demo when none runs', async () => {
    const s = await serve({ console: false });
    try {
      const links = hrefs(await (await fetch(`${s.base}/`)).text());
      expect(links).not.toContain('/console/');
      expect(links.some((l) => l.includes('demo'))).toBe(false);
      expect(links).toContain('/docs');
    } finally {
      await s.close();
    }
  });

  test('is an operation of the OpenAPI document, and every gateway page it links is one too', () => {
    const doc = buildDocument('http://127.0.0.1:8080') as { paths: Record<string, { get?: { responses: Record<string, { content?: object }> } }> };
    expect(Object.keys(doc.paths['/']!.get!.responses['200']!.content!)).toEqual(['text/html']);
    for (const path of ['/docs', '/openapi.json', '/healthz', '/readyz', '/.well-known/jwks.json']) expect(doc.paths[path]?.get).toBeDefined();
  });
});
