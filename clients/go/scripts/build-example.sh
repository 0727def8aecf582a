#!/usr/bin/env bash
# Builds the Go gRPC example (clients/go/examples/consent) into the tools folder, a static binary
# (CGO_ENABLED=0: it runs as it is in a minimal image, deploy/images/go-example.sh), with its
# modules from the Go module proxy (pinned by clients/go/go.mod and go.sum). Rebuilt only when
# the module's sources change (a stamp of go.mod, go.sum and every .go file); nothing is
# downloaded or compiled otherwise. Prints the binary's path. Runs niced.
#   usage: build-example.sh [TOOLS_DIR]   (default: $ACCORD_TOOLS_DIR or <repo>/.accord/tools)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${1:-${ACCORD_TOOLS_DIR:-$root/.accord/tools}}/bin"
out="$bin/accord-go-example"
stamp="$bin/.accord-go-example.sources"
key=$(cd "$here" && { echo "$(go env GOVERSION 2>/dev/null || true)"; find . -name '*.go' -o -name go.mod -o -name go.sum | LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -c1-16)
if [ -x "$out" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$key" ]; then
  echo "$out"
  exit 0
fi
command -v go >/dev/null || { echo "go example: Go is needed to build it: run \`sudo apt-get install -y golang-go\` (Go >= 1.26), then again" >&2; exit 1; }
mkdir -p "$bin"
started=$(date +%s)
(cd "$here" && CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -buildvcs=false -mod=readonly" nice -n 10 go build -trimpath -ldflags '-s -w' -o "$out.tmp" ./examples/consent)
mv "$out.tmp" "$out"
echo "$key" >"$stamp"
echo "go example: built $out in $(($(date +%s) - started)) s" >&2
echo "$out"
