#!/usr/bin/env node
// Regenerates proto/src/gen from the .proto sources with buf + ts-proto (options pinned in
// buf.gen.yaml). With --check, fails when the committed output differs from a fresh generation.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const buf = path.resolve(root, '..', 'node_modules', '.bin', 'buf');
const run = (args) => execFileSync(buf, args, { cwd: root, stdio: 'inherit' });

run(['lint']);
fs.rmSync(path.join(root, 'src', 'gen'), { recursive: true, force: true });
run(['generate']);
// Formatted with the project's prettier config, named explicitly so the output never depends on
// where prettier looks for its configuration.
execFileSync(path.resolve(root, '..', 'node_modules', '.bin', 'prettier'), ['--config', path.join(root, '..', '.prettierrc.json'), '--write', 'src/gen'], {
  cwd: root,
  stdio: 'ignore',
});

if (process.argv.includes('--check')) {
  const diff = execFileSync('git', ['status', '--porcelain', '--', 'src/gen'], { cwd: root }).toString();
  if (diff.trim()) {
    console.error('Generated code is stale; run `npm run gen` and commit:\n' + diff);
    process.exit(1);
  }
  console.log('generated code is up to date');
}
