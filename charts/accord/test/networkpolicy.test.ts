// NetworkPolicies admit exactly the intended paths. A small evaluator applies the rendered
// policies the way Kubernetes does (a pod selected by a policy of a type only admits what some
// rule of such a policy allows; egress and ingress must both allow) to a model of the pods.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { CI_DIR, COMPONENTS, K8sObject, NAMESPACE, byKind, componentName, render } from './helm';

interface Endpoint {
  id: string;
  namespace?: string; // absent: outside the cluster (an IP)
  labels?: Record<string, string>;
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  ip?: string;
}

const NAMESPACE_LABELS: Record<string, Record<string, string>> = {
  [NAMESPACE]: { 'kubernetes.io/metadata.name': NAMESPACE },
  'kube-system': { 'kubernetes.io/metadata.name': 'kube-system' },
  'ingress-nginx': { 'kubernetes.io/metadata.name': 'ingress-nginx' },
  data: { 'kubernetes.io/metadata.name': 'data' },
  other: { 'kubernetes.io/metadata.name': 'other' },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Selector = { matchLabels?: Record<string, string>; matchExpressions?: any[] } | undefined;

function selects(sel: Selector, labels: Record<string, string> = {}): boolean {
  if (!sel) return false;
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = e.key in labels;
    if (e.operator === 'In' && !(has && e.values.includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && e.values.includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

function ipToInt(ip: string): number {
  return ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}
function inCidr(ip: string, cidr: string): boolean {
  if (cidr.includes(':') || ip.includes(':')) return false; // the model uses IPv4 only
  const [base, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(ipToInt(base) / size) * size;
  return ipToInt(ip) >= start && ipToInt(ip) < start + size;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function peerMatches(peer: any, ep: Endpoint, policyNs: string): boolean {
  if (peer.ipBlock) {
    if (!ep.ip) return false;
    return inCidr(ep.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((c: string) => inCidr(ep.ip!, c));
  }
  if (!ep.namespace) return false;
  const nsOk = peer.namespaceSelector
    ? selects({ ...peer.namespaceSelector, matchLabels: peer.namespaceSelector.matchLabels ?? {} }, NAMESPACE_LABELS[ep.namespace])
    : ep.namespace === policyNs;
  const podOk = peer.podSelector ? selects({ ...peer.podSelector, matchLabels: peer.podSelector.matchLabels ?? {} }, ep.labels) : true;
  return nsOk && podOk;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function portMatches(rulePorts: any[] | undefined, port: number, protocol: string, dst: Endpoint): boolean {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'number') return p.port === port;
    return (dst.ports ?? []).some((cp) => cp.name === p.port && cp.containerPort === port);
  });
}

function admitted(policies: K8sObject[], type: 'Ingress' | 'Egress', self: Endpoint, peer: Endpoint, port: number, protocol: string, dst: Endpoint): boolean {
  if (!self.namespace) return true; // outside the cluster: no policy applies
  const applicable = policies.filter(
    (p) =>
      (p.metadata.namespace ?? NAMESPACE) === self.namespace &&
      selects({ matchLabels: {}, ...p.spec.podSelector }, self.labels) &&
      p.spec.policyTypes.includes(type),
  );
  if (applicable.length === 0) return true;
  return applicable.some((p) =>
    (p.spec[type === 'Ingress' ? 'ingress' : 'egress'] ?? []).some(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (rule: any) => {
        const peers = type === 'Ingress' ? rule.from : rule.to;
        const peerOk = !peers || peers.length === 0 || peers.some((x: unknown) => peerMatches(x, peer, p.metadata.namespace ?? NAMESPACE));
        return peerOk && portMatches(rule.ports, port, protocol, dst);
      },
    ),
  );
}

function allowed(policies: K8sObject[], src: Endpoint, dst: Endpoint, port: number, protocol = 'TCP'): boolean {
  return admitted(policies, 'Egress', src, dst, port, protocol, dst) && admitted(policies, 'Ingress', dst, src, port, protocol, dst);
}

function podsOf(objs: K8sObject[]): Record<string, Endpoint> {
  const eps: Record<string, Endpoint> = {};
  for (const w of objs.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')) {
    const id = w.spec.template.metadata.labels['app.kubernetes.io/component'];
    eps[id] = {
      id,
      namespace: NAMESPACE,
      labels: w.spec.template.metadata.labels,
      ports: w.spec.template.spec.containers.flatMap((c: { ports: Endpoint['ports'] }) => c.ports ?? []),
    };
  }
  const testPod = byKind(objs, 'Pod')[0];
  eps.test = { id: 'test', namespace: NAMESPACE, labels: testPod.metadata.labels, ports: [] };
  eps.dns = { id: 'dns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' }, ports: [{ name: 'dns', containerPort: 53, protocol: 'UDP' }] };
  eps.outsider = { id: 'outsider', namespace: 'other', labels: { app: 'curl' }, ports: [] };
  eps.ingressController = { id: 'ingressController', namespace: 'ingress-nginx', labels: { app: 'ingress-nginx' }, ports: [] };
  eps.sameNsStranger = { id: 'sameNsStranger', namespace: NAMESPACE, labels: { app: 'debug' }, ports: [] };
  // a platform team's service with the label networkPolicy.platformCallers names by default
  eps.platformCaller = { id: 'platformCaller', namespace: NAMESPACE, labels: { app: 'billing', 'accord/platform-caller': 'true' }, ports: [] };
  eps.otherNsPlatformCaller = { id: 'otherNsPlatformCaller', namespace: 'other', labels: { app: 'billing', 'accord/platform-caller': 'true' }, ports: [] };
  eps.externalMongo = { id: 'externalMongo', namespace: 'data', labels: { app: 'mongo' }, ports: [{ name: 'mongo', containerPort: 27017 }] };
  eps.internetHost = { id: 'internetHost', ip: '93.184.216.34' };
  eps.privateHost = { id: 'privateHost', ip: '10.1.2.3' };
  eps.metadataService = { id: 'metadataService', ip: '169.254.169.254' };
  eps.externalNats = { id: 'externalNats', ip: '203.0.113.10' };
  return eps;
}

const PORTS: Record<string, number> = { gateway: 8080, oauth: 50051, consent: 50052, dataprocessing: 50053, webhook: 50054, mongodb: 27017, nats: 4222 };
/** Intended service-to-service paths (the services' runtime contract). */
const INTENDED = new Set([
  'gateway>oauth',
  'gateway>consent',
  'gateway>dataprocessing',
  'gateway>webhook',
  'consent>dataprocessing',
  'dataprocessing>consent',
  // the keys of access tokens of platform callers (gRPC), from the oauth service's JWKS
  'consent>oauth',
  'dataprocessing>oauth',
  'webhook>oauth',
  // the admin CLI's export, run in the oauth pod
  'oauth>consent',
  'oauth>mongodb',
  'consent>mongodb',
  'dataprocessing>mongodb',
  'webhook>mongodb',
  'consent>nats',
  'webhook>nats',
]);

describe('NetworkPolicies with bundled MongoDB and NATS', () => {
  const objs = render({ valuesFiles: [path.join(CI_DIR, 'bundled-networkpolicy-values.yaml')] });
  const policies = byKind(objs, 'NetworkPolicy');
  const eps = podsOf(objs);
  const inRelease = [...COMPONENTS, 'mongodb', 'nats'];

  it('covers every pod of the release', () => {
    for (const id of inRelease) expect(policies.some((p) => selects(p.spec.podSelector, eps[id].labels))).toBe(true);
  });

  it('admits exactly the intended paths between the pods of the release', () => {
    const actual: string[] = [];
    for (const src of inRelease)
      for (const dst of inRelease) {
        if (src !== dst && allowed(policies, eps[src], eps[dst], PORTS[dst])) actual.push(`${src}>${dst}`);
      }
    expect(actual.sort()).toEqual([...INTENDED].sort());
  });

  it('admits the intended paths on their port only', () => {
    expect(allowed(policies, eps.gateway, eps.consent, 50053)).toBe(false);
    expect(allowed(policies, eps.consent, eps.dataprocessing, 50052)).toBe(false);
    expect(allowed(policies, eps.oauth, eps.mongodb, 4222)).toBe(false);
  });

  it('lets anyone reach the gateway (gatewayFrom empty) but nothing else from outside the release', () => {
    for (const src of ['outsider', 'ingressController', 'sameNsStranger', 'test']) {
      expect(allowed(policies, eps[src], eps.gateway, 8080)).toBe(true);
      for (const dst of ['oauth', 'consent', 'dataprocessing', 'webhook', 'mongodb', 'nats']) {
        expect([src, dst, allowed(policies, eps[src], eps[dst], PORTS[dst])]).toEqual([src, dst, false]);
      }
    }
  });

  it('lets every service resolve DNS', () => {
    for (const c of COMPONENTS) {
      expect(allowed(policies, eps[c], eps.dns, 53, 'UDP')).toBe(true);
      expect(allowed(policies, eps[c], eps.dns, 53, 'TCP')).toBe(true);
    }
  });

  it('lets only the webhook service reach the internet, on 80/443, never private or metadata addresses', () => {
    expect(allowed(policies, eps.webhook, eps.internetHost, 443)).toBe(true);
    expect(allowed(policies, eps.webhook, eps.internetHost, 80)).toBe(true);
    expect(allowed(policies, eps.webhook, eps.internetHost, 22)).toBe(false);
    expect(allowed(policies, eps.webhook, eps.privateHost, 443)).toBe(false);
    expect(allowed(policies, eps.webhook, eps.metadataService, 80)).toBe(false);
    for (const c of ['gateway', 'oauth', 'consent', 'dataprocessing']) {
      expect([c, allowed(policies, eps[c], eps.internetHost, 443)]).toEqual([c, false]);
    }
    for (const c of ['mongodb', 'nats']) expect(allowed(policies, eps[c], eps.internetHost, 443)).toBe(false);
  });
});

describe('NetworkPolicies with external MongoDB/NATS and a restricted gateway', () => {
  const objs = render({ valuesFiles: [path.join(CI_DIR, 'production-values.yaml')] });
  const policies = byKind(objs, 'NetworkPolicy');
  const eps = podsOf(objs);

  it('admits the gateway only from the ingress controller namespace and the helm test pod', () => {
    expect(allowed(policies, eps.ingressController, eps.gateway, 8080)).toBe(true);
    expect(allowed(policies, eps.test, eps.gateway, 8080)).toBe(true);
    expect(allowed(policies, eps.outsider, eps.gateway, 8080)).toBe(false);
    expect(allowed(policies, eps.sameNsStranger, eps.gateway, 8080)).toBe(false);
  });

  it('lets only MongoDB users reach the external MongoDB, and only in its namespace', () => {
    for (const c of COMPONENTS) {
      expect([c, allowed(policies, eps[c], eps.externalMongo, 27017)]).toEqual([c, c !== 'gateway']);
    }
  });

  it('lets only NATS users reach the external NATS port', () => {
    for (const c of COMPONENTS) {
      expect([c, allowed(policies, eps[c], eps.externalNats, 4222)]).toEqual([c, c === 'consent' || c === 'webhook']);
    }
  });

  it('still admits the intended service-to-service paths', () => {
    const actual: string[] = [];
    for (const src of COMPONENTS)
      for (const dst of COMPONENTS) {
        if (src !== dst && allowed(policies, eps[src], eps[dst], PORTS[dst])) actual.push(`${src}>${dst}`);
      }
    expect(actual.sort()).toEqual([...INTENDED].filter((p) => !/mongodb|nats/.test(p)).sort());
  });
});

/** The NetworkPolicies rendered with these values (a values file: lists do not go through --set). */
function policiesWith(values: Record<string, unknown>): K8sObject[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-np-'));
  try {
    fs.writeFileSync(path.join(dir, 'values.yaml'), stringify(values));
    return byKind(render({ valuesFiles: [path.join(dir, 'values.yaml')] }), 'NetworkPolicy');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('NetworkPolicies on by default', () => {
  const objs = render();
  const policies = byKind(objs, 'NetworkPolicy');
  const eps = podsOf(objs);
  const HEALTH = 8086;

  it('renders one per component, each denying by default (both directions, explicit rules only)', () => {
    expect(policies.map((p) => p.metadata.name).sort()).toEqual(COMPONENTS.map((c) => componentName(c)).sort());
    for (const p of policies) expect([p.metadata.name, p.spec.policyTypes]).toEqual([p.metadata.name, ['Ingress', 'Egress']]);
    for (const c of COMPONENTS) expect([c, policies.filter((p) => selects(p.spec.podSelector, eps[c].labels)).length]).toEqual([c, 1]);
  });

  it('admits the intended service-to-service paths and no other', () => {
    const actual: string[] = [];
    for (const src of COMPONENTS)
      for (const dst of COMPONENTS) {
        if (src !== dst && allowed(policies, eps[src], eps[dst], PORTS[dst])) actual.push(`${src}>${dst}`);
      }
    expect(actual.sort()).toEqual([...INTENDED].filter((p) => !/mongodb|nats/.test(p)).sort());
  });

  it('admits a labelled platform caller of the namespace to the services serving platform callers, nothing else', () => {
    for (const c of ['consent', 'dataprocessing', 'webhook']) expect([c, allowed(policies, eps.platformCaller, eps[c], PORTS[c])]).toEqual([c, true]);
    expect(allowed(policies, eps.platformCaller, eps.oauth, PORTS.oauth)).toBe(false);
    expect(allowed(policies, eps.platformCaller, eps.consent, HEALTH)).toBe(false);
    expect(allowed(policies, eps.platformCaller, eps.consent, 9464)).toBe(true); // metricsFrom empty: anyone
    expect(allowed(policies, eps.platformCaller, eps.gateway, 8080)).toBe(true);
  });

  it('refuses an unlabelled pod of the namespace and a labelled pod of another namespace at every service port', () => {
    for (const src of ['sameNsStranger', 'otherNsPlatformCaller', 'outsider'])
      for (const c of ['oauth', 'consent', 'dataprocessing', 'webhook']) {
        expect([src, c, allowed(policies, eps[src], eps[c], PORTS[c])]).toEqual([src, c, false]);
        expect([src, c, allowed(policies, eps[src], eps[c], HEALTH)]).toEqual([src, c, false]);
      }
  });

  it('admits the labelled pods of namespaces networkPolicy.platformCallers selects', () => {
    const custom = policiesWith({
      networkPolicy: {
        platformCallers: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'other' } },
            podSelector: { matchLabels: { 'accord/platform-caller': 'true' } },
          },
        ],
      },
    });
    expect(allowed(custom, eps.otherNsPlatformCaller, eps.consent, PORTS.consent)).toBe(true);
    expect(allowed(custom, eps.outsider, eps.consent, PORTS.consent)).toBe(false);
    // the list replaces the default: the namespace's own labelled pods are not named any more
    expect(allowed(custom, eps.platformCaller, eps.consent, PORTS.consent)).toBe(false);
    const none = policiesWith({ networkPolicy: { platformCallers: [] } });
    expect(allowed(none, eps.platformCaller, eps.consent, PORTS.consent)).toBe(false);
    expect(allowed(none, eps.gateway, eps.consent, PORTS.consent)).toBe(true);
  });

  it('opens the health port to networkPolicy.healthFrom when set (an enforcer that does not admit the node)', () => {
    const node: Endpoint = { id: 'node', namespace: 'nodes', labels: {}, ip: '10.0.0.5' };
    const withHealth = policiesWith({ networkPolicy: { healthFrom: [{ ipBlock: { cidr: '10.0.0.0/24' } }] } });
    for (const c of ['oauth', 'consent', 'dataprocessing', 'webhook']) {
      expect([c, allowed(policies, eps.sameNsStranger, eps[c], HEALTH)]).toEqual([c, false]);
      expect([c, allowed(withHealth, node, eps[c], HEALTH)]).toEqual([c, true]);
      expect([c, allowed(withHealth, node, eps[c], PORTS[c])]).toEqual([c, false]);
    }
    for (const c of ['oauth', 'consent', 'dataprocessing', 'webhook']) {
      expect([c, allowed(withHealth, eps.sameNsStranger, eps[c], HEALTH)]).toEqual([c, false]);
    }
  });

  it('renders none when networkPolicy.enabled is false', () => {
    expect(byKind(render({ set: { 'networkPolicy.enabled': false } }), 'NetworkPolicy')).toEqual([]);
    expect(componentName('gateway')).toBe('accord-gateway');
  });
});
