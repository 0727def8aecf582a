// One spelling per setting: the chart's `components.<service>.config.<key>` values are the
// services' config schemas, key for key (settings.ts). Fails when a service reads a variable the
// chart cannot set as a value, or the chart has a value no service reads.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { RENAMED_SETTINGS } from '@accord/common';
import { CHART_DIR, COMPONENTS, deployment, envOf, helm, parseManifests, RELEASE, NAMESPACE, renderNotes } from './helm';
import { chartKey, chartSettings, defaultKeys, serviceVariables, SETTINGS_FILE, settingsText, WIRED } from './settings';

const expected = chartSettings();
const values = parse(fs.readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8'));
const schema = JSON.parse(fs.readFileSync(path.join(CHART_DIR, 'values.schema.json'), 'utf8'));
const configOf = (name: string): Record<string, unknown> => values.components[name].config ?? {};
const schemaKeysOf = (name: string) => Object.keys(schema.properties.components.properties[name].properties.config.properties).sort();
/** The account limits: set once, on the gateway, and passed by the chart to the services that hold platform callers to them. */
const FROM_GATEWAY = ['limitAccountRps', 'limitAccountBurst', 'limitAppRps', 'limitAppBurst', 'limitEventsPerRequest', 'limitEventsPerDay'];

describe('the settings of the services, as chart values', () => {
  it('files/settings.json is the list derived from the config schemas (regenerate: ACCORD_WRITE_SETTINGS=1 npx jest charts/accord/test/settings.test.ts)', () => {
    if (process.env.ACCORD_WRITE_SETTINGS === '1') fs.writeFileSync(SETTINGS_FILE, settingsText(expected));
    expect(JSON.parse(fs.readFileSync(SETTINGS_FILE, 'utf8'))).toEqual(expected);
  });

  it('spells a key from its variable one way: camelCase without ACCORD_ and without the service’s own name', () => {
    expect(chartKey('consent', 'ACCORD_CONSENT_EXPIRY_SWEEP_MS')).toBe('expirySweepMs');
    expect(chartKey('dataprocessing', 'ACCORD_CONSENT_TIMEOUT_MS')).toBe('consentTimeoutMs');
    expect(chartKey('gateway', 'ACCORD_GATEWAY_REPLICAS')).toBe('gatewayReplicas');
    expect(chartKey('oauth', 'SHUTDOWN_GRACE_MS')).toBe('shutdownGraceMs');
    expect(chartKey('gateway', 'ACCORD_LIMIT_AUTH_FAILURES_CLIENT_RPS')).toBe('limitAuthFailuresClientRps');
  });

  it('sets every variable a service reads from a value: a config key, or one the chart wires (WIRED names it)', () => {
    const vars = serviceVariables();
    for (const c of COMPONENTS) {
      const keyed = new Set(Object.values(expected.services[c]));
      expect(vars[c].filter((v) => !keyed.has(v) && !(v in WIRED))).toEqual([]);
    }
    const read = new Set(Object.values(vars).flat());
    expect(Object.keys(WIRED).filter((v) => !read.has(v))).toEqual([]);
  });

  it('reads the old name of every renamed setting through its old key, for one release', () => {
    for (const r of RENAMED_SETTINGS) expect(Object.values(expected.renamed).flatMap((m) => Object.values(m))).toContain(r.from);
  });

  it.each(COMPONENTS)('values.yaml lists every setting of %s (null: the service default), and no key it does not read', (c) => {
    const mine = expected.services[c];
    const listed = { ...configOf('default'), ...configOf(c), ...(c !== 'gateway' ? Object.fromEntries(FROM_GATEWAY.map((k) => [k, null])) : {}) };
    expect(Object.keys(mine).filter((k) => !(k in listed))).toEqual([]);
    expect(Object.keys(configOf(c)).filter((k) => !(k in mine))).toEqual([]);
    // renamed keys are read, never listed: their new name (null) is
    expect(Object.keys(configOf(c)).filter((k) => k in (expected.renamed[c] ?? {}))).toEqual([]);
  });

  it('values.yaml lists in components.default.config only keys of the same variable in every service that reads them', () => {
    const shared = defaultKeys(expected);
    expect(Object.keys(configOf('default')).filter((k) => !(k in shared))).toEqual([]);
  });

  it.each(COMPONENTS)('values.schema.json accepts exactly the keys of %s (and its renamed ones)', (c) => {
    expect(schemaKeysOf(c)).toEqual([...Object.keys(expected.services[c]), ...Object.keys(expected.renamed[c] ?? {})].sort());
  });

  it('values.schema.json accepts in components.default.config exactly the shared keys', () => {
    expect(schemaKeysOf('default')).toEqual(Object.keys(defaultKeys(expected)).sort());
  });

  it('renders every key of every service as its variable on that service', () => {
    const args = ['template', RELEASE, CHART_DIR, '--namespace', NAMESPACE, '--skip-schema-validation'];
    const valueOf = (c: string, key: string) => `${c}-${key}`;
    for (const c of COMPONENTS)
      for (const key of Object.keys(expected.services[c])) args.push('--set-string', `components.${c}.config.${key}=${valueOf(c, key)}`);
    const r = helm(args);
    expect(r.stderr).toBe('');
    const objs = parseManifests(r.stdout);
    for (const c of COMPONENTS) {
      const env = envOf(deployment(objs, c));
      const wrong = Object.entries(expected.services[c])
        .filter(([key, v]) => !(c !== 'gateway' && FROM_GATEWAY.includes(key)) && env[v] !== valueOf(c, key))
        .map(([key, v]) => `${c}: config.${key} → ${v} = ${env[v]}`);
      expect(wrong).toEqual([]);
    }
  });

  it('applies a key of components.default.config to the services that read it, and not to the others', () => {
    const r = helm(['template', RELEASE, CHART_DIR, '--namespace', NAMESPACE, '--set-string', 'components.default.config.natsPrefix=tenant1']);
    expect(r.status).toBe(0);
    const objs = parseManifests(r.stdout);
    for (const c of COMPONENTS) expect(envOf(deployment(objs, c)).ACCORD_NATS_PREFIX).toBe(c === 'consent' || c === 'webhook' ? 'tenant1' : undefined);
  });

  it('fails on a key a component does not read', () => {
    const r = helm([
      'template',
      RELEASE,
      CHART_DIR,
      '--namespace',
      NAMESPACE,
      '--skip-schema-validation',
      '--set-string',
      'components.oauth.config.natsPrefix=x',
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('components.oauth.config.natsPrefix is not a setting of the oauth service');
  });

  it('renders a renamed key as its old variable, which the service reads with a warning', () => {
    const r = helm(['template', RELEASE, CHART_DIR, '--namespace', NAMESPACE, '--set', 'components.oauth.config.accessTokenTtl=7200']);
    expect(r.status).toBe(0);
    const env = envOf(deployment(parseManifests(r.stdout), 'oauth'));
    expect(env.ACCORD_ACCESS_TOKEN_TTL).toBe('7200');
    expect(env.ACCORD_ACCESS_TOKEN_TTL_MS).toBeUndefined();
    expect(renderNotes({ set: { 'components.oauth.config.accessTokenTtl': 7200 } })).toContain(
      'DEPRECATED: components.oauth.config.accessTokenTtl (ACCORD_ACCESS_TOKEN_TTL) is read for this release only:\nset components.oauth.config.accessTokenTtlMs',
    );
    expect(renderNotes()).not.toContain('DEPRECATED');
  });

  it('names every renamed key’s successor as <old key>Ms', () => {
    for (const [c, keys] of Object.entries(expected.renamed))
      for (const key of Object.keys(keys)) expect(expected.services[c as 'oauth']).toHaveProperty(`${key}Ms`);
  });
});
