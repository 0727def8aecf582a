#!/usr/bin/env node
// Regenerates the SDK's OpenAPI document (from the gateway's fragments) and its TypeScript types
// (openapi-typescript). With --check, fails when the committed output differs from a fresh one.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const sdk = path.resolve(__dirname, '..');
const root = path.resolve(sdk, '..', '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const gatewayOpenApi = path.join(root, 'services', 'gateway', 'dist', 'openapi', 'index.js');
// The document is built from the compiled gateway: build it when it is missing.
if (!fs.existsSync(gatewayOpenApi)) execFileSync(bin('tsc'), ['-b', path.join(root, 'services', 'gateway')], { stdio: 'inherit' });
const { buildDocument } = require(gatewayOpenApi);

const files = ['openapi.json', 'src/schema.ts'];
fs.writeFileSync(path.join(sdk, 'openapi.json'), JSON.stringify(buildDocument('http://127.0.0.1:8080'), null, 2) + '\n');
execFileSync(bin('openapi-typescript'), ['openapi.json', '-o', 'src/schema.ts', '--root-types', '--alphabetize'], { cwd: sdk, stdio: 'ignore' });
execFileSync(bin('prettier'), ['--config', path.join(root, '.prettierrc.json'), '--write', ...files], { cwd: sdk, stdio: 'ignore' });

if (process.argv.includes('--check')) {
  const diff = execFileSync('git', ['status', '--porcelain', '--', ...files], { cwd: sdk }).toString();
  if (diff.trim()) {
    console.error('The SDK types are stale; run `npm run gen` and commit:\n' + diff);
    process.exit(1);
  }
  console.log('SDK types are up to date');
}
