/**
 * Secrets never appear in logs: the whole stack runs as processes at log level debug, a session
 * issues and uses every kind of secret (client secret in a body and in Basic, API key, access and
 * refresh tokens, webhook signing secret, admin token), and every line any process printed is
 * scanned for each of them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { createClient } from '@accord/common';
import { launchStack, testEnv, type LaunchedStack } from '@accord/local-stack';
import { oauthv1 } from '@accord/proto';

describe('logs of a whole session', () => {
  let stack: LaunchedStack | undefined;
  const lines: string[] = [];
  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('contain no issued secret, key or token', async () => {
    const t = testEnv('logsecrets');
    stack = await launchStack({
      dataDir: mkdtempSync(join(tmpdir(), 'accord-logscan-')),
      ephemeral: true,
      gatewayPort: 0,
      env: { MONGO_URL: t.mongoUrl, NATS_URL: t.natsUrl, ACCORD_NATS_PREFIX: t.natsPrefix, LOG_LEVEL: 'debug' },
      output: (name, line) => lines.push(`${name}: ${line}`),
    });
    const admin = createClient(oauthv1.OAuthServiceService, `127.0.0.1:${stack.ports.oauth}`);
    const md = new Metadata();
    md.set('authorization', `Bearer ${stack.secrets.adminToken}`);
    const creds = await admin.bootstrap({ accountName: 'logscan', appName: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] }, { metadata: md });
    admin.close();

    const http = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
      const res = await fetch(stack!.url + path, { method, headers, body });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, string> };
    };
    const tokenBody = JSON.stringify({
      grant_type: 'client_credentials',
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
      scope: 'consent webhooks',
    });
    const issued = await http('POST', '/oauth/v0/token', { 'content-type': 'application/json' }, tokenBody);
    expect(issued.status).toBe(200);
    const basic = Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64');
    const viaBasic = await http(
      'POST',
      '/oauth/v0/token',
      { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=client_credentials&scope=consent',
    );
    expect(viaBasic.status).toBe(200);
    const refreshed = await http(
      'POST',
      '/oauth/v0/token',
      { 'content-type': 'application/json' },
      JSON.stringify({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token, client_id: creds.clientId, client_secret: creds.clientSecret }),
    );
    const auth = { authorization: `Bearer ${issued.body.access_token}`, 'x-api-key': creds.apiKey, 'content-type': 'application/json' };
    expect((await http('POST', '/consent/v0/consents', auth, JSON.stringify({ subject: 's', issuer: 'i', target: 't', action: true }))).status).toBe(201);
    // failures are logged too: a wrong API key, a wrong client secret
    await http('GET', '/consent/v0/consents/statistics', { ...auth, 'x-api-key': `${creds.apiKey}x` });
    await http('POST', '/oauth/v0/token', { 'content-type': 'application/json' }, tokenBody.replace(creds.clientSecret, `${creds.clientSecret}x`));
    const hook = await http(
      'POST',
      '/webhooks/v0',
      auth,
      JSON.stringify({ url: 'https://hooks.example.com/logscan', events: ['consent'], headers: { authorization: 'Bearer receiver-secret-logscan' } }),
    );
    expect(hook.status).toBe(201);
    const rotated = await http('POST', `/webhooks/v0/${hook.body.id}/secret/rotate`, auth);

    const secrets: Record<string, string | undefined> = {
      'client secret': creds.clientSecret,
      'API key': creds.apiKey,
      'access token': issued.body.access_token,
      'access token (Basic)': viaBasic.body.access_token,
      'refresh token': issued.body.refresh_token,
      'rotated refresh token': refreshed.body.refresh_token,
      'webhook secret': hook.body.secret,
      'rotated webhook secret': rotated.body.secret,
      "receiver's custom header": 'receiver-secret-logscan',
      'admin token': stack.secrets.adminToken,
      'token signing key': stack.secrets.tokenSigningKey.split('\n')[1],
      'receipt signing key': stack.secrets.receiptSigningKey.split('\n')[1],
      'hash key': stack.secrets.hashKey,
    };
    expect(lines.length).toBeGreaterThan(20); // the scan saw real logs
    const leaks = Object.entries(secrets)
      .filter(([, v]) => v)
      .flatMap(([name, v]) => lines.filter((l) => l.includes(v!)).map((l) => `${name} in: ${l.slice(0, 300)}`));
    expect(leaks).toEqual([]);
  }, 120_000);
});
