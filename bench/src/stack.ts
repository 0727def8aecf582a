/**
 * The stack under the bench: storage and NATS, the database's commands counted (by the local
 * server itself, or by a proxy in front of another), the four services and the gateway as
 * processes (as `npm start` runs them, in a temporary data directory), and one bootstrapped
 * account with its token.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { createClient } from '@accord/common';
import { launchStack, startInfra, type LaunchedStack } from '@accord/local-stack';
import { oauthv1 } from '@accord/proto';
import { BENCH_GVL } from './consent';
import type { CommandCounter } from './mongo-proxy';
import { COUNTING_ENV, countedDatabase } from './server-counts';

export interface BenchStack {
  stack: LaunchedStack;
  /** Describes the database and NATS, for the first line. */
  description: string;
  counter: CommandCounter;
  /** The database's URL as the stack reaches it (through the counting proxy when there is one). */
  mongoUrl: string;
  creds: { accountId: string; apiKey: string; appId: string; clientId: string; clientSecret: string };
  /** A client_credentials request body (JSON) for the bootstrapped client, all scopes. */
  tokenBody: string;
  token: string;
  /** Bearer token, API key and JSON content type. */
  headers: Record<string, string>;
  stop(): Promise<void>;
}

export async function startBenchStack(opts: { env?: Record<string, string> } = {}): Promise<BenchStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'accord-bench-'));
  // the TCF Global Vendor List of the vendor decisions run (nothing is fetched at run time)
  const gvlFile = join(dataDir, 'vendor-list.json');
  writeFileSync(gvlFile, JSON.stringify(BENCH_GVL));
  // the local server counts the commands it answers, so the whole stack (and the ceiling) reach
  // it directly; a server that cannot (MONGO_URL, mongod) is counted by a proxy in front of it.
  // BENCH_DATABASE=file: the local server on its H2 file, as `npm start` runs it (default: in memory)
  const infra = await startInfra({
    dataDir,
    ephemeral: process.env.BENCH_DATABASE !== 'file',
    env: { ...process.env, ...COUNTING_ENV },
  });
  const { counter, mongoUrl } = await countedDatabase(infra.mongoUrl);
  const cleanup = async () => {
    await counter.stop();
    await infra.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let stack: LaunchedStack;
  try {
    stack = await launchStack({
      dataDir,
      ephemeral: true,
      gatewayPort: 0,
      // Request limits off: the bench measures throughput, not the limiter (one client, one account).
      env: {
        LOG_LEVEL: 'warn',
        MONGO_URL: mongoUrl,
        NATS_URL: infra.natsUrl,
        ACCORD_LIMIT_ACCOUNT_RPS: '0',
        ACCORD_LIMIT_APP_RPS: '0',
        ACCORD_LIMIT_TOKEN_RPS: '0',
        ACCORD_TCF_GVL: gvlFile,
        ...opts.env,
      },
      output: (n, l) => process.env.BENCH_LOG && console.log(`${n} | ${l}`),
    });
  } catch (err) {
    await cleanup();
    throw err;
  }
  const stop = async () => {
    await stack.stop();
    await cleanup();
  };
  try {
    const admin = createClient(oauthv1.OAuthServiceService, `127.0.0.1:${stack.ports.oauth}`);
    const md = new Metadata();
    md.set('authorization', `Bearer ${stack.secrets.adminToken}`);
    const creds = await admin.bootstrap({ accountName: 'bench', appName: 'bench', scopes: ['consent', 'dataprocessing', 'webhooks'] }, { metadata: md });
    admin.close();
    const tokenBody = JSON.stringify({
      grant_type: 'client_credentials',
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
      scope: 'consent dataprocessing webhooks',
    });
    const tokenRes = await fetch(`${stack.url}/oauth/v0/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tokenBody });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${token}`, 'x-api-key': creds.apiKey, 'content-type': 'application/json' };
    return { stack, description: infra.description, counter, mongoUrl, creds, tokenBody, token, headers, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
