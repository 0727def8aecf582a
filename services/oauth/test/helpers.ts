import { Metadata } from '@grpc/grpc-js';
import { createClient, createLogger, loadConfig, type PromiseClient } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { oauthv1 } from '@accord/proto';
import { configShape, startOAuth } from '../src';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export type OAuthClient = PromiseClient<typeof oauthv1.OAuthServiceService>;

export interface RunningOAuth {
  port: number;
  addr: string;
  client: OAuthClient;
  admin: Metadata;
  stop(): Promise<void>;
}

/** Starts the oauth service in-process on a free port against a fresh database. */
export async function startTestOAuth(name: string, env: Record<string, string | undefined> = {}): Promise<RunningOAuth> {
  const { mongoUrl } = testEnv(name);
  const config = loadConfig(configShape, {
    MONGO_URL: mongoUrl,
    GRPC_PORT: '0',
    ACCORD_ADMIN_TOKEN: ADMIN_TOKEN,
    ACCORD_HASH_KEY: 'test-hash-key-test-hash-key-test-hash-key',
    ACCORD_BASE_URL: 'http://accord.test',
    SHUTDOWN_GRACE_MS: '500',
    ...env,
  });
  const s = await startOAuth(config, createLogger('oauth-test', 'silent'));
  const addr = `127.0.0.1:${s.port}`;
  const client = createClient(oauthv1.OAuthServiceService, addr);
  const admin = new Metadata();
  admin.set('authorization', `Bearer ${ADMIN_TOKEN}`);
  return {
    port: s.port,
    addr,
    client,
    admin,
    async stop() {
      client.close();
      await s.stop();
    },
  };
}

export function tokenRequest(over: Partial<oauthv1.IssueTokenRequest>): oauthv1.IssueTokenRequest {
  return { grantType: '', clientId: '', clientSecret: '', scope: '', refreshToken: '', basicAuth: false, ...over };
}
