// Helpers for the offline chart checks: find helm, render the chart, parse and validate it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const CHART_DIR = path.resolve(__dirname, '..');
export const CI_DIR = path.join(CHART_DIR, 'ci');
export const RELEASE = 'accord';
export const NAMESPACE = 'accord-system';
export const COMPONENTS = ['gateway', 'oauth', 'consent', 'dataprocessing', 'webhook'] as const;
export type Component = (typeof COMPONENTS)[number];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; [k: string]: any }; [k: string]: any };

/** The project-local tools folder's bin/ (ACCORD_TOOLS_DIR, default .accord/tools), where provisioning builds Go tools. */
export function toolsBin(): string {
  return path.join(path.resolve(process.env.ACCORD_TOOLS_DIR ?? path.join(CHART_DIR, '..', '..', '.accord', 'tools')), 'bin');
}

let cachedHelm: string | undefined;

/** HELM_BIN, else `helm` on PATH, else the tools folder, else $HOME/go/bin/helm; throws a clear error when none. */
export function helmBin(): string {
  if (cachedHelm) return cachedHelm;
  const candidates: string[] = [];
  if (process.env.HELM_BIN) candidates.push(process.env.HELM_BIN);
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(path.join(dir, 'helm'));
  candidates.push(path.join(toolsBin(), 'helm'));
  candidates.push(path.join(os.homedir(), 'go', 'bin', 'helm'));
  for (const c of candidates) {
    try {
      fs.accessSync(c, fs.constants.X_OK);
      if (fs.statSync(c).isFile()) return (cachedHelm = c);
    } catch {
      /* next */
    }
  }
  throw new Error(
    'helm not found: set HELM_BIN, put helm on PATH or install it to $HOME/go/bin/helm ' + '(https://helm.sh/docs/intro/install/); the chart tests need it.',
  );
}

export interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmResult {
  const r = spawnSync(helmBin(), args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export interface RenderOptions {
  valuesFiles?: string[];
  set?: Record<string, string | number | boolean>;
  setString?: Record<string, string>;
  chartDir?: string;
}

function renderArgs(opts: RenderOptions): string[] {
  const args = ['template', RELEASE, opts.chartDir ?? CHART_DIR, '--namespace', NAMESPACE];
  for (const f of opts.valuesFiles ?? []) args.push('-f', f);
  // helm splits --set on commas; escape them so a value like "5s,5m" stays one value.
  const esc = (v: unknown) => String(v).replace(/,/g, '\\,');
  for (const [k, v] of Object.entries(opts.set ?? {})) args.push('--set', `${k}=${esc(v)}`);
  for (const [k, v] of Object.entries(opts.setString ?? {})) args.push('--set-string', `${k}=${esc(v)}`);
  return args;
}

/** `helm template`; throws with helm's message when rendering fails. */
export function render(opts: RenderOptions = {}): K8sObject[] {
  const r = helm(renderArgs(opts));
  if (r.status !== 0) throw new Error(`helm template failed:\n${r.stderr}`);
  return parseManifests(r.stdout);
}

/** `helm template` expected to fail; returns stderr (throws when it succeeds). */
export function renderError(opts: RenderOptions): string {
  const r = helm(renderArgs(opts));
  if (r.status === 0) throw new Error(`helm template unexpectedly succeeded with ${JSON.stringify(opts)}`);
  return r.stderr;
}

export function parseManifests(text: string): K8sObject[] {
  const out: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) throw new Error(`invalid YAML rendered: ${doc.errors[0].message}`);
    const obj = doc.toJS();
    if (obj) out.push(obj);
  }
  return out;
}

export function ciValuesFiles(): string[] {
  return fs
    .readdirSync(CI_DIR)
    .filter((f) => f.endsWith('-values.yaml'))
    .sort()
    .map((f) => path.join(CI_DIR, f));
}

/** Validates every object against the Kubernetes API schemas (kubernetes-models). */
export function validateK8s(objects: K8sObject[]): { kind: string; name: string; error: string | null }[] {
  const r = spawnSync(process.execPath, [path.join(__dirname, 'k8s-validate.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    cwd: path.resolve(CHART_DIR, '..', '..'),
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`k8s-validate.mjs failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export const byKind = (objs: K8sObject[], kind: string) => objs.filter((o) => o.kind === kind);

export function find(objs: K8sObject[], kind: string, name: string): K8sObject {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name} rendered (have: ${objs.map((x) => `${x.kind}/${x.metadata.name}`).join(', ')})`);
  return o;
}

export const componentName = (c: string) => `${RELEASE}-${c}`;

export function deployment(objs: K8sObject[], c: string): K8sObject {
  return find(objs, 'Deployment', componentName(c));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function container(workload: K8sObject): any {
  return workload.spec.template.spec.containers[0];
}

/** Plain env of a workload's first container (valueFrom entries as `{valueFrom}` objects). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function envOf(workload: K8sObject): Record<string, any> {
  const env: Record<string, unknown> = {};
  for (const e of container(workload).env ?? []) {
    if (e.name in env) throw new Error(`${workload.metadata.name}: env ${e.name} set twice`);
    env[e.name] = e.valueFrom ? { valueFrom: e.valueFrom } : e.value;
  }
  return env;
}

export function labelsMatch(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

/** Renders NOTES.txt offline (helm template does not print it) by wrapping it in a ConfigMap. */
export function renderNotes(opts: RenderOptions = {}): string {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-notes-'));
  try {
    const dir = path.join(tmp, 'accord');
    fs.cpSync(CHART_DIR, dir, { recursive: true });
    const notes = fs.readFileSync(path.join(dir, 'templates', 'NOTES.txt'), 'utf8');
    fs.rmSync(path.join(dir, 'templates', 'NOTES.txt'));
    fs.writeFileSync(path.join(dir, 'templates', '_notes.tpl'), `{{- define "test.notes" -}}\n${notes}\n{{- end }}\n`);
    fs.writeFileSync(
      path.join(dir, 'templates', 'zz-notes.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  notes: {{ include "test.notes" . | quote }}\n',
    );
    const objs = render({ ...opts, chartDir: dir });
    return find(objs, 'ConfigMap', 'notes').data.notes;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
