/**
 * The demo shop of `npm start` (`/demo/` on its own origin): a page with both web components and
 * the tiny backend route a real shop needs, `/demo/session`, which mints a consent session with
 * the shop's credentials. At start it bootstraps a demo account, allows the shop's origin and
 * creates a group with two consent-target specifications.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metadata } from '@grpc/grpc-js';
import { createClient } from '@accord/common';
import { oauthv1 } from '@accord/proto';

export interface DemoOptions {
  gatewayUrl: string;
  oauthAddr: string;
  adminToken: string;
  /** 0: any free port. */
  port: number;
}
export interface Demo {
  url: string;
  groupId: string;
  credentials: { clientId: string; clientSecret: string; apiKey: string };
  stop(): Promise<void>;
}

const ISSUER = 'https://demo-shop.example';
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startDemo(o: DemoOptions): Promise<Demo> {
  let creds: Demo['credentials'] | undefined;
  let groupId = '';
  const server: Server = createServer((req, res) => {
    void handle(req.url ?? '/').then(
      ({ status, type, body }) => res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body),
      (err: Error) =>
        res
          .writeHead(502, { 'content-type': 'application/problem+json' })
          .end(JSON.stringify({ title: 'Demo backend error', status: 502, detail: err.message })),
    );
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(o.port, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const token = async (scope: string) => {
    const res = await fetch(`${o.gatewayUrl}/oauth/v0/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: creds!.clientId, client_secret: creds!.clientSecret, scope }),
    });
    if (!res.ok) throw new Error(`token: ${res.status}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const call = async (method: string, path: string, scope: string, json: unknown) => {
    const res = await fetch(`${o.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${await token(scope)}`, 'x-api-key': creds!.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };

  async function handle(url: string): Promise<{ status: number; type: string; body: string }> {
    const u = new URL(url, origin);
    const user = (u.searchParams.get('user') || 'alice').slice(0, 64);
    if (u.pathname === '/demo/session') {
      // The shop's backend: the user is the signed-in one (here: chosen on the page).
      const session = await call('POST', '/consent/v0/sessions', 'consent', { subject: user, issuer: ISSUER, groupId });
      return { status: 200, type: 'application/json', body: JSON.stringify(session) };
    }
    if (u.pathname !== '/demo/' && u.pathname !== '/demo') return { status: 404, type: 'text/plain', body: 'not found; try /demo/' };
    return { status: 200, type: 'text/html; charset=utf-8', body: page(user) };
  }

  const page = (user: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Demo shop · Accord</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<script type="module" src="${o.gatewayUrl}/sdk/accord-elements.js"></script>
<style>body{font:1rem/1.5 system-ui,sans-serif;margin:2rem auto;max-width:44rem;padding:0 1rem}section{margin-block:2rem}pre{background:#f4f4f4;padding:.75rem;overflow:auto;white-space:pre-wrap}</style>
</head><body><main>
<h1>Demo shop</h1>
<form><label>Signed-in user <input name="user" value="${esc(user)}"></label> <button>Switch user</button></form>
<section><h2>Consent request</h2><div id="request"></div></section>
<section><h2>Your privacy dashboard</h2><div id="dashboard"></div></section>
<section><h2>Stored events</h2><pre id="events" aria-live="polite">Save a choice to see the events Accord stored.</pre>
<p>Through the API (with the demo account's credentials):</p>
<pre>curl -H "Authorization: Bearer $TOKEN" -H "x-api-key: ${esc(creds!.apiKey)}" \\
  '${esc(o.gatewayUrl)}/consent/v0/consents/search?subject=${encodeURIComponent(user)}&amp;issuer=${encodeURIComponent(ISSUER)}&amp;target=&lt;target&gt;'
# TOKEN: curl -s -d grant_type=client_credentials -d client_id=${esc(creds!.clientId)} -d client_secret=${esc(creds!.clientSecret)} ${esc(o.gatewayUrl)}/oauth/v0/token</pre>
</section>
<script type="module">
  const { sessionToken } = await (await fetch('/demo/session?user=' + encodeURIComponent(${JSON.stringify(user)}))).json();
  for (const [id, tag] of [['request', 'accord-consent-request'], ['dashboard', 'accord-consent-dashboard']]) {
    const el = document.createElement(tag);
    el.setAttribute('group', ${JSON.stringify(groupId)});
    el.setAttribute('base-url', ${JSON.stringify(o.gatewayUrl)});
    el.setAttribute('session-token', sessionToken);
    document.getElementById(id).append(el);
  }
  document.addEventListener('accord-consent', (e) => {
    document.getElementById('events').textContent = JSON.stringify(e.detail.events, null, 2);
    if (e.target.localName === 'accord-consent-request') document.querySelector('accord-consent-dashboard').reload();
  });
</script>
</main></body></html>`;

  try {
    const admin = createClient(oauthv1.OAuthServiceService, o.oauthAddr);
    const md = new Metadata();
    md.set('authorization', `Bearer ${o.adminToken}`);
    const r = await admin.bootstrap({ accountName: `demo-shop-${Date.now()}`, appName: 'demo-web', scopes: ['consent', 'dataprocessing'] }, { metadata: md });
    creds = { clientId: r.clientId, clientSecret: r.clientSecret, apiKey: r.apiKey };
    await admin.setAllowedOrigins({ appId: r.appId, origins: [origin] }, { metadata: md });
    admin.close();
    const dp = '/dataprocessing/v0/dpgroups';
    groupId = (await call('POST', dp, 'dataprocessing', { name: 'Your privacy choices', description: 'Choose what the demo shop may do with your data.' })).id!;
    await call('POST', `${dp}/${groupId}/specs`, 'dataprocessing', {
      data: 'e-mail address',
      purpose: 'newsletter',
      action: 'use',
      legalBasis: 'CONSENT',
      texts: [
        { value: 'Send me the weekly newsletter', language: 'en' },
        { value: 'Schickt mir den wöchentlichen Newsletter', language: 'de' },
      ],
    });
    await call('POST', `${dp}/${groupId}/specs`, 'dataprocessing', {
      data: 'page views',
      purpose: 'analytics',
      action: 'analyze',
      legalBasis: 'CONSENT',
      texts: [{ value: 'Measure how I use the shop, to improve it', language: 'en' }],
    });
  } catch (err) {
    server.close();
    throw err;
  }
  return { url: `${origin}/demo/`, groupId, credentials: creds, stop: () => new Promise<void>((ok) => server.close(() => ok())) };
}
