import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { DEFAULT_METRICS_PORTS } from '@accord/common';
import { startInfra, type Infra } from './infra';
import { freePort, portFree, REPO_ROOT, spawnLogged, stopChild } from './processes';
import { loadOrCreateSecrets } from './secrets';
import type { LocalSecrets } from './secrets';
import { pickServicePorts, serviceEnv, SERVICES, stackEnv, type ServiceName, type StackPorts } from './stack-env';

export interface LaunchedStack {
  url: string;
  ports: StackPorts;
  /** Where each process serves Prometheus /metrics (its default port when free). */
  metricsPorts: Record<ServiceName | 'gateway', number>;
  secrets: LocalSecrets;
  infra: Infra;
  stop(): Promise<void>;
}

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

/**
 * Starts the whole stack as processes on this machine: storage and NATS (startInfra), then the
 * four services and the gateway from their built `dist/main.js`, and waits for /readyz.
 * `onExit` is called when a process dies on its own after start.
 */
export async function launchStack(opts: {
  dataDir: string;
  /** Data that need not survive a crash (tests, benchmarks): written without fsync. */
  ephemeral?: boolean;
  gatewayPort: number;
  env?: Record<string, string>;
  output?: (name: string, line: string) => void;
  onInfra?: (infra: Infra) => void;
  onExit?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
}): Promise<LaunchedStack> {
  const infra = await startInfra({
    dataDir: opts.dataDir,
    ephemeral: opts.ephemeral,
    log: (l) => opts.output?.('infra', l),
    env: { ...process.env, ...opts.env },
  });
  opts.onInfra?.(infra);
  const children = new Map<string, ChildProcess>();
  let stopping = false;
  const stop = async () => {
    stopping = true;
    const gw = children.get('gateway');
    if (gw) await stopChild(gw, 12_000);
    await Promise.all([...children.entries()].filter(([n]) => n !== 'gateway').map(([, c]) => stopChild(c, 12_000)));
    await infra.stop();
  };
  try {
    const secrets = loadOrCreateSecrets(join(opts.dataDir, 'secrets.json'));
    const ports = await pickServicePorts(opts.gatewayPort === 0 ? await freePort() : opts.gatewayPort);
    const env = {
      ...process.env,
      ...stackEnv({ mongoUrl: infra.mongoUrl, natsUrl: infra.natsUrl, ports, secrets, baseUrl: process.env.ACCORD_BASE_URL, extra: opts.env }),
    };
    const metricsPorts = {} as LaunchedStack['metricsPorts'];
    for (const name of [...SERVICES, 'gateway'] as const) {
      metricsPorts[name] = (await portFree(DEFAULT_METRICS_PORTS[name])) ? DEFAULT_METRICS_PORTS[name] : await freePort();
    }
    const launch = (name: ServiceName | 'gateway') => {
      const child = spawnLogged(process.execPath, [join(REPO_ROOT, 'services', name, 'dist', 'main.js')], {
        env: { ...env, ...serviceEnv(name, ports, secrets), METRICS_HOST: '127.0.0.1', METRICS_PORT: String(metricsPorts[name]) },
        cwd: REPO_ROOT,
        onOutput: (line) => opts.output?.(name, line),
      });
      child.on('exit', (code, signal) => {
        if (!stopping) opts.onExit?.(name, code, signal);
      });
      children.set(name, child);
    };
    for (const s of SERVICES) launch(s);
    launch('gateway');
    const url = `http://127.0.0.1:${ports.gateway}`;
    await waitReady(url, 90_000, children);
    return { url, ports, metricsPorts, secrets, infra, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
