#!/usr/bin/env bash
# Everything `npm run test:cluster` needs, built or installed once per machine and kept in the
# caches (nothing is rebuilt when nothing changed):
#   debs       Debian packages of the node and of the image builds (apt-get, as root)
#   stand-ins  the MongoDB and NATS stand-in images (deploy/images/stand-ins.sh)
#   binaries   Kubernetes, etcd, CoreDNS and pause (deploy/cluster/build.sh), kube-router
#              (deploy/cluster/build-kube-router.sh)
#   images     the five service images (npm run images)
# Usage: prepare.sh [step...]   (no argument: all, in that order). .ci/run runs `debs` first,
# then the rest in the background while lint and the other tests run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(debs stand-ins binaries images)
for step in "${steps[@]}"; do
  started=$(date +%s)
  case $step in
    debs)
      packages=(podman runc containerd containernetworking-plugins iptables ipset conntrack mmdebstrap slirp4netns)
      missing=()
      for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
      if [ ${#missing[@]} -gt 0 ]; then
        [ "$(id -u)" = 0 ] || { echo "[cluster] ${missing[*]} missing: run \`sudo apt-get install -y ${missing[*]}\`" >&2; exit 1; }
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
      fi
      ;;
    stand-ins) "$root/deploy/images/stand-ins.sh" >/dev/null ;;
    binaries)
      "$root/deploy/cluster/build.sh" >/dev/null
      "$root/deploy/cluster/build-kube-router.sh" >/dev/null
      ;;
    images) "$root/deploy/images/build.sh" ;;
    *) echo "prepare.sh: unknown step '$step' (debs, stand-ins, binaries, images)" >&2; exit 2 ;;
  esac
  echo "[cluster] prepare $step: $(($(date +%s) - started)) s"
done
