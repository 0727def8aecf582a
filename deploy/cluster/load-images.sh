#!/usr/bin/env bash
# Loads images from podman's storage into the test cluster's containerd (the kubelet's k8s.io
# namespace), so that pods start them with imagePullPolicy IfNotPresent and no registry.
# Usage: load-images.sh <image>...   e.g. localhost/accord/gateway:0.1.0
# Images already in the cluster with the same id are skipped.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
state="${ACCORD_CLUSTER_CACHE:-$HOME/.cache/accord/cluster}/state"
export CONTAINERS_CONF="$root/deploy/images/containers.conf"
sock="$state/run/containerd.sock"
[ -S "$sock" ] || { echo "[cluster] no cluster is up: npm run cluster:up" >&2; exit 1; }
ctr() { command ctr --address "$sock" --namespace k8s.io "$@"; }

have=$(ctr images list 2>/dev/null | awk 'NR > 1 {print $1 " " $3}')
todo=()
for image in "$@"; do
  id=$(podman image inspect --format '{{.Digest}}' "$image")
  # A loaded image keeps podman's manifest digest: the same digest means the same image.
  grep -qxF "$image $id" <<<"$have" || todo+=("$image")
done
[ ${#todo[@]} -gt 0 ] || exit 0
started=$(date +%s)
podman save --quiet --multi-image-archive --format docker-archive "${todo[@]}" | ctr images import --snapshotter overlayfs - >/dev/null
echo "[cluster] loaded ${todo[*]} in $(($(date +%s) - started)) s" >&2
