// Wiring of the rendered workloads: addresses, probes, resources, security, selectors,
// secrets and config reachability.
import { createPrivateKey } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CI_DIR, COMPONENTS, K8sObject, byKind, componentName, container, deployment, envOf, find, labelsMatch, render } from './helm';

const ci = (name: string) => path.join(CI_DIR, `${name}-values.yaml`);
const GRPC_PORTS: Record<string, number> = { oauth: 50051, consent: 50052, dataprocessing: 50053, webhook: 50054 };
/** The services' runtime contract: which downstream address each one reads. */
const CALLS: Record<string, string[]> = {
  gateway: ['oauth', 'consent', 'dataprocessing', 'webhook'],
  // the admin CLI's export, run in the oauth pod
  oauth: ['consent'],
  // the keys of access tokens (platform callers over gRPC) from oauth
  consent: ['oauth', 'dataprocessing'],
  dataprocessing: ['oauth', 'consent'],
  webhook: ['oauth'],
};
const USES_MONGO = ['oauth', 'consent', 'dataprocessing', 'webhook'];
const USES_NATS = ['consent', 'webhook'];

const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
const workloads = (objs: K8sObject[]) => objs.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet');

/** Resolves a secretKeyRef against the rendered Secrets (undefined when the Secret is external). */
function secretValue(objs: K8sObject[], ref: { name: string; key: string }): string | undefined {
  const s = objs.find((o) => o.kind === 'Secret' && o.metadata.name === ref.name);
  if (!s) return undefined;
  if (!(ref.key in s.data)) throw new Error(`Secret ${ref.name} has no key ${ref.key}`);
  return b64(s.data[ref.key]);
}

const configs = {
  defaults: render(),
  default: render({ valuesFiles: [ci('default')] }),
  bundled: render({ valuesFiles: [ci('bundled')] }),
  production: render({ valuesFiles: [ci('production')] }),
  existingSecret: render({ valuesFiles: [ci('existing-secret')] }),
};

describe.each(Object.entries(configs))('%s values', (_name, objs) => {
  it('renders one Deployment and one Service per component', () => {
    for (const c of COMPONENTS) {
      expect(deployment(objs, c)).toBeDefined();
      expect(find(objs, 'Service', componentName(c))).toBeDefined();
    }
    expect(byKind(objs, 'Deployment')).toHaveLength(COMPONENTS.length);
  });

  it('points every service address env var at an existing Service port that reaches the right pods', () => {
    for (const c of COMPONENTS) {
      const env = envOf(deployment(objs, c));
      const addrVars = Object.keys(env).filter((k) => /^ACCORD_[A-Z]+_ADDR$/.test(k));
      const expectedVars = CALLS[c].map((t) => `ACCORD_${t.toUpperCase()}_ADDR`);
      if (c === 'oauth') expectedVars.push('ACCORD_OAUTH_ADDR'); // loopback, for the admin CLI
      expect(addrVars.sort()).toEqual(expectedVars.sort());

      for (const target of CALLS[c]) {
        const [host, port] = String(env[`ACCORD_${target.toUpperCase()}_ADDR`]).split(':');
        const svc = find(objs, 'Service', host);
        const svcPort = svc.spec.ports.find((p: { port: number }) => p.port === Number(port));
        expect(svcPort).toBeDefined();
        const selected = workloads(objs).filter((w) => labelsMatch(svc.spec.selector, w.spec.template.metadata.labels));
        expect(selected.map((w) => w.metadata.name)).toEqual([componentName(target)]);
        const cport = container(selected[0]).ports.find((p: { name: string }) => p.name === svcPort.targetPort);
        expect(cport?.containerPort).toBe(Number(envOf(selected[0]).GRPC_PORT));
      }
    }
    const oauthEnv = envOf(deployment(objs, 'oauth'));
    expect(oauthEnv.ACCORD_OAUTH_ADDR).toBe(`127.0.0.1:${oauthEnv.GRPC_PORT}`);
  });

  it('listens on the contract ports and exposes them by name', () => {
    const gw = container(deployment(objs, 'gateway'));
    expect(envOf(deployment(objs, 'gateway')).ACCORD_GATEWAY_PORT).toBe('8080');
    const metrics = { name: 'metrics', containerPort: 9464, protocol: 'TCP' };
    expect(gw.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }, metrics]);
    for (const [c, port] of Object.entries(GRPC_PORTS)) {
      expect(envOf(deployment(objs, c)).GRPC_PORT).toBe(String(port));
      // with mutual TLS (on by default), the plaintext health-only port of the kubelet's probes
      expect(container(deployment(objs, c)).ports).toEqual([
        { name: 'grpc', containerPort: port, protocol: 'TCP' },
        { name: 'grpc-health', containerPort: 8086, protocol: 'TCP' },
        metrics,
      ]);
      expect(envOf(deployment(objs, c)).GRPC_HEALTH_PORT).toBe('8086');
    }
  });

  it('gives the gRPC services native gRPC probes on their health-only port (the kubelet speaks no TLS) and the gateway /healthz and /readyz', () => {
    for (const c of Object.keys(GRPC_PORTS)) {
      const ctr = container(deployment(objs, c));
      for (const probe of [ctr.livenessProbe, ctr.readinessProbe]) {
        expect(probe.grpc).toEqual({ port: 8086 }); // service "" = overall health
        expect(probe.httpGet).toBeUndefined();
      }
    }
    const gw = container(deployment(objs, 'gateway'));
    expect(gw.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(gw.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
  });

  it('sets resources on every container', () => {
    for (const w of workloads(objs)) {
      for (const ctr of w.spec.template.spec.containers) {
        expect(ctr.resources?.requests?.cpu).toBeTruthy();
        expect(ctr.resources?.requests?.memory).toBeTruthy();
        expect(ctr.resources?.limits?.memory).toBeTruthy();
      }
    }
  });

  it('runs every pod non-root with a read-only root filesystem, no privilege escalation, no capabilities, RuntimeDefault seccomp', () => {
    const pods = [...workloads(objs).map((w) => w.spec.template.spec), ...byKind(objs, 'Pod').map((p) => p.spec)];
    expect(pods.length).toBeGreaterThanOrEqual(6);
    for (const pod of pods) {
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
      for (const ctr of pod.containers) {
        const sc = ctr.securityContext;
        expect(sc.runAsNonRoot).toBe(true);
        expect(sc.readOnlyRootFilesystem).toBe(true);
        expect(sc.allowPrivilegeEscalation).toBe(false);
        expect(sc.capabilities.drop).toContain('ALL');
        expect(sc.capabilities.add ?? []).toEqual([]);
        expect(sc.seccompProfile).toEqual({ type: 'RuntimeDefault' });
      }
    }
    for (const c of COMPONENTS) {
      const spec = deployment(objs, c).spec.template.spec;
      expect(spec.automountServiceAccountToken).toBe(false);
      const tmp = container(deployment(objs, c)).volumeMounts.find((m: { mountPath: string }) => m.mountPath === '/tmp');
      expect(spec.volumes.find((v: { name: string }) => v.name === tmp.name).emptyDir).toBeDefined();
    }
  });

  it('waits longer than the services drain before killing them', () => {
    for (const c of COMPONENTS) {
      const d = deployment(objs, c);
      const grace = Number(envOf(d).SHUTDOWN_GRACE_MS);
      expect(grace).toBeGreaterThan(0);
      expect(d.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(grace);
    }
  });

  it('selects its own pods with every selector', () => {
    const ws = workloads(objs);
    for (const w of ws) {
      expect(labelsMatch(w.spec.selector.matchLabels, w.spec.template.metadata.labels)).toBe(true);
      // no other workload's pods are matched
      const others = ws.filter((o) => o !== w && labelsMatch(w.spec.selector.matchLabels, o.spec.template.metadata.labels));
      expect(others).toEqual([]);
    }
    for (const svc of byKind(objs, 'Service')) {
      const selected = ws.filter((w) => labelsMatch(svc.spec.selector, w.spec.template.metadata.labels));
      expect(selected).toHaveLength(1);
      for (const p of svc.spec.ports) {
        const names = selected[0].spec.template.spec.containers.flatMap((ctr: { ports: { name: string }[] }) => ctr.ports.map((x) => x.name));
        expect(names).toContain(p.targetPort);
      }
    }
    for (const pdb of byKind(objs, 'PodDisruptionBudget')) {
      expect(ws.filter((w) => labelsMatch(pdb.spec.selector.matchLabels, w.spec.template.metadata.labels))).toHaveLength(1);
    }
    for (const hpa of byKind(objs, 'HorizontalPodAutoscaler')) {
      const target = find(objs, 'Deployment', hpa.spec.scaleTargetRef.name);
      expect(target.spec.replicas).toBeUndefined(); // the HPA owns the replica count
    }
    for (const np of byKind(objs, 'NetworkPolicy')) {
      expect(ws.filter((w) => labelsMatch(np.spec.podSelector.matchLabels, w.spec.template.metadata.labels))).toHaveLength(1);
    }
    for (const ing of byKind(objs, 'Ingress')) {
      for (const rule of ing.spec.rules) {
        for (const p of rule.http.paths) {
          const svc = find(objs, 'Service', p.backend.service.name);
          expect(svc.spec.ports.map((x: { name: string }) => x.name)).toContain(p.backend.service.port.name);
        }
      }
    }
  });

  it('feeds MongoDB and NATS only to the services that use them, MongoDB from a Secret', () => {
    for (const c of COMPONENTS) {
      const env = envOf(deployment(objs, c));
      expect('MONGO_URL' in env).toBe(USES_MONGO.includes(c));
      expect('NATS_URL' in env).toBe(USES_NATS.includes(c));
      if (USES_MONGO.includes(c)) {
        expect(env.MONGO_URL.valueFrom.secretKeyRef).toBeDefined();
        const url = secretValue(objs, env.MONGO_URL.valueFrom.secretKeyRef);
        if (url !== undefined) expect(url).toMatch(/^mongodb(\+srv)?:\/\//);
      }
      if (USES_NATS.includes(c)) expect(env.NATS_URL).toMatch(/^nats:\/\//);
    }
  });

  it('gives the signing keys, admin token and hash key to oauth and consent only, from a Secret', () => {
    const expected: Record<string, string[]> = {
      oauth: ['ACCORD_ADMIN_TOKEN', 'ACCORD_HASH_KEY', 'ACCORD_TOKEN_SIGNING_KEYS'],
      consent: ['ACCORD_RECEIPT_SIGNING_KEYS', 'ACCORD_ERASURE_KEY'],
    };
    const secretVars = ['ACCORD_ADMIN_TOKEN', 'ACCORD_HASH_KEY', 'ACCORD_TOKEN_SIGNING_KEYS', 'ACCORD_RECEIPT_SIGNING_KEYS', 'ACCORD_ERASURE_KEY'];
    for (const c of COMPONENTS) {
      const env = envOf(deployment(objs, c));
      expect(secretVars.filter((v) => v in env)).toEqual(expected[c] ?? []);
      for (const v of expected[c] ?? []) expect(env[v].valueFrom.secretKeyRef.name).toBeTruthy();
    }
  });

  it('keeps the webhook SSRF guard on unless told otherwise', () => {
    const env = envOf(deployment(objs, 'webhook'));
    expect(env.ACCORD_WEBHOOK_ALLOW_CIDRS).toBe(_name === 'existingSecret' ? '10.20.0.0/16' : '');
  });

  it('waits before SIGTERM, with node (the images have no shell), so that traffic leaves a pod before it stops', () => {
    for (const c of COMPONENTS) {
      const d = deployment(objs, c);
      const wait = container(d).lifecycle.preStop.exec.command;
      expect(wait).toEqual(['node', '-e', 'setTimeout(() => {}, 5000)']);
      // the wait and the service's own drain both fit in the grace period
      expect(d.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(5000 + Number(envOf(d).SHUTDOWN_GRACE_MS));
    }
  });

  it('has a helm test pod that checks the gateway /readyz and is kept for `helm test --logs`', () => {
    const [pod] = byKind(objs, 'Pod');
    expect(pod.metadata.annotations['helm.sh/hook']).toBe('test');
    // hook-succeeded deleted the pod before `helm test --logs` could read it ("pods not found")
    expect(pod.metadata.annotations['helm.sh/hook-delete-policy']).toBe('before-hook-creation');
    const gwPort = find(objs, 'Service', componentName('gateway')).spec.ports[0].port;
    expect(pod.spec.containers[0].command).toContain(`http://${componentName('gateway')}:${gwPort}/readyz`);
  });
});

describe('secrets', () => {
  const objs = configs.defaults;
  const secret = find(objs, 'Secret', 'accord');

  it('generates every key and credential when none is given', () => {
    for (const key of ['admin-token', 'hash-key', 'token-signing-keys', 'receipt-signing-keys', 'erasure-key']) {
      expect(b64(secret.data[key]).length).toBeGreaterThanOrEqual(32);
    }
    for (const c of ['oauth', 'consent']) {
      for (const [, v] of Object.entries(envOf(deployment(objs, c)))) {
        if (v?.valueFrom?.secretKeyRef) expect(secretValue(objs, v.valueFrom.secretKeyRef)).toBeTruthy();
      }
    }
  });

  it('generates signing keys that Node crypto.createPrivateKey accepts (ECDSA P-256)', () => {
    for (const key of ['token-signing-keys', 'receipt-signing-keys']) {
      const pem = b64(secret.data[key]);
      const k = createPrivateKey(pem);
      expect(k.asymmetricKeyType).toBe('ec');
      expect(k.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    }
  });

  it('looks up the existing Secret so that generated values survive helm upgrade, and keeps it on uninstall', () => {
    // helm template has no cluster, so the lookup itself is exercised on a real install
    // (docs/kubernetes.md); here: the template uses it and the resource policy is set.
    const src = fs.readFileSync(path.join(__dirname, '..', 'templates', 'secret.yaml'), 'utf8');
    expect(src).toMatch(/lookup "v1" "Secret" \.Release\.Namespace \$name/);
    expect(secret.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
  });

  it('uses the given values verbatim (GitOps: no random values)', () => {
    const pem = b64(secret.data['token-signing-keys']);
    const objs2 = render({ setString: { 'secrets.adminToken': 'admin-123', 'secrets.hashKey': 'hash-456', 'secrets.tokenSigningKeys': pem } });
    const s2 = find(objs2, 'Secret', 'accord');
    expect(b64(s2.data['admin-token'])).toBe('admin-123');
    expect(b64(s2.data['hash-key'])).toBe('hash-456');
    expect(b64(s2.data['token-signing-keys'])).toBe(pem);
    expect(b64(s2.data['receipt-signing-keys'])).toMatch(/BEGIN EC PRIVATE KEY/);
  });

  it('stores the MongoDB URL in a Secret, pointing at the bundled MongoDB when enabled', () => {
    const env = envOf(deployment(configs.bundled, 'consent'));
    const url = new URL(secretValue(configs.bundled, env.MONGO_URL.valueFrom.secretKeyRef)!);
    const svc = find(configs.bundled, 'Service', url.hostname);
    expect(svc.spec.ports.map((p: { port: number }) => p.port)).toContain(Number(url.port));
    expect(find(configs.bundled, 'StatefulSet', url.hostname).spec.template.spec.containers[0].image).toBe('mongo:7');
    const nats = new URL(env.NATS_URL);
    expect(find(configs.bundled, 'Service', nats.hostname).spec.ports.map((p: { port: number }) => p.port)).toContain(Number(nats.port));
    const natsSts = find(configs.bundled, 'StatefulSet', nats.hostname);
    expect(natsSts.spec.template.spec.containers[0].image).toBe('nats:2');
    expect(natsSts.spec.template.spec.containers[0].args).toContain('--jetstream');
    expect(natsSts.spec.volumeClaimTemplates).toHaveLength(1);
  });

  it('runs the bundled datastores without a StorageClass when persistence is off (emptyDir)', () => {
    const objs = render({ valuesFiles: [ci('bundled')], set: { 'mongodb.persistence.enabled': false, 'nats.persistence.enabled': false } });
    for (const name of ['accord-mongodb', 'accord-nats']) {
      const sts = find(objs, 'StatefulSet', name);
      expect(sts.spec.volumeClaimTemplates).toBeUndefined();
      expect(sts.spec.template.spec.volumes.find((v: { name: string }) => v.name === 'data')).toEqual({ name: 'data', emptyDir: {} });
      expect(sts.spec.template.spec.containers[0].volumeMounts.map((m: { name: string }) => m.name)).toContain('data');
    }
    expect(find(configs.bundled, 'StatefulSet', 'accord-mongodb').spec.template.spec.volumes.map((v: { name: string }) => v.name)).toEqual(['tmp']);
  });

  it("starts another MongoDB-compatible image with the given args and probes instead of the official image's mongod and mongosh", () => {
    const official = container(find(configs.bundled, 'StatefulSet', 'accord-mongodb'));
    expect(official.command).toEqual(['/bin/bash', '-c']);
    expect(official.readinessProbe.exec.command[0]).toBe('mongosh');
    const objs = render({
      valuesFiles: [ci('bundled')],
      set: {
        'mongodb.image.repository': 'localhost/accord/test-mongo',
        'mongodb.args[0]': '--file',
        'mongodb.args[1]': '/data/db/accord.mv',
        'mongodb.readinessProbe.tcpSocket.port': 'mongodb',
        'mongodb.livenessProbe.tcpSocket.port': 'mongodb',
      },
    });
    const other = container(find(objs, 'StatefulSet', 'accord-mongodb'));
    expect(other.image).toBe('localhost/accord/test-mongo:7');
    expect(other.command).toBeUndefined();
    expect(other.args).toEqual(['--file', '/data/db/accord.mv']);
    expect(other.readinessProbe).toEqual({ tcpSocket: { port: 'mongodb' } });
    expect(other.livenessProbe).toEqual({ tcpSocket: { port: 'mongodb' } });
  });

  it('renders no Secret and references existingSecret keys when secrets come from outside', () => {
    const objs2 = configs.existingSecret;
    // only the certificates of mutual TLS, which are not keys of that Secret
    expect(byKind(objs2, 'Secret').map((s) => s.metadata.name)).toEqual([
      'accord-grpc-ca',
      ...['gateway', 'oauth', 'consent', 'dataprocessing', 'webhook', 'admin'].map((id) => `accord-${id}-tls`),
    ]);
    const oauth = envOf(deployment(objs2, 'oauth'));
    expect(oauth.ACCORD_HASH_KEY.valueFrom.secretKeyRef).toEqual({ name: 'accord-keys', key: 'hash-key' });
    expect(oauth.ACCORD_TOKEN_SIGNING_KEYS.valueFrom.secretKeyRef).toEqual({ name: 'accord-keys', key: 'token-signing-keys' });
    expect(oauth.ACCORD_ADMIN_TOKEN.valueFrom.secretKeyRef).toEqual({ name: 'accord-keys', key: 'admin-token' });
    expect(envOf(deployment(objs2, 'consent')).ACCORD_RECEIPT_SIGNING_KEYS.valueFrom.secretKeyRef).toEqual({
      name: 'accord-keys',
      key: 'receipt-signing-keys',
    });
    // optional: a Secret made before subject erasure existed may lack it
    expect(envOf(deployment(objs2, 'consent')).ACCORD_ERASURE_KEY.valueFrom.secretKeyRef).toEqual({ name: 'accord-keys', key: 'erasure-key', optional: true });
    expect(oauth.MONGO_URL.valueFrom.secretKeyRef).toEqual({ name: 'accord-mongodb', key: 'uri' });
  });
});

describe('configuration', () => {
  it.each([
    ['components.default.config.logLevel', 'debug', COMPONENTS, 'LOG_LEVEL', 'debug'],
    ['components.default.config.shutdownGraceMs', '20000', COMPONENTS, 'SHUTDOWN_GRACE_MS', '20000'],
    ['baseUrl', 'https://consent.example.org', COMPONENTS, 'ACCORD_BASE_URL', 'https://consent.example.org'],
    ['components.gateway.port', '9090', ['gateway'], 'ACCORD_GATEWAY_PORT', '9090'],
    ['components.gateway.config.bodyLimit', '5mb', ['gateway'], 'ACCORD_BODY_LIMIT', '5mb'],
    ['components.gateway.config.consoleIdleTimeoutMs', '600000', ['gateway'], 'ACCORD_CONSOLE_IDLE_TIMEOUT_MS', '600000'],
    ['components.gateway.config.consoleAbsoluteTimeoutMs', '3600000', ['gateway'], 'ACCORD_CONSOLE_ABSOLUTE_TIMEOUT_MS', '3600000'],
    // a renamed key, read for one release: its old variable, which the service converts with a warning
    ['components.gateway.config.consoleIdleTimeout', '600', ['gateway'], 'ACCORD_CONSOLE_IDLE_TIMEOUT', '600'],
    ['components.gateway.config.consoleOidcIssuer', 'https://idp.example', ['gateway'], 'ACCORD_CONSOLE_OIDC_ISSUER', 'https://idp.example'],
    ['components.gateway.config.consoleOidcAccountClaim', 'accord_accounts', ['gateway'], 'ACCORD_CONSOLE_OIDC_ACCOUNT_CLAIM', 'accord_accounts'],
    ['components.oauth.port', '6000', ['oauth'], 'GRPC_PORT', '6000'],
    ['components.oauth.config.accessTokenTtlMs', '600000', ['oauth'], 'ACCORD_ACCESS_TOKEN_TTL_MS', '600000'],
    ['components.oauth.config.refreshTokenTtlMs', '7776000000', ['oauth'], 'ACCORD_REFRESH_TOKEN_TTL_MS', '7776000000'],
    ['components.consent.config.receiptJurisdiction', 'US', ['consent'], 'ACCORD_RECEIPT_JURISDICTION', 'US'],
    ['components.consent.config.expirySweepMs', '2000', ['consent'], 'ACCORD_CONSENT_EXPIRY_SWEEP_MS', '2000'],
    ['components.consent.config.renewalSweepMs', '30000', ['consent'], 'ACCORD_CONSENT_RENEWAL_SWEEP_MS', '30000'],
    ['components.consent.config.renewalRate', '50', ['consent'], 'ACCORD_CONSENT_RENEWAL_RATE', '50'],
    ['components.consent.config.receiptControllerName', 'Acme', ['consent'], 'ACCORD_RECEIPT_CONTROLLER_NAME', 'Acme'],
    ['components.consent.config.receiptControllerContact', 'dpo@acme.example', ['consent'], 'ACCORD_RECEIPT_CONTROLLER_CONTACT', 'dpo@acme.example'],
    ['components.consent.config.receiptLanguage', 'de', ['consent'], 'ACCORD_RECEIPT_LANGUAGE', 'de'],
    ['components.consent.config.eventEncoding', 'json', ['consent'], 'ACCORD_CONSENT_EVENT_ENCODING', 'json'],
    ['components.dataprocessing.config.defaultLocation', 'US', ['dataprocessing'], 'ACCORD_DEFAULT_LOCATION', 'US'],
    ['components.webhook.config.allowCidrs', '10.0.0.0/8', ['webhook'], 'ACCORD_WEBHOOK_ALLOW_CIDRS', '10.0.0.0/8'],
    ['components.webhook.config.timeoutMs', '3000', ['webhook'], 'ACCORD_WEBHOOK_TIMEOUT_MS', '3000'],
    ['components.webhook.config.retryScheduleMs', '1000,60000', ['webhook'], 'ACCORD_WEBHOOK_RETRY_SCHEDULE_MS', '1000,60000'],
    ['components.webhook.config.retrySchedule', '1s,1m', ['webhook'], 'ACCORD_WEBHOOK_RETRY_SCHEDULE', '1s,1m'],
    ['components.webhook.config.concurrency', '8', ['webhook'], 'ACCORD_WEBHOOK_CONCURRENCY', '8'],
    ['nats.url', 'nats://n1:4222', ['consent', 'webhook'], 'NATS_URL', 'nats://n1:4222'],
    ['components.webhook.env.HTTPS_PROXY', 'http://proxy:3128', ['webhook'], 'HTTPS_PROXY', 'http://proxy:3128'],
  ] as const)('%s=%s sets %s on %s', (key, value, comps, envName, expected) => {
    const isNumber = /^[0-9]+$/.test(value);
    const objs = render(isNumber ? { set: { [key]: value } } : { setString: { [key]: value } });
    for (const c of COMPONENTS) {
      const env = envOf(deployment(objs, c));
      if ((comps as readonly string[]).includes(c)) expect(env[envName]).toBe(expected);
      else if (envName !== 'NATS_URL' && envName !== 'ACCORD_GATEWAY_PORT' && envName !== 'GRPC_PORT') expect(env[envName]).not.toBe(expected);
    }
  });

  it('renders the documented service defaults', () => {
    const objs = configs.defaults;
    // null: the service's own default (the token lifetimes, the retry schedule), nothing rendered
    expect(envOf(deployment(objs, 'oauth')).ACCORD_ACCESS_TOKEN_TTL_MS).toBeUndefined();
    expect(envOf(deployment(objs, 'webhook'))).toMatchObject({ ACCORD_WEBHOOK_TIMEOUT_MS: '15000' });
    expect(envOf(deployment(objs, 'webhook')).ACCORD_WEBHOOK_RETRY_SCHEDULE_MS).toBeUndefined();
    expect(envOf(deployment(objs, 'gateway'))).toMatchObject({ ACCORD_BODY_LIMIT: '1mb', LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '10000' });
    expect(envOf(deployment(objs, 'consent')).ACCORD_RECEIPT_CONTROLLER_NAME).toBeUndefined();
  });

  it('lets a component override the default block, including with false', () => {
    const objs = render({
      set: {
        'components.default.config.logLevel': 'warn',
        'components.consent.config.logLevel': 'trace',
        'components.default.autoscaling.enabled': true,
        'components.webhook.autoscaling.enabled': false,
      },
    });
    expect(envOf(deployment(objs, 'consent')).LOG_LEVEL).toBe('trace');
    expect(envOf(deployment(objs, 'oauth')).LOG_LEVEL).toBe('warn');
    expect(
      byKind(objs, 'HorizontalPodAutoscaler')
        .map((h) => h.metadata.name)
        .sort(),
    ).toEqual(['consent', 'dataprocessing', 'gateway', 'oauth'].map(componentName));
    expect(deployment(objs, 'webhook').spec.replicas).toBe(1);
  });

  it('lets free-form env override a chart variable without duplicating it', () => {
    const objs = render({ setString: { 'components.gateway.env.LOG_LEVEL': 'debug' } });
    const entries = container(deployment(objs, 'gateway')).env.filter((e: { name: string }) => e.name === 'LOG_LEVEL');
    expect(entries).toEqual([{ name: 'LOG_LEVEL', value: 'debug' }]);
  });

  it('mounts the TCF Global Vendor List from the operator’s ConfigMap as a volume (updates reach the pods) and names it in ACCORD_TCF_GVL', () => {
    expect(container(deployment(configs.defaults, 'consent')).env.map((e: { name: string }) => e.name)).not.toContain('ACCORD_TCF_GVL');
    const objs = render({ setString: { 'components.consent.tcfGvl.configMap': 'iab-gvl', 'components.consent.tcfGvl.key': 'gvl.json' } });
    const pod = deployment(objs, 'consent').spec.template.spec;
    expect(container(deployment(objs, 'consent')).env).toContainEqual({ name: 'ACCORD_TCF_GVL', value: '/var/run/accord/tcf-gvl/vendor-list.json' });
    expect(container(deployment(objs, 'consent')).volumeMounts).toContainEqual({ name: 'tcf-gvl', mountPath: '/var/run/accord/tcf-gvl', readOnly: true });
    expect(pod.volumes).toContainEqual({ name: 'tcf-gvl', configMap: { name: 'iab-gvl', items: [{ key: 'gvl.json', path: 'vendor-list.json' }] } });
    expect(container(deployment(objs, 'webhook')).env.map((e: { name: string }) => e.name)).not.toContain('ACCORD_TCF_GVL');
  });

  it('raises terminationGracePeriodSeconds with SHUTDOWN_GRACE_MS', () => {
    const objs = render({ set: { 'components.default.config.shutdownGraceMs': 45000 } });
    for (const c of COMPONENTS) expect(deployment(objs, c).spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(45);
  });

  it('builds image references per component and accepts skaffold tag@digest values', () => {
    expect(container(deployment(configs.defaults, 'consent')).image).toBe('accord/consent:0.1.0');
    expect(container(deployment(configs.existingSecret, 'oauth')).image).toBe('registry.example.com/accord/oauth:0.1.0');
    const objs = render({
      setString: {
        'components.gateway.image.repository': 'localhost:5000/accord/gateway',
        'components.gateway.image.tag': 'v1@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      },
    });
    expect(container(deployment(objs, 'gateway')).image).toBe(
      'localhost:5000/accord/gateway:v1@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    );
    expect(container(deployment(objs, 'oauth')).image).toBe('accord/oauth:0.1.0');
  });

  it('derives ACCORD_BASE_URL from the TLS ingress host', () => {
    expect(envOf(deployment(configs.production, 'consent')).ACCORD_BASE_URL).toBe('https://accord.example.com');
  });

  it('trusts one proxy hop behind the Ingress only, unless told otherwise', () => {
    expect(envOf(deployment(configs.production, 'gateway')).ACCORD_TRUST_PROXY).toBe('1');
    expect(envOf(deployment(configs.defaults, 'gateway')).ACCORD_TRUST_PROXY).toBeUndefined();
    const objs = render({ valuesFiles: [ci('production')], set: { 'components.gateway.config.trustProxy': 2 } });
    expect(envOf(deployment(objs, 'gateway')).ACCORD_TRUST_PROXY).toBe('2');
  });
});
