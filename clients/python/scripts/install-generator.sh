#!/usr/bin/env bash
# Installs the Python client's tools into a project-local virtual environment, from PyPI, at
# pinned versions: openapi-python-client (generates accord_client/api from the OpenAPI document,
# `npm run gen`) and pytest (its tests against the live stack, e2e/python-client.test.ts). The
# generated client's own dependencies (httpx, attrs, python-dateutil) come with the generator.
# Idempotent: nothing is installed when the venv already holds these versions. Needs Python >= 3.9
# with venv (Debian: apt-get install -y python3-venv). Prints the venv's path.
#   usage: install-generator.sh [TOOLS_DIR]   (default: $ACCORD_TOOLS_DIR or <repo>/.accord/tools)
set -euo pipefail
generator=0.29.1
pytest=8.4.2
root="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="${1:-${ACCORD_TOOLS_DIR:-$root/.accord/tools}}/venv-python-client"
have() { "$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$1'))" 2>/dev/null || true; }
if [ -x "$venv/bin/openapi-python-client" ] && [ "$(have openapi-python-client)" = "$generator" ] && [ "$(have pytest)" = "$pytest" ]; then
  echo "$venv"
  exit 0
fi
command -v python3 >/dev/null || { echo "install-generator: python3 not found: apt-get install -y python3 python3-venv" >&2; exit 1; }
python3 -m venv "$venv" >&2
"$venv/bin/pip" install -q --disable-pip-version-check "openapi-python-client==$generator" "pytest==$pytest" >&2
echo "openapi-python-client $generator and pytest $pytest installed into $venv" >&2
echo "$venv"
