import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgres } from './postgres';
import { findBinary, freePort, spawnLogged, stopChild, waitForPort } from './processes';

/** A MongoDB-compatible server and a NATS JetStream server, however they were obtained. */
export interface Infra {
  mongoUrl: string;
  natsUrl: string;
  /** How each was obtained, for one log line. */
  description: string;
  stop(): Promise<void>;
}

export const INSTALL_HINTS = {
  'nats-server': 'nats-server not found: install it with `apt-get install -y nats-server` (or set NATS_URL to a running NATS with JetStream).',
  ferretdb:
    'no MongoDB-compatible server found: install FerretDB with `deploy/local/scripts/install-ferretdb.sh` (needs Go), put `mongod` on PATH, or set MONGO_URL.',
} as const;

export class MissingBinaryError extends Error {}

/** True when a Docker engine answers (not just the CLI). */
export function dockerAvailable(): Promise<boolean> {
  if (process.env.ACCORD_NO_DOCKER === '1') return Promise.resolve(false);
  return new Promise((resolve) => {
    execFile('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 3_000 }, (err, stdout) => resolve(!err && stdout.trim().length > 0));
  });
}

/**
 * Provides MongoDB and NATS, in this order of preference for each: the URL from the
 * environment (MONGO_URL / NATS_URL), containers when Docker answers (mongo:7, nats:2 -js),
 * else local binaries (`mongod`, or `ferretdb` on PostgreSQL or SQLite, and `nats-server -js`) on
 * free ports with their data under `dataDir`.
 *
 * FerretDB's backend: ACCORD_FERRETDB_BACKEND=postgresql|sqlite; by default PostgreSQL when its
 * server binaries are installed (a local server is started for it), else SQLite. FerretDB 1.24
 * filters in SQL on PostgreSQL, but on SQLite only `{_id: …}` lookups; every other query there
 * reads the whole collection into FerretDB, which is far too slow beyond a few thousand documents.
 */
export async function startInfra(opts: { dataDir: string; ephemeral?: boolean; log?: (line: string) => void; env?: NodeJS.ProcessEnv }): Promise<Infra> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => undefined);
  const stops: Array<() => Promise<void>> = [];
  const parts: string[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    let mongoUrl = env.MONGO_URL;
    let natsUrl = env.NATS_URL;
    const docker = (!mongoUrl || !natsUrl) && (await dockerAvailable());
    if (mongoUrl) parts.push('MongoDB from MONGO_URL');
    if (natsUrl) parts.push('NATS from NATS_URL');
    if (docker && (!mongoUrl || !natsUrl)) {
      // Loaded only when Docker answers: testcontainers is a dev dependency.
      const { GenericContainer } = await import('testcontainers');
      if (!mongoUrl) {
        const c = await new GenericContainer('mongo:7').withExposedPorts(27017).start();
        stops.push(async () => void (await c.stop()));
        mongoUrl = `mongodb://${c.getHost()}:${c.getMappedPort(27017)}/accord`;
        parts.push('MongoDB in Docker (mongo:7)');
      }
      if (!natsUrl) {
        const c = await new GenericContainer('nats:2').withCommand(['-js']).withExposedPorts(4222).start();
        stops.push(async () => void (await c.stop()));
        natsUrl = `nats://${c.getHost()}:${c.getMappedPort(4222)}`;
        parts.push('NATS in Docker (nats:2)');
      }
    }
    if (!mongoUrl) {
      const local = await startLocalMongo(opts.dataDir, opts.ephemeral ?? false, env, log);
      stops.push(local.stop);
      mongoUrl = local.url;
      parts.push(local.description);
    }
    if (!natsUrl) {
      const nats = findBinary('nats-server');
      if (!nats) throw new MissingBinaryError(INSTALL_HINTS['nats-server']);
      const port = await freePort();
      const dir = join(opts.dataDir, 'nats');
      mkdirSync(dir, { recursive: true });
      const child = spawnLogged(nats, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], { onOutput: (l) => log(`[nats] ${l}`) });
      stops.push(() => stopChild(child));
      await waitForPort(port, '127.0.0.1', 30_000, child);
      natsUrl = `nats://127.0.0.1:${port}`;
      parts.push(`nats-server on :${port}`);
    }
    return { mongoUrl, natsUrl, description: parts.join(', '), stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** `mongod` when installed, else FerretDB (on PostgreSQL or SQLite, see startInfra). */
export async function startLocalMongo(
  dataDir: string,
  ephemeral: boolean,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<{ url: string; description: string; stop: () => Promise<void> }> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  const wanted = env.ACCORD_FERRETDB_BACKEND;
  if (wanted !== undefined && wanted !== 'postgresql' && wanted !== 'sqlite') {
    throw new Error(`ACCORD_FERRETDB_BACKEND must be postgresql or sqlite, not "${wanted}"`);
  }
  try {
    const port = await freePort();
    const mongod = findBinary('mongod');
    if (mongod) {
      const dir = join(dataDir, 'mongod');
      mkdirSync(dir, { recursive: true });
      const child = spawnLogged(mongod, ['--bind_ip', '127.0.0.1', '--port', String(port), '--dbpath', dir, '--quiet'], {
        onOutput: (l) => log(`[mongod] ${l}`),
      });
      stops.push(() => stopChild(child));
      await waitForPort(port, '127.0.0.1', 30_000, child);
      return { url: `mongodb://127.0.0.1:${port}/accord`, description: `mongod on :${port}`, stop };
    }
    const ferretdb = findBinary('ferretdb');
    if (!ferretdb) throw new MissingBinaryError(INSTALL_HINTS.ferretdb);
    let backendArgs: string[];
    let backend: string;
    const pg = wanted === 'sqlite' ? undefined : await startPostgres({ dir: join(dataDir, 'postgres'), ephemeral, log });
    if (pg && !('unavailable' in pg)) {
      stops.push(pg.stop);
      backendArgs = ['--handler=postgresql', `--postgresql-url=${pg.url}`];
      backend = `PostgreSQL ${pg.version} on :${pg.port}`;
    } else {
      if (wanted === 'postgresql') throw new MissingBinaryError(`ACCORD_FERRETDB_BACKEND=postgresql: ${pg?.unavailable}`);
      if (pg) log(`FerretDB falls back to SQLite: ${pg.unavailable}`);
      const dir = join(dataDir, 'ferretdb');
      mkdirSync(dir, { recursive: true });
      backendArgs = ['--handler=sqlite', `--sqlite-url=file:${dir}/`];
      backend = 'SQLite';
    }
    const stateDir = join(dataDir, 'ferretdb-state');
    mkdirSync(stateDir, { recursive: true });
    const child = spawnLogged(
      ferretdb,
      [...backendArgs, `--state-dir=${stateDir}`, `--listen-addr=127.0.0.1:${port}`, '--debug-addr=-', '--telemetry=disable', '--log-level=warn'],
      { onOutput: (l) => log(`[ferretdb] ${l}`) },
    );
    stops.push(() => stopChild(child));
    await waitForPort(port, '127.0.0.1', 30_000, child);
    return { url: `mongodb://127.0.0.1:${port}/accord`, description: `FerretDB on :${port} (${backend})`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Replaces the database name of a MongoDB URL (each test file gets its own database). */
export function withDatabase(mongoUrl: string, db: string): string {
  const u = new URL(mongoUrl);
  u.pathname = `/${db}`;
  return u.toString();
}
