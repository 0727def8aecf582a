#!/usr/bin/env node
// Regenerates the Go gRPC client (clients/go/accord) from proto/ with buf and the pinned
// protoc-gen-go and protoc-gen-go-grpc (deploy/local/scripts/install-go-tools.sh builds them into
// the tools folder from the Go module proxy; options in clients/go/buf.gen.yaml). With --check,
// fails when the committed output differs from a fresh generation.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const here = path.resolve(__dirname, '..');
const root = path.resolve(here, '..', '..');
const bin = path.join(path.resolve(process.env.ACCORD_TOOLS_DIR || path.join(root, '.accord', 'tools')), 'bin');
const plugins = ['protoc-gen-go', 'protoc-gen-go-grpc'];

execFileSync(path.join(root, 'deploy', 'local', 'scripts', 'install-go-tools.sh'), plugins, { stdio: ['ignore', 'ignore', 'inherit'] });
fs.rmSync(path.join(here, 'accord'), { recursive: true, force: true });
// The pinned plugins first on PATH: buf runs `local:` plugins by name.
execFileSync(path.join(root, 'node_modules', '.bin', 'buf'), ['generate', '--template', path.join(here, 'buf.gen.yaml')], {
  cwd: path.join(root, 'proto'),
  stdio: 'inherit',
  env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
});

if (process.argv.includes('--check')) {
  const diff = execFileSync('git', ['status', '--porcelain', '--', 'accord'], { cwd: here }).toString();
  if (diff.trim()) {
    console.error('The Go gRPC client is stale; run `npm run gen` and commit:\n' + diff);
    process.exit(1);
  }
  console.log('Go gRPC client is up to date');
}
