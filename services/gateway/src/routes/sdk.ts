import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Router, type Response } from 'express';
import type { GatewayContext } from '../context';
import { HttpProblem } from '../problem';
import { strictRouter } from './router';

/** Where the browser bundle is: ACCORD_SDK_BUNDLE, else the built @accord/sdk workspace package. */
export function sdkBundlePath(configured: string): string | undefined {
  if (configured) return configured;
  try {
    return path.join(path.dirname(require.resolve('@accord/sdk/package.json')), 'dist', 'accord-elements.js');
  } catch {
    return undefined;
  }
}

/**
 * GET /sdk/accord-elements.js (ETag, revalidated daily) and /sdk/<version>/accord-elements.js
 * (immutable for a year): the web components as one ES module. Any page may load it: it is
 * public code, so it is served with `Access-Control-Allow-Origin: *` and a cross-origin CORP.
 */
export function sdkRoutes(ctx: GatewayContext): Router {
  const r = strictRouter();
  const file = sdkBundlePath(ctx.config.ACCORD_SDK_BUNDLE);
  let loaded: Promise<{ body: Buffer; etag: string; version: string }> | undefined;
  const load = () =>
    (loaded ??= (async () => {
      const body = await readFile(file!);
      const pkg = JSON.parse(await readFile(path.join(path.dirname(file!), '..', 'package.json'), 'utf8').catch(() => '{}')) as { version?: string };
      return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, version: pkg.version ?? '' };
    })().catch((err: unknown) => {
      loaded = undefined; // built later: try again on the next request
      throw err;
    }));

  const send = async (res: Response, ifNoneMatch: string | undefined, cache: string) => {
    const b = await load().catch(() => {
      throw new HttpProblem(404, 'Not found', 'The SDK bundle is not built here (run `npm run build`, or set ACCORD_SDK_BUNDLE).');
    });
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', cache);
    res.setHeader('ETag', b.etag);
    if (ifNoneMatch?.split(/\s*,\s*/).includes(b.etag)) return void res.status(304).end();
    res.type('text/javascript; charset=utf-8').send(b.body);
    return b;
  };

  r.get('/sdk/accord-elements.js', async (req, res) => {
    await send(res, req.get('if-none-match'), 'public, max-age=86400');
  });
  r.get('/sdk/:version/accord-elements.js', async (req, res) => {
    const b = await load().catch(() => undefined);
    if (!b || req.params.version !== b.version)
      throw HttpProblem.notFound(`No SDK bundle of version ${req.params.version} here${b ? ` (this gateway serves ${b.version})` : ''}.`);
    await send(res, req.get('if-none-match'), 'public, max-age=31536000, immutable');
  });
  return r;
}
