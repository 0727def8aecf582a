import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { provision, ProvisionError } = require('../scripts/provision.js') as {
  provision(mode: string, opts: { env: Record<string, string>; sys: FakeSystem; log(l: string): void; fail(l: string): void }): number;
  ProvisionError: new (message: string) => Error;
};

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TOOLS = path.join(ROOT, '.accord', 'tools');
const LOCK = '{"lockfileVersion":3}';
const PINS = 'grpcio-tools==1 grpcio==2';
const GO_EXAMPLE = path.join(TOOLS, 'bin', 'accord-go-example');
const PY_STAMP = path.join(TOOLS, 'venv-python-grpc', '.accord-pins');

interface FakeSystem {
  isRoot: boolean;
  which(name: string): string | null;
  dockerAnswers(): boolean;
  run(cmd: string, args: string[]): void;
  exists(f: string): boolean;
  read(f: string): string;
  write(f: string, s: string): void;
  mtime(f: string): number;
}

/** A machine described by what is on PATH and which files exist; records every command run. */
function machine(
  o: { root?: boolean; path?: string[]; files?: Record<string, string>; docker?: boolean; mtimes?: Record<string, number>; failing?: RegExp } = {},
) {
  const files: Record<string, string> = { [path.join(ROOT, 'package-lock.json')]: LOCK, ...o.files };
  const runs: string[] = [];
  const sys: FakeSystem = {
    isRoot: o.root ?? false,
    which: (name) => ((o.path ?? []).includes(name) ? `/usr/bin/${name}` : null),
    dockerAnswers: () => o.docker ?? false,
    run: (cmd, args) => {
      const line = [path.basename(cmd), ...args].join(' ');
      runs.push(line);
      if (o.failing?.test(line)) throw new ProvisionError(`\`${line}\` failed: offline`);
    },
    exists: (f) => f in files,
    read: (f) => {
      if (f.endsWith('install-go-tools.sh')) return '[grpcurl]="g@v1"\n[promtool]="p@v2"\n[protoc-gen-go]="pg@v3"\n[protoc-gen-go-grpc]="pgg@v4"\n';
      if (f.endsWith('install-grpc-tools.sh')) return `set -e\npins=(${PINS})\n`;
      if (!(f in files)) throw new Error(`ENOENT ${f}`);
      return files[f]!;
    },
    write: (f, s) => void (files[f] = s),
    mtime: (f) => o.mtimes?.[f] ?? 0,
  };
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    sys,
    runs,
    lines,
    errors,
    files,
    go: (mode: string, env: Record<string, string> = {}) => provision(mode, { env, sys, log: (l) => lines.push(l), fail: (l) => errors.push(l) }),
  };
}

const stampPath = path.join(ROOT, 'node_modules', '.accord-lock.sha256');
const everything = {
  path: ['nats-server', 'java', 'mvn', 'go', 'helm'],
  files: {
    [path.join(ROOT, 'node_modules')]: '',
    [path.join(TOOLS, 'mongo-java-server', 'accord-local-mongo-1.jar')]: '',
    [path.join(TOOLS, 'bin', 'grpcurl')]: '',
    [path.join(TOOLS, 'bin', '.grpcurl.version')]: 'g@v1\n',
    [path.join(TOOLS, 'bin', 'promtool')]: '',
    [path.join(TOOLS, 'bin', '.promtool.version')]: 'p@v2\n',
    [GO_EXAMPLE]: '',
    [PY_STAMP]: `${PINS}\n`,
    '/usr/bin/chromium': '',
  },
};

describe('provisioning', () => {
  let sha: string;
  beforeAll(async () => {
    const { createHash } = await import('node:crypto');
    sha = createHash('sha256').update(LOCK).digest('hex');
  });

  test('with everything present it installs nothing and prints one line per step', () => {
    const m = machine({ ...everything, files: { ...everything.files, [stampPath]: sha } });
    expect(m.go('test')).toBe(0);
    expect(m.lines).toEqual([
      'npm packages: present',
      'nats-server: present',
      'database server: present (mongo-java-server)',
      'helm: present',
      'grpcurl: present',
      'promtool: present',
      'go gRPC example: present',
      'python gRPC client: present',
      'chromium: present',
      'build: tsc -b (incremental)',
    ]);
    // Only the build and the stamp-checking scripts (no-ops when built) run.
    expect(m.runs).toEqual([`install-mongo-java-server.sh ${TOOLS}`, `build-example.sh ${TOOLS}`, 'npm run -s build']);
  });

  test('npm start needs no test tools', () => {
    const m = machine({ ...everything, path: ['nats-server', 'java', 'mvn'], files: { ...everything.files, [stampPath]: sha } });
    expect(m.go('start')).toBe(0);
    expect(m.lines.map((l) => l.split(':')[0])).toEqual(['npm packages', 'nats-server', 'database server', 'build']);
  });

  test('absent node_modules are installed with npm ci, and a changed lock file makes them stale', () => {
    const fresh = machine({ ...everything, files: { ...everything.files, [path.join(ROOT, 'node_modules')]: undefined as never } });
    delete fresh.files[path.join(ROOT, 'node_modules')];
    expect(fresh.go('start')).toBe(0);
    expect(fresh.lines[0]).toBe('npm packages: absent, installing with npm ci');
    expect(fresh.runs[0]).toBe('npm ci --no-audit --no-fund --loglevel=error');
    expect(fresh.files[stampPath]).toBe(sha);

    const stale = machine({ ...everything, files: { ...everything.files, [stampPath]: 'older' } });
    expect(stale.go('start')).toBe(0);
    expect(stale.lines[0]).toBe('npm packages: stale, installing with npm ci');
    expect(stale.runs[0]).toBe('npm ci --no-audit --no-fund --loglevel=error');
  });

  test('node_modules that npm installed after the last lock change are kept without a stamp', () => {
    const hidden = path.join(ROOT, 'node_modules', '.package-lock.json');
    const m = machine({ ...everything, files: { ...everything.files, [hidden]: '' }, mtimes: { [hidden]: 2, [path.join(ROOT, 'package-lock.json')]: 1 } });
    expect(m.go('start')).toBe(0);
    expect(m.lines[0]).toBe('npm packages: present');
    expect(m.runs).not.toContain('npm ci --no-audit --no-fund --loglevel=error');
  });

  test('a missing nats-server is installed with apt-get as root', () => {
    const m = machine({ ...everything, root: true, path: ['java', 'mvn', 'apt-get'], files: { ...everything.files, [stampPath]: sha } });
    expect(m.go('start')).toBe(0);
    expect(m.lines[1]).toBe('nats-server: installing with apt-get install -y nats-server');
    expect(m.runs.slice(0, 2)).toEqual(['apt-get update -qq', 'apt-get install -y -qq nats-server']);
  });

  test('not root: one error line names the command to run, and nothing is installed', () => {
    const m = machine({ ...everything, path: ['java', 'mvn', 'apt-get'], files: { ...everything.files, [stampPath]: sha } });
    expect(m.go('start')).toBe(1);
    expect(m.errors).toEqual(["nats-server is missing: run `sudo apt-get install -y nats-server` (or see the README's quick start)"]);
    expect(m.runs).toEqual([]);
  });

  test('without a JDK and Maven, as root they are installed before mongo-java-server is built', () => {
    const m = machine({ root: true, path: ['nats-server', 'apt-get'], files: { [path.join(ROOT, 'node_modules')]: '', [stampPath]: sha } });
    expect(m.go('start')).toBe(0);
    expect(m.runs).toEqual([
      'apt-get update -qq',
      'apt-get install -y -qq openjdk-17-jdk-headless maven',
      `install-mongo-java-server.sh ${TOOLS}`,
      'npm run -s build',
    ]);
    expect(m.lines[3]).toBe('database server: building mongo-java-server (Maven Central) into .accord/tools');
  });

  test('MONGO_URL, NATS_URL or Docker make the local servers unnecessary', () => {
    const urls = machine({ files: { [path.join(ROOT, 'node_modules')]: '', [stampPath]: sha } });
    expect(urls.go('start', { MONGO_URL: 'mongodb://db:27017/accord', NATS_URL: 'nats://nats:4222' })).toBe(0);
    expect(urls.lines.slice(1, 3)).toEqual(['nats-server: not needed (NATS_URL is set)', 'database server: not needed (MONGO_URL is set)']);
    const docker = machine({ docker: true, files: { [path.join(ROOT, 'node_modules')]: '', [stampPath]: sha } });
    expect(docker.go('start')).toBe(0);
    expect(docker.runs).toEqual(['npm run -s build']);
  });

  test('test tools without Go: one error line naming how to get Go', () => {
    const m = machine({
      ...everything,
      path: ['nats-server', 'java', 'mvn'],
      files: { [path.join(ROOT, 'node_modules')]: '', [stampPath]: sha, [path.join(TOOLS, 'mongo-java-server', 'accord-local-mongo-1.jar')]: '' },
    });
    expect(m.go('test')).toBe(1);
    expect(m.errors).toEqual(['helm is missing and Go is needed to build it: run `sudo apt-get install -y golang-go`, then npm test again']);
  });

  test('missing Go tools are built with the pinned versions', () => {
    const m = machine({ ...everything, files: { ...everything.files, [stampPath]: sha, [path.join(TOOLS, 'bin', '.promtool.version')]: 'p@v1\n' } });
    expect(m.go('test')).toBe(0);
    expect(m.lines).toContain('promtool: building p@v2 into .accord/tools/bin');
    expect(m.runs).toContain('install-go-tools.sh promtool');
  });

  test('the gRPC examples: the Go one built from the Go module proxy, the Python venv from PyPI (python3-venv from apt-get as root)', () => {
    const files = { ...everything.files, [stampPath]: sha };
    delete (files as Record<string, string>)[GO_EXAMPLE];
    delete (files as Record<string, string>)[PY_STAMP];
    const root = machine({ ...everything, root: true, path: [...everything.path, 'python3', 'apt-get'], files, failing: /^python3 -c/ });
    expect(root.go('test')).toBe(0);
    expect(root.lines).toContain('go gRPC example: building clients/go/examples/consent (Go module proxy) into .accord/tools/bin');
    expect(root.lines).toContain('python3-venv (for the Python gRPC client): installing with apt-get install -y python3-venv');
    expect(root.lines).toContain(`python gRPC client: installing ${PINS} from PyPI into .accord/tools/venv-python-grpc`);
    expect(root.runs).toEqual(expect.arrayContaining([`build-example.sh ${TOOLS}`, 'apt-get install -y -qq python3-venv', `install-grpc-tools.sh ${TOOLS}`]));
    // with venv present nothing comes from apt; a changed pin installs again
    const pinned = machine({ ...everything, path: [...everything.path, 'python3'], files: { ...files, [PY_STAMP]: 'grpcio-tools==0' } });
    expect(pinned.go('test')).toBe(0);
    expect(pinned.runs.filter((r) => /apt-get|python3|grpc-tools/.test(r))).toEqual(['python3 -c import ensurepip, venv', `install-grpc-tools.sh ${TOOLS}`]);
    // not root, without python3: the command to run
    const user = machine({ ...everything, path: [...everything.path, 'apt-get'], files });
    expect(user.go('test')).toBe(1);
    expect(user.errors).toEqual([
      "python3 (for the Python gRPC client) is missing: run `sudo apt-get install -y python3 python3-venv` (or see the README's quick start)",
    ]);
    // without Go, the Go example names how to get it
    const noGo = machine({ ...everything, path: ['nats-server', 'java', 'mvn', 'helm'], files: { ...files, [PY_STAMP]: `${PINS}\n` } });
    expect(noGo.go('test')).toBe(1);
    expect(noGo.errors).toEqual(['the Go gRPC example is missing and Go is needed to build it: run `sudo apt-get install -y golang-go`, then npm test again']);
  });

  test('CI also builds the pinned Go gRPC generators that gen:check runs; npm test does not need them', () => {
    const m = machine({ ...everything, files: { ...everything.files, [stampPath]: sha } });
    expect(m.go('ci')).toBe(0);
    expect(m.lines).toContain('protoc-gen-go: building pg@v3 into .accord/tools/bin');
    expect(m.lines).toContain('protoc-gen-go-grpc: building pgg@v4 into .accord/tools/bin');
    expect(m.runs).toEqual(expect.arrayContaining(['install-go-tools.sh protoc-gen-go', 'install-go-tools.sh protoc-gen-go-grpc']));
    const t = machine({ ...everything, files: { ...everything.files, [stampPath]: sha } });
    expect(t.go('test')).toBe(0);
    expect(t.lines.some((l) => l.startsWith('protoc-gen-go'))).toBe(false);
  });

  test('a missing Chromium is installed with apt-get as root for npm test, and named when not root', () => {
    const files = { ...everything.files, [stampPath]: sha };
    delete (files as Record<string, string>)['/usr/bin/chromium'];
    const root = machine({ ...everything, root: true, path: [...everything.path, 'apt-get'], files });
    expect(root.go('test')).toBe(0);
    expect(root.lines).toContain('chromium (for the browser tests): installing with apt-get install -y chromium');
    expect(root.runs).toContain('apt-get install -y -qq chromium');
    const user = machine({ ...everything, path: [...everything.path, 'apt-get'], files });
    expect(user.go('test')).toBe(1);
    expect(user.errors).toEqual(["chromium (for the browser tests) is missing: run `sudo apt-get install -y chromium` (or see the README's quick start)"]);
    expect(machine({ ...everything, path: [...everything.path, 'apt-get'], files }).go('start')).toBe(0);
  });

  describe('npm run test:cluster and cluster:up on a fresh clone (modes cluster, cluster-up)', () => {
    const fresh = { [path.join(ROOT, 'package-lock.json')]: LOCK };

    test('test:cluster: npm packages, the stand-in database server and helm, nothing of npm start, no build', () => {
      const m = machine({ root: true, path: ['apt-get', 'go'], files: fresh });
      expect(m.go('cluster')).toBe(0);
      expect(m.lines).toEqual([
        'npm packages: absent, installing with npm ci',
        "mongo-java-server (the test cluster's stand-in database): a JDK and Maven: installing with apt-get install -y openjdk-17-jdk-headless maven",
        "mongo-java-server (the test cluster's stand-in database): building (Maven Central) into .accord/tools",
        'helm: building helm.sh/helm/v3/cmd/helm@v3.16.4 into .accord/tools/bin',
      ]);
      expect(m.runs).toEqual([
        'npm ci --no-audit --no-fund --loglevel=error',
        'apt-get update -qq',
        'apt-get install -y -qq openjdk-17-jdk-headless maven',
        `install-mongo-java-server.sh ${TOOLS}`,
        'go install helm.sh/helm/v3/cmd/helm@v3.16.4',
      ]);
    });

    test('test:cluster builds the stand-in database even when Docker answers or MONGO_URL is set', () => {
      const m = machine({ ...everything, docker: true, files: { ...everything.files, [stampPath]: sha } });
      expect(m.go('cluster', { MONGO_URL: 'mongodb://db:27017/accord' })).toBe(0);
      expect(m.lines).toEqual(['npm packages: present', "mongo-java-server (the test cluster's stand-in database): present", 'helm: present']);
      expect(m.runs).toEqual([`install-mongo-java-server.sh ${TOOLS}`]);
    });

    test('without Go, the error names the command to get it and the command to run again', () => {
      const m = machine({ path: ['java', 'mvn'], files: { ...fresh, [stampPath]: sha } });
      expect(m.go('cluster')).toBe(1);
      expect(m.errors).toEqual(['helm is missing and Go is needed to build it: run `sudo apt-get install -y golang-go`, then npm run test:cluster again']);
      const up = machine({ files: fresh });
      expect(up.go('cluster-up')).toBe(1);
      expect(up.errors).toEqual(['helm is missing and Go is needed to build it: run `sudo apt-get install -y golang-go`, then npm run cluster:up again']);
    });

    test('cluster:up needs helm only', () => {
      const m = machine({ path: ['go'], files: fresh });
      expect(m.go('cluster-up')).toBe(0);
      expect(m.lines).toEqual(['helm: building helm.sh/helm/v3/cmd/helm@v3.16.4 into .accord/tools/bin']);
      expect(m.runs).toEqual(['go install helm.sh/helm/v3/cmd/helm@v3.16.4']);
      const present = machine({ path: ['helm'], files: fresh });
      expect(present.go('cluster-up')).toBe(0);
      expect(present.lines).toEqual(['helm: present']);
    });
  });

  describe('npm run bench (mode bench): the peers', () => {
    const hydraScript = path.join(ROOT, 'bench', 'scripts', 'install-hydra.sh');
    const c15t = path.join(ROOT, 'bench', 'peers', 'c15t');
    const c15tLock = '{"lockfileVersion":3,"name":"c15t"}';
    const c15tStamp = path.join(c15t, 'node_modules', '.accord-lock.sha256');
    const c15tInstall = `npm ci --prefix ${c15t} --no-audit --no-fund --loglevel=error`;
    // a function: the lock file's hash is known only once beforeAll ran
    const bench = () => ({ ...everything.files, [stampPath]: sha, [hydraScript]: 'mod="h@v1"\n', [path.join(c15t, 'package-lock.json')]: c15tLock });
    let c15tSha: string;
    beforeAll(async () => {
      const { createHash } = await import('node:crypto');
      c15tSha = createHash('sha256').update(c15tLock).digest('hex');
    });

    test('present peers are named and nothing is installed', () => {
      const m = machine({
        ...everything,
        path: [...everything.path, 'initdb'],
        files: { ...bench(), [c15tStamp]: c15tSha, [path.join(TOOLS, 'bin', 'hydra')]: '', [path.join(TOOLS, 'bin', '.hydra.version')]: 'h@v1\n' },
      });
      expect(m.go('bench')).toBe(0);
      expect(m.lines.slice(3)).toEqual([
        'postgresql (for the c15t peer): present',
        'c15t (the consent peer): present',
        'hydra (the token peer): present',
        'build: tsc -b (incremental)',
      ]);
      expect(m.runs).toEqual([`install-mongo-java-server.sh ${TOOLS}`, 'npm run -s build']);
    });

    test('as root, PostgreSQL comes from apt-get, c15t from its own lock file and Hydra is built with the pinned version', () => {
      const m = machine({ ...everything, root: true, path: [...everything.path, 'apt-get'], files: bench() });
      expect(m.go('bench')).toBe(0);
      expect(m.runs).toContain('apt-get install -y -qq postgresql');
      expect(m.runs).toContain(c15tInstall);
      expect(m.files[c15tStamp]).toBe(c15tSha);
      expect(m.lines).toContain('hydra (the token peer): building h@v1 into .accord/tools/bin (niced, a few minutes)');
      expect(m.runs).toContain('install-hydra.sh');
    });

    test('c15t is installed again when its lock file changed, never by the npm ci of Accord itself', () => {
      const m = machine({ ...everything, path: [...everything.path, 'initdb'], files: { ...bench(), [c15tStamp]: 'an older lock' } });
      expect(m.go('bench')).toBe(0);
      expect(m.lines).toContain('c15t (the consent peer): installing with npm ci --prefix bench/peers/c15t');
      expect(m.runs.filter((r) => r.startsWith('npm ci'))).toEqual([c15tInstall]);
    });

    test('a peer that cannot be installed is named, and the bench still runs', () => {
      const m = machine({ ...everything, path: ['nats-server', 'java', 'mvn', 'apt-get'], files: bench(), failing: /^npm ci --prefix/ });
      expect(m.go('bench')).toBe(0);
      expect(m.errors).toEqual([]);
      expect(m.lines).toContain(
        "postgresql (for the c15t peer): postgresql (for the c15t peer) is missing: run `sudo apt-get install -y postgresql` (or see the README's quick start); the bench reports this peer as not measured",
      );
      expect(m.lines).toContain(`c15t (the consent peer): \`${c15tInstall}\` failed: offline; the bench reports this peer as not measured`);
      expect(m.lines).toContain(
        'hydra (the token peer): Go is needed to build it (`sudo apt-get install -y golang-go`); the bench reports this peer as not measured',
      );
      expect(m.files[c15tStamp]).toBeUndefined();
      expect(m.runs).toEqual([`install-mongo-java-server.sh ${TOOLS}`, c15tInstall, 'npm run -s build']);
    });

    test('BENCH_ONLY without peers provisions no peer, and npm start never does', () => {
      const m = machine({ ...everything, files: bench() });
      expect(m.go('bench', { BENCH_ONLY: 'consent,oauth' })).toBe(0);
      expect(m.lines.map((l) => l.split(':')[0])).toEqual(['npm packages', 'nats-server', 'database server', 'build']);
      const start = machine({ ...everything, files: bench() });
      expect(start.go('start')).toBe(0);
      expect(start.lines.some((l) => /postgresql|hydra|c15t/.test(l))).toBe(false);
    });

    test('BENCH_STRESS=1 needs stress-ng: present, from apt-get as root, or the command to run', () => {
      const present = machine({ ...everything, path: [...everything.path, 'stress-ng'], files: bench() });
      expect(present.go('bench', { BENCH_ONLY: 'consent', BENCH_STRESS: '1' })).toBe(0);
      expect(present.lines).toContain('stress-ng (BENCH_STRESS=1): present');
      const root = machine({ ...everything, root: true, path: [...everything.path, 'apt-get'], files: bench() });
      expect(root.go('bench', { BENCH_ONLY: 'consent', BENCH_STRESS: '1' })).toBe(0);
      expect(root.runs).toContain('apt-get install -y -qq stress-ng');
      const user = machine({ ...everything, files: bench() });
      expect(user.go('bench', { BENCH_ONLY: 'consent', BENCH_STRESS: '1' })).toBe(1);
      expect(user.errors).toEqual(["stress-ng (BENCH_STRESS=1) is missing: run `sudo apt-get install -y stress-ng` (or see the README's quick start)"]);
      expect(machine({ ...everything, files: bench() }).go('bench', { BENCH_ONLY: 'consent' })).toBe(0);
    });
  });
});
