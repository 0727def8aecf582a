import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findBinary, freePort, spawnLogged, stopChild } from './processes';

/**
 * A local PostgreSQL server for FerretDB's `postgresql` backend (FerretDB's main backend: it
 * filters in SQL, where the SQLite backend filters every query except `{_id: …}` in Go).
 *
 * Runs `initdb` once per data directory and `postgres` on a free loopback port with trust
 * authentication on 127.0.0.1 only. PostgreSQL refuses to run as root: as root, both run as the
 * `postgres` system user that Debian's package creates, in a directory that user can reach.
 */

/** The directory holding `initdb`, `postgres` and `pg_isready`: PATH first, then Debian's layout. */
export function findPostgresBinDir(): string | undefined {
  const onPath = findBinary('initdb');
  if (onPath && findBinary('postgres')) {
    // often a symlink into the versioned directory, which also holds pg_isready
    const dir = dirname(realpathSync(onPath));
    if (existsSync(join(dir, 'postgres')) && existsSync(join(dir, 'pg_isready'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

interface RunAs {
  uid: number;
  gid: number;
}

/** As root: the `postgres` user's ids (undefined when there is no such user). As anyone else: {}. */
function runAs(): RunAs | Record<string, never> | undefined {
  if (process.getuid?.() !== 0) return {};
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Creates `dir` for the server's user and checks that this user can write it (every parent must be traversable). */
function usableDir(dir: string, as: RunAs | Record<string, never>): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!('uid' in as)) return true;
  chownSync(dir, as.uid, as.gid);
  return spawnSync('sh', ['-c', 'test -w "$1" && test -x "$1"', 'sh', dir], { ...as }).status === 0;
}

export interface LocalPostgres {
  /** postgres:// URL of the `postgres` database. */
  url: string;
  port: number;
  /** PostgreSQL's major version, e.g. "15". */
  version: string;
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL with its data in `dir` (created and initialised when new). Returns undefined,
 * with the reason, when it cannot run here (no server binaries, or root without a `postgres` user).
 * `ephemeral` data (tests, benchmarks) is written without fsync.
 */
export async function startPostgres(opts: { dir: string; ephemeral: boolean; log: (line: string) => void }): Promise<LocalPostgres | { unavailable: string }> {
  const bin = findPostgresBinDir();
  if (!bin) return { unavailable: 'PostgreSQL server binaries not found (apt-get install -y postgresql)' };
  const as = runAs();
  if (!as) return { unavailable: 'running as root and there is no `postgres` user to run PostgreSQL as' };

  let dir = opts.dir;
  let removeOnStop = false;
  if (!usableDir(dir, as)) {
    // e.g. a checkout under /root, which the postgres user cannot enter
    dir = join(tmpdir(), `accord-postgres-${createHash('sha256').update(opts.dir).digest('hex').slice(0, 12)}`);
    if (!usableDir(dir, as)) return { unavailable: `the postgres user cannot write ${opts.dir} or ${dir}` };
    opts.log(`PostgreSQL data in ${dir} (the postgres user cannot reach ${opts.dir})`);
    removeOnStop = opts.ephemeral;
  }
  const data = join(dir, 'data');
  if (!existsSync(join(data, 'PG_VERSION'))) {
    const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions'], {
      ...as,
      encoding: 'utf8',
    });
    if (init.status !== 0) throw new Error(`initdb failed: ${(init.stderr || init.stdout).trim()}`);
  }

  const port = await freePort();
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'max_connections=200',
    'synchronous_commit=off',
    ...(opts.ephemeral ? ['fsync=off', 'full_page_writes=off'] : []),
  ];
  let lastProblem = '';
  const child = spawnLogged(join(bin, 'postgres'), ['-D', data, '-p', String(port), ...settings.flatMap((s) => ['-c', s])], {
    onOutput: (l) => {
      // only problems: PostgreSQL writes routine LOG lines (start, checkpoints, stop) whatever log_min_messages says
      if (!/(WARNING|ERROR|FATAL|PANIC|HINT|DETAIL):/.test(l)) return;
      if (!l.includes('WARNING:')) lastProblem += `\n  ${l}`;
      opts.log(`[postgres] ${l}`);
    },
    ...as,
  });
  // fast shutdown (SIGINT): FerretDB, its only client, is stopped first anyway
  const stop = async () => {
    await stopChild(child, 10_000, 'SIGINT');
    if (removeOnStop) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPostgres(bin, port, child);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message} (data in ${data})${lastProblem}`);
  }
  const version = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.match(/(\d+)/)?.[1] ?? '?';
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, version, stop };
}

/** Waits until the server accepts sessions (not only TCP: it refuses them while it starts up). */
async function waitForPostgres(bin: string, port: number, child: { exitCode: number | null }, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode} before accepting connections`);
    const r = spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-q']);
    if (r.status === 0) return;
    if (Date.now() > deadline) throw new Error(`postgres not ready on :${port} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}
