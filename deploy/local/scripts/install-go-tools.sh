#!/usr/bin/env bash
# Builds the Go tools the tests use into the project-local tools folder .accord/tools/bin
# (git-ignored), from the Go module proxy, pinned:
#   grpcurl   e2e check of gRPC server reflection (e2e/reflection.test.ts)
#   promtool  offline check of the chart's PrometheusRule alerts (charts/accord/test)
# Idempotent: a tool already built at its pinned version is not built again (nothing downloaded).
# Usage: install-go-tools.sh [grpcurl] [promtool]   (no argument: both)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
bin="$root/.accord/tools/bin"
declare -A module=(
  [grpcurl]="github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3"
  [promtool]="github.com/prometheus/prometheus/cmd/promtool@v0.316.0"
)
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(grpcurl promtool)
for tool in "${tools[@]}"; do
  mod="${module[$tool]:-}"
  [ -n "$mod" ] || { echo "unknown tool '$tool' (grpcurl, promtool)" >&2; exit 2; }
  stamp="$bin/.$tool.version"
  if [ -x "$bin/$tool" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$mod" ]; then
    echo "$tool: present ($bin/$tool)"; continue
  fi
  command -v go >/dev/null || { echo "$tool: Go is needed to build it; install Go (apt-get install golang-go) and run: $0 $tool" >&2; exit 1; }
  echo "$tool: building $mod into $bin"
  mkdir -p "$bin"
  GOBIN="$bin" GOFLAGS=-buildvcs=false go install "$mod"
  echo "$mod" > "$stamp"
done
