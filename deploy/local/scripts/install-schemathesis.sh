#!/usr/bin/env bash
# Installs schemathesis (the OpenAPI fuzzer of e2e/fuzz) into a project-local Python virtual
# environment, from PyPI, at a pinned version. Idempotent: nothing is installed when the venv
# already holds that version. Needs Python >= 3.9 with venv (Debian: apt-get install -y python3-venv).
#   usage: install-schemathesis.sh [TOOLS_DIR]   (default: <repo>/.accord/tools)
set -euo pipefail
version=4.32.5
root="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="${1:-${ACCORD_TOOLS_DIR:-$root/.accord/tools}}/venv"
if [ -x "$venv/bin/st" ] && [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null)" = "$version" ]; then
  exit 0
fi
command -v python3 >/dev/null || { echo "install-schemathesis: python3 not found: apt-get install -y python3 python3-venv" >&2; exit 1; }
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$version"
echo "schemathesis $version installed into $venv"
