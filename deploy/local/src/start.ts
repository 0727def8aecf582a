/**
 * `npm start`: the whole stack on one machine. A MongoDB-compatible server and NATS (from
 * MONGO_URL/NATS_URL, Docker, or local binaries), the four services and the gateway as child
 * processes. Prints the gateway URL when ready; Ctrl-C (SIGINT) or SIGTERM stops everything.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startDemo, type Demo } from './demo';
import { MissingBinaryError, type Infra } from './infra';
import { launchStack, type LaunchedStack } from './launch';
import { freePort, portFree, REPO_ROOT } from './processes';

const dataDir = resolve(process.env.ACCORD_DATA_DIR ?? join(REPO_ROOT, '.accord', 'local'));
const stateFile = resolve(process.env.ACCORD_STATE_FILE ?? join(REPO_ROOT, '.accord', 'local', 'state.json'));
const say = (line: string) => process.stdout.write(`[accord] ${line}\n`);
/** The services log short human lines unless LOG_FORMAT asks for JSON (docs/operating.md, Logs). */
const logFormat = process.env.LOG_FORMAT || 'pretty';
/** NATS's start-up banner and the database's "listening" line say what `storage and events:` says in one line. */
const chatter = (name: string, line: string) => logFormat === 'pretty' && name === 'infra' && /\[INF\]|\] listening on /.test(line);

/** The demo shop's port (ACCORD_DEMO_PORT: default 8090, 0 any free port, off none), checked before the stack starts. */
async function demoPort(): Promise<number | undefined> {
  const setting = process.env.ACCORD_DEMO_PORT ?? '8090';
  if (setting === 'off') return undefined;
  if (!/^\d+$/.test(setting)) throw new Error(`ACCORD_DEMO_PORT must be a port number, 0 or off, not ${setting}`);
  const port = Number(setting) || (await freePort());
  if (await portFree(port)) return port;
  say(`demo shop not started: port ${port} is in use (ACCORD_DEMO_PORT moves it, off skips it)`);
  return undefined;
}

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const gatewayPort = Number(process.env.ACCORD_GATEWAY_PORT ?? 8080);
  if (gatewayPort !== 0 && !(await portFree(gatewayPort))) throw new Error(`port ${gatewayPort} is in use; set ACCORD_GATEWAY_PORT to another port`);

  const demo = await demoPort();

  // Filled in as parts start, so that a signal at any moment stops what is running.
  const started: { infra?: Infra; stack?: LaunchedStack; demo?: Demo } = {};
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    await started.demo?.stop();
    await (started.stack ? started.stack.stop() : started.infra?.stop());
    rmSync(stateFile, { force: true });
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const stack = await launchStack({
    dataDir,
    gatewayPort,
    env: { LOG_FORMAT: logFormat, ...(demo ? { ACCORD_DEMO_URL: `http://127.0.0.1:${demo}/demo/` } : {}) },
    output: (name, line) => {
      if (!chatter(name, line)) process.stdout.write(`${name.padEnd(14)} | ${line}\n`);
    },
    onInfra: (infra) => {
      started.infra = infra;
      say(`storage and events: ${infra.description}`);
    },
    onExit: (name, code, signal) => {
      say(`${name} exited unexpectedly (code ${code}, signal ${signal}); stopping the stack`);
      void stopAll(1);
    },
  });
  started.stack = stack;
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(
    stateFile,
    JSON.stringify(
      {
        gatewayUrl: stack.url,
        oauthAddr: `127.0.0.1:${stack.ports.oauth}`,
        consentAddr: `127.0.0.1:${stack.ports.consent}`,
        adminToken: stack.secrets.adminToken,
        // the operator's service identity, for `npm run admin -- export`
        adminServiceKey: stack.secrets.serviceKeys.admin,
      },
      null,
      2,
    ),
    {
      mode: 0o600,
    },
  );
  say(
    `metrics: ${Object.entries(stack.metricsPorts)
      .map(([n, p]) => `${n} http://127.0.0.1:${p}/metrics`)
      .join(', ')}`,
  );
  if (demo) {
    started.demo = await startDemo({
      gatewayUrl: stack.url,
      oauthAddr: `127.0.0.1:${stack.ports.oauth}`,
      adminToken: stack.secrets.adminToken,
      port: demo,
    }).catch((err: Error) => (say(`demo shop not started: ${err.message}`), undefined));
  }
  say(`ready: ${stack.url} (open it: console, API reference, health)${started.demo ? `  demo: ${started.demo.url}` : ''}`);
  say('next: npm run -s admin -- bootstrap --account demo --app web --scopes consent,dataprocessing,webhooks --json');
}

main().catch((err: unknown) => {
  if (err instanceof MissingBinaryError) process.stderr.write(`[accord] ${err.message}\n`);
  else process.stderr.write(`[accord] failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
