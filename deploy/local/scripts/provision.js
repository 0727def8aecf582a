#!/usr/bin/env node
// Provisions what `npm start`, `npm test` and CI need on this machine, and nothing that is
// already there. Plain Node (no dependencies): it runs before `npm ci` on a fresh clone.
//
//   node deploy/local/scripts/provision.js start   npm packages, NATS, the database server, build
//   node deploy/local/scripts/provision.js test    the same, plus the test tools (helm, grpcurl, promtool, Chromium)
//                                                  and the gRPC examples' runtimes (the Go example built,
//                                                  the Python venv with grpcio)
//   node deploy/local/scripts/provision.js ci      like test, for .ci/run, plus the Go gRPC generators
//                                                  (protoc-gen-go, protoc-gen-go-grpc) that gen:check runs
//   node deploy/local/scripts/provision.js cluster npm packages, mongo-java-server (the test cluster's stand-in
//                                                  database image carries it) and helm: what `npm run test:cluster`
//                                                  needs besides the cluster's own programs and images, which
//                                                  deploy/cluster/build.sh and deploy/images/*.sh build
//   node deploy/local/scripts/provision.js cluster-up   helm only (`npm run cluster:up`: its env puts it on PATH)
//   node deploy/local/scripts/provision.js bench   like start, plus the bench's peers (`npm run bench`):
//                                                  PostgreSQL for c15t (apt), c15t itself (npm ci in
//                                                  bench/peers/c15t, its own lock file) and Ory Hydra
//                                                  (Go); a peer that cannot be installed is named and
//                                                  skipped, and the bench reports it as not measured;
//                                                  with BENCH_STRESS=1, stress-ng (apt)
//
// One progress line per step ("[accord] <step>: present" or "…: installing with <command>").
// When something cannot be installed (not root for apt, no Go), one line names the command to
// run and the exit code is 1. Debian packages come from apt-get (as root), Go tools are built
// from the Go module proxy into the project-local tools folder (ACCORD_TOOLS_DIR, default
// .accord/tools), mongo-java-server from Maven Central by its own script. MONGO_URL / NATS_URL
// and Docker (when it answers, unless ACCORD_NO_DOCKER=1) make the servers unnecessary.
'use strict';
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const HELM = 'helm.sh/helm/v3/cmd/helm@v3.16.4';
const CHROMIUM = '/usr/bin/chromium';

class ProvisionError extends Error {}

/** Real effects, replaceable in tests. */
function system(env) {
  return {
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    which(name) {
      for (const dir of (env.PATH ?? '').split(path.delimiter)) {
        const file = dir && path.join(dir, name);
        try {
          if (file && fs.statSync(file).isFile()) {
            fs.accessSync(file, fs.constants.X_OK);
            return file;
          }
        } catch {
          /* next */
        }
      }
      return null;
    },
    dockerAnswers() {
      if (env.ACCORD_NO_DOCKER === '1' || !this.which('docker')) return false;
      const r = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 3000 });
      return r.status === 0 && r.stdout.trim().length > 0;
    },
    run(cmd, args, opts = {}) {
      const r = spawnSync(cmd, args, {
        cwd: ROOT,
        stdio: opts.quiet ? ['ignore', 'ignore', 'pipe'] : 'inherit',
        env: { ...env, ...opts.env },
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new ProvisionError(`\`${[cmd, ...args].join(' ')}\` failed${r.stderr ? `: ${r.stderr.trim().split('\n').pop()}` : ''}`);
    },
    exists: (f) => fs.existsSync(f),
    list: (d) => {
      try {
        return fs.readdirSync(d);
      } catch {
        return [];
      }
    },
    read: (f) => fs.readFileSync(f, 'utf8'),
    write: (f, s) => fs.writeFileSync(f, s),
    mtime: (f) => fs.statSync(f).mtimeMs,
  };
}

function toolsDir(env) {
  return path.resolve(env.ACCORD_TOOLS_DIR || path.join(ROOT, '.accord', 'tools'));
}

const lockHash = (sys, lock = path.join(ROOT, 'package-lock.json')) => crypto.createHash('sha256').update(sys.read(lock)).digest('hex');

/** Installs Debian packages as root; otherwise fails with the command to run. */
function apt(sys, step, packages, log) {
  const command = `apt-get install -y ${packages.join(' ')}`;
  if (!sys.isRoot || !sys.which('apt-get')) throw new ProvisionError(`${step} is missing: run \`sudo ${command}\` (or see the README's quick start)`);
  log(`${step}: installing with ${command}`);
  sys.run('apt-get', ['update', '-qq'], { quiet: true });
  sys.run('apt-get', ['install', '-y', '-qq', ...packages], { quiet: true, env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

/** The steps, in order; each returns nothing and logs one line. */
function steps(mode, env, sys) {
  const tools = toolsDir(env);
  const list = [];

  const needGo = (name, again) => {
    if (!sys.which('go'))
      throw new ProvisionError(`${name} is missing and Go is needed to build it: run \`sudo apt-get install -y golang-go\`, then ${again} again`);
  };
  const again = mode === 'cluster' ? 'npm run test:cluster' : mode === 'cluster-up' ? 'npm run cluster:up' : 'npm test';
  const helmStep = [
    'helm',
    (log) => {
      const bin = path.join(tools, 'bin', 'helm');
      if (env.HELM_BIN || sys.which('helm') || sys.exists(bin)) return log('helm: present');
      needGo('helm', again);
      log(`helm: building ${HELM} into ${path.relative(ROOT, path.dirname(bin))}`);
      sys.run('go', ['install', HELM], { quiet: true, env: { GOBIN: path.dirname(bin), GOFLAGS: '-buildvcs=false' } });
    },
  ];
  if (mode === 'cluster-up') return [helmStep];

  list.push([
    'npm packages',
    (log) => {
      const stamp = path.join(ROOT, 'node_modules', '.accord-lock.sha256');
      const hidden = path.join(ROOT, 'node_modules', '.package-lock.json');
      const want = lockHash(sys);
      if (sys.exists(stamp) && sys.read(stamp).trim() === want) return log('npm packages: present');
      // node_modules installed by hand from this lock file (npm's own record is newer): keep it.
      if (sys.exists(hidden) && sys.mtime(hidden) >= sys.mtime(path.join(ROOT, 'package-lock.json'))) {
        sys.write(stamp, want);
        return log('npm packages: present');
      }
      log(`npm packages: ${sys.exists(path.join(ROOT, 'node_modules')) ? 'stale' : 'absent'}, installing with npm ci`);
      sys.run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
      sys.write(stamp, want);
    },
  ]);

  let docker;
  const dockerAnswers = () => (docker ??= sys.dockerAnswers());

  if (mode === 'cluster') {
    list.push([
      'mongo-java-server',
      (log) => {
        // Always built here, whatever MONGO_URL or Docker say: deploy/images/stand-ins.sh puts it in
        // the test cluster's database image.
        const what = "mongo-java-server (the test cluster's stand-in database)";
        const missing = [];
        if (!sys.which('java')) missing.push('openjdk-17-jdk-headless');
        if (!sys.which('mvn')) missing.push('maven');
        if (missing.length) apt(sys, `${what}: a JDK and Maven`, missing, log);
        const jar = path.join(tools, 'mongo-java-server', 'accord-local-mongo-1.jar');
        log(sys.exists(jar) ? `${what}: present` : `${what}: building (Maven Central) into ${path.relative(ROOT, tools) || tools}`);
        sys.run(path.join(ROOT, 'deploy', 'local', 'scripts', 'install-mongo-java-server.sh'), [tools], { quiet: true });
      },
    ]);
    // No TypeScript build: the cluster tests run from their sources, the images build their own.
    list.push(helmStep);
    return list;
  }

  list.push([
    'nats-server',
    (log) => {
      if (env.NATS_URL) return log('nats-server: not needed (NATS_URL is set)');
      if (sys.which('nats-server')) return log('nats-server: present');
      if (dockerAnswers()) return log(`nats-server: not needed (Docker answers; the ${env.ACCORD_NATS_IMAGE || 'nats:2'} image is used)`);
      apt(sys, 'nats-server', ['nats-server'], log);
    },
  ]);

  list.push([
    'database server',
    (log) => {
      if (env.MONGO_URL) return log('database server: not needed (MONGO_URL is set)');
      if (sys.which('mongod')) return log('database server: present (mongod)');
      if (dockerAnswers()) return log(`database server: not needed (Docker answers; the ${env.ACCORD_MONGO_IMAGE || 'mongo:7'} image is used)`);
      const missing = [];
      if (!sys.which('java')) missing.push('openjdk-17-jdk-headless');
      if (!sys.which('mvn')) missing.push('maven');
      if (missing.length) apt(sys, 'database server (a JDK and Maven for mongo-java-server)', missing, log);
      const jar = path.join(tools, 'mongo-java-server', 'accord-local-mongo-1.jar');
      // The script rebuilds only when its sources changed (stamp), silently otherwise.
      log(
        sys.exists(jar)
          ? 'database server: present (mongo-java-server)'
          : `database server: building mongo-java-server (Maven Central) into ${path.relative(ROOT, tools) || tools}`,
      );
      sys.run(path.join(ROOT, 'deploy', 'local', 'scripts', 'install-mongo-java-server.sh'), [tools], { quiet: true });
    },
  ]);

  if (mode === 'test' || mode === 'ci') {
    list.push(helmStep);
    const goTools = ['grpcurl', 'promtool', ...(mode === 'ci' ? ['protoc-gen-go', 'protoc-gen-go-grpc'] : [])];
    for (const name of goTools) {
      list.push([
        name,
        (log) => {
          const bin = path.join(tools, 'bin', name);
          const script = path.join(ROOT, 'deploy', 'local', 'scripts', 'install-go-tools.sh');
          const pinned = new RegExp(`\\[${name}\\]="([^"]+)"`).exec(sys.read(script))?.[1];
          const stampFile = path.join(tools, 'bin', `.${name}.version`);
          if (sys.exists(bin) && sys.exists(stampFile) && sys.read(stampFile).trim() === pinned) return log(`${name}: present`);
          needGo(name, again);
          log(`${name}: building ${pinned} into ${path.relative(ROOT, path.dirname(bin))}`);
          sys.run(script, [name], { quiet: true });
        },
      ]);
    }
    list.push([
      'go gRPC example',
      (log) => {
        // e2e/grpc-clients.test.ts runs it; the script rebuilds it only when clients/go changed.
        const bin = path.join(tools, 'bin', 'accord-go-example');
        if (sys.exists(bin)) log('go gRPC example: present');
        else {
          needGo('the Go gRPC example', again);
          log(`go gRPC example: building clients/go/examples/consent (Go module proxy) into ${path.relative(ROOT, path.dirname(bin))}`);
        }
        sys.run(path.join(ROOT, 'clients', 'go', 'scripts', 'build-example.sh'), [tools], { quiet: true });
      },
    ]);
    list.push([
      'python gRPC client',
      (log) => {
        // grpcio and protobuf for the Python example (e2e/grpc-clients.test.ts), and grpcio-tools for npm run gen.
        const script = path.join(ROOT, 'clients', 'python-grpc', 'scripts', 'install-grpc-tools.sh');
        const pins = /^pins=\((.*)\)$/m.exec(sys.read(script))?.[1];
        const stampFile = path.join(tools, 'venv-python-grpc', '.accord-pins');
        if (sys.exists(stampFile) && sys.read(stampFile).trim() === pins) return log('python gRPC client: present');
        if (!sys.which('python3')) apt(sys, 'python3 (for the Python gRPC client)', ['python3', 'python3-venv'], log);
        else {
          try {
            sys.run('python3', ['-c', 'import ensurepip, venv'], { quiet: true });
          } catch (err) {
            if (!(err instanceof ProvisionError)) throw err;
            apt(sys, 'python3-venv (for the Python gRPC client)', ['python3-venv'], log);
          }
        }
        log(`python gRPC client: installing ${pins} from PyPI into ${path.relative(ROOT, path.join(tools, 'venv-python-grpc')) || tools}`);
        sys.run(script, [tools], { quiet: true });
      },
    ]);
    list.push([
      'chromium',
      (log) => {
        // The browser tests (e2e/docs-browser.test.ts) drive the system Chromium through playwright-core.
        if (sys.exists(CHROMIUM)) return log('chromium: present');
        apt(sys, 'chromium (for the browser tests)', ['chromium'], log);
      },
    ]);
  }

  if (mode === 'bench') {
    const only = env.BENCH_ONLY?.split(',').map((a) => a.trim());
    // Peers that cannot be installed do not stop the bench: it names them as not measured.
    const peer = (name, step) => (log) => {
      try {
        step(log);
      } catch (err) {
        if (!(err instanceof ProvisionError)) throw err;
        log(`${name}: ${err.message}; the bench reports this peer as not measured`);
      }
    };
    if (!only || only.includes('peers')) {
      list.push([
        'postgresql',
        peer('postgresql (for the c15t peer)', (log) => {
          const debian = '/usr/lib/postgresql';
          const installed = sys.which('initdb') || (sys.list?.(debian) ?? []).some((v) => sys.exists(path.join(debian, v, 'bin', 'initdb')));
          if (installed) return log('postgresql (for the c15t peer): present');
          apt(sys, 'postgresql (for the c15t peer)', ['postgresql'], log);
        }),
      ]);
      list.push([
        'c15t',
        peer('c15t (the consent peer)', (log) => {
          // its own package and lock file, apart from Accord's: Accord's npm ci and images carry none of it
          const dir = path.join(ROOT, 'bench', 'peers', 'c15t');
          const stamp = path.join(dir, 'node_modules', '.accord-lock.sha256');
          const want = lockHash(sys, path.join(dir, 'package-lock.json'));
          if (sys.exists(stamp) && sys.read(stamp).trim() === want) return log('c15t (the consent peer): present');
          log(`c15t (the consent peer): installing with npm ci --prefix ${path.relative(ROOT, dir)}`);
          sys.run('npm', ['ci', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'], { quiet: true });
          sys.write(stamp, want);
        }),
      ]);
      list.push([
        'hydra',
        peer('hydra (the token peer)', (log) => {
          const bin = path.join(tools, 'bin', 'hydra');
          const script = path.join(ROOT, 'bench', 'scripts', 'install-hydra.sh');
          const pinned = /^mod="([^"]+)"/m.exec(sys.read(script))?.[1];
          const stampFile = path.join(tools, 'bin', '.hydra.version');
          if (sys.exists(bin) && sys.exists(stampFile) && sys.read(stampFile).trim() === pinned) return log('hydra (the token peer): present');
          if (!sys.which('go')) throw new ProvisionError('Go is needed to build it (`sudo apt-get install -y golang-go`)');
          log(`hydra (the token peer): building ${pinned} into ${path.relative(ROOT, path.dirname(bin)) || path.dirname(bin)} (niced, a few minutes)`);
          sys.run(script, [], { quiet: true });
        }),
      ]);
    }
    if (env.BENCH_STRESS === '1') {
      list.push([
        'stress-ng',
        (log) => {
          // BENCH_STRESS=1 runs `stress-ng --cpu 2` beside the bench (the issue's loaded machine)
          if (sys.which('stress-ng')) return log('stress-ng (BENCH_STRESS=1): present');
          apt(sys, 'stress-ng (BENCH_STRESS=1)', ['stress-ng'], log);
        },
      ]);
    }
  }

  list.push([
    'build',
    (log) => {
      log('build: tsc -b (incremental)');
      sys.run('npm', ['run', '-s', 'build']);
    },
  ]);
  return list;
}

/** Runs every step; resolves to the exit code. */
function provision(mode, opts = {}) {
  const env = opts.env ?? process.env;
  const sys = opts.sys ?? system(env);
  const log = opts.log ?? ((line) => process.stdout.write(`[accord] ${line}\n`));
  const fail = opts.fail ?? ((line) => process.stderr.write(`[accord] ${line}\n`));
  try {
    for (const [, step] of steps(mode, env, sys)) step(log);
    return 0;
  } catch (err) {
    if (err instanceof ProvisionError) {
      fail(err.message);
      return 1;
    }
    throw err;
  }
}

module.exports = { provision, steps, toolsDir, ProvisionError };

if (require.main === module) {
  const mode = process.argv[2] ?? 'start';
  if (!['start', 'test', 'ci', 'bench', 'cluster', 'cluster-up'].includes(mode)) {
    process.stderr.write(`[accord] usage: provision.js start|test|ci|bench|cluster|cluster-up\n`);
    process.exit(2);
  }
  process.exitCode = provision(mode);
}
