// What the browser tests share: Debian's Chromium through playwright-core (never a downloaded
// browser), the SDK's bundle as the gateway serves it, and a shop's page on an origin of its own.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Where screenshots go (CI keeps .ci/artifacts). */
export const ARTIFACTS = path.resolve(__dirname, '..', '.ci', 'artifacts');

/** Chromium headless (`ACCORD_CHROMIUM`, default Debian's /usr/bin/chromium), as root without its sandbox. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.ACCORD_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no browser at ${executablePath}: run deploy/local/scripts/install-chromium.sh or set ACCORD_CHROMIUM`);
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * The SDK's bundle built now into a temporary package directory (version 0.1.0), for the gateway
 * to serve through `ACCORD_SDK_BUNDLE`; `remove` deletes it.
 */
export function sdkBundle(): { path: string; remove(): void } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { bundle } = require('../clients/sdk/scripts/bundle.js') as { bundle: () => { outputFiles: { text: string }[] } };
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-sdk-'));
  const file = path.join(dir, 'dist', 'accord-elements.js');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bundle().outputFiles[0]!.text);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '0.1.0' }));
  return { path: file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ShopSite {
  origin: string;
  /** The shop's page loading the gateway's bundle from `sdk`, with `html` in its main; `spacer` puts 3000 px above it. */
  page(sdk: string, html: string, opts?: { spacer?: boolean }): string;
  close(): void;
}

/** A shop's web server on a loopback origin of its own, its pages in language `lang`. */
export async function shopSite(lang: string): Promise<ShopSite> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="${lang}">
<head><meta charset="utf-8"><title>Shop</title><script type="module" src="${url.searchParams.get('sdk')}"></script></head>
<body><main><h1>Shop</h1>${url.searchParams.get('spacer') ? '<div style="height:3000px"></div>' : ''}${url.searchParams.get('html') ?? ''}</main></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page: (sdk, html, opts = {}) => `${origin}/?${new URLSearchParams({ html, sdk, ...(opts.spacer ? { spacer: '1' } : {}) })}`,
    close: () => server.close(),
  };
}
