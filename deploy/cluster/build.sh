#!/usr/bin/env bash
# Builds the test cluster's programs from the Go module proxy, pinned by deploy/cluster/kube/go.mod
# and go.sum, into the cache outside the clone:
#
#   $ACCORD_CLUSTER_CACHE/bin/<key>/   (default ~/.cache/accord/cluster)
#     etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl
#     coredns pause
#
# <key> is a hash of the module and this script, so the same sources are built once per machine
# and a change builds a new folder. One `go build` builds all nine (their shared packages are
# compiled once). Prints the folder. Runs niced.
#
# Debian provides the rest of the node (containerd, runc, the CNI plugins, iptables);
# deploy/cluster/up.sh installs those.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mod="$root/deploy/cluster/kube"
cache="${ACCORD_CLUSTER_CACHE:-$HOME/.cache/accord/cluster}"

key=$(cd "$mod" && cat go.mod go.sum cmd/*/*.go "$root/deploy/cluster/build.sh" | sha256sum | cut -c1-16)
out="$cache/bin/$key"
if [ -f "$out/.complete" ]; then
  echo "$out"
  exit 0
fi
command -v go >/dev/null || {
  echo "cluster: Go is needed to build Kubernetes: run \`sudo apt-get install -y golang-go\` (Go >= 1.25), then again" >&2
  exit 1
}

version=$(sed -nE 's/^\s*k8s.io\/kubernetes (v[0-9.]+)( .*)?$/\1/p' "$mod/go.mod")
minor=$(echo "$version" | cut -d. -f2)
v=k8s.io/component-base/version
echo "cluster: building Kubernetes $version, etcd, CoreDNS and pause into $out (first time only)" >&2
started=$(date +%s)
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
(
  cd "$mod"
  # Static binaries, as Kubernetes releases them; the version is stamped as its release build does
  # (without it the API server says v0.0.0-master, which helm takes for the cluster's version).
  status=0
  CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -buildvcs=false -mod=readonly" nice -n 10 go build -trimpath \
    -ldflags "-s -w -X $v.gitVersion=$version -X $v.gitMajor=1 -X $v.gitMinor=$minor -X $v.gitTreeState=clean" \
    -o "$out.tmp/" tool ./cmd/... >"$out.tmp/.log" 2>&1 || status=$?
  # what go says but its list of modules downloaded
  grep -v '^go: downloading' "$out.tmp/.log" >&2 || true
  exit "$status"
)
touch "$out.tmp/.complete"
rm -rf "$out"
mv "$out.tmp" "$out"
# Older builds of other sources are not used any more.
find "$cache/bin" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} +
echo "cluster: built in $(($(date +%s) - started)) s" >&2
echo "$out"
