import type { Router } from 'express';
import { strictRouter } from './router';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The start page's links: the console when its pages are served, the demo shop when one runs (`npm start`). */
export interface HomeLinks {
  console: boolean;
  demoUrl?: string;
}

/** The HTML of GET /: where to go from the gateway's root. */
export function homePage(links: HomeLinks): string {
  const items = [
    links.console ? `<li><a href="/console/">Console</a>: an account's applications, keys, webhooks, members and statistics.</li>` : '',
    `<li><a href="/docs">API reference</a>: every endpoint, with "Try it out"; the OpenAPI document is <a href="/openapi.json">/openapi.json</a>.</li>`,
    links.demoUrl ? `<li><a href="${esc(links.demoUrl)}">Demo shop</a>: the consent web components at work.</li>` : '',
    `<li>Health: <a href="/healthz">/healthz</a> (liveness), <a href="/readyz">/readyz</a> (readiness, service by service). Keys of tokens and receipts: <a href="/.well-known/jwks.json">/.well-known/jwks.json</a>.</li>`,
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Accord</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;line-height:1.5}li{margin:.5rem 0}</style>
</head>
<body>
<h1>Accord</h1>
<p>This is the gateway of an Accord consent and data-processing registry. The REST APIs live under
<code>/oauth/v0</code>, <code>/consent/v0</code>, <code>/dataprocessing/v0</code> and <code>/webhooks/v0</code>.</p>
<ul>
${items.join('\n')}
</ul>
</body>
</html>
`;
}

/** GET /: a small page pointing to the console, the API reference, the demo and the health endpoints. */
export function homeRoutes(links: HomeLinks): Router {
  const r = strictRouter();
  const page = homePage(links);
  r.get('/', (_req, res) => {
    res.type('html').setHeader('Cache-Control', 'no-cache');
    res.send(page);
  });
  return r;
}
