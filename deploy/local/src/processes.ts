import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

/** The repository's root folder. */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

/**
 * Ports handed out by freePort: below Linux's ephemeral range (32768–60999 by default), where the
 * kernel picks the local port of every outgoing connection. A port the kernel picked for us
 * (`listen(0)`) comes from that range, so between our check and the process that binds it, any
 * connection the stack opens (to MongoDB, NATS, another service) could take it as its own local
 * port, and the process would exit with EADDRINUSE.
 */
const FREE_PORT_RANGE = { from: 20_000, to: 32_767 };

/** A free TCP port on loopback, outside the range of outgoing connections' local ports. */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = FREE_PORT_RANGE.from + Math.floor(Math.random() * (FREE_PORT_RANGE.to - FREE_PORT_RANGE.from + 1));
    if (await portFree(port)) return port;
  }
  return kernelPort();
}

/** A free TCP port on loopback, picked by the kernel (from the ephemeral range). */
function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on 127.0.0.1:port. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const s = createServer()
      .once('error', () => ok(false))
      .listen(port, '127.0.0.1', () => s.close(() => ok(true)));
  });
}

/** Resolves when something accepts TCP connections on host:port. */
export async function waitForPort(port: number, host = '127.0.0.1', timeoutMs = 30_000, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`process exited with code ${child.exitCode} before listening on ${port}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect({ port, host }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listening on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Finds an executable on PATH or in Go's bin directory (where `go install` puts it). */
export function findBinary(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), join(process.env.GOPATH ?? join(homedir(), 'go'), 'bin')];
  for (const dir of dirs) {
    const p = join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

/** Stops a child: `signal` (SIGTERM by default), then SIGKILL after a grace period. */
export function stopChild(child: ChildProcess, graceMs = 5_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

export function spawnLogged(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; onOutput?: (line: string) => void; uid?: number; gid?: number },
): ChildProcess {
  const child = spawn(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, uid: opts.uid, gid: opts.gid, stdio: ['ignore', 'pipe', 'pipe'] });
  const forward = (buf: Buffer) => {
    for (const line of buf.toString().split('\n')) if (line.trim()) opts.onOutput?.(line);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  return child;
}
