#!/usr/bin/env bash
# Runs a command beside podman's Docker-compatible socket (`podman system service`), with
# DOCKER_HOST pointing at it, in network and mount namespaces of their own. Docker clients in the
# command — testcontainers in deploy/local's infra.ts, the docker CLI — start containers through it
# and reach their published ports on loopback, as with Docker.
#
# Why namespaces: podman 4.3's Docker API puts every container on podman's bridge network,
# whatever containers.conf says (podman 4.4 honours its netns setting there) — a bridge, iptables
# rules and ip_forward=1 in the network namespace it runs in. Here that namespace is a new one, so
# the host's network settings stay as they are, and all of it ends with the command. CNI's state
# (/var/lib/cni) and the containers' network namespaces (/run/netns) are private too.
#
# TESTCONTAINERS_RYUK_DISABLED=true: testcontainers' reaper image would come from Docker Hub;
# infra.ts stops what it starts, and containers the command leaves behind are removed at the end.
#
# Usage: deploy/images/podman-docker.sh <command> [args...]   (as root)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export CONTAINERS_CONF="$here/containers.conf"

if [ "${ACCORD_PODMAN_DOCKER_INSIDE:-}" != 1 ]; then
  [ $# -gt 0 ] || { echo "usage: $0 <command> [args...]" >&2; exit 2; }
  [ "$(id -u)" = 0 ] || { echo "podman-docker.sh: needs root (namespaces)" >&2; exit 1; }
  # Mount points for the private copies, made (and removed after) only when missing.
  made=()
  for d in /var/lib/cni /run/netns; do [ -d "$d" ] || { mkdir -p "$d" && made+=("$d"); }; done
  # Signals reach the command (unshare passes them on and ends it with itself); the mount points
  # go whatever happens.
  ACCORD_PODMAN_DOCKER_INSIDE=1 unshare --net --mount --propagation private --fork --kill-child=TERM -- "$0" "$@" &
  child=$!
  trap 'kill -TERM "$child" 2>/dev/null' TERM INT
  status=0
  wait "$child" || status=$?
  # a trapped signal interrupts the first wait; the second waits for the end of the command
  wait "$child" 2>/dev/null || true
  for d in "${made[@]}"; do rmdir "$d" 2>/dev/null || true; done
  exit "$status"
fi

ip link set lo up
mount -t tmpfs -o mode=0700 tmpfs /var/lib/cni
mount -t tmpfs -o mode=0755 tmpfs /run/netns
sock_dir=$(mktemp -d)
before=$(podman ps -aq | sort)
podman system service --time=0 "unix://$sock_dir/docker.sock" &
service=$!
end() {
  # Containers the command left behind, removed here, where their network is.
  left=$(comm -13 <(echo "$before") <(podman ps -aq | sort))
  [ -z "$left" ] || podman rm -f $left >/dev/null
  kill "$service" 2>/dev/null
  wait "$service" 2>/dev/null
  rm -rf "$sock_dir"
}
trap end EXIT
trap 'exit 143' TERM INT
for _ in $(seq 100); do [ -S "$sock_dir/docker.sock" ] && break; sleep 0.1; done
export DOCKER_HOST="unix://$sock_dir/docker.sock" TESTCONTAINERS_RYUK_DISABLED=true
"$@"
