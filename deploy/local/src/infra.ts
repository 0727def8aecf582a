import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findBinary, freePort, REPO_ROOT, spawnLogged, stopChild, waitForPort } from './processes';

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
  mongo:
    'no MongoDB-compatible server found: install a JDK and Maven for the local mongo-java-server (`apt-get install -y openjdk-17-jdk-headless maven`), put `mongod` on PATH, or set MONGO_URL.',
} as const;

export class MissingBinaryError extends Error {}

/** True when a Docker engine answers (not just the CLI): Docker, or podman's Docker-compatible socket through DOCKER_HOST. */
export function dockerAvailable(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (env.ACCORD_NO_DOCKER === '1') return Promise.resolve(false);
  return new Promise((resolve) => {
    execFile('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 3_000, env }, (err, stdout) => resolve(!err && stdout.trim().length > 0));
  });
}

/**
 * The images the Docker path starts (ACCORD_MONGO_IMAGE, ACCORD_NATS_IMAGE), and the log line
 * each server prints once it accepts connections. The wait is on the log, not on the port: the
 * official nats image has no shell for testcontainers' port check. Another image must start its
 * server with no arguments (MongoDB on 27017; NATS from `-js`, so nats-server is the entrypoint)
 * and print one of these lines.
 */
export const CONTAINER_IMAGES = {
  mongo: { variable: 'ACCORD_MONGO_IMAGE', fallback: 'mongo:7', ready: /Waiting for connections|listening on \S+:27017/ },
  nats: { variable: 'ACCORD_NATS_IMAGE', fallback: 'nats:2', ready: /Server is ready/ },
} as const;

const containerImage = (env: NodeJS.ProcessEnv, which: keyof typeof CONTAINER_IMAGES) =>
  env[CONTAINER_IMAGES[which].variable] || CONTAINER_IMAGES[which].fallback;

/**
 * Provides MongoDB and NATS, in this order of preference for each: the URL from the
 * environment (MONGO_URL / NATS_URL), containers when Docker answers (mongo:7, nats:2 -js, or
 * ACCORD_MONGO_IMAGE / ACCORD_NATS_IMAGE),
 * else local servers (`mongod`, or mongo-java-server, and `nats-server -js`) on free loopback
 * ports with their data under `dataDir`.
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
    const docker = (!mongoUrl || !natsUrl) && (await dockerAvailable(env));
    if (mongoUrl) parts.push('MongoDB from MONGO_URL');
    if (natsUrl) parts.push('NATS from NATS_URL');
    if (docker && (!mongoUrl || !natsUrl)) {
      // Loaded only when Docker answers: testcontainers is a dev dependency.
      const { GenericContainer, Wait } = await import('testcontainers');
      if (!mongoUrl) {
        const image = containerImage(env, 'mongo');
        const c = await new GenericContainer(image).withExposedPorts(27017).withWaitStrategy(Wait.forLogMessage(CONTAINER_IMAGES.mongo.ready)).start();
        stops.push(async () => void (await c.stop()));
        mongoUrl = `mongodb://${c.getHost()}:${c.getMappedPort(27017)}/accord`;
        parts.push(`MongoDB in Docker (${image})`);
      }
      if (!natsUrl) {
        const image = containerImage(env, 'nats');
        const c = await new GenericContainer(image)
          .withCommand(['-js'])
          .withExposedPorts(4222)
          .withWaitStrategy(Wait.forLogMessage(CONTAINER_IMAGES.nats.ready))
          .start();
        stops.push(async () => void (await c.stop()));
        natsUrl = `nats://${c.getHost()}:${c.getMappedPort(4222)}`;
        parts.push(`NATS in Docker (${image})`);
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

/**
 * `mongod` when installed, else mongo-java-server (built on first use into the project-local
 * tools folder by deploy/local/scripts/install-mongo-java-server.sh, from Maven Central): its
 * memory backend when `ephemeral` (tests, bench), its H2 file backend under `dataDir` otherwise
 * (npm start keeps its data across restarts).
 */
export async function startLocalMongo(
  dataDir: string,
  ephemeral: boolean,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<{ url: string; description: string; stop: () => Promise<void> }> {
  const mongod = findBinary('mongod');
  if (mongod) {
    const port = await freePort();
    const dir = join(dataDir, 'mongod');
    mkdirSync(dir, { recursive: true });
    const child = spawnLogged(mongod, ['--bind_ip', '127.0.0.1', '--port', String(port), '--dbpath', dir, '--quiet'], {
      onOutput: (l) => log(`[mongod] ${l}`),
    });
    try {
      await waitForPort(port, '127.0.0.1', 30_000, child);
    } catch (err) {
      await stopChild(child);
      throw err;
    }
    return { url: `mongodb://127.0.0.1:${port}/accord`, description: `mongod on :${port}`, stop: () => stopChild(child) };
  }
  return startMongoJavaServer(dataDir, ephemeral, env, log);
}

/**
 * mongo-java-server on loopback (`port`, or a free one): memory backend when `ephemeral`, else an
 * H2 file under `dataDir` (so a server started again on the same port and folder has the data).
 * `backend` (or ACCORD_LOCAL_MONGO_BACKEND) picks: `accord` (the default: the project's indexes
 * answered from in-memory indexes, over either), `accord-scan` (without them: for the file,
 * mongo-java-server's H2 backend unchanged), `memory` (mongo-java-server's own memory backend,
 * unchanged) or, for the file, `h2` (its H2 backend, unchanged).
 */
export async function startMongoJavaServer(
  dataDir: string,
  ephemeral: boolean,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  port?: number,
  backend?: 'accord' | 'accord-scan' | 'memory' | 'h2',
): Promise<{ url: string; description: string; stop: () => Promise<void>; pid: number | undefined }> {
  const classpath = await mongoJavaServerClasspath(env, log);
  port ??= await freePort();
  // In memory (tests, the bench), the heap starts at 2 GB: the serial collector grows a smaller one
  // only by full collections, each stopping every request for 0.5–1.5 s (three during the bench's
  // 100,000-event seed and its first runs: docs/benchmarks.md, "The database's pauses"); the heap
  // is touched only as it fills. Its young generation is 128 MB: sized from the 2 GB heap it would
  // be ~680 MB, each young collection copying and scanning long enough to pause every request in
  // flight for 100 ms (median; up to 376 ms), the record's p99 at half its peak rate 46–186 ms;
  // at 128 MB they pause 18 ms (median; up to 88 ms), more often, for the same total.
  // The file (npm start) runs G1: its documents are on disk, but every index is on the heap, an
  // entry per event and index mutated in place; the serial collector grew that heap only by full
  // collections and scanned its dirty cards at every young one, and spent 63 % of the database's
  // CPU collecting in an import of a million events (1,979 s). G1 imported 200,000 events in
  // 66–69 s against 147 s (docs/benchmarks.md, "Import"). It may spend up to a fifth of its time
  // collecting (GCTimeRatio=4, G1's default 12 grows the heap further for little), and gives
  // memory back after 30 s idle (G1PeriodicGCInterval).
  const collector = ephemeral ? ['-XX:+UseSerialGC', '-Xms2g', '-Xmn128m'] : ['-XX:+UseG1GC', '-XX:GCTimeRatio=4', '-XX:G1PeriodicGCInterval=30000'];
  const args = [...collector, '-cp', classpath, 'accord.local.LocalMongo', '--port', String(port)];
  backend ??= env.ACCORD_LOCAL_MONGO_BACKEND as typeof backend; // the bench's "before" (accord-scan)
  if (backend) args.push('--backend', backend);
  // the bench's: the server counts the commands it answers (CountingBackend), so no proxy stands between
  if (env.ACCORD_LOCAL_MONGO_COUNT_COMMANDS === '1') args.push('--count-commands');
  if (!ephemeral) {
    mkdirSync(join(dataDir, 'mongo-java-server'), { recursive: true });
    args.push('--file', join(dataDir, 'mongo-java-server', 'accord.mv'));
    // the H2 file's page cache (MB of heap held by the pages read); the jar's default unless set
    const cacheMb = env.ACCORD_LOCAL_MONGO_CACHE_MB;
    if (cacheMb) {
      if (!/^[1-9]\d{0,5}$/.test(cacheMb))
        throw new Error(`ACCORD_LOCAL_MONGO_CACHE_MB must be a whole number of MB (1 or more), not ${JSON.stringify(cacheMb)}`);
      args.push('--cache-mb', cacheMb);
    }
  }
  const child = spawnLogged('java', args, { onOutput: (l) => log(`[mongo-java-server] ${l}`) });
  try {
    await waitForPort(port, '127.0.0.1', 60_000, child);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  const kind = ephemeral ? 'memory' : 'H2 file';
  return {
    url: `mongodb://127.0.0.1:${port}/accord`,
    description: `mongo-java-server on :${port} (${kind})`,
    stop: () => stopChild(child),
    pid: child.pid, // the JVM's: a test reads its heap with jmap
  };
}

/** The project-local tools folder (`ACCORD_TOOLS_DIR`, default `<repo>/.accord/tools`). */
export function toolsDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.ACCORD_TOOLS_DIR ?? join(REPO_ROOT, '.accord', 'tools'));
}

/** Builds mongo-java-server when its build is missing or stale (a no-op otherwise) and returns its Java classpath. */
export async function mongoJavaServerClasspath(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<string> {
  if (!findBinary('java') || !findBinary('mvn')) throw new MissingBinaryError(INSTALL_HINTS.mongo);
  const tools = toolsDir(env);
  const script = join(REPO_ROOT, 'deploy', 'local', 'scripts', 'install-mongo-java-server.sh');
  await new Promise<void>((resolvePromise, reject) => {
    execFile(script, [tools], { timeout: 600_000 }, (err, stdout, stderr) => {
      for (const line of `${stdout}${stderr}`.split('\n').filter(Boolean)) log(`[install-mongo-java-server] ${line}`);
      if (err) reject(new Error(`deploy/local/scripts/install-mongo-java-server.sh failed: ${stderr.trim() || err.message}`));
      else resolvePromise();
    });
  });
  const dir = join(tools, 'mongo-java-server');
  return [join(dir, 'accord-local-mongo-1.jar'), join(dir, 'lib', '*')].join(':');
}

/** Replaces the database name of a MongoDB URL (each test file gets its own database). */
export function withDatabase(mongoUrl: string, db: string): string {
  const u = new URL(mongoUrl);
  u.pathname = `/${db}`;
  return u.toString();
}
