#!/usr/bin/env node
// Writes charts/accord/values.schema.json. The schema is generated because draft-07's
// `additionalProperties: false` cannot see properties brought in through allOf/$ref, so every
// component's properties are spelled out in full. Edit here, then run:
//   node charts/accord/test/gen-schema.js
// (chart.test.ts fails when the committed schema differs from this script's output.)
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = (minimum = 0) => ({ type: 'integer', minimum });
const nullable = (s) => ({ anyOf: [s, { type: 'null' }] });
const obj = (properties, extra = {}) => ({ type: 'object', additionalProperties: false, properties, ...extra });
const freeMap = { type: 'object' };
const strMap = { type: 'object', additionalProperties: { type: 'string' } };
const list = (items = {}) => ({ type: 'array', items });
const port = { type: 'integer', minimum: 1, maximum: 65535 };
const intOrPercent = nullable({ anyOf: [int(0), { type: 'string', pattern: '^[0-9]+%$' }] });
const scalar = { type: ['string', 'number', 'boolean', 'null'] };

const probe = obj({
  initialDelaySeconds: int(0),
  periodSeconds: int(1),
  timeoutSeconds: int(1),
  failureThreshold: int(1),
  successThreshold: int(1),
});

// The services' settings: the keys are files/settings.json (one per variable a service reads,
// derived from the config schemas by test/settings.ts); their types are written here, and a key
// without one takes any scalar (a duration, `…Ms`: whole milliseconds). null: the service default.
const settings = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'files', 'settings.json'), 'utf8'));
const ms = nullable(int(0));
const types = {
  logLevel: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
  logFormat: nullable({ enum: ['json', 'pretty'] }),
  shutdownGraceMs: int(0),
  bodyLimit: { type: 'string', pattern: '^[0-9]+(b|kb|mb|gb)?$' },
  trustProxy: nullable(int(0)),
  geoHeader: nullable({ type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }),
  limitAccountRps: nullable({ type: 'number', minimum: 0 }),
  limitAccountBurst: nullable(int(0)),
  limitAppRps: nullable({ type: 'number', minimum: 0 }),
  limitAppBurst: nullable(int(0)),
  limitTokenRps: nullable({ type: 'number', minimum: 0 }),
  limitTokenBurst: nullable(int(0)),
  limitAuthFailuresClientRps: nullable({ type: 'number', minimum: 0 }),
  limitAuthFailuresClientBurst: nullable(int(0)),
  limitAuthFailuresAddressRps: nullable({ type: 'number', minimum: 0 }),
  limitAuthFailuresAddressBurst: nullable(int(0)),
  limitEventsPerRequest: nullable(int(0)),
  limitEventsPerDay: nullable(int(0)),
  gatewayReplicas: nullable(int(1)),
  consoleIdleTimeoutMs: nullable({ type: 'integer', minimum: 60000, multipleOf: 1000 }),
  consoleAbsoluteTimeoutMs: nullable({ type: 'integer', minimum: 60000, multipleOf: 1000 }),
  consoleOidcIssuer: nullable(str),
  consoleOidcClientId: nullable(str),
  consoleOidcScopes: nullable(str),
  consoleOidcAccountClaim: nullable(str),
  consoleOidcRole: nullable({ enum: ['owner', 'developer', 'viewer'] }),
  accessTokenTtlMs: nullable({ type: 'integer', minimum: 60000, multipleOf: 1000 }),
  refreshTokenTtlMs: nullable({ type: 'integer', minimum: 60000, multipleOf: 1000 }),
  receiptJurisdiction: nullable(str),
  receiptControllerName: nullable(str),
  receiptControllerContact: nullable(str),
  receiptLanguage: nullable({ type: 'string', pattern: '^[a-z]{2}$' }),
  eventEncoding: nullable({ enum: ['protobuf', 'json'] }),
  expirySweepMs: nullable(int(100)),
  renewalSweepMs: nullable(int(100)),
  renewalRate: nullable(int(1)),
  logBatch: nullable(int(1)),
  defaultLocation: nullable(str),
  allowCidrs: { type: 'string', description: 'comma-separated CIDRs exempt from the SSRF guard' },
  timeoutMs: int(1),
  retryScheduleMs: nullable({ type: 'string', pattern: '^[0-9]+(,[0-9]+)*$' }),
  concurrency: nullable({ type: 'integer', minimum: 1, maximum: 1000 }),
  jitter: nullable({ type: 'number', minimum: 0, maximum: 0.5 }),
  // renamed (read for one release as their old variable, which the service converts with a warning)
  consoleIdleTimeout: nullable(int(60)),
  consoleAbsoluteTimeout: nullable(int(60)),
  accessTokenTtl: nullable(int(1)),
  refreshTokenTtl: nullable(int(1)),
  retrySchedule: nullable({ type: 'string', pattern: '^[0-9]+(ms|s|m|h|d)?(,[0-9]+(ms|s|m|h|d)?)*$' }),
  secretGrace: nullable({ type: 'string', pattern: '^[0-9]+(ms|s|m|h|d)?$' }),
};
const typeOf = (key) => types[key] ?? (key.endsWith('Ms') ? ms : scalar);
const configOf = (keys) => Object.fromEntries([...keys].sort().map((k) => [k, typeOf(k)]));
// components.default.config: the keys more than one service reads, as the same variable
const readers = new Map();
for (const map of Object.values(settings.services)) for (const [k, v] of Object.entries(map)) readers.set(k, [...(readers.get(k) ?? []), v]);
const shared = [...readers].filter(([, vars]) => vars.length > 1 && new Set(vars).size === 1).map(([k]) => k);
const configs = { default: configOf(shared) };
for (const [name, map] of Object.entries(settings.services)) configs[name] = configOf([...Object.keys(map), ...Object.keys(settings.renamed[name] ?? {})]);

function component(name) {
  return obj({
    port: port,
    replicas: int(0),
    image: obj({ repository: str, tag: str, pullPolicy: { enum: ['', 'Always', 'IfNotPresent', 'Never'] } }),
    config: obj(configs[name]),
    env: { type: 'object', additionalProperties: { anyOf: [scalar, { type: 'object' }] } },
    extraEnvFrom: list({ type: 'object' }),
    service: obj({ type: { enum: ['ClusterIP', 'NodePort', 'LoadBalancer'] }, annotations: strMap }),
    resources: obj({ requests: freeMap, limits: freeMap, claims: list() }),
    terminationGracePeriodSeconds: nullable(int(0)),
    probes: obj({ liveness: probe, readiness: probe }),
    podSecurityContext: freeMap,
    securityContext: freeMap,
    autoscaling: obj({
      enabled: bool,
      minReplicas: int(1),
      maxReplicas: int(1),
      targetCPUUtilizationPercentage: nullable(int(1)),
      targetMemoryUtilizationPercentage: nullable(int(1)),
    }),
    podDisruptionBudget: obj({ enabled: bool, minAvailable: intOrPercent, maxUnavailable: intOrPercent }),
    podAnnotations: strMap,
    podLabels: strMap,
    nodeSelector: strMap,
    tolerations: list({ type: 'object' }),
    affinity: freeMap,
    topologySpreadConstraints: list({ type: 'object' }),
    priorityClassName: str,
    lifecycle: freeMap,
    extraVolumes: list({ type: 'object' }),
    ...(name === 'consent'
      ? {
          tcfGvl: obj(
            { configMap: nullable(str), key: { type: 'string', minLength: 1 } },
            { description: 'The IAB TCF Global Vendor List mounted for ACCORD_TCF_GVL' },
          ),
        }
      : {}),
    extraVolumeMounts: list({ type: 'object' }),
  });
}

const image = obj({ repository: str, tag: str, pullPolicy: { enum: ['Always', 'IfNotPresent', 'Never'] } });
const persistence = obj({ enabled: bool, size: str, storageClass: str });
const probeObject = { type: 'object' };
const resources = obj({ requests: freeMap, limits: freeMap });
const peers = list({ type: 'object' });
const ports = list(port);

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Accord Helm chart values',
  ...obj({
    global: freeMap,
    nameOverride: str,
    fullnameOverride: str,
    commonLabels: strMap,
    image: obj({ repository: { type: 'string', minLength: 1 }, tag: str, pullPolicy: image.properties.pullPolicy }),
    imagePullSecrets: list(obj({ name: str })),
    baseUrl: { type: 'string', pattern: '^(https?://.+)?$' },
    serviceAccount: obj({ create: bool, name: str, annotations: strMap, automountServiceAccountToken: bool }),
    secrets: obj({
      existingSecret: str,
      adminToken: str,
      hashKey: str,
      tokenSigningKeys: { type: 'string', pattern: '^(|[\\s\\S]*-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*)$' },
      receiptSigningKeys: { type: 'string', pattern: '^(|[\\s\\S]*-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*)$' },
      erasureKey: str,
      serviceKeys: obj(
        Object.fromEntries(
          ['gateway', 'oauth', 'consent', 'dataprocessing', 'webhook', 'admin'].map((n) => [
            n,
            { type: 'string', pattern: '^(|[\\s\\S]*-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*)$' },
          ]),
        ),
      ),
      keep: bool,
      annotations: strMap,
    }),
    components: obj(Object.fromEntries(['default', 'gateway', 'oauth', 'consent', 'dataprocessing', 'webhook'].map((n) => [n, component(n)])), {
      required: ['default', 'gateway', 'oauth', 'consent', 'dataprocessing', 'webhook'],
    }),
    ingress: obj({
      enabled: bool,
      className: str,
      annotations: strMap,
      hosts: list(str),
      path: str,
      pathType: { enum: ['Prefix', 'Exact', 'ImplementationSpecific'] },
      tls: list(obj({ secretName: str, hosts: list(str) })),
    }),
    mongodb: obj({
      enabled: bool,
      url: { type: 'string', pattern: '^(mongodb(\\+srv)?://.+)?$' },
      existingSecret: str,
      existingSecretKey: str,
      tls: obj({ secretName: str }),
      database: { type: 'string', minLength: 1 },
      image,
      command: list(str),
      args: list(str),
      livenessProbe: probeObject,
      readinessProbe: probeObject,
      persistence,
      resources,
    }),
    nats: obj({
      enabled: bool,
      url: { type: 'string', pattern: '^(((nats|tls|ws|wss)://[^,]+)(,(nats|tls|ws|wss)://[^,]+)*)?$' },
      tls: obj({ secretName: str, clientCertificate: bool }),
      image,
      persistence,
      resources,
    }),
    grpcTls: obj({
      enabled: bool,
      issuer: obj({ name: str, kind: { enum: ['Issuer', 'ClusterIssuer'] }, group: str }),
      duration: { type: 'string', pattern: '^([0-9]+(h|m|s))+$' },
      renewBefore: { type: 'string', pattern: '^([0-9]+(h|m|s))+$' },
      caDays: int(1),
      certificateDays: int(1),
      caBundle: str,
      refreshMs: int(100),
      healthPort: port,
    }),
    networkPolicy: obj({
      enabled: bool,
      gatewayFrom: peers,
      platformCallers: peers,
      healthFrom: peers,
      externalMongodb: obj({ ports, to: peers }),
      externalNats: obj({ ports, to: peers }),
      dns: obj({ ports, to: peers }),
      metricsFrom: peers,
      webhookEgress: obj({ ports, ipBlocks: list(obj({ cidr: str, except: list(str) }, { required: ['cidr'] })) }),
    }),
    metrics: obj({
      enabled: bool,
      port,
      serviceMonitor: obj({ enabled: bool, interval: str, scrapeTimeout: str, labels: strMap }),
      prometheusRule: obj({
        enabled: bool,
        labels: strMap,
        outboxLagSeconds: { type: 'number', minimum: 0 },
        deliveryFailureRatio: { type: 'number', minimum: 0, maximum: 1 },
        serverErrorRatio: { type: 'number', minimum: 0, maximum: 1 },
      }),
      dashboard: obj({ enabled: bool, labels: strMap, annotations: strMap }),
    }),
    tracing: obj({ otlpEndpoint: { type: 'string', pattern: '^(https?://.+)?$' }, sampleRatio: { type: 'number', minimum: 0, maximum: 1 } }),
    tests: obj({ image: str }),
  }),
};

const out = path.join(__dirname, '..', 'values.schema.json');
const text = JSON.stringify(schema, null, 2) + '\n';
if (require.main === module) {
  // Written in the repository's prettier style, so `npm run lint` stays clean.
  import('prettier')
    .then(async (prettier) => fs.writeFileSync(out, await prettier.format(text, { ...(await prettier.resolveConfig(out)), filepath: out })))
    .catch(() => fs.writeFileSync(out, text));
}
module.exports = { text };
