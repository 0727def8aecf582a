// helm lint, helm template and Kubernetes API schema validation for every ci/*-values.yaml,
// plus the values schema catching typos.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHART_DIR, ciValuesFiles, helm, render, renderError, renderNotes, validateK8s } from './helm';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { text: generatedSchema } = require('./gen-schema.js');

const files = ciValuesFiles();

describe('chart renders valid Kubernetes objects', () => {
  it('has ci values files for the main combinations', () => {
    expect(files.map((f) => path.basename(f))).toEqual(
      expect.arrayContaining(['default-values.yaml', 'bundled-values.yaml', 'production-values.yaml', 'existing-secret-values.yaml']),
    );
  });

  it('passes helm lint --strict with the default values', () => {
    const r = helm(['lint', '--strict', CHART_DIR]);
    expect(r.stderr + r.stdout).toContain('0 chart(s) failed');
    expect(r.status).toBe(0);
  });

  describe.each(files.map((f) => [path.basename(f), f]))('%s', (_name, file) => {
    it('passes helm lint --strict', () => {
      const r = helm(['lint', '--strict', CHART_DIR, '-f', file]);
      expect(r.stderr + r.stdout).toContain('0 chart(s) failed');
      expect(r.status).toBe(0);
    });

    it('renders objects that validate against the Kubernetes API schemas', () => {
      const objs = render({ valuesFiles: [file] });
      expect(objs.length).toBeGreaterThan(10);
      const results = validateK8s(objs);
      expect(results).toHaveLength(objs.length);
      expect(results.filter((r) => r.error)).toEqual([]);
    });

    it('renders unique object names per kind', () => {
      const objs = render({ valuesFiles: [file] });
      const keys = objs.map((o) => `${o.kind}/${o.metadata.name}`);
      expect(new Set(keys).size).toBe(keys.length);
    });
  });

  it('detects an invalid object (the validator can fail)', () => {
    const [result] = validateK8s([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'broken' },
        spec: { selector: {}, template: { spec: { containers: [{ name: 'x', ports: [{ containerPort: 'http' }] }] } } },
      },
    ]);
    expect(result.error).toMatch(/containerPort/);
  });
});

describe('values schema', () => {
  it('is the output of test/gen-schema.js (regenerate with `node charts/accord/test/gen-schema.js`)', () => {
    expect(JSON.parse(fs.readFileSync(path.join(CHART_DIR, 'values.schema.json'), 'utf8'))).toEqual(JSON.parse(generatedSchema));
  });

  it.each([
    ['a top-level typo', { ingres: true }, 'ingres'],
    ['a component key typo', { 'components.gateway.replicaz': 2 }, 'replicaz'],
    ['a typo in components.default', { 'components.default.resorces.limits.cpu': 1 }, 'resorces'],
    ['a config key typo', { 'components.oauth.config.accessTokenTTL': 60 }, 'accessTokenTTL'],
    ["another service's setting", { 'components.gateway.config.allowCidrs': '10.0.0.0/8' }, 'allowCidrs'],
    ['an unknown component', { 'components.billing.port': 1 }, 'billing'],
    ['a networkPolicy typo', { 'networkPolicy.enabeld': true }, 'enabeld'],
    ['a mongodb typo', { 'mongodb.enable': true }, 'enable'],
    ['a secrets typo', { 'secrets.existingSecrets': 'x' }, 'existingSecrets'],
  ])('rejects %s', (_what, set, key) => {
    const err = renderError({ set });
    expect(err).toMatch(/schema/);
    expect(err).toContain(key);
  });

  it.each([
    ['a non-numeric port', { 'components.oauth.port': 'abc' }],
    ['an unknown log level', { 'components.default.config.logLevel': 'verbose' }],
    ['a malformed retry schedule', { 'components.webhook.config.retrySchedule': 'soon' }],
    ['a non-URL baseUrl', { baseUrl: 'accord.example.com' }],
    ['a signing key that is not PEM', { 'secrets.tokenSigningKeys': 'hunter2' }],
  ])('rejects %s', (_what, set) => {
    expect(renderError({ setString: set as Record<string, string> })).toMatch(/schema/);
  });

  it('accepts every ci values file and the defaults', () => {
    expect(() => render()).not.toThrow();
    for (const f of files) expect(() => render({ valuesFiles: [f] })).not.toThrow();
  });
});

describe('NOTES.txt', () => {
  it('tells how to reach the gateway and bootstrap credentials', () => {
    const notes = renderNotes();
    expect(notes).toContain('port-forward svc/accord-gateway 8080:8080');
    expect(notes).toContain('exec deploy/accord-oauth -- \\\n    node services/oauth/dist/cli/admin.js bootstrap --account acme --app web');
    expect(notes).toContain('/oauth/v0/token');
    expect(notes).toContain('helm test accord');
  });

  it('points at the ingress URL when the ingress is on', () => {
    const notes = renderNotes({ valuesFiles: [path.join(CHART_DIR, 'ci', 'production-values.yaml')] });
    expect(notes).toContain('https://accord.example.com/readyz');
    expect(notes).not.toContain('port-forward');
  });
});
