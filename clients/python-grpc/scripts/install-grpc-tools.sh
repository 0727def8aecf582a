#!/usr/bin/env bash
# Installs the Python gRPC client's tools into a project-local virtual environment, from PyPI, at
# pinned versions: grpcio-tools (protoc and the gRPC Python plugin: generates accord/ from
# proto/, `npm run gen`) with the runtime it brings, grpcio and protobuf, which run the example
# (examples/consent.py, e2e/grpc-clients.test.ts). Idempotent: nothing is installed when the venv
# already holds these versions. Needs Python >= 3.10 with venv (Debian: apt-get install -y
# python3-venv). Prints the venv's path.
#   usage: install-grpc-tools.sh [TOOLS_DIR]   (default: $ACCORD_TOOLS_DIR or <repo>/.accord/tools)
set -euo pipefail
pins=(grpcio-tools==1.85.1 grpcio==1.85.3 protobuf==7.36.2 typing_extensions==4.16.0 setuptools==84.2.1)
root="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="${1:-${ACCORD_TOOLS_DIR:-$root/.accord/tools}}/venv-python-grpc"
stamp="$venv/.accord-pins"
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "${pins[*]}" ]; then
  echo "$venv"
  exit 0
fi
command -v python3 >/dev/null || { echo "install-grpc-tools: python3 not found: apt-get install -y python3 python3-venv" >&2; exit 1; }
python3 -m venv --clear "$venv" >&2
"$venv/bin/pip" install -q --disable-pip-version-check "${pins[@]}" >&2
echo "${pins[*]}" >"$stamp"
echo "${pins[*]} installed into $venv" >&2
echo "$venv"
