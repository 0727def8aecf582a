/**
 * A throw-away PostgreSQL for the c15t peer: Debian's `postgresql` package (installed by
 * `provision.js bench`), `initdb` into a temporary directory, the server listening on a Unix
 * socket in that directory only (no TCP port), removed when stopped. As root, the server runs as
 * the `postgres` user the package creates (PostgreSQL refuses to run as root).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnLogged, stopChild } from '@accord/local-stack';

/** Where Debian puts the server binaries (not on PATH): /usr/lib/postgresql/<major>/bin. */
const DEBIAN_LIB = '/usr/lib/postgresql';

/** The directory holding `initdb` and `postgres`: PATH first, else Debian's newest major. */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  let majors: string[] = [];
  try {
    majors = readdirSync(DEBIAN_LIB).filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  for (const major of majors.sort((a, b) => Number(b) - Number(a))) {
    const dir = join(DEBIAN_LIB, major, 'bin');
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  }
  return undefined;
}

/** uid and gid of a user from /etc/passwd. */
function userIds(name: string): { uid: number; gid: number } | undefined {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${name}:`));
    if (!line) return undefined;
    const f = line.split(':');
    return { uid: Number(f[2]), gid: Number(f[3]) };
  } catch {
    return undefined;
  }
}

export interface ThrowAwayPostgres {
  /** Server version, e.g. `PostgreSQL 15.18`. */
  version: string;
  /** The Unix socket's directory: `host` for node-postgres. */
  socketDir: string;
  /** Settings other than the defaults, as passed with `-c`. */
  settings: string[];
  stop(): Promise<void>;
}

/** Why the peer cannot run here, or undefined when it can. */
export function postgresMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!postgresBinDir(env))
    return 'PostgreSQL is not installed (`sudo apt-get install -y postgresql`, or `node deploy/local/scripts/provision.js bench` as root)';
  if (process.getuid?.() === 0 && !userIds('postgres')) return 'running as root and there is no `postgres` user to run PostgreSQL as';
  return undefined;
}

/**
 * initdb into a new temporary directory and starts the server on a socket there. `settings`
 * are `name=value` pairs given to the server with `-c` (e.g. `fsync=off`).
 */
export async function startPostgres(opts: { settings?: string[]; log?: (line: string) => void } = {}): Promise<ThrowAwayPostgres> {
  const bin = postgresBinDir();
  const missing = postgresMissing();
  if (!bin || missing) throw new Error(missing ?? 'PostgreSQL is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'accord-bench-pg-'));
  const owner = process.getuid?.() === 0 ? userIds('postgres') : undefined;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
  let child: ChildProcess | undefined;
  try {
    execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
      ...asOwner,
      stdio: 'pipe',
      env: { ...process.env, LC_ALL: 'C' },
    });
    const version = execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' })
      .trim()
      .replace(/^postgres \(PostgreSQL\) /, 'PostgreSQL ');
    const settings = opts.settings ?? [];
    const args = ['-D', data, '-k', dir, '-c', 'listen_addresses=', ...settings.flatMap((s) => ['-c', s])];
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const tail: string[] = [];
    child = spawnLogged(join(bin, 'postgres'), args, {
      ...asOwner,
      onOutput: (l) => {
        tail.push(l);
        if (tail.length > 20) tail.shift();
        if (/ready to accept connections/.test(l)) ready();
        opts.log?.(l);
      },
    });
    const exited = new Promise<never>((_, reject) =>
      child!.once('exit', (code) => reject(new Error(`postgres exited with code ${code} during start:\n${tail.join('\n')}`))),
    );
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('postgres did not start within 30 s')), 30_000).unref());
    await Promise.race([started, exited, timeout]);
    const server = child;
    return {
      version,
      socketDir: dir,
      settings,
      async stop() {
        // SIGINT: PostgreSQL's fast shutdown (no checkpoint wait for clients)
        await stopChild(server, 10_000, 'SIGINT');
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (child) await stopChild(child, 5_000, 'SIGINT');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
