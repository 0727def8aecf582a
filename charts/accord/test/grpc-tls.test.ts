// Mutual TLS between the services as the chart renders it: a certificate per service identity
// from the chart's CA (or cert-manager), mounted as files the services read again, the CA
// published for platform callers, and probes on the plaintext health-only port.
import { X509Certificate } from 'node:crypto';
import { byKind, COMPONENTS, container, deployment, envOf, find, render, validateK8s, type K8sObject } from './helm';

const IDENTITIES = [...COMPONENTS, 'admin'];
const GRPC = COMPONENTS.filter((c) => c !== 'gateway');
const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
const volumeOf = (w: K8sObject, name: string) => w.spec.template.spec.volumes.find((v: { name: string }) => v.name === name);
const mountOf = (w: K8sObject, name: string) => container(w).volumeMounts.find((m: { name: string }) => m.name === name);

describe('mutual TLS (grpcTls), on by default with the chart’s own CA', () => {
  const objs = render();
  const caSecret = find(objs, 'Secret', 'accord-grpc-ca');
  const ca = new X509Certificate(b64(caSecret.data['ca.crt']));

  test('one CA, kept across upgrades and uninstalls, published for platform callers in a ConfigMap', () => {
    expect(ca.ca).toBe(true);
    expect(caSecret.data['ca.key']).toBeTruthy();
    expect(caSecret.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
    expect(new X509Certificate(find(objs, 'ConfigMap', 'accord-grpc-ca').data['ca.crt']).fingerprint256).toBe(ca.fingerprint256);
  });

  test.each(IDENTITIES)('%s: a certificate of that CA naming its identity, valid for its Service’s names, for server and client', (id) => {
    const s = find(objs, 'Secret', `accord-${id}-tls`);
    expect(s.type).toBe('kubernetes.io/tls');
    const cert = new X509Certificate(b64(s.data['tls.crt']));
    expect(cert.subject).toBe(`CN=spiffe://accord/${id}`);
    expect(cert.checkIssued(ca) && cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subjectAltName).toContain(`DNS:accord-${id}.accord-system.svc`);
    // the admin CLI in the oauth pod reaches its own server on loopback
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']));
    expect(b64(s.data['ca.crt'])).toBe(b64(caSecret.data['ca.crt']));
  });

  test.each(COMPONENTS)('%s: its own certificate mounted as files (a Secret volume, renewed in place) and the files in its env', (c) => {
    const w = deployment(objs, c);
    expect(volumeOf(w, 'grpc-tls')).toEqual({ name: 'grpc-tls', secret: { secretName: `accord-${c}-tls` } });
    expect(mountOf(w, 'grpc-tls')).toEqual({ name: 'grpc-tls', mountPath: '/var/run/accord/grpc-tls', readOnly: true });
    expect(mountOf(w, 'grpc-tls').subPath).toBeUndefined();
    const env = envOf(w);
    expect([env.ACCORD_GRPC_TLS_CA_FILE, env.ACCORD_GRPC_TLS_CERT_FILE, env.ACCORD_GRPC_TLS_KEY_FILE, env.ACCORD_GRPC_TLS_REFRESH_MS]).toEqual([
      '/var/run/accord/grpc-tls/ca.crt',
      '/var/run/accord/grpc-tls/tls.crt',
      '/var/run/accord/grpc-tls/tls.key',
      '30000',
    ]);
  });

  test('the oauth pod also holds the admin identity’s certificate, for the admin CLI’s export', () => {
    const w = deployment(objs, 'oauth');
    expect(volumeOf(w, 'grpc-tls-admin').secret.secretName).toBe('accord-admin-tls');
    expect(envOf(w).ACCORD_ADMIN_GRPC_TLS_CERT_FILE).toBe('/var/run/accord/grpc-tls-admin/tls.crt');
    expect(envOf(w).ACCORD_ADMIN_GRPC_TLS_KEY_FILE).toBe('/var/run/accord/grpc-tls-admin/tls.key');
  });

  test.each(GRPC)('%s: probes on the plaintext health-only port, the service port speaks TLS', (c) => {
    const ctr = container(deployment(objs, c));
    expect(ctr.readinessProbe.grpc).toEqual({ port: 8086 });
    expect(ctr.livenessProbe.grpc).toEqual({ port: 8086 });
    expect(envOf(deployment(objs, c)).GRPC_HEALTH_PORT).toBe('8086');
  });

  test('every object is valid Kubernetes', () => {
    expect(validateK8s(objs).filter((r) => r.error)).toEqual([]);
  });
});

describe('mutual TLS with a cert-manager issuer', () => {
  const objs = render({ set: { 'grpcTls.issuer.name': 'accord-ca', 'grpcTls.issuer.kind': 'ClusterIssuer' } });

  test.each(IDENTITIES)('%s: a Certificate with its identity as URI SAN and CN, into the Secret the pod mounts', (id) => {
    const c = find(objs, 'Certificate', `accord-${id}-tls`);
    expect(c.apiVersion).toBe('cert-manager.io/v1');
    expect(c.spec.secretName).toBe(`accord-${id}-tls`);
    expect(c.spec.uris).toEqual([`spiffe://accord/${id}`]);
    expect(c.spec.ipAddresses).toEqual(['127.0.0.1']);
    expect(c.spec.commonName).toBe(`spiffe://accord/${id}`);
    expect(c.spec.usages).toEqual(['digital signature', 'server auth', 'client auth']);
    expect(c.spec.issuerRef).toEqual({ name: 'accord-ca', kind: 'ClusterIssuer', group: 'cert-manager.io' });
    expect(c.spec.privateKey.rotationPolicy).toBe('Always');
  });

  test('no CA of the chart’s own; the ConfigMap only with a CA bundle given', () => {
    expect(byKind(objs, 'Secret').filter((s) => s.metadata.name.includes('grpc') || s.metadata.name.endsWith('-tls'))).toEqual([]);
    expect(byKind(objs, 'ConfigMap').filter((m) => m.metadata.name === 'accord-grpc-ca')).toEqual([]);
    const withBundle = render({ set: { 'grpcTls.issuer.name': 'accord-ca' }, setString: { 'grpcTls.caBundle': '-----BEGIN CERTIFICATE-----x' } });
    expect(find(withBundle, 'ConfigMap', 'accord-grpc-ca').data['ca.crt']).toBe('-----BEGIN CERTIFICATE-----x');
    expect(volumeOf(deployment(withBundle, 'consent'), 'grpc-tls').secret.secretName).toBe('accord-consent-tls');
  });
});

describe('mutual TLS off', () => {
  const objs = render({ set: { 'grpcTls.enabled': false } });

  test('plaintext gRPC: no certificates, no TLS env or volume, probes on the service port', () => {
    expect(byKind(objs, 'Secret').filter((s) => s.metadata.name.includes('grpc') || s.metadata.name.endsWith('-tls'))).toEqual([]);
    for (const c of COMPONENTS) {
      expect(Object.keys(envOf(deployment(objs, c))).filter((k) => k.includes('TLS') || k === 'GRPC_HEALTH_PORT')).toEqual([]);
      expect(volumeOf(deployment(objs, c), 'grpc-tls')).toBeUndefined();
    }
    expect(container(deployment(objs, 'consent')).readinessProbe.grpc).toEqual({ port: 50052 });
  });
});

describe('TLS to an external MongoDB and NATS', () => {
  const objs = render({ set: { 'mongodb.tls.secretName': 'db-tls', 'nats.tls.secretName': 'nats-tls', 'nats.tls.clientCertificate': true } });

  test.each(['oauth', 'consent', 'dataprocessing', 'webhook'])('%s: the MongoDB TLS Secret mounted where the URL’s tlsCAFile points', (c) => {
    expect(volumeOf(deployment(objs, c), 'mongodb-tls')).toEqual({ name: 'mongodb-tls', secret: { secretName: 'db-tls' } });
    expect(mountOf(deployment(objs, c), 'mongodb-tls').mountPath).toBe('/var/run/accord/mongodb-tls');
  });

  test('NATS: CA and client certificate as files of the pods that use NATS, nothing elsewhere', () => {
    for (const c of ['consent', 'webhook']) {
      const env = envOf(deployment(objs, c));
      expect([env.NATS_TLS_CA_FILE, env.NATS_TLS_CERT_FILE, env.NATS_TLS_KEY_FILE]).toEqual([
        '/var/run/accord/nats-tls/ca.crt',
        '/var/run/accord/nats-tls/tls.crt',
        '/var/run/accord/nats-tls/tls.key',
      ]);
      expect(volumeOf(deployment(objs, c), 'nats-tls').secret.secretName).toBe('nats-tls');
    }
    for (const c of ['gateway', 'oauth', 'dataprocessing']) {
      expect(envOf(deployment(objs, c)).NATS_TLS_CA_FILE).toBeUndefined();
      expect(volumeOf(deployment(objs, c), 'nats-tls')).toBeUndefined();
    }
    expect(volumeOf(deployment(objs, 'gateway'), 'mongodb-tls')).toBeUndefined();
    const serverOnly = render({ set: { 'nats.tls.secretName': 'nats-tls' } });
    expect(envOf(deployment(serverOnly, 'consent')).NATS_TLS_CERT_FILE).toBeUndefined();
    expect(envOf(deployment(serverOnly, 'consent')).NATS_TLS_CA_FILE).toBe('/var/run/accord/nats-tls/ca.crt');
  });
});
