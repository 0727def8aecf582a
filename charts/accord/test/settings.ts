// The one list of the services' settings, derived from their config schemas (the zod shapes each
// service's main loads, plus the metrics variables every main reads beside them), and the chart's
// spelling of each: `components.<service>.config.<key>`. files/settings.json is this list as the
// chart reads it; settings.test.ts fails when it, values.yaml or values.schema.json differ from
// the schemas. Regenerate with:
//   ACCORD_WRITE_SETTINGS=1 npx jest charts/accord/test/settings.test.ts
import { DEFAULT_METRICS_PORTS, metricsEnv, RENAMED_SETTINGS } from '@accord/common';
import * as consent from '@accord/consent';
import * as dataprocessing from '@accord/dataprocessing';
import * as gateway from '@accord/gateway';
import * as oauth from '@accord/oauth';
import * as webhook from '@accord/webhook';
import * as path from 'node:path';
import { CHART_DIR, COMPONENTS, type Component } from './helm';

export const SETTINGS_FILE = path.join(CHART_DIR, 'files', 'settings.json');

/** Every variable each service reads (its config schema and the metrics variables). */
export function serviceVariables(): Record<Component, string[]> {
  const shapes: Record<Component, object> = {
    gateway: gateway.configShape,
    oauth: oauth.configShape,
    consent: consent.configShape,
    dataprocessing: dataprocessing.configShape,
    webhook: webhook.configShape,
  };
  const out = {} as Record<Component, string[]>;
  for (const c of COMPONENTS) out[c] = [...Object.keys(shapes[c]), ...Object.keys(metricsEnv(DEFAULT_METRICS_PORTS[c]))];
  return out;
}

/**
 * The variables the chart sets itself, from the value named here (or from how it wires the
 * release together): these are not `config` keys. Every other variable is one.
 */
export const WIRED: Record<string, string> = {
  ACCORD_BASE_URL: 'baseUrl',
  MONGO_URL: 'mongodb.url',
  NATS_URL: 'nats.url',
  NATS_TLS_CA_FILE: 'nats.tls.secretName',
  NATS_TLS_CERT_FILE: 'nats.tls.clientCertificate',
  NATS_TLS_KEY_FILE: 'nats.tls.clientCertificate',
  GRPC_PORT: 'components.<name>.port',
  ACCORD_GATEWAY_PORT: 'components.gateway.port',
  GRPC_HEALTH_PORT: 'grpcTls.healthPort',
  ACCORD_OAUTH_ADDR: 'the oauth Service',
  ACCORD_CONSENT_ADDR: 'the consent Service',
  ACCORD_DATAPROCESSING_ADDR: 'the dataprocessing Service',
  ACCORD_WEBHOOK_ADDR: 'the webhook Service',
  ACCORD_SERVICE_KEY: 'secrets.serviceKeys.<name>',
  ACCORD_SERVICE_PEERS: 'secrets.serviceKeys',
  ACCORD_ADMIN_TOKEN: 'secrets.adminToken',
  ACCORD_HASH_KEY: 'secrets.hashKey',
  ACCORD_TOKEN_SIGNING_KEYS: 'secrets.tokenSigningKeys',
  ACCORD_RECEIPT_SIGNING_KEYS: 'secrets.receiptSigningKeys',
  ACCORD_ERASURE_KEY: 'secrets.erasureKey',
  ACCORD_GRPC_TLS_CA_FILE: 'grpcTls.enabled',
  ACCORD_GRPC_TLS_CERT_FILE: 'grpcTls.enabled',
  ACCORD_GRPC_TLS_KEY_FILE: 'grpcTls.enabled',
  ACCORD_GRPC_TLS_REFRESH_MS: 'grpcTls.refreshMs',
  METRICS_PORT: 'metrics.port',
  // a file the chart mounts from a ConfigMap (components.consent.tcfGvl.configMap)
  ACCORD_TCF_GVL: 'components.consent.tcfGvl',
  // the image sets it (production)
  NODE_ENV: 'the image',
  // a secret: components.gateway.env with valueFrom (docs/operating.md, Gateway: console)
  ACCORD_CONSOLE_OIDC_CLIENT_SECRET: 'components.gateway.env',
};

/**
 * The chart's key of a variable: its name without `ACCORD_`, in camelCase; a backend service's
 * own name is dropped too (`ACCORD_CONSENT_EXPIRY_SWEEP_MS` → `components.consent.config.expirySweepMs`),
 * the gateway's is kept (`ACCORD_GATEWAY_REPLICAS` → `gatewayReplicas`, beside the Deployment's `replicas`).
 */
export function chartKey(service: Component, variable: string): string {
  let name = variable.replace(/^ACCORD_/, '');
  const own = `${service.toUpperCase()}_`;
  if (service !== 'gateway' && name.startsWith(own)) name = name.slice(own.length);
  return name.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export interface SettingsFile {
  /** service → chart key → the variable it sets */
  services: Record<Component, Record<string, string>>;
  /** service → a key of a renamed setting (old name) → its old variable, read for one release (RENAMED_SETTINGS) */
  renamed: Record<string, Record<string, string>>;
}

const sorted = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/** files/settings.json as the schemas say it must be. */
export function chartSettings(): SettingsFile {
  const vars = serviceVariables();
  const services = {} as Record<Component, Record<string, string>>;
  const renamed: Record<string, Record<string, string>> = {};
  for (const c of COMPONENTS) {
    const keys: Record<string, string> = {};
    for (const v of vars[c]) {
      if (v in WIRED) continue;
      const key = chartKey(c, v);
      if (keys[key]) throw new Error(`${c}: ${keys[key]} and ${v} would both be config.${key}`);
      keys[key] = v;
    }
    services[c] = sorted(keys);
    for (const r of RENAMED_SETTINGS) {
      if (!vars[c].includes(r.to)) continue;
      const key = chartKey(c, r.from);
      if (keys[key]) throw new Error(`${c}: the old ${r.from} would be config.${key}, the key of ${keys[key]}`);
      (renamed[c] ??= {})[key] = r.from;
    }
    if (renamed[c]) renamed[c] = sorted(renamed[c]);
  }
  return { services, renamed };
}

/**
 * The keys of components.default.config: every key that more than one service reads, as the same
 * variable in each (a default applies to the services that read it and is ignored by the others).
 */
export function defaultKeys(settings: SettingsFile): Record<string, string> {
  const out: Record<string, string> = {};
  const readers = new Map<string, number>();
  const clash = new Set<string>();
  for (const map of Object.values(settings.services)) {
    for (const [key, v] of Object.entries(map)) {
      if (out[key] && out[key] !== v) clash.add(key);
      out[key] = v;
      readers.set(key, (readers.get(key) ?? 0) + 1);
    }
  }
  for (const key of Object.keys(out)) if (clash.has(key) || readers.get(key)! < 2) delete out[key];
  return sorted(out);
}

export const settingsText = (s: SettingsFile) => JSON.stringify(s, null, 2) + '\n';
