/**
 * `npm run bench`: starts the whole stack as processes (as `npm start` does, in a temporary data
 * directory), bootstraps credentials, and measures each API through the gateway with autocannon.
 * BENCH_DURATION (seconds per endpoint, default 10) and BENCH_ONLY (comma-separated areas:
 * oauth,consent,dataprocessing,webhooks) tune a run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { createClient } from '@accord/common';
import { launchStack } from '@accord/local-stack';
import { oauthv1 } from '@accord/proto';
import type { BenchResult } from './measure';
import { printResults } from './measure';
import { benchConsent } from './consent';
import { benchDataprocessing } from './dataprocessing';
import { benchOAuth } from './oauth';
import { benchWebhooks } from './webhooks';

async function main(): Promise<void> {
  const durationSec = Number(process.env.BENCH_DURATION ?? 10);
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const wants = (area: string) => !only || only.includes(area);
  const dataDir = mkdtempSync(join(tmpdir(), 'accord-bench-'));
  const stack = await launchStack({
    dataDir,
    ephemeral: true,
    gatewayPort: 0,
    env: { LOG_LEVEL: 'warn' },
    output: (n, l) => process.env.BENCH_LOG && console.log(`${n} | ${l}`),
  });
  console.log(`stack ready at ${stack.url} (${stack.infra.description}); ${durationSec}s per endpoint`);
  try {
    const admin = createClient(oauthv1.OAuthServiceService, `127.0.0.1:${stack.ports.oauth}`);
    const md = new Metadata();
    md.set('authorization', `Bearer ${stack.secrets.adminToken}`);
    const creds = await admin.bootstrap({ accountName: 'bench', appName: 'bench', scopes: ['consent', 'dataprocessing', 'webhooks'] }, { metadata: md });
    admin.close();
    const tokenRes = await fetch(`${stack.url}/oauth/v0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: creds.clientId, client_secret: creds.clientSecret }),
    });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const common = { baseUrl: stack.url, token, apiKey: creds.apiKey, durationSec };

    const results: BenchResult[] = [];
    if (wants('oauth')) results.push(...(await benchOAuth({ baseUrl: stack.url, clientId: creds.clientId, clientSecret: creds.clientSecret, durationSec })));
    for (const [area, run] of Object.entries(areaBenches)) if (wants(area)) results.push(...(await run(common)));
    console.log('');
    printResults(results);
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Benchmarks of the other APIs, each in its own module. */
const areaBenches: Record<string, (opts: { baseUrl: string; token: string; apiKey: string; durationSec: number }) => Promise<BenchResult[]>> = {
  consent: benchConsent,
  dataprocessing: benchDataprocessing,
  webhooks: benchWebhooks,
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
