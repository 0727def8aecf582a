#!/usr/bin/env node
// Regenerates the Python gRPC client (clients/python-grpc/accord) from proto/ with grpcio-tools
// (protoc and the gRPC Python plugin, pinned in install-grpc-tools.sh, in a project-local venv):
// messages (_pb2.py), their type stubs (_pb2.pyi) and the service stubs (_pb2_grpc.py). With
// --check, fails when the committed output differs from a fresh generation.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const here = path.resolve(__dirname, '..');
const protoRoot = path.resolve(here, '..', '..', 'proto');
const out = path.join(here, 'accord');
const venv = execFileSync(path.join(__dirname, 'install-grpc-tools.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();

const protos = [];
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.proto')) protos.push(path.relative(protoRoot, p));
  }
})(path.join(protoRoot, 'accord'));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-python-grpc-'));
try {
  // `python -m grpc_tools.protoc` adds the well-known types (google/protobuf/*.proto) it bundles.
  execFileSync(
    path.join(venv, 'bin', 'python'),
    ['-m', 'grpc_tools.protoc', '-I', protoRoot, `--python_out=${tmp}`, `--pyi_out=${tmp}`, `--grpc_python_out=${tmp}`, ...protos],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  fs.rmSync(out, { recursive: true, force: true });
  fs.cpSync(path.join(tmp, 'accord'), out, { recursive: true });
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

if (process.argv.includes('--check')) {
  const diff = execFileSync('git', ['status', '--porcelain', '--', 'accord'], { cwd: here }).toString();
  if (diff.trim()) {
    console.error('The Python gRPC client is stale; run `npm run gen` and commit:\n' + diff);
    process.exit(1);
  }
  console.log('Python gRPC client is up to date');
}
