#!/usr/bin/env bash
# `npm run cluster:down`: ends the test cluster of deploy/cluster/up.sh and leaves the machine as
# it was. Ending the supervisor (PID 1 of the cluster's PID namespace) ends every process in the
# namespace, pods included; the network namespace (its bridge, routes and iptables chains) and
# the mount namespace (pod volumes, overlay snapshots, /run, /var/log) go with their last
# process. Then the host side of the API server's bridge stops, the cgroups under
# /accord-cluster are removed and the state folder is deleted. The built programs stay in the
# cache. Checks what it promises and says so; a no-op when no cluster is up.
set -euo pipefail
cache="${ACCORD_CLUSTER_CACHE:-$HOME/.cache/accord/cluster}"
state="$cache/state"
log() { printf '[cluster] %s\n' "$*" >&2; }

if [ ! -e "$state" ]; then
  log "no cluster is up"
  exit 0
fi

alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }
supervisor=$(cat "$state/supervisor.pid" 2>/dev/null || true)
unshare_pid=$(cat "$state/unshare.pid" 2>/dev/null || true)
if alive "$supervisor"; then
  # Processes that entered the network namespace from outside (nsenter: the tests' bridges into
  # the cluster) would keep it alive after the supervisor.
  netns=$(readlink "/proc/$supervisor/ns/net")
  pidns=$(readlink "/proc/$supervisor/ns/pid")
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$netns" ] && [ "$(readlink "$p/ns/pid" 2>/dev/null)" != "$pidns" ] &&
      [ "${p#/proc/}" != "$supervisor" ] && kill -TERM "${p#/proc/}" 2>/dev/null || true
  done
  kill -TERM "$supervisor"
  for _ in $(seq 100); do alive "$supervisor" || break; sleep 0.1; done
  alive "$supervisor" && kill -KILL "$supervisor"
fi
for pid in "$unshare_pid" "$(cat "$state/host-bridge.pid" 2>/dev/null || true)"; do
  alive "$pid" && kill -TERM "$pid"
  for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
  alive "$pid" && kill -KILL "$pid"
done

# The cgroups, deepest first, once their last process is gone.
for _ in $(seq 100); do
  left=0
  for top in /sys/fs/cgroup/*/accord-cluster; do
    [ -d "$top" ] || continue
    find "$top" -depth -type d -exec rmdir {} + 2>/dev/null || true
    [ -d "$top" ] && left=1
  done
  [ "$left" = 0 ] && break
  sleep 0.1
done

problems=()
for top in /sys/fs/cgroup/*/accord-cluster; do [ -d "$top" ] && problems+=("cgroup $top still has processes: $(find "$top" -name cgroup.procs -exec cat {} + | tr '\n' ' ')"); done
grep -q " $state" /proc/self/mountinfo && problems+=("mounts under $state remain")
if [ ${#problems[@]} -gt 0 ]; then
  printf '[cluster] not clean: %s\n' "${problems[@]}" >&2
  exit 1
fi
rm -rf "$state"
log "down: no process, mount, namespace, chain or cgroup of the cluster is left"
