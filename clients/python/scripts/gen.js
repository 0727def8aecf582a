#!/usr/bin/env node
// Regenerates the Python client's API layer (accord_client/api) from the SDK's OpenAPI document
// with openapi-python-client (pinned in install-generator.sh, in a project-local venv). Only the
// operations a pipeline needs are generated — the `consent` tag and the token endpoint — with the
// component schemas they reach. With --check, fails when the committed output differs.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const here = path.resolve(__dirname, '..');
const root = path.resolve(here, '..', '..');
const out = path.join(here, 'accord_client', 'api');
const venv = execFileSync(path.join(__dirname, 'install-generator.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();

/** The document narrowed to these operations, and the schemas they reach. */
function narrowed(doc) {
  const keep = (op) => op.tags?.includes('consent') || op.operationId === 'issueToken';
  const paths = {};
  for (const [p, item] of Object.entries(doc.paths)) {
    const ops = Object.fromEntries(Object.entries(item).filter(([, op]) => op && typeof op === 'object' && op.tags && keep(op)));
    if (Object.keys(ops).length) paths[p] = { ...(item.parameters ? { parameters: item.parameters } : {}), ...ops };
  }
  const reached = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      const m = k === '$ref' && typeof x === 'string' && /^#\/components\/([^/]+)\/(.+)$/.exec(x);
      if (m && !reached.has(x)) {
        reached.add(x);
        walk(doc.components[m[1]][m[2]]);
      } else walk(x);
    }
  };
  walk(paths);
  const components = {};
  for (const ref of [...reached].sort()) {
    const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(ref);
    (components[kind] ??= {})[name] = doc.components[kind][name];
  }
  if (doc.components.securitySchemes) components.securitySchemes = doc.components.securitySchemes;
  return { ...doc, paths, components };
}

const doc = JSON.parse(fs.readFileSync(path.join(root, 'clients', 'sdk', 'openapi.json'), 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-python-'));
try {
  fs.writeFileSync(path.join(tmp, 'openapi.json'), JSON.stringify(narrowed(doc)));
  // literal enums: language codes differ only in case (`aa`, `AA`); no post hooks (ruff is not a dependency)
  fs.writeFileSync(path.join(tmp, 'config.yaml'), 'literal_enums: true\npost_hooks: []\n');
  execFileSync(
    path.join(venv, 'bin', 'openapi-python-client'),
    ['generate', '--path', 'openapi.json', '--config', 'config.yaml', '--meta', 'none', '--output-path', path.join(tmp, 'api')],
    { cwd: tmp, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  fs.rmSync(out, { recursive: true, force: true });
  fs.cpSync(path.join(tmp, 'api'), out, { recursive: true });
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

if (process.argv.includes('--check')) {
  const diff = execFileSync('git', ['status', '--porcelain', '--', 'accord_client/api'], { cwd: here }).toString();
  if (diff.trim()) {
    console.error('The Python client is stale; run `npm run gen` and commit:\n' + diff);
    process.exit(1);
  }
  console.log('Python client is up to date');
}
