#!/usr/bin/env bash
# Builds the Go tools the tests use into the project-local tools folder's bin/
# ($ACCORD_TOOLS_DIR, default .accord/tools, git-ignored), from the Go module proxy, pinned:
#   grpcurl   e2e check of gRPC server reflection (e2e/operability.test.ts)
#   promtool  offline check of the chart's PrometheusRule alerts (charts/accord/test)
#   protoc-gen-go, protoc-gen-go-grpc   the Go gRPC client's generators (clients/go, `npm run gen`)
# Idempotent: a tool already built at its pinned version is not built again (nothing downloaded).
# Usage: install-go-tools.sh [tool...]   (no argument: all of them)
#
# promtool is Prometheus 2.54.1: its module has replace directives, so `go install pkg@version`
# refuses it; it is built from a throwaway module that requires it. (Prometheus 3.x modules
# need a nomad/api version the module proxy no longer serves.)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
bin="${ACCORD_TOOLS_DIR:-$root/.accord/tools}/bin"
declare -A module=(
  [grpcurl]="github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3"
  [promtool]="github.com/prometheus/prometheus/cmd/promtool@v0.54.1"
  [protoc-gen-go]="google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12"
  [protoc-gen-go-grpc]="google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2"
)
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(grpcurl promtool protoc-gen-go protoc-gen-go-grpc)
for tool in "${tools[@]}"; do
  mod="${module[$tool]:-}"
  [ -n "$mod" ] || { echo "unknown tool '$tool' (${!module[*]})" >&2; exit 2; }
  stamp="$bin/.$tool.version"
  if [ -x "$bin/$tool" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$mod" ]; then
    echo "$tool: present ($bin/$tool)"; continue
  fi
  command -v go >/dev/null || { echo "$tool: Go is needed to build it; install Go (apt-get install golang-go) and run: $0 $tool" >&2; exit 1; }
  echo "$tool: building $mod into $bin"
  mkdir -p "$bin"
  if [ "$tool" = promtool ]; then
    work=$(mktemp -d)
    (
      cd "$work"
      go mod init accord-tools-build >/dev/null 2>&1
      go get "$mod" >/dev/null 2>&1 || go get "$mod"
      GOFLAGS=-buildvcs=false go build -o "$bin/$tool" "${mod%@*}"
    )
    rm -rf "$work"
  else
    GOBIN="$bin" GOFLAGS=-buildvcs=false go install "$mod"
  fi
  echo "$mod" > "$stamp"
done
