#!/usr/bin/env bash
# PID 1 of the test cluster's namespaces (started by deploy/cluster/up.sh): prepares the
# namespace's mounts and network, starts the cluster's programs in order, writes <state>/ready,
# then waits. SIGTERM (deploy/cluster/down.sh) stops them; when this process ends, the kernel
# ends everything left in the PID namespace, and the mounts and network go with the namespaces.
set -euo pipefail
state=$1 bin=$2 node_name=$3 node_ip=$4 pod_cidr=$5 service_cidr=$6 kube_router=$7
logs="$state/logs"
cfg="$state/config"
admin="$cfg/admin.kubeconfig"
pids=()

log() { printf '%s [node] %s\n' "$(date +%T)" "$*"; }
stop() {
  log "stopping"
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null || true; done
  sleep 2
  exit 0
}
trap stop TERM INT

# --- Mounts, private to this namespace.
# /run, /var/log and /var/lib: containerd's and runc's state, pod network namespaces, iptables'
# lock, the kubelet's pod logs and the paths it uses whatever its root folder (device plugins,
# its serving certificate), CNI's cache. Nothing here needs the host's copies.
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t tmpfs -o mode=0755 tmpfs /var/log
mount -t tmpfs -o mode=0755 tmpfs /var/lib
# The kubelet sets these host-wide sysctls to its values unless it reads them there already; here
# it reads its values, and nothing in this namespace can write /proc/sys/kernel or /proc/sys/vm.
for dir in kernel vm; do
  mount --bind "/proc/sys/$dir" "/proc/sys/$dir"
  mount -o remount,bind,ro "/proc/sys/$dir"
done
for setting in vm/overcommit_memory=1 vm/panic_on_oom=0 kernel/panic=10 kernel/panic_on_oops=1 \
  kernel/keys/root_maxkeys=1000000 kernel/keys/root_maxbytes=25000000; do
  key=${setting%=*} value=${setting#*=}
  [ "$(cat "/proc/sys/$key")" = "$value" ] && continue
  echo "$value" >"$state/sysctl/${key//\//.}"
  mount --bind -o ro "$state/sysctl/${key//\//.}" "/proc/sys/$key"
done

# --- Cgroups: everything this namespace runs, pods included, under /accord-cluster.
for controller in /sys/fs/cgroup/*/; do
  [ -d "$controller" ] || continue
  mkdir -p "$controller/accord-cluster/system"
  if [ -f "$controller/cpuset.cpus" ]; then
    for d in accord-cluster accord-cluster/system; do
      cat "$controller/cpuset.cpus" >"$controller/$d/cpuset.cpus"
      cat "$controller/cpuset.mems" >"$controller/$d/cpuset.mems"
    done
  fi
  [ -f "$controller/accord-cluster/system/cgroup.procs" ] && echo $$ >"$controller/accord-cluster/system/cgroup.procs" || true
done

# --- Network: loopback, the pods' bridge with the node's address, the Service range routed to
# it (so that the namespace's own processes reach ClusterIPs), forwarding inside this namespace.
ip link set lo up
ip link add accord0 type bridge
ip addr add "$node_ip/${pod_cidr#*/}" dev accord0
ip link set accord0 up
ip route add "$service_cidr" dev accord0 src "$node_ip"
echo 1 >/proc/sys/net/ipv4/ip_forward
echo 1 >/proc/sys/net/bridge/bridge-nf-call-iptables

start() { # name program args...
  local name=$1
  shift
  "$@" >"$logs/$name.log" 2>&1 &
  pids+=($!)
  log "$name started (pid $!)"
}
wait_for() { # what seconds command...
  local what=$1 seconds=$2
  shift 2
  local deadline=$(($(date +%s) + seconds))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -gt "$deadline" ]; then
      log "$what not ready after ${seconds}s"
      [ -f "$logs/$what.log" ] && tail -n 20 "$logs/$what.log"
      exit 1
    fi
    sleep 0.5
  done
  log "$what ready"
}
kubectl() { "$bin/kubectl" --kubeconfig "$admin" --cache-dir "$state/kube-cache" "$@"; }

pki="$state/pki"
start etcd "$bin/etcd" --name "$node_name" --data-dir "$state/etcd" \
  --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
  --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
  --initial-cluster "$node_name=http://127.0.0.1:2380" --unsafe-no-fsync --log-level warn
wait_for etcd 60 curl -fsS http://127.0.0.1:2379/readyz

start kube-apiserver "$bin/kube-apiserver" --etcd-servers http://127.0.0.1:2379 \
  --bind-address 0.0.0.0 --secure-port 6443 --advertise-address "$node_ip" \
  --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --client-ca-file "$pki/ca.crt" --authorization-mode RBAC \
  --service-cluster-ip-range "$service_cidr" \
  --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
  --kubelet-client-certificate "$pki/admin.crt" --kubelet-client-key "$pki/admin.key" \
  --kubelet-preferred-address-types InternalIP \
  --profiling=false
wait_for kube-apiserver 120 kubectl get --raw /readyz
# The API server on a Unix socket that the host's side of the bridge connects to.
start apiserver-bridge node "$(dirname "$0")/bridge.js" "unix:$state/run/apiserver.sock" tcp:127.0.0.1:6443

start kube-controller-manager "$bin/kube-controller-manager" --kubeconfig "$admin" \
  --authentication-kubeconfig "$admin" --authorization-kubeconfig "$admin" \
  --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" \
  --leader-elect=false --bind-address 127.0.0.1 --profiling=false
start kube-scheduler "$bin/kube-scheduler" --kubeconfig "$admin" \
  --authentication-kubeconfig "$admin" --authorization-kubeconfig "$admin" \
  --leader-elect=false --bind-address 127.0.0.1 --profiling=false

start containerd containerd --config "$cfg/containerd.toml"
wait_for containerd 60 ctr --address "$state/run/containerd.sock" version

start kubelet "$bin/kubelet" --config "$cfg/kubelet.yaml" --kubeconfig "$admin" \
  --root-dir "$state/kubelet" --hostname-override "$node_name" --node-ip "$node_ip"
start kube-proxy "$bin/kube-proxy" --config "$cfg/kube-proxy.yaml"
start coredns "$bin/coredns" -conf "$cfg/Corefile"

wait_for "node $node_name" 120 kubectl wait --for=condition=Ready "node/$node_name" --timeout=1s
# NetworkPolicies enforced: kube-router's network-policy controller alone (no routing, no service
# proxy: kube-proxy and the bridge do those), as iptables rules and ipsets in this namespace. It
# admits what a pod's own node sends it (the kubelet's probes), as the usual enforcers do. Started
# once the node is registered: it looks its node up at start, and exits when it is not there yet.
start kube-router "$kube_router" --run-firewall=true --run-router=false --run-service-proxy=false \
  --kubeconfig "$admin" --hostname-override "$node_name" --service-cluster-ip-range "$service_cidr" \
  --enable-ipv6=false --health-port 20244 --metrics-port 0
wait_for "service account default" 60 kubectl -n default get serviceaccount default
wait_for coredns 60 curl -fsS http://127.0.0.1:8181/ready
wait_for kube-proxy 60 curl -fsS http://127.0.0.1:10256/healthz
wait_for kube-router 60 curl -fsS http://127.0.0.1:20244/healthz
touch "$state/ready"
log "ready"

# Wait for a stop; a program that exits on its own ends the cluster (down.sh cleans up).
while true; do
  for pid in "${pids[@]}"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "a program exited on its own (pid $pid): stopping"
      stop
    fi
  done
  sleep 2 &
  wait $! || true
done
