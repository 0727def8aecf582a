#!/usr/bin/env bash
# Builds Ory Hydra, the token-endpoint peer of `npm run bench`, into the project-local tools
# folder's bin/ ($ACCORD_TOOLS_DIR, default .accord/tools, git-ignored), from the Go module proxy,
# pinned, with the `sqlite` build tag (DSN=memory is an in-memory SQLite). Niced: it is a long build.
# Idempotent: a binary already built at the pinned version is not built again (nothing downloaded).
#
# Hydra's module has replace directives (github.com/gobuffalo/pop/v6 => github.com/ory/pop/v6), so
# `go install pkg@version` refuses it; it is built from a throwaway module that requires it and
# repeats that replace (the other replace, hydra-client-go => ./internal/httpclient, points into
# Hydra's own tree and resolves from the proxy at the version Hydra requires).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${ACCORD_TOOLS_DIR:-$root/.accord/tools}/bin"
mod="github.com/ory/hydra/v2@v2.3.0"
pop="github.com/ory/pop/v6 v6.2.1-0.20241121111754-e5dfc0f3344b" # Hydra v2.3.0's go.mod
stamp="$bin/.hydra.version"
if [ -x "$bin/hydra" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$mod" ]; then
  echo "hydra: present ($bin/hydra)"; exit 0
fi
command -v go >/dev/null || { echo "hydra: Go is needed to build it; install Go (apt-get install golang-go) and run: $0" >&2; exit 1; }
echo "hydra: building $mod into $bin"
mkdir -p "$bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  go mod init accord-bench-hydra >/dev/null 2>&1
  go mod edit -replace "github.com/gobuffalo/pop/v6=${pop/ /@}"
  nice -n 10 go get "$mod" >/dev/null 2>&1 || nice -n 10 go get "$mod"
  CGO_ENABLED=1 GOFLAGS=-buildvcs=false nice -n 10 go build -tags sqlite -o "$bin/hydra" "${mod%@*}"
)
echo "$mod" > "$stamp"
