// `npm run bench:cluster-tls`: what mutual TLS between the services costs in the test cluster
// (deploy/cluster). One release of the chart (one pod per service, the stand-in MongoDB and NATS
// beside it), driven through the gateway's Service by BENCH_TLS_CLIENTS (default 8) clients for
// BENCH_TLS_SECONDS (default 20) per measure, after BENCH_TLS_WARMUP (default 15) seconds of the
// same load: consent POSTs (gateway → consent → MongoDB, NATS), then GETs of the events created
// (gateway → consent → MongoDB). Each measure gives requests/s and the CPU the release's five
// service pods used per request (their cgroups' cpuacct.usage, so the load generator and the
// tunnel into the cluster are not counted). The release alternates between grpcTls.enabled true
// and false (`helm upgrade`) in the order on, off, off, on, BENCH_TLS_ROUNDS (default 2) times
// each, so that both see the same cluster and a machine load drifting over the run weighs on both
// alike; each variant's figures are the mean of its rounds. Prints a table, writes
// .ci/artifacts/cluster-tls-cost.json. Run by deploy/cluster/bench-tls.sh.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import {
  appVersion,
  CHART,
  helm,
  helmAsync,
  kubectl,
  kubectlAsync,
  loadImages,
  openTunnel,
  REPO,
  serviceAddress,
  SERVICES,
  standInImages,
} from '../test/cluster';

const NS = 'accord-bench';
const TAG = appVersion();
const CLIENTS = Number(process.env.BENCH_TLS_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_TLS_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_TLS_ROUNDS ?? 2);
const WARMUP = Number(process.env.BENCH_TLS_WARMUP ?? 15);
const CGROUP = '/sys/fs/cgroup/cpuacct/accord-cluster/kubepods';

function workload(name: string, image: string, port: number, extra: Record<string, unknown>) {
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: NS },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            containers: [
              { name, image, imagePullPolicy: 'Never', ports: [{ containerPort: port }], readinessProbe: { tcpSocket: { port }, periodSeconds: 1 }, ...extra },
            ],
            volumes: [{ name: 'tmp', emptyDir: {} }],
          },
        },
      },
    },
    { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: NS }, spec: { selector: { app: name }, ports: [{ port, targetPort: port }] } },
  ];
}

/** CPU seconds used so far by the release's service pods (their pod cgroups). */
async function serviceCpu(): Promise<number> {
  const r = await kubectlAsync(['-n', NS, 'get', 'pods', '-l', 'app.kubernetes.io/instance=accord,app.kubernetes.io/component!=test', '-o', 'json']);
  let ns = 0;
  for (const p of JSON.parse(r.stdout).items as Array<{ metadata: { uid: string }; status: { phase: string } }>) {
    if (p.status.phase !== 'Running') continue;
    const file = ['', 'burstable/', 'besteffort/'].map((q) => path.join(CGROUP, `${q}pod${p.metadata.uid}`, 'cpuacct.usage')).find((f) => fs.existsSync(f));
    if (!file) throw new Error(`no cgroup for pod ${p.metadata.uid} under ${CGROUP}`);
    ns += Number(fs.readFileSync(file, 'utf8'));
  }
  return ns / 1e9;
}

async function rolledOut(): Promise<void> {
  for (const d of JSON.parse((await kubectlAsync(['-n', NS, 'get', 'deployments', '-l', 'app.kubernetes.io/instance=accord', '-o', 'json'])).stdout).items)
    await kubectlAsync(['-n', NS, 'rollout', 'status', `deployment/${d.metadata.name}`, '--timeout=300s']);
  // until the old pods are gone: the CPU is summed over the pods there are
  for (let i = 0; i < 120; i++) {
    const pods = JSON.parse(
      (await kubectlAsync(['-n', NS, 'get', 'pods', '-l', 'app.kubernetes.io/instance=accord,app.kubernetes.io/component!=test', '-o', 'json'])).stdout,
    ).items;
    if (pods.length === SERVICES.length && pods.every((p: { metadata: { deletionTimestamp?: string } }) => !p.metadata.deletionTimestamp)) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

interface Measure {
  tls: boolean;
  op: 'POST' | 'GET';
  requests: number;
  failed: number;
  rps: number;
  cpuMsPerRequest: number;
}

async function measure(tls: boolean, op: 'POST' | 'GET', baseUrl: string, headers: Record<string, string>, ids: string[]): Promise<Measure> {
  let running = true;
  let requests = 0;
  let failed = 0;
  let n = 0;
  const one = async () => {
    if (op === 'POST') {
      const res = await fetch(`${baseUrl}/consent/v0/consents`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: `bench-${tls}-${n++}`, issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true }),
      });
      const body = await res.text();
      if (res.status !== 201) throw new Error(`${res.status} ${body.slice(0, 200)}`);
      ids.push((JSON.parse(body) as { id: string }).id);
    } else {
      const res = await fetch(`${baseUrl}/consent/v0/consents/${ids[n++ % ids.length]}`, { headers });
      await res.text();
      if (res.status !== 200) throw new Error(String(res.status));
    }
  };
  const client = async (counting: () => boolean) => {
    while (running) {
      try {
        await one();
        if (counting()) requests++;
      } catch (err) {
        if (counting()) failed++;
        if (failed > 20) throw err;
      }
    }
  };
  // warm up (every switch restarts the pods: their code is cold), then the measure
  let counting = false;
  const clients = Array.from({ length: CLIENTS }, () => client(() => counting));
  await new Promise((r) => setTimeout(r, WARMUP * 1000));
  const cpu0 = await serviceCpu();
  const t0 = Date.now();
  counting = true;
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  counting = false;
  const seconds = (Date.now() - t0) / 1000;
  const cpu1 = await serviceCpu();
  running = false;
  await Promise.all(clients);
  return { tls, op, requests, failed, rps: requests / seconds, cpuMsPerRequest: ((cpu1 - cpu0) * 1000) / Math.max(requests, 1) };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-bench-tls-'));
  kubectl(['delete', 'namespace', NS, '--ignore-not-found', '--wait']);
  const standIns = standInImages();
  loadImages([...SERVICES.map((s) => `localhost/accord/${s}:${TAG}`), standIns.mongo, standIns.nats]);
  kubectl(['create', 'namespace', NS]);
  kubectl(
    ['apply', '-f', '-'],
    [
      ...workload('mongo', standIns.mongo, 27017, {}),
      ...workload('nats', standIns.nats, 4222, { args: ['--jetstream', '--store_dir', '/tmp/nats'], volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }] }),
    ]
      .map((o) => stringify(o))
      .join('---\n'),
  );
  for (const d of ['mongo', 'nats']) kubectl(['-n', NS, 'rollout', 'status', `deployment/${d}`, '--timeout=300s']);
  const values = path.join(tmp, 'values.yaml');
  fs.writeFileSync(
    values,
    stringify({
      image: { repository: 'localhost/accord', tag: TAG, pullPolicy: 'Never' },
      mongodb: { url: `mongodb://mongo.${NS}.svc.cluster.local:27017/accord` },
      nats: { url: `nats://nats.${NS}.svc.cluster.local:4222` },
      components: {
        gateway: {
          config: { limitEventsPerDay: 100_000_000, limitAppRps: 100_000, limitAppBurst: 100_000, limitAccountRps: 100_000, limitAccountBurst: 100_000 },
        },
      },
    }),
  );
  helm(['install', 'accord', CHART, '-n', NS, '-f', values, '--wait', '--timeout', '10m'], 900_000);
  const creds = JSON.parse(
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
      'bench',
      '--app',
      'web',
      '--scopes',
      'consent',
      '--json',
    ]),
  );
  const gateway = await openTunnel(serviceAddress(NS, 'accord-gateway'));
  const results: Measure[] = [];
  let tls = true;
  try {
    const token = async () => {
      const res = await fetch(`${gateway.url}/oauth/v0/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', scope: 'consent' }),
      });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    for (let round = 0; round < ROUNDS * 2; round++) {
      // on, off, off, on, …: a load drifting over the run weighs on both alike
      const want = [true, false, false, true][round % 4]!;
      if (want !== tls) {
        const r = await helmAsync(['upgrade', 'accord', CHART, '-n', NS, '--reuse-values', '--set', `grpcTls.enabled=${want}`, '--wait', '--timeout', '10m']);
        if (r.status !== 0) throw new Error(`helm upgrade failed: ${r.stderr}`);
        tls = want;
        await rolledOut();
        await new Promise((r2) => setTimeout(r2, 5000));
      }
      const headers = { authorization: `Bearer ${await token()}`, 'x-api-key': creds.apiKey };
      const ids: string[] = [];
      for (const op of ['POST', 'GET'] as const) {
        const m = await measure(tls, op, gateway.url, headers, ids);
        results.push(m);
        process.stdout.write(
          `TLS ${tls ? 'on ' : 'off'}  ${op.padEnd(4)}  ${m.rps.toFixed(1).padStart(7)} req/s  ${m.cpuMsPerRequest.toFixed(2).padStart(6)} ms CPU/request  (${m.requests} requests, ${m.failed} failed)\n`,
        );
      }
    }
  } finally {
    await gateway.close();
    helm(['uninstall', 'accord', '-n', NS, '--wait']);
    kubectl(['delete', 'namespace', NS, '--wait']);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  // the mean of each variant's rounds (the order on, off, off, on cancels a steady drift)
  const mean = (t: boolean, op: string) => {
    const ms = results.filter((m) => m.tls === t && m.op === op);
    const avg = (f: (m: Measure) => number) => ms.reduce((a, m) => a + f(m), 0) / ms.length;
    return { rps: avg((m) => m.rps), cpuMsPerRequest: avg((m) => m.cpuMsPerRequest) };
  };
  const summary = ['POST', 'GET'].map((op) => ({ op, on: mean(true, op), off: mean(false, op) }));
  process.stdout.write('\nmean of rounds:\n');
  for (const s of summary)
    process.stdout.write(
      `${s.op.padEnd(4)}  TLS off ${s.off.rps.toFixed(1)} req/s ${s.off.cpuMsPerRequest.toFixed(2)} ms CPU  |  TLS on ${s.on.rps.toFixed(1)} req/s ${s.on.cpuMsPerRequest.toFixed(2)} ms CPU  (${(s.on.cpuMsPerRequest - s.off.cpuMsPerRequest).toFixed(2)} ms)\n`,
    );
  fs.mkdirSync(path.join(REPO, '.ci', 'artifacts'), { recursive: true });
  fs.writeFileSync(
    path.join(REPO, '.ci', 'artifacts', 'cluster-tls-cost.json'),
    JSON.stringify({ clients: CLIENTS, seconds: SECONDS, rounds: ROUNDS, load: os.loadavg(), results, summary }, null, 2) + '\n',
  );
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
