import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInfra, type Infra } from '../infra';

declare global {
  var __accordInfra: { infra: Infra; dataDir: string } | undefined;
}

/**
 * Gives every component and e2e test a real MongoDB-compatible server and NATS JetStream:
 * MONGO_URL / NATS_URL from the environment when set, else containers when Docker answers,
 * else local binaries. Shared by all projects (started once per jest run).
 */
export default async function globalSetup(): Promise<void> {
  if (globalThis.__accordInfra) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'accord-test-'));
  // ACCORD_INFRA_LOG=<file>: the servers' own output, for debugging the test infrastructure
  const logFile = process.env.ACCORD_INFRA_LOG;
  const infra = await startInfra({ dataDir, ephemeral: true, log: logFile ? (line) => appendFileSync(logFile, `${line}\n`) : undefined });
  process.env.MONGO_URL = infra.mongoUrl;
  process.env.NATS_URL = infra.natsUrl;
  globalThis.__accordInfra = { infra, dataDir };
  console.log(`\n[accord] test infrastructure: ${infra.description}`);
}
