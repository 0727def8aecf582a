// The chart's monitoring objects, checked offline: the PrometheusRule with promtool (`check
// rules` and `test rules`, promtool built by deploy/local/scripts/install-go-tools.sh), the
// Grafana dashboard JSON parsed, and every metric they name defined by the services.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { NAMESPACE, RELEASE, render, renderError, toolsBin, validateK8s, type K8sObject } from './helm';

const REPO = path.resolve(__dirname, '..', '..', '..');
const PROMTOOL = path.join(toolsBin(), 'promtool');
const enabled = { 'metrics.serviceMonitor.enabled': true, 'metrics.prometheusRule.enabled': true, 'metrics.dashboard.enabled': true };

function promtool(args: string[], cwd: string): { status: number; out: string } {
  if (!fs.existsSync(PROMTOOL)) throw new Error('promtool is missing; build it with: deploy/local/scripts/install-go-tools.sh promtool');
  const r = spawnSync(PROMTOOL, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** Metric names the services define (`name: '...'` in their metrics modules), plus Prometheus' and kube-state-metrics' own. */
function definedMetrics(): Set<string> {
  const names = new Set(['up', 'kube_pod_status_ready']);
  const files = [
    'services/common/src/metrics.ts',
    'services/consent/src/metrics.ts',
    'services/oauth/src/metrics.ts',
    'services/webhook/src/metrics.ts',
    'services/gateway/src/limits/limiter.ts',
  ];
  for (const f of files) for (const m of fs.readFileSync(path.join(REPO, f), 'utf8').matchAll(/name: '([a-z_:]+)'/g)) names.add(m[1]!);
  return names;
}

/** Metric names in a PromQL expression (identifiers followed by `{` or `[`, histogram suffixes folded). */
function metricsIn(expr: string): string[] {
  return [...expr.matchAll(/([a-z_:][a-z0-9_:]*)\s*[{[]/g)]
    .map((m) => m[1]!.replace(/_(bucket|count|sum)$/, ''))
    .filter((n) => !['by', 'rate', 'sum', 'max'].includes(n));
}

describe('monitoring objects of the chart', () => {
  let objs: K8sObject[];
  let tmp: string;
  beforeAll(() => {
    objs = render({ set: enabled });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-rules-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const find = (kind: string) => objs.filter((o) => o.kind === kind);

  it('are off by default, while every component exposes its metrics port', () => {
    const defaults = render();
    expect(defaults.filter((o) => ['ServiceMonitor', 'PrometheusRule'].includes(o.kind))).toEqual([]);
    const deployments = defaults.filter((o) => o.kind === 'Deployment' && o.metadata.name.startsWith(`${RELEASE}-`) && o.spec.template.spec.containers[0].env);
    expect(deployments.length).toBeGreaterThanOrEqual(5);
    for (const d of deployments.filter((x) => /-(gateway|oauth|consent|dataprocessing|webhook)$/.test(x.metadata.name))) {
      const c = d.spec.template.spec.containers[0];
      expect(c.ports).toContainEqual({ name: 'metrics', containerPort: 9464, protocol: 'TCP' });
      expect(c.env).toContainEqual({ name: 'METRICS_PORT', value: '9464' });
    }
  });

  it('a ServiceMonitor scrapes the metrics port of the release in its namespace', () => {
    const [sm] = find('ServiceMonitor');
    expect(sm!.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s', scrapeTimeout: '10s' }]);
    expect(sm!.spec.namespaceSelector).toEqual({ matchNames: [NAMESPACE] });
    expect(sm!.spec.selector.matchLabels['app.kubernetes.io/instance']).toBe(RELEASE);
  });

  it('the PrometheusRule passes promtool check rules, and its alerts fire on the series they watch', () => {
    const [rule] = find('PrometheusRule');
    const alerts = rule!.spec.groups[0].rules.map((r: { alert: string }) => r.alert);
    expect(alerts).toEqual(['AccordOutboxLagging', 'AccordWebhookDeliveriesFailing', 'AccordGatewayServerErrors', 'AccordTargetDown', 'AccordPodNotReady']);
    fs.writeFileSync(path.join(tmp, 'rules.yaml'), stringify(rule!.spec));
    const check = promtool(['check', 'rules', 'rules.yaml'], tmp);
    expect(check.out).toContain('SUCCESS: 5 rules found');
    expect(check.status).toBe(0);

    const sel = `job="${RELEASE}-consent", namespace="${NAMESPACE}"`;
    const gw = `job="${RELEASE}-gateway", namespace="${NAMESPACE}"`;
    const tests = {
      rule_files: ['rules.yaml'],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [
            { series: `accord_consent_outbox_oldest_unpublished_age_seconds{${sel}}`, values: '0 0 30 90+60x10' },
            { series: `http_server_request_duration_seconds_count{${gw}, http_response_status_code="200"}`, values: '0+100x20' },
            { series: `http_server_request_duration_seconds_count{${gw}, http_response_status_code="503"}`, values: '0+10x20' },
          ],
          alert_rule_test: [
            { eval_time: '3m', alertname: 'AccordOutboxLagging', exp_alerts: [] },
            {
              eval_time: '10m',
              alertname: 'AccordOutboxLagging',
              exp_alerts: [
                {
                  exp_labels: { severity: 'warning' },
                  exp_annotations: {
                    summary: 'Consent events are not reaching NATS.',
                    description: 'The oldest unpublished consent event is 8m 30s old (more than 60 s): is NATS reachable from the consent service?',
                  },
                },
              ],
            },
            {
              eval_time: '20m',
              alertname: 'AccordGatewayServerErrors',
              exp_alerts: [
                {
                  exp_labels: { severity: 'critical' },
                  exp_annotations: { summary: 'The gateway answers too many 5xx.', description: '9.091% of gateway answers were 5xx over 10 minutes.' },
                },
              ],
            },
          ],
        },
      ],
    };
    fs.writeFileSync(path.join(tmp, 'rules.test.yaml'), stringify(tests));
    const run = promtool(['test', 'rules', 'rules.test.yaml'], tmp);
    expect(run.out).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });

  it('promtool rejects a broken rule (the check can fail)', () => {
    fs.writeFileSync(path.join(tmp, 'broken.yaml'), stringify({ groups: [{ name: 'x', rules: [{ alert: 'X', expr: 'sum(rate(foo[5m]) > ' }] }] }));
    expect(promtool(['check', 'rules', 'broken.yaml'], tmp).status).not.toBe(0);
  });

  it('the dashboard ConfigMap holds Grafana JSON whose panels query metrics the services define', () => {
    const [cm] = find('ConfigMap').filter((c) => c.metadata.name === `${RELEASE}-dashboard`);
    expect(cm!.metadata.labels.grafana_dashboard).toBe('1');
    expect(validateK8s([cm!])[0]!.error).toBeNull();
    const dashboard = JSON.parse(cm!.data['accord.json']) as { uid: string; panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
    expect(dashboard.uid).toBe('accord-overview');
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    const defined = definedMetrics();
    const used = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricsIn(t.expr))));
    for (const rule of find('PrometheusRule')[0]!.spec.groups[0].rules as Array<{ expr: string }>) for (const m of metricsIn(rule.expr)) used.add(m);
    expect([...used].filter((m) => !defined.has(m))).toEqual([]);
    for (const name of [
      'accord_consent_outbox_oldest_unpublished_age_seconds',
      'accord_webhook_delivery_attempts_total',
      'accord_gateway_rate_limited_total',
    ]) {
      expect(used.has(name)).toBe(true);
    }
  });

  it('a ServiceMonitor without metrics is refused with a clear message', () => {
    expect(renderError({ set: { 'metrics.enabled': false, 'metrics.serviceMonitor.enabled': true } })).toContain(
      'metrics.serviceMonitor.enabled needs metrics.enabled',
    );
  });
});
