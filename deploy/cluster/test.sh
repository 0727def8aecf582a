#!/usr/bin/env bash
# `npm run test:cluster`: the chart's tests on a real Kubernetes (deploy/cluster/test), with
# nothing allowed to be missing: what a fresh clone lacks is provisioned first, as `npm start`
# does (deploy/local/scripts/provision.js cluster: npm packages, mongo-java-server for the
# stand-in database, helm), the cluster's programs are built when needed
# (deploy/cluster/build.sh), the stand-in images too; the service images must come from
# `npm run images`. A cluster this script starts is ended when it ends, whatever happened.
# Extra arguments go to jest.
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
deploy/cluster/build.sh >/dev/null
deploy/cluster/build-kube-router.sh >/dev/null
deploy/images/stand-ins.sh >/dev/null

[ -e "$state/env" ] || trap '"$root/deploy/cluster/down.sh"' EXIT
export ACCORD_CLUSTER_REQUIRED=1
npx jest --selectProjects cluster --runInBand "$@"
