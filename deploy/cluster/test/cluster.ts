// What the cluster tests use of the cluster of deploy/cluster/up.sh: its state folder, kubectl and
// helm on its kubeconfig, image loading, and a way into its network namespace for HTTP.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const CHART = path.join(REPO, 'charts', 'accord');
export const SERVICES = ['gateway', 'oauth', 'consent', 'dataprocessing', 'webhook'] as const;

export const cacheDir = (): string => process.env.ACCORD_CLUSTER_CACHE ?? path.join(os.homedir(), '.cache', 'accord', 'cluster');
export const stateDir = (): string => path.join(cacheDir(), 'state');

/** The chart's appVersion: the tag `npm run images` gives the service images. */
export function appVersion(): string {
  const m = /^appVersion:\s*'?([^'\s]+)'?/m.exec(fs.readFileSync(path.join(CHART, 'Chart.yaml'), 'utf8'));
  if (!m) throw new Error('charts/accord/Chart.yaml has no appVersion');
  return m[1]!;
}

/** The folder of the programs deploy/cluster/build.sh built for these sources, or null when they are not built. */
export function builtBinaries(): string | null {
  const r = spawnSync('bash', ['-c', 'cd deploy/cluster/kube && cat go.mod go.sum cmd/*/*.go ../build.sh | sha256sum | cut -c1-16'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  const dir = path.join(cacheDir(), 'bin', r.stdout.trim());
  return fs.existsSync(path.join(dir, '.complete')) ? dir : null;
}

export interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Run {
  const r: SpawnSyncReturns<string> = spawnSync(cmd, args, {
    cwd: REPO,
    input: opts.input,
    encoding: 'utf8',
    env: { ...process.env, CONTAINERS_CONF: path.join(REPO, 'deploy', 'images', 'containers.conf'), ...opts.env },
    maxBuffer: 64 * 1024 * 1024,
    timeout: opts.timeoutMs ?? 600_000,
  });
  if (r.error) throw r.error;
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a command and returns its stdout; throws with its output when it fails. */
export function must(cmd: string, args: string[], opts: { input?: string; timeoutMs?: number } = {}): string {
  const r = run(cmd, args, opts);
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (${r.status}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/**
 * The same as a child process that does not block: while a test's load runs in this process
 * (and the host side of its tunnel), a blocking call would stop both for as long as it runs.
 */
function runAsync(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REPO, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

function binary(name: string): string {
  return path.join(fs.readFileSync(path.join(stateDir(), 'bin'), 'utf8').trim(), name);
}

// The discovery cache in the state folder too: kubectl and helm write ~/.kube/cache otherwise.
const kubeEnv = () => ({ KUBECONFIG: path.join(stateDir(), 'kubeconfig'), KUBECACHEDIR: path.join(stateDir(), 'kube-cache') });

export const kubectlRun = (args: string[], input?: string): Run => run(binary('kubectl'), args, { input, env: kubeEnv() });
export const kubectl = (args: string[], input?: string): string => {
  const r = kubectlRun(args, input);
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.status}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const kubectlJson = (args: string[]): any => JSON.parse(kubectl([...args, '-o', 'json']));

/** helm: HELM_BIN, else on PATH, else the tools folder's (deploy/local/scripts/provision.js builds it there). */
export function helmBin(): string {
  const tools = path.join(path.resolve(process.env.ACCORD_TOOLS_DIR ?? path.join(REPO, '.accord', 'tools')), 'bin', 'helm');
  for (const c of [process.env.HELM_BIN, ...(process.env.PATH ?? '').split(path.delimiter).map((d) => d && path.join(d, 'helm')), tools]) {
    if (c && fs.existsSync(c)) return c;
  }
  throw new Error('helm not found: npm run test:cluster provisions it (deploy/local/scripts/provision.js cluster)');
}
export const helmRun = (args: string[], timeoutMs?: number): Run => run(helmBin(), args, { env: kubeEnv(), timeoutMs });
/** kubectl and helm without blocking this process (for use while a load runs). */
export const kubectlAsync = (args: string[]): Promise<Run> => runAsync(binary('kubectl'), args, { env: kubeEnv() });
export const helmAsync = (args: string[]): Promise<Run> => runAsync(helmBin(), args, { env: kubeEnv() });
export const helm = (args: string[], timeoutMs?: number): string => {
  const r = helmRun(args, timeoutMs);
  if (r.status !== 0) throw new Error(`helm ${args.join(' ')} failed (${r.status}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
};

/** Loads images from podman's storage into the cluster (deploy/cluster/load-images.sh). */
export const loadImages = (images: string[]): string => must(path.join(REPO, 'deploy', 'cluster', 'load-images.sh'), images, { timeoutMs: 900_000 });

export const imageExists = (image: string): boolean => run('podman', ['image', 'exists', image]).status === 0;

/** The stand-in MongoDB and NATS images (deploy/images/stand-ins.sh builds them when missing). */
export function standInImages(): { mongo: string; nats: string } {
  const out = must(path.join(REPO, 'deploy', 'images', 'stand-ins.sh'), [], { timeoutMs: 900_000 });
  const get = (k: string) => new RegExp(`^${k}=(.+)$`, 'm').exec(out)?.[1];
  return { mongo: get('ACCORD_MONGO_IMAGE')!, nats: get('ACCORD_NATS_IMAGE')! };
}

/** The Go gRPC example's image (deploy/images/go-example.sh builds the binary and the image when missing). */
export function goExampleImage(): string {
  const out = must(path.join(REPO, 'deploy', 'images', 'go-example.sh'), [], { timeoutMs: 900_000 });
  const image = /^ACCORD_GO_EXAMPLE_IMAGE=(.+)$/m.exec(out)?.[1];
  if (!image) throw new Error(`deploy/images/go-example.sh named no image:\n${out}`);
  return image;
}

/**
 * A loopback URL on this host for `host:port` inside the cluster's network namespace (a
 * ClusterIP, a pod): deploy/cluster/bridge.js started inside the namespace listens on a Unix
 * socket, and a listener here pipes each connection to it.
 */
export async function openTunnel(target: string): Promise<{ url: string; errors: string[]; close(): Promise<void> }> {
  const supervisor = fs.readFileSync(path.join(stateDir(), 'supervisor.pid'), 'utf8').trim();
  const sock = path.join(stateDir(), 'run', `tunnel-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`);
  const inside = spawn(
    'nsenter',
    ['--net=/proc/' + supervisor + '/ns/net', process.execPath, path.join(REPO, 'deploy', 'cluster', 'bridge.js'), `unix:${sock}`, `tcp:${target}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // What the bridge met connecting to the target or on its connections (refused, reset…).
  const errors: string[] = [];
  await new Promise<void>((resolve, reject) => {
    inside.stderr.on('data', (d) => errors.push(...String(d).split('\n').filter(Boolean)));
    inside.stdout.on('data', (d) => String(d).includes('listening') && resolve());
    inside.once('exit', (code) => reject(new Error(`bridge into the cluster exited (${code}): ${errors.join('\n')}`)));
  });
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ path: sock });
    sockets.add(client).add(upstream);
    client.once('close', () => sockets.delete(client));
    upstream.once('close', () => sockets.delete(upstream));
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    errors,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
      inside.kill('SIGTERM');
      fs.rmSync(sock, { force: true });
    },
  };
}

/** ClusterIP:port of a Service. */
export function serviceAddress(namespace: string, name: string): string {
  const svc = kubectlJson(['-n', namespace, 'get', 'service', name]);
  return `${svc.spec.clusterIP}:${svc.spec.ports[0].port}`;
}
