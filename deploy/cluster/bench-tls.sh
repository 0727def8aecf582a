#!/usr/bin/env bash
# `npm run bench:cluster-tls`: the cost of mutual TLS between the services in the test cluster
# (deploy/cluster/bench/tls-cost.ts says what it measures). Provisions and builds what is missing
# as `npm run test:cluster` does (the service images must come from `npm run images`), starts the
# cluster when it is not up and ends it afterwards. Figures in docs/benchmarks.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
state="${ACCORD_CLUSTER_CACHE:-$HOME/.cache/accord/cluster}/state"
export CONTAINERS_CONF="$root/deploy/images/containers.conf"

node deploy/local/scripts/provision.js cluster
tag=$(sed -nE "s/^appVersion: *'?([^' ]+)'?.*/\1/p" charts/accord/Chart.yaml)
for s in gateway oauth consent dataprocessing webhook; do
  podman image exists "localhost/accord/$s:$tag" 2>/dev/null || {
    echo "[cluster] localhost/accord/$s:$tag is not built: npm run images" >&2
    exit 1
  }
done
[ -e "$state/env" ] || trap '"$root/deploy/cluster/down.sh"' EXIT
deploy/cluster/up.sh >/dev/null
# The bench is TypeScript beside the cluster tests: bundled (esbuild) three folders deep under
# .accord, where the helpers' path to the repository still holds.
out="$root/.accord/bench/cluster/tls-cost.js"
npx esbuild deploy/cluster/bench/tls-cost.ts --bundle --platform=node --format=cjs --log-level=warning --outfile="$out"
node "$out"
