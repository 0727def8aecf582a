// charts/accord on a real Kubernetes (deploy/cluster): what a platform team's `helm install`
// meets. In order: a strict server-side dry run of every ci values file in a namespace enforcing
// the `restricted` Pod Security level; an install from the images `npm run images` built, all
// pods Ready and `helm test --logs` green; the black-box smoke through the gateway's Service,
// with a webhook delivered to a receiver in the cluster; the Go gRPC example as a Job (a platform
// team's service calling the consent Service); `helm upgrade` to a new image tag under
// a steady consent load (no failed request, no lost event); a consent pod deleted under load
// (nothing answered 201 lost); the bundled evaluation profile; the monitoring objects once their
// CRDs are installed. Counts go to .ci/artifacts/cluster.json.
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as tls from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { stringify } from 'yaml';
import {
  appVersion,
  CHART,
  goExampleImage,
  helm,
  helmAsync,
  helmRun,
  kubectl,
  kubectlAsync,
  kubectlJson,
  kubectlRun,
  loadImages,
  must,
  openTunnel,
  REPO,
  serviceAddress,
  SERVICES,
  standInImages,
  stateDir,
} from './cluster';
import { clusterSkipReason } from './skip';
import { startLoad, type LoadResult } from './load';

const skip = clusterSkipReason();
const crdSource = { reason: skip ? null : goMissing() };
// Skipped, the jest setup of the cluster project has said why in one line (global-setup.ts).
const describeCluster = skip ? describe.skip : describe;

jest.setTimeout(900_000);

const TAG = appVersion();
const NEXT_TAG = `${TAG}-next`;
const NS = 'accord';
const BUNDLED_NS = 'accord-bundled';
// The CRDs of ServiceMonitor and PrometheusRule, from this module (checked against the Go checksum database).
const PROMETHEUS_OPERATOR = 'github.com/prometheus-operator/prometheus-operator@v0.85.0';
const DATA_NS = 'accord-data';
// The cluster's Service range (deploy/cluster/up.sh): the receiver's ClusterIP is in it.
const SERVICE_CIDR = '10.96.0.0/16';
const POD_CIDR = '10.244.0.0/24';
// The label the chart's NetworkPolicies admit platform callers by (networkPolicy.platformCallers).
const PLATFORM_CALLER = { 'accord/platform-caller': 'true' };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-cluster-test-'));
const report: Record<string, unknown> = {};

const serviceImages = (tag: string) => SERVICES.map((s) => `localhost/accord/${s}:${tag}`);

/** A namespace that enforces (and warns about) the `restricted` Pod Security level. */
function restrictedNamespace(name: string) {
  kubectl(
    ['apply', '-f', '-'],
    stringify({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        labels: {
          'pod-security.kubernetes.io/enforce': 'restricted',
          'pod-security.kubernetes.io/enforce-version': 'latest',
          'pod-security.kubernetes.io/warn': 'restricted',
          'pod-security.kubernetes.io/warn-version': 'latest',
        },
      },
    }),
  );
}

/** A container spec that the restricted level admits. */
const restrictedContainer = {
  securityContext: {
    runAsNonRoot: true,
    runAsUser: 1000,
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
    seccompProfile: { type: 'RuntimeDefault' },
  },
};

/** A Deployment and Service of one stand-in or helper, in the data namespace. */
function helperWorkload(name: string, image: string, port: number, extra: Record<string, unknown>) {
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: DATA_NS },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            automountServiceAccountToken: false,
            containers: [
              {
                name,
                image,
                imagePullPolicy: 'Never',
                ports: [{ containerPort: port }],
                readinessProbe: { tcpSocket: { port }, periodSeconds: 1 },
                ...restrictedContainer,
                ...extra,
              },
            ],
            volumes: [{ name: 'tmp', emptyDir: {} }],
          },
        },
      },
    },
    { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: DATA_NS }, spec: { selector: { app: name }, ports: [{ port, targetPort: port }] } },
  ];
}

// The webhook receiver: counts deliveries per consent event id, keeps the last one for its signature.
const RECEIVER = `
const seen = new Map(); let last = null; let deliveries = 0;
require('http').createServer((req, res) => {
  if (req.method === 'POST') {
    let body = ''; req.setEncoding('utf8'); req.on('data', (d) => (body += d));
    req.on('end', () => {
      deliveries++; last = { headers: req.headers, body };
      try { const id = JSON.parse(body).data.id; if (id) seen.set(id, (seen.get(id) || 0) + 1); } catch {}
      res.writeHead(204).end();
    });
  } else {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ deliveries, ids: [...seen.keys()], last }));
  }
}).listen(8080);`;

// A probe pod's program: connections to each target of PROBE_TARGETS, all at once, each retried
// every 250 ms for up to 20 s until one gets through — a pod just started is refused until the
// enforcer has seen its address (about a second with kube-router), so a refusal counts only when
// it lasts. One line of JSON: per target 'open', 'tls <subject CN>' (a TLS handshake with the CA at
// /etc/accord-grpc-ca), or the last error ('ECONNREFUSED': the enforcer's reject; 'timeout').
const PROBE = `
const net = require('net'), tls = require('tls'), fs = require('fs');
const once = (t) => new Promise((resolve) => {
  const done = (v) => { clearTimeout(timer); sock.destroy(); resolve(v); };
  const sock = t.tls
    ? tls.connect({ host: t.host, port: t.port, servername: t.tls, ca: fs.readFileSync('/etc/accord-grpc-ca/ca.crt'), ALPNProtocols: ['h2'] },
        () => done('tls ' + sock.getPeerCertificate().subject.CN))
    : net.connect({ host: t.host, port: t.port }, () => done('open'));
  sock.on('error', (e) => done(e.code || e.message));
  const timer = setTimeout(() => done('timeout'), 5000);
});
const one = async (t) => {
  const deadline = Date.now() + 20000;
  for (;;) {
    const r = await once(t);
    if (r === 'open' || r.startsWith('tls ') || Date.now() > deadline) return r;
    await new Promise((ok) => setTimeout(ok, 250));
  }
};
(async () => {
  const out = {};
  await Promise.all(JSON.parse(process.env.PROBE_TARGETS).map(async (t) => (out[t.name] = await one(t))));
  console.log(JSON.stringify(out));
})();`;

interface ProbeTarget {
  name: string;
  host: string;
  port: number;
  /** TLS with the release's gRPC CA, to this server name. */
  tls?: string;
}

/** Runs a probe pod (labels given) in the namespace; what each of its connections met. */
async function probe(ns: string, name: string, labels: Record<string, string>, targets: ProbeTarget[]): Promise<Record<string, string>> {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { 'accord.test/probe': 'true', ...labels } },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      volumes: [{ name: 'grpc-ca', configMap: { name: 'accord-grpc-ca', optional: true } }],
      containers: [
        {
          name: 'probe',
          image: `localhost/accord/gateway:${TAG}`,
          imagePullPolicy: 'Never',
          command: ['node', '-e', PROBE],
          env: [{ name: 'PROBE_TARGETS', value: JSON.stringify(targets) }],
          volumeMounts: [{ name: 'grpc-ca', mountPath: '/etc/accord-grpc-ca', readOnly: true }],
          resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '256Mi' } },
          ...restrictedContainer,
        },
      ],
    },
  };
  kubectl(['-n', ns, 'delete', 'pod', name, '--ignore-not-found', '--wait']);
  kubectl(['apply', '-f', '-'], stringify(pod));
  try {
    const deadline = Date.now() + 120_000;
    let phase = '';
    while (Date.now() < deadline) {
      phase = kubectlJson(['-n', ns, 'get', 'pod', name]).status?.phase ?? '';
      if (phase === 'Succeeded' || phase === 'Failed') break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const logs = kubectlRun(['-n', ns, 'logs', name]);
    if (phase !== 'Succeeded') throw new Error(`probe pod ${name} ended ${phase || 'timed out'}:\n${logs.stdout}${logs.stderr}`);
    return JSON.parse(logs.stdout.trim().split('\n').pop()!);
  } finally {
    kubectl(['-n', ns, 'delete', 'pod', name, '--ignore-not-found', '--wait']);
  }
}

/** The enforcer refused the connection: rejected (kube-router answers with an ICMP reject) or dropped. */
const REFUSED = /^(ECONNREFUSED|EHOSTUNREACH|timeout)$/;

interface Creds {
  accountId: string;
  apiKey: string;
  appId: string;
  clientId: string;
  clientSecret: string;
}

let gateway: { url: string; errors: string[]; close(): Promise<void> };
let receiver: { url: string; errors: string[]; close(): Promise<void> };
let creds: Creds;
let consentToken: string;
let webhookSecret: string;

async function api(method: string, p: string, opts: { token?: string; json?: unknown; basic?: [string, string] } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.basic) headers.authorization = `Basic ${Buffer.from(opts.basic.join(':')).toString('base64')}`;
  if (opts.token && creds) headers['x-api-key'] = creds.apiKey;
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${gateway.url}${p}`, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, retryAfter: Number(res.headers.get('retry-after') ?? 1) };
}

async function received(): Promise<{ deliveries: number; ids: string[]; last: { headers: Record<string, string>; body: string } | null }> {
  return (await fetch(`${receiver.url}/received`)).json() as never;
}

/** Waits until every id reached the receiver (or the time is up); returns the ids that did not. */
async function undelivered(ids: string[], seconds = 120): Promise<string[]> {
  const deadline = Date.now() + seconds * 1000;
  let missing = ids;
  while (Date.now() < deadline) {
    const got = new Set((await received()).ids);
    missing = ids.filter((id) => !got.has(id));
    if (missing.length === 0) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return missing;
}

/**
 * The ids of `ids` that GET /consent/v0/consents/{id} does not find. A 429 says nothing about
 * the event: its read is asked again after Retry-After, as a client should (thousands of reads,
 * eight at a time, reach the application's limit of 500 per second on a fast machine).
 */
async function unstored(ids: string[]): Promise<string[]> {
  const read = async (id: string) => {
    for (;;) {
      const a = await api('GET', `/consent/v0/consents/${id}`, { token: consentToken });
      if (a.status !== 429) return a;
      await new Promise((r) => setTimeout(r, a.retryAfter * 1000));
    }
  };
  const missing: string[] = [];
  for (let i = 0; i < ids.length; i += 8) {
    const batch = ids.slice(i, i + 8);
    const answers = await Promise.all(batch.map(read));
    answers.forEach((a, j) => a.status === 200 || missing.push(`${batch[j]} (${a.status})`));
  }
  return missing;
}

const podsWide = (ns: string) => kubectl(['-n', ns, 'get', 'pods', '-o', 'wide']);

function rolloutStatus(ns: string, timeout = '300s') {
  for (const d of kubectlJson(['-n', ns, 'get', 'deployments']).items)
    kubectl(['-n', ns, 'rollout', 'status', `deployment/${d.metadata.name}`, `--timeout=${timeout}`]);
}

// While a load runs, nothing may block this process: the load and the host side of the tunnel
// into the cluster run in it, and a blocking kubectl or helm stopped both for as long as it ran.

/** kubectl without blocking; throws with its output when it fails. */
async function kubectlWhileLoaded(args: string[]): Promise<string> {
  const r = await kubectlAsync(args);
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.status}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Every Deployment of the namespace rolled out, and no pod of an older ReplicaSet left, without blocking. */
async function rolledOut(ns: string) {
  for (const d of JSON.parse(await kubectlWhileLoaded(['-n', ns, 'get', 'deployments', '-o', 'json'])).items)
    await kubectlWhileLoaded(['-n', ns, 'rollout', 'status', `deployment/${d.metadata.name}`, '--timeout=300s']);
}

/** The image tags of the namespace's service pods (not the kept `helm test` pod), without blocking. */
async function podTags(ns: string): Promise<string[]> {
  const pods = JSON.parse(await kubectlWhileLoaded(['-n', ns, 'get', 'pods', '-l', 'app.kubernetes.io/component!=test', '-o', 'json'])).items;
  return pods.map((p: { spec: { containers: Array<{ image: string }> } }) => p.spec.containers[0]!.image.split(':').pop()).sort();
}

describeCluster(`charts/accord on a real Kubernetes (deploy/cluster)${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let standIns: { mongo: string; nats: string };
  let goExample: string;

  beforeAll(() => {
    // A cluster kept up between runs (npm run cluster:up) starts from what a fresh one has.
    kubectl(['delete', 'namespace', 'accord-dryrun', NS, DATA_NS, BUNDLED_NS, '--ignore-not-found', '--wait']);
    kubectl(['delete', 'persistentvolumes,storageclasses', '-l', 'accord.test/cluster', '--ignore-not-found', '--wait']);
    kubectl(['delete', 'crd', 'servicemonitors.monitoring.coreos.com', 'prometheusrules.monitoring.coreos.com', '--ignore-not-found', '--wait']);
    standIns = standInImages();
    goExample = goExampleImage();
    for (const s of SERVICES) must('podman', ['tag', `localhost/accord/${s}:${TAG}`, `localhost/accord/${s}:${NEXT_TAG}`]);
    loadImages([...serviceImages(TAG), ...serviceImages(NEXT_TAG), standIns.mongo, standIns.nats, goExample]);
    report.kubernetes = JSON.parse(kubectl(['version', '-o', 'json'])).serverVersion.gitVersion;
  });

  afterAll(async () => {
    await gateway?.close();
    await receiver?.close();
    fs.mkdirSync(path.join(REPO, '.ci', 'artifacts'), { recursive: true });
    fs.writeFileSync(path.join(REPO, '.ci', 'artifacts', 'cluster.json'), JSON.stringify(report, null, 2) + '\n');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('every ci values file passes a strict server-side dry run in a restricted namespace', () => {
    restrictedNamespace('accord-dryrun');
    const files = fs.readdirSync(path.join(CHART, 'ci')).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const manifest = helm(['template', 'accord', CHART, '-n', 'accord-dryrun', '-f', path.join(CHART, 'ci', file)]);
      const r = kubectlRun(['apply', '-n', 'accord-dryrun', '--dry-run=server', '--validate=strict', '-f', '-'], manifest);
      expect([file, r.status, r.stderr]).toEqual([file, 0, '']);
    }
    // The check can fail: an unknown field is refused, a privileged container too.
    const manifest = helm(['template', 'accord', CHART, '-n', 'accord-dryrun']);
    const typo = kubectlRun(
      ['apply', '-n', 'accord-dryrun', '--dry-run=server', '--validate=strict', '-f', '-'],
      manifest.replace('revisionHistoryLimit:', 'revisionHistoryLimitt:'),
    );
    expect(typo.stderr).toMatch(/strict decoding error: unknown field "spec.revisionHistoryLimitt"/);
    const rooted = kubectlRun(['apply', '-n', 'accord-dryrun', '--dry-run=server', '-f', '-'], manifest.replace(/runAsNonRoot: true/g, 'runAsNonRoot: false'));
    expect(rooted.stderr).toMatch(/violate PodSecurity "restricted:latest"/);
  });

  test('helm install: every pod Ready, helm test --logs green', () => {
    kubectl(['create', 'namespace', DATA_NS]);
    const data = [
      ...helperWorkload('mongo', standIns.mongo, 27017, {}),
      ...helperWorkload('nats', standIns.nats, 4222, { args: ['--jetstream', '--store_dir', '/tmp/nats'], volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }] }),
      ...helperWorkload('receiver', `localhost/accord/gateway:${TAG}`, 8080, { command: ['node', '-e', RECEIVER] }),
    ];
    kubectl(['apply', '-f', '-'], data.map((o) => stringify(o)).join('---\n'));
    rolloutStatus(DATA_NS);

    restrictedNamespace(NS);
    const values = path.join(tmp, 'values.yaml');
    fs.writeFileSync(
      values,
      stringify({
        image: { repository: 'localhost/accord', tag: TAG, pullPolicy: 'Never' },
        mongodb: { url: `mongodb://mongo.${DATA_NS}.svc.cluster.local:27017/accord` },
        nats: { url: `nats://nats.${DATA_NS}.svc.cluster.local:4222` },
        components: {
          default: { podDisruptionBudget: { enabled: true } },
          gateway: { replicas: 2 },
          consent: { replicas: 2 },
          // The receiver runs in the cluster, on a private address the SSRF guard refuses by default.
          webhook: { config: { allowCidrs: SERVICE_CIDR, retryScheduleMs: '1000,2000,5000,10000' } },
        },
        // The NetworkPolicies (on by default) let the webhook service reach receivers on the internet
        // only: this one is a pod of the cluster, on 8080 (its address after the Service's translation).
        networkPolicy: { webhookEgress: { ports: [8080], ipBlocks: [{ cidr: POD_CIDR }, { cidr: SERVICE_CIDR }] } },
        // the rotation test waits for the services to read their new certificates
        grpcTls: { refreshMs: 2000 },
      }),
    );
    const install = helmRun(['install', 'accord', CHART, '-n', NS, '-f', values, '--wait', '--timeout', '10m']);
    expect([install.status, install.stderr]).toEqual([0, '']);
    for (const p of kubectlJson(['-n', NS, 'get', 'pods']).items) {
      expect([p.metadata.name, p.status.conditions.find((c: { type: string }) => c.type === 'Ready')?.status]).toEqual([p.metadata.name, 'True']);
    }
    report.podsAfterInstall = podsWide(NS);
    process.stdout.write(`\n$ kubectl -n ${NS} get pods -o wide\n${report.podsAfterInstall}`);

    const t = helmRun(['test', 'accord', '-n', NS, '--logs', '--timeout', '5m']);
    report.helmTest = t.stdout;
    process.stdout.write(`\n$ helm test accord -n ${NS} --logs\n${t.stdout}${t.stderr}`);
    expect([t.status, t.stderr]).toEqual([0, '']);
    expect(t.stdout).toMatch(/Phase:\s+Succeeded/);
    expect(t.stdout).toContain(`GET http://accord-gateway:8080/readyz -> 200`);
  });

  test('black-box smoke through the gateway Service: token, consent, search, a signed webhook delivered in the cluster', async () => {
    gateway = await openTunnel(serviceAddress(NS, 'accord-gateway'));
    receiver = await openTunnel(serviceAddress(DATA_NS, 'receiver'));
    // Bootstrapped as docs/kubernetes.md says, with the admin CLI in the oauth pod.
    creds = JSON.parse(
      kubectl([
        '-n',
        NS,
        'exec',
        'deploy/accord-oauth',
        '--',
        'node',
        'services/oauth/dist/cli/admin.js',
        'bootstrap',
        '--account',
        'acme',
        '--app',
        'web',
        '--scopes',
        'consent,webhooks',
        '--json',
      ]),
    );
    const token = async (scope: string) => {
      const r = await api('POST', '/oauth/v0/token', { basic: [creds.clientId, creds.clientSecret], json: { grant_type: 'client_credentials', scope } });
      expect(r.status).toBe(200);
      return r.body.access_token as string;
    };
    consentToken = await token('consent');
    const hooksToken = await token('webhooks');

    const hook = await api('POST', '/webhooks/v0', {
      token: hooksToken,
      json: { url: `http://receiver.${DATA_NS}.svc.cluster.local:8080/hook`, events: ['consent'] },
    });
    expect(hook.status).toBe(201);
    webhookSecret = hook.body.secret;

    const posted = await api('POST', '/consent/v0/consents', {
      token: consentToken,
      json: { subject: 'smoke-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true },
    });
    expect(posted.status).toBe(201);
    const who = { subject: 'smoke-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy' };
    const found = await api('GET', `/consent/v0/consents/search?${new URLSearchParams(who)}`, { token: consentToken });
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.body)).toContain(posted.body.id);

    expect(await undelivered([posted.body.id], 60)).toEqual([]);
    const { last } = await received();
    const payload = new Webhook(webhookSecret).verify(last!.body, last!.headers) as { type: string; data: { id: string } };
    expect(payload.type).toBe('consent');
  });

  test('the Go gRPC example as a Job: a token from the gateway Service, CreateConsents and Decide on the consent Service, the consent found over REST', async () => {
    const name = 'accord-go-example';
    const subject = `go-job-${Date.now()}`;
    const objects = [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: NS }, stringData: { clientId: creds.clientId, clientSecret: creds.clientSecret } },
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name, namespace: NS },
        spec: {
          backoffLimit: 0,
          activeDeadlineSeconds: 180,
          template: {
            // a platform caller: the NetworkPolicies admit it to the consent Service's port by this label
            metadata: { labels: PLATFORM_CALLER },
            spec: {
              restartPolicy: 'Never',
              automountServiceAccountToken: false,
              volumes: [{ name: 'grpc-ca', configMap: { name: 'accord-grpc-ca' } }],
              containers: [
                {
                  name: 'example',
                  image: goExample,
                  imagePullPolicy: 'Never',
                  // clients/go/README.md: the example's variables, the in-cluster addresses of the release's Services
                  env: [
                    { name: 'ACCORD_BASE_URL', value: 'http://accord-gateway:8080' },
                    { name: 'ACCORD_CONSENT_ADDR', value: 'accord-consent:50052' },
                    { name: 'ACCORD_CLIENT_ID', valueFrom: { secretKeyRef: { name, key: 'clientId' } } },
                    { name: 'ACCORD_CLIENT_SECRET', valueFrom: { secretKeyRef: { name, key: 'clientSecret' } } },
                    { name: 'ACCORD_ACCOUNT_ID', value: creds.accountId },
                    { name: 'ACCORD_APP_ID', value: creds.appId },
                    { name: 'ACCORD_SUBJECT', value: subject },
                    // the release's gRPC is TLS: server-side TLS with the CA the chart publishes, and the bearer token
                    { name: 'ACCORD_GRPC_CA', value: '/etc/accord-grpc-ca/ca.crt' },
                  ],
                  volumeMounts: [{ name: 'grpc-ca', mountPath: '/etc/accord-grpc-ca', readOnly: true }],
                  resources: { requests: { cpu: '50m', memory: '32Mi' }, limits: { memory: '128Mi' } },
                  securityContext: { ...restrictedContainer.securityContext, runAsUser: 65532 },
                },
              ],
            },
          },
        },
      },
    ];
    kubectl(['apply', '-f', '-'], objects.map((o) => stringify(o)).join('---\n'));
    try {
      const outcome = await jobOutcome(NS, name, 240);
      const logs = kubectlRun(['-n', NS, 'logs', `job/${name}`]);
      report.goExampleJob = { outcome, logs: logs.stdout + logs.stderr };
      process.stdout.write(`\n$ kubectl -n ${NS} logs job/${name}\n${logs.stdout}${logs.stderr}`);
      if (outcome !== 'Complete') {
        const pods = kubectlRun(['-n', NS, 'describe', 'pods', '-l', `job-name=${name}`]);
        throw new Error(`the Go example's Job ended ${outcome}:\n${logs.stdout}${logs.stderr}\n${pods.stdout}`);
      }
      const created = /^created consent event (\S+): subject=(\S+) target=(\S+) action=true at \S+$/m.exec(logs.stdout);
      expect(created?.slice(2)).toEqual([subject, 'https://shop.example/privacy']);
      const id = created![1]!;
      expect(logs.stdout).toMatch(new RegExp(`^decision: allowed=true basis=consent event=${id}$`, 'm'));
      // what gRPC stored, in the credentials' account, as REST through the gateway Service sees it
      const who = new URLSearchParams({ subject, issuer: 'https://shop.example', target: 'https://shop.example/privacy' });
      const found = await api('GET', `/consent/v0/consents/search?${who}`, { token: consentToken });
      expect(found.status).toBe(200);
      expect(found.body.map((e: { id: string; appId: string; action: boolean }) => [e.id, e.appId, e.action])).toEqual([[id, creds.appId, true]]);
    } finally {
      // its pod would count among the release's pods in the tests below
      kubectl(['-n', NS, 'delete', 'job', name, '--cascade=foreground', '--wait', '--ignore-not-found']);
      kubectl(['-n', NS, 'delete', 'secret', name, '--ignore-not-found']);
    }
  });

  test('NetworkPolicies on by default and enforced (kube-router): a pod without the platform-caller label is refused at the consent Service, a labelled one reaches it, neither reaches oauth', async () => {
    report.networkPolicies = kubectl(['-n', NS, 'get', 'networkpolicies']);
    process.stdout.write(`\n$ kubectl -n ${NS} get networkpolicies\n${report.networkPolicies}`);
    const consentPod = kubectlJson(['-n', NS, 'get', 'pods', '-l', 'app.kubernetes.io/component=consent']).items[0];
    const targets: ProbeTarget[] = [
      { name: 'gateway', host: 'accord-gateway', port: 8080 },
      { name: 'consent', host: 'accord-consent', port: 50052, tls: 'accord-consent' },
      { name: 'consentPod', host: consentPod.status.podIP, port: 50052 },
      { name: 'consentHealth', host: consentPod.status.podIP, port: 8086 },
      { name: 'oauth', host: 'accord-oauth', port: 50051 },
    ];
    const stranger = await probe(NS, 'probe-stranger', {}, targets);
    const caller = await probe(NS, 'probe-platform-caller', PLATFORM_CALLER, targets);
    report.probes = { stranger, caller };
    process.stdout.write(`\nprobes: ${JSON.stringify(report.probes, null, 2)}\n`);
    // the gateway is open to anyone (networkPolicy.gatewayFrom empty): the probes' network works
    expect(stranger.gateway).toBe('open');
    expect(caller.gateway).toBe('open');
    for (const t of ['consent', 'consentPod', 'consentHealth', 'oauth']) expect([t, stranger[t]]).toEqual([t, expect.stringMatching(REFUSED)]);
    // labelled: a TLS handshake with the consent service, which names itself; with a bearer token the
    // Go example's Job above (labelled too) called CreateConsents and Decide there
    expect(caller.consent).toBe('tls spiffe://accord/consent');
    expect(caller.consentPod).toBe('open');
    // the health port is the node's (the kubelet's probes), oauth serves no platform caller
    expect(caller.consentHealth).toMatch(REFUSED);
    expect(caller.oauth).toMatch(REFUSED);
  });

  test('helm upgrade to a new image tag under a steady consent load: no failed request, no lost event', async () => {
    const load = startLoad({ baseUrl: gateway.url, token: consentToken, apiKey: creds.apiKey, label: 'upgrade' });
    await until(() => load.answered() >= 20);
    const upgrade = await helmAsync(['upgrade', 'accord', CHART, '-n', NS, '--reuse-values', '--set', `image.tag=${NEXT_TAG}`, '--wait', '--timeout', '10m']);
    await rolledOut(NS);
    // until the old pods, stopping, are gone: every service pod runs the new tag
    const deadline = Date.now() + 120_000;
    while ((await podTags(NS)).some((t) => t !== NEXT_TAG) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1000));
    const answeredAtEnd = load.answered();
    await until(() => load.answered() >= answeredAtEnd + 20);
    const result = await load.stop();
    // When pods stopped and started, to read beside the failures' times if there are any.
    report.upgradeEvents = kubectl([
      '-n',
      NS,
      'get',
      'events',
      '--sort-by=.metadata.creationTimestamp',
      '-o',
      'custom-columns=TIME:.metadata.creationTimestamp,REASON:.reason,OBJECT:.involvedObject.name',
    ])
      .split('\n')
      .filter((l) => /Killing|Started/.test(l));
    await expectNothingLost('upgrade', result, { failures: 0 });
    expect([upgrade.status, upgrade.stderr]).toEqual([0, '']);
    expect(await podTags(NS)).toEqual(Array(7).fill(NEXT_TAG));
  });

  test('a consent pod deleted under load: nothing answered 201 is lost', async () => {
    const load = startLoad({ baseUrl: gateway.url, token: consentToken, apiKey: creds.apiKey, label: 'kill' });
    await until(() => load.answered() >= 20);
    const victim = JSON.parse(await kubectlWhileLoaded(['-n', NS, 'get', 'pods', '-l', 'app.kubernetes.io/component=consent', '-o', 'json'])).items[0].metadata
      .name;
    await kubectlWhileLoaded(['-n', NS, 'delete', 'pod', victim, '--grace-period=0', '--force', '--wait=false']);
    await rolledOut(NS);
    const answeredAtEnd = load.answered();
    await until(() => load.answered() >= answeredAtEnd + 20);
    const result = await load.stop();
    await expectNothingLost('consentPodDeleted', result, {});
  });

  test('every gRPC certificate replaced under a steady consent load (helm upgrade issues new ones from the kept CA): no failed request, no lost event, no pod restarted, the new certificates served', async () => {
    const ids = ['gateway', 'oauth', 'consent', 'dataprocessing', 'webhook', 'admin'];
    const certs = async () => {
      const out: Record<string, { serial: string; ca: string }> = {};
      for (const id of ids) {
        const data = JSON.parse(await kubectlWhileLoaded(['-n', NS, 'get', 'secret', `accord-${id}-tls`, '-o', 'json'])).data;
        out[id] = { serial: serialOf(new X509Certificate(Buffer.from(data['tls.crt'], 'base64')).serialNumber), ca: data['ca.crt'] };
      }
      return out;
    };
    const pods = async () =>
      JSON.parse(await kubectlWhileLoaded(['-n', NS, 'get', 'pods', '-l', 'app.kubernetes.io/instance=accord,app.kubernetes.io/component!=test', '-o', 'json']))
        .items.map((p: { metadata: { name: string; uid: string }; status: { containerStatuses: Array<{ restartCount: number }> } }) =>
          [p.metadata.name, p.metadata.uid, p.status.containerStatuses[0]!.restartCount].join(' '),
        )
        .sort();
    const before = await certs();
    const podsBefore = await pods();
    const ca = Buffer.from(before.consent!.ca, 'base64');

    const load = startLoad({ baseUrl: gateway.url, token: consentToken, apiKey: creds.apiKey, label: 'rotation' });
    await until(() => load.answered() >= 20);
    const upgrade = await helmAsync(['upgrade', 'accord', CHART, '-n', NS, '--reuse-values', '--wait', '--timeout', '10m']);
    const after = await certs();
    // every certificate new, the CA the same
    for (const id of ids) expect([id, after[id]!.serial !== before[id]!.serial, after[id]!.ca === before[id]!.ca]).toEqual([id, true, true]);

    // Until every pod of the gRPC services serves its new certificate (the kubelet updates the
    // mounted Secret, the service reads it within grpcTls.refreshMs), asked at each pod's address.
    const servers = JSON.parse(
      await kubectlWhileLoaded(['-n', NS, 'get', 'pods', '-l', 'app.kubernetes.io/component in (oauth,consent,dataprocessing,webhook)', '-o', 'json']),
    ).items as Array<{
      metadata: { name: string; labels: Record<string, string> };
      status: { podIP: string };
      spec: { containers: Array<{ ports: Array<{ name: string; containerPort: number }> }> };
    }>;
    const served: Record<string, string> = {};
    const started = Date.now();
    const deadline = started + 240_000;
    for (const pod of servers) {
      const id = pod.metadata.labels['app.kubernetes.io/component']!;
      const port = pod.spec.containers[0]!.ports.find((p) => p.name === 'grpc')!.containerPort;
      const tunnel = await openTunnel(`${pod.status.podIP}:${port}`);
      try {
        while ((served[pod.metadata.name] = await servedSerial(tunnel.url, ca, `accord-${id}`)) !== after[id]!.serial && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 2000));
      } finally {
        await tunnel.close();
      }
      expect([pod.metadata.name, served[pod.metadata.name]]).toEqual([pod.metadata.name, after[id]!.serial]);
    }
    const answeredAtEnd = load.answered();
    await until(() => load.answered() >= answeredAtEnd + 20);
    const result = await load.stop();
    report.rotationServedAfterSeconds = Math.round((Date.now() - started) / 1000);
    await expectNothingLost('rotation', result, { failures: 0 });
    expect([upgrade.status, upgrade.stderr]).toEqual([0, '']);
    // reloaded from the files: the same pods, none restarted
    expect(await pods()).toEqual(podsBefore);

    const pem = Buffer.from(JSON.parse(kubectl(['-n', NS, 'get', 'secret', 'accord-consent-tls', '-o', 'json'])).data['tls.crt'], 'base64');
    report.consentCertificate = must('openssl', ['x509', '-noout', '-subject', '-serial', '-ext', 'subjectAltName'], { input: pem.toString() });
    process.stdout.write(`\n$ openssl x509 -noout -subject -serial -ext subjectAltName < accord-consent-tls\n${report.consentCertificate}`);
  });

  test('the bundled evaluation profile starts (stand-in MongoDB and NATS images, explicit volumes) and its helm test passes', async () => {
    // `helm uninstall` of the first release; its test pod (kept for `helm test --logs`) goes with it.
    helm(['uninstall', 'accord', '-n', NS, '--wait']);
    report.leftAfterUninstall = kubectl(['-n', NS, 'get', 'pods,pvc,secrets', '-o', 'name']).trim().split('\n').filter(Boolean);

    // Two local volumes on the node, each bound ahead to its StatefulSet's claim, and a
    // StorageClass without a provisioner.
    const volumes = path.join(stateDir(), 'volumes');
    const pv = (name: string, claim: string, uid: number, size: string) => {
      const dir = path.join(volumes, name);
      fs.mkdirSync(dir, { recursive: true });
      fs.chownSync(dir, uid, uid);
      return {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: `accord-bundled-${name}`, labels: { 'accord.test/cluster': 'true' } },
        spec: {
          capacity: { storage: size },
          accessModes: ['ReadWriteOnce'],
          storageClassName: 'accord-local',
          persistentVolumeReclaimPolicy: 'Delete',
          claimRef: { namespace: BUNDLED_NS, name: claim },
          local: { path: dir },
          nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['accord'] }] }] } },
        },
      };
    };
    const storage = [
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'accord-local', labels: { 'accord.test/cluster': 'true' } },
        provisioner: 'kubernetes.io/no-provisioner',
        volumeBindingMode: 'WaitForFirstConsumer',
      },
      pv('mongodb', 'data-accord-mongodb-0', 999, '2Gi'),
      pv('nats', 'data-accord-nats-0', 1000, '2Gi'),
    ];
    kubectl(['apply', '-f', '-'], storage.map((o) => stringify(o)).join('---\n'));

    restrictedNamespace(BUNDLED_NS);
    const [mongoRepo, mongoTag] = standIns.mongo.split(/:(?=[^:]+$)/);
    const [natsRepo, natsTag] = standIns.nats.split(/:(?=[^:]+$)/);
    const tcp = (port: string, periodSeconds: number) => ({ tcpSocket: { port }, periodSeconds });
    const values = path.join(tmp, 'bundled.yaml');
    fs.writeFileSync(
      values,
      stringify({
        image: { repository: 'localhost/accord', tag: TAG, pullPolicy: 'Never' },
        mongodb: {
          image: { repository: mongoRepo, tag: mongoTag, pullPolicy: 'Never' },
          // mongo-java-server keeps its data in one file under the volume.
          args: ['--file', '/data/db/accord.mv'],
          livenessProbe: tcp('mongodb', 10),
          readinessProbe: tcp('mongodb', 2),
          persistence: { storageClass: 'accord-local' },
          resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '1Gi' } },
        },
        nats: { image: { repository: natsRepo, tag: natsTag, pullPolicy: 'Never' }, persistence: { storageClass: 'accord-local' } },
      }),
    );
    const install = helmRun([
      'install',
      'accord',
      CHART,
      '-n',
      BUNDLED_NS,
      '-f',
      path.join(CHART, 'ci', 'bundled-values.yaml'),
      '-f',
      values,
      '--wait',
      '--timeout',
      '10m',
    ]);
    report.bundledPods = podsWide(BUNDLED_NS);
    process.stdout.write(`\n$ kubectl -n ${BUNDLED_NS} get pods -o wide\n${report.bundledPods}`);
    expect([install.status, install.stderr]).toEqual([0, '']);
    expect(
      kubectlJson(['-n', BUNDLED_NS, 'get', 'pvc']).items.map((c: { metadata: { name: string }; status: { phase: string } }) => [
        c.metadata.name,
        c.status.phase,
      ]),
    ).toEqual([
      ['data-accord-mongodb-0', 'Bound'],
      ['data-accord-nats-0', 'Bound'],
    ]);
    const t = helmRun(['test', 'accord', '-n', BUNDLED_NS, '--logs', '--timeout', '5m']);
    report.bundledHelmTest = t.stdout;
    expect([t.status, t.stderr]).toEqual([0, '']);
    expect(t.stdout).toContain('GET http://accord-gateway:8080/readyz -> 200');

    // MongoDB and NATS of the release: the services reach them (they are Ready, the test passed),
    // a pod of the namespace that is not one of them does not.
    const stranger = await probe(BUNDLED_NS, 'probe-stranger', {}, [
      { name: 'gateway', host: 'accord-gateway', port: 8080 },
      { name: 'mongodb', host: 'accord-mongodb', port: 27017 },
      { name: 'nats', host: 'accord-nats', port: 4222 },
    ]);
    report.bundledProbe = stranger;
    expect(stranger).toEqual({ gateway: 'open', mongodb: expect.stringMatching(REFUSED), nats: expect.stringMatching(REFUSED) });
  });

  (crdSource.reason ? test.skip : test)(
    `the monitoring objects apply once their CRDs are installed (${PROMETHEUS_OPERATOR}${crdSource.reason ? `: skipped, ${crdSource.reason}` : ''})`,
    () => {
      const upgrade = (on: boolean) =>
        helmRun([
          'upgrade',
          'accord',
          CHART,
          '-n',
          BUNDLED_NS,
          '--reuse-values',
          ...['serviceMonitor', 'prometheusRule', 'dashboard'].flatMap((k) => ['--set', `metrics.${k}.enabled=${on}`]),
        ]);
      // Without the CRDs the API server refuses them: the CRDs are what makes the difference.
      expect(upgrade(true).stderr).toMatch(/no matches for kind "(ServiceMonitor|PrometheusRule)"/);
      const dir = prometheusOperatorCrds();
      for (const kind of ['servicemonitors', 'prometheusrules']) {
        kubectl(['apply', '--server-side', '-f', path.join(dir, 'example', 'prometheus-operator-crd', `monitoring.coreos.com_${kind}.yaml`)]);
        kubectl(['wait', '--for=condition=Established', `crd/${kind}.monitoring.coreos.com`, '--timeout=60s']);
      }
      const r = upgrade(true);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(
        kubectl(['-n', BUNDLED_NS, 'get', 'servicemonitors,prometheusrules,configmaps', '-l', 'app.kubernetes.io/instance=accord', '-o', 'name'])
          .trim()
          .split('\n')
          .sort(),
      ).toEqual([
        'configmap/accord-dashboard',
        // the CA of the release's gRPC, for platform callers (grpcTls)
        'configmap/accord-grpc-ca',
        'prometheusrule.monitoring.coreos.com/accord',
        'servicemonitor.monitoring.coreos.com/accord',
      ]);
    },
  );
});

/** A serial number in one spelling (hex, upper case, no leading zeros). */
const serialOf = (hex: string): string => hex.toUpperCase().replace(/^0+/, '');

/** The serial number of the certificate a TLS server at this loopback URL serves (verified with the CA for this name). */
function servedSerial(url: string, ca: Buffer, servername: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const sock = tls.connect({ host: hostname, port: Number(port), servername, ca, ALPNProtocols: ['h2'] }, () => {
      const serial = serialOf(sock.getPeerCertificate().serialNumber);
      sock.destroy();
      resolve(serial);
    });
    sock.setTimeout(10_000, () => sock.destroy(new Error('timeout')));
    sock.on('error', (err) => resolve(`error: ${err.message}`));
  });
}

/** How a Job ended (its Complete or Failed condition), or 'timed out' after `seconds`. */
async function jobOutcome(ns: string, name: string, seconds: number): Promise<'Complete' | 'Failed' | 'timed out'> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const conditions: Array<{ type: string; status: string }> = kubectlJson(['-n', ns, 'get', 'job', name]).status?.conditions ?? [];
    const done = conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
    if (done) return done.type as 'Complete' | 'Failed';
    await new Promise((r) => setTimeout(r, 1000));
  }
  return 'timed out';
}

async function until(condition: () => boolean, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function expectNothingLost(name: string, result: LoadResult, expected: { failures?: number }) {
  const notStored = await unstored(result.created);
  const notDelivered = await undelivered(result.created);
  report[name] = {
    // what the bridge into the cluster met on its connections to the gateway Service meanwhile
    bridgeErrors: gateway.errors.splice(0),
    sent: result.sent,
    created: result.created.length,
    failed: result.failures.length,
    notStored: notStored.length,
    notDelivered: notDelivered.length,
    failures: result.failures.slice(0, 20),
  };
  process.stdout.write(`\n${name}: ${JSON.stringify(report[name], null, 2)}\n`);
  expect(result.created.length).toBeGreaterThan(40);
  if (expected.failures !== undefined) expect(result.failures).toEqual([]);
  expect(notStored).toEqual([]);
  expect(notDelivered).toEqual([]);
}

function goMissing(): string | null {
  return spawnSync('go', ['version']).status === 0 ? null : 'Go is not installed, and the CRDs come from the Go module proxy';
}

/** The folder of the prometheus-operator module, downloaded (and verified) by the go command. */
function prometheusOperatorCrds(): string {
  const out = spawnSync('go', ['mod', 'download', '-json', PROMETHEUS_OPERATOR], { cwd: tmp, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod' } });
  if (out.status !== 0) throw new Error(`go mod download ${PROMETHEUS_OPERATOR} failed: ${out.stderr}${out.stdout}`);
  return (JSON.parse(out.stdout) as { Dir: string }).Dir;
}
