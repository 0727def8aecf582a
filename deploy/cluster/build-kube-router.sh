#!/usr/bin/env bash
# Builds the test cluster's NetworkPolicy enforcer, kube-router (its network-policy controller is
# all the cluster runs of it: deploy/cluster/node.sh), from the Go module proxy, pinned by
# deploy/cluster/kube-router/go.mod and go.sum, into the cache outside the clone:
#
#   $ACCORD_CLUSTER_CACHE/kube-router/<key>/kube-router   (default ~/.cache/accord/cluster)
#
# A module of its own, apart from deploy/cluster/kube: kube-router v2.1.0 is built against
# client-go 0.29, Kubernetes 1.35 against 0.35, and one module has one version of each. v2.1.0 is
# the only version the proxy serves; its go.mod's golang.org/x, gRPC, protobuf and docker modules
# are raised in ours to releases with the reported security fixes (the same golang.org/x and
# gRPC releases as deploy/cluster/kube, whose builds the Go cache shares). <key> is a hash of the
# module and this script. Prints the binary's path. Runs niced.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mod="$root/deploy/cluster/kube-router"
cache="${ACCORD_CLUSTER_CACHE:-$HOME/.cache/accord/cluster}"

key=$(cd "$mod" && cat go.mod go.sum "$root/deploy/cluster/build-kube-router.sh" | sha256sum | cut -c1-16)
out="$cache/kube-router/$key"
if [ -f "$out/.complete" ]; then
  echo "$out/kube-router"
  exit 0
fi
command -v go >/dev/null || {
  echo "cluster: Go is needed to build kube-router: run \`sudo apt-get install -y golang-go\` (Go >= 1.25), then again" >&2
  exit 1
}
version=$(sed -nE 's/^\s*github.com\/cloudnativelabs\/kube-router\/v2 (v[0-9.]+)( .*)?$/\1/p' "$mod/go.mod")
echo "cluster: building kube-router $version into $out (first time only)" >&2
started=$(date +%s)
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
(
  cd "$mod"
  status=0
  CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -buildvcs=false -mod=readonly" nice -n 10 go build -trimpath \
    -ldflags "-s -w -X github.com/cloudnativelabs/kube-router/v2/pkg/version.Version=$version" \
    -o "$out.tmp/" tool >"$out.tmp/.log" 2>&1 || status=$?
  grep -v '^go: downloading' "$out.tmp/.log" >&2 || true
  exit "$status"
)
touch "$out.tmp/.complete"
rm -rf "$out"
mv "$out.tmp" "$out"
find "$cache/kube-router" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} +
echo "cluster: built kube-router in $(($(date +%s) - started)) s" >&2
echo "$out/kube-router"
