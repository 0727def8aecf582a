/**
 * `npm start`: the whole stack on one machine. A MongoDB-compatible server and NATS (from
 * MONGO_URL/NATS_URL, Docker, or local binaries), the four services and the gateway as child
 * processes. Prints the gateway URL when ready; Ctrl-C (SIGINT) or SIGTERM stops everything.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MissingBinaryError, startInfra, type Infra } from './infra';
import { freePort, spawnLogged, stopChild } from './processes';
import { loadOrCreateSecrets } from './secrets';
import { pickServicePorts, serviceEnv, SERVICES, stackEnv, type ServiceName } from './stack-env';

const root = resolve(__dirname, '..', '..', '..');
const dataDir = resolve(process.env.ACCORD_DATA_DIR ?? join(root, '.accord', 'local'));
const stateFile = resolve(process.env.ACCORD_STATE_FILE ?? join(root, '.accord', 'local', 'state.json'));
const say = (line: string) => process.stdout.write(`[accord] ${line}\n`);

async function waitReady(url: string, timeoutMs: number, children: Map<string, ChildProcess>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    for (const [name, c] of children) if (c.exitCode !== null) throw new Error(`${name} exited with code ${c.exitCode} during start`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
      last = await res.text();
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the stack did not become ready within ${timeoutMs / 1000} s (last answer: ${last})`);
}

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const gatewayPort = Number(process.env.ACCORD_GATEWAY_PORT ?? 8080);
  if (gatewayPort !== 0) {
    // Fail early and clearly when the port is taken.
    const probe = await import('node:net').then(
      (net) =>
        new Promise<boolean>((ok) => {
          const s = net
            .createServer()
            .once('error', () => ok(false))
            .listen(gatewayPort, '127.0.0.1', () => s.close(() => ok(true)));
        }),
    );
    if (!probe) throw new Error(`port ${gatewayPort} is in use; set ACCORD_GATEWAY_PORT to another port`);
  }

  // Filled in as parts start, so that a signal at any moment stops what is running.
  const started: { infra?: Infra } = {};
  const children = new Map<string, ChildProcess>();
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    const gw = children.get('gateway');
    if (gw) await stopChild(gw, 12_000);
    await Promise.all([...children.entries()].filter(([n]) => n !== 'gateway').map(([, c]) => stopChild(c, 12_000)));
    await started.infra?.stop();
    rmSync(stateFile, { force: true });
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const infra = await startInfra({ dataDir, log: process.env.ACCORD_INFRA_LOG ? say : undefined });
  started.infra = infra;
  say(`storage and events: ${infra.description}`);
  try {
    await startServices(infra, children, () => stopping, stopAll, gatewayPort);
  } catch (err) {
    process.stderr.write(`[accord] failed to start: ${(err as Error).message}\n`);
    await stopAll(1);
  }
}

async function startServices(
  infra: Infra,
  children: Map<string, ChildProcess>,
  isStopping: () => boolean,
  stopAll: (code: number) => Promise<void>,
  gatewayPort: number,
): Promise<void> {
  const secrets = loadOrCreateSecrets(join(dataDir, 'secrets.json'));
  const ports = await pickServicePorts(gatewayPort === 0 ? await freePort() : gatewayPort);
  const env = { ...process.env, ...stackEnv({ mongoUrl: infra.mongoUrl, natsUrl: infra.natsUrl, ports, secrets, baseUrl: process.env.ACCORD_BASE_URL }) };

  const launch = (name: ServiceName | 'gateway') => {
    const child = spawnLogged(process.execPath, [join(root, 'services', name, 'dist', 'main.js')], {
      env: { ...env, ...serviceEnv(name, ports) },
      cwd: root,
      onOutput: (line) => process.stdout.write(`${name.padEnd(14)} | ${line}\n`),
    });
    child.on('exit', (code, signal) => {
      if (!isStopping()) {
        say(`${name} exited unexpectedly (code ${code}, signal ${signal}); stopping the stack`);
        void stopAll(1);
      }
    });
    children.set(name, child);
  };
  for (const s of SERVICES) launch(s);
  launch('gateway');

  const url = `http://127.0.0.1:${ports.gateway}`;
  await waitReady(url, 90_000, children);
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, JSON.stringify({ gatewayUrl: url, oauthAddr: `127.0.0.1:${ports.oauth}`, adminToken: secrets.adminToken }, null, 2), {
    mode: 0o600,
  });
  say(`ready: ${url}`);
  say('next: npm run -s admin -- bootstrap --account demo --app web --scopes consent,dataprocessing,webhooks --json');
}

main().catch((err: unknown) => {
  if (err instanceof MissingBinaryError) process.stderr.write(`[accord] ${err.message}\n`);
  else process.stderr.write(`[accord] failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
