#!/usr/bin/env bash
# `npm run cluster:up`: a one-node Kubernetes on this machine for the chart's tests — etcd,
# kube-apiserver, kube-controller-manager, kube-scheduler, kubelet with containerd and runc,
# kube-proxy (iptables), CoreDNS and kube-router's network-policy controller (the NetworkPolicies
# enforced) — in network, mount and PID namespaces of its own.
#
#   - Everything listens on loopback or on the namespace's bridge (node 10.244.0.1, pods
#     10.244.0.0/24, Services 10.96.0.0/16). The namespace has no link to any other network:
#     nothing it runs can reach another address. The API server reaches the host's loopback
#     through a Unix socket (deploy/cluster/bridge.js); `source <state>/env` sets KUBECONFIG.
#   - The host's network settings are left as they are: ip_forward and the iptables rules
#     kube-proxy and the CNI plugins write belong to the namespace. The kubelet would set
#     vm.overcommit_memory, kernel.panic and kernel.panic_on_oops host-wide: in the cluster's
#     mount namespace it reads them at the values it wants, and /proc/sys/kernel and vm are
#     read-only there.
#   - Mounts (pod volumes, overlay snapshots, network namespaces of pods) are made in the
#     private mount namespace, /run, /var/log and /var/lib are private tmpfs there, and pod cgroups live
#     under /accord-cluster. `npm run cluster:down` ends the namespaces (every process and mount
#     with them), removes those cgroups, the host bridge and the state folder.
#
# Programs: Kubernetes, etcd, CoreDNS and pause built once into the cache by deploy/cluster/build.sh
# (~/.cache/accord/cluster, ACCORD_CLUSTER_CACHE), kube-router by deploy/cluster/build-kube-router.sh;
# containerd, runc, the CNI plugins, iptables, ipset and conntrack from Debian (installed here when missing, as root). No image comes from a
# registry: images are loaded from podman's storage (deploy/cluster/load-images.sh).
# Idempotent: when the cluster is already up it only prints how to use it.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/deploy/cluster"
cache="${ACCORD_CLUSTER_CACHE:-$HOME/.cache/accord/cluster}"
state="$cache/state"
export CONTAINERS_CONF="$root/deploy/images/containers.conf"

NODE_IP=10.244.0.1
POD_CIDR=10.244.0.0/24
SERVICE_CIDR=10.96.0.0/16
NODE_NAME=accord

log() { printf '[cluster] %s\n' "$*" >&2; }

if [ "$(id -u)" != 0 ]; then
  log "needs root (namespaces, mounts, cgroups): run it as root"
  exit 1
fi
if [ -f "$state/env" ] && kill -0 "$(cat "$state/supervisor.pid" 2>/dev/null)" 2>/dev/null; then
  log "already up: source $state/env"
  cat "$state/env"
  exit 0
fi
if [ -e "$state" ]; then
  log "a previous cluster did not end cleanly: cleaning up first"
  "$here/down.sh"
fi

# Debian packages of the node.
declare -A provides=([containerd]=containerd [ctr]=containerd [runc]=runc [iptables]=iptables [conntrack]=conntrack [podman]=podman [slirp4netns]=slirp4netns [nsenter]=util-linux [openssl]=openssl [ipset]=ipset)
missing=()
for cmd in "${!provides[@]}"; do command -v "$cmd" >/dev/null || missing+=("${provides[$cmd]}"); done
[ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  log "installing ${missing[*]} with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# helm for what comes next (`source <state>/env`, then kubectl and helm): built into the tools
# folder when missing, as npm test does.
node "$root/deploy/local/scripts/provision.js" cluster-up >&2
tools="$(cd "$root" && node -p 'require("./deploy/local/scripts/provision.js").toolsDir(process.env)')"
bin=$("$here/build.sh")
kube_router=$("$here/build-kube-router.sh")
started=$(date +%s)
mkdir -p "$state"/{pki,config,logs,run,etcd,containerd,kubelet,cni/net.d,cni/ipam,sysctl}
echo "$bin" >"$state/bin"

# --- Certificates: one CA; the API server's serving certificate; one admin identity
# (system:masters) for kubectl, helm and the cluster's own components; the service account key.
pki="$state/pki"
openssl_quiet() { openssl "$@" 2>/dev/null; }
openssl_quiet req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
  -subj "/CN=accord-cluster-ca" -keyout "$pki/ca.key" -out "$pki/ca.crt"
issue() { # name subject extensions
  openssl_quiet req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "$2" \
    -keyout "$pki/$1.key" -out "$pki/$1.csr"
  printf '%s\n' "$3" >"$pki/$1.ext"
  openssl_quiet x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial \
    -days 30 -extfile "$pki/$1.ext" -out "$pki/$1.crt"
}
issue apiserver "/CN=kube-apiserver" "keyUsage=digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost,IP:127.0.0.1,IP:$NODE_IP,IP:10.96.0.1"
issue admin "/O=system:masters/CN=accord-admin" "keyUsage=digitalSignature
extendedKeyUsage=clientAuth"
openssl_quiet genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$pki/sa.key"
openssl_quiet pkey -in "$pki/sa.key" -pubout -out "$pki/sa.pub"

kubeconfig() { # file server
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: accord
    cluster:
      server: $2
      certificate-authority: $pki/ca.crt
users:
  - name: accord-admin
    user:
      client-certificate: $pki/admin.crt
      client-key: $pki/admin.key
contexts:
  - name: accord
    context: {cluster: accord, user: accord-admin}
current-context: accord
EOF
  chmod 600 "$1"
}
kubeconfig "$state/config/admin.kubeconfig" https://127.0.0.1:6443

# --- containerd (CRI), the CNI network, the kubelet, kube-proxy and CoreDNS.
cat >"$state/config/containerd.toml" <<EOF
version = 2
root = "$state/containerd"
state = "/run/containerd"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "$state/run/containerd.sock"
[plugins."io.containerd.internal.v1.opt"]
  path = "$state/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "localhost/accord/pause:$(basename "$bin")"
  # The kubelet and the containers may not lower oom_score_adj here (no CAP_SYS_RESOURCE):
  # without this every sandbox fails with "can't get final child's PID from pipe: EOF".
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$(command -v runc)"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$state/cni/net.d"
EOF

cat >"$state/cni/net.d/10-accord.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "accord",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "accord0",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{ "subnet": "$POD_CIDR", "gateway": "$NODE_IP" }]],
        "routes": [{ "dst": "0.0.0.0/0" }],
        "dataDir": "$state/cni/ipam"
      }
    }
  ]
}
EOF

: >"$state/config/resolv.conf" # pods see the cluster's DNS only, none of the host's
cat >"$state/config/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
readOnlyPort: 0
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: $pki/ca.crt}
authorization: {mode: AlwaysAllow}
containerRuntimeEndpoint: unix://$state/run/containerd.sock
cgroupDriver: cgroupfs
cgroupRoot: /accord-cluster
# The machine's cgroups are v1 (hybrid): Kubernetes 1.35 needs this to start on them.
failCgroupV1: false
clusterDNS: [$NODE_IP]
clusterDomain: cluster.local
resolvConf: $state/config/resolv.conf
failSwapOn: false
serializeImagePulls: false
# Images come from podman's storage only: never collected.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 200Mi, nodefs.available: 2%, imagefs.available: 2%, nodefs.inodesFree: 2%}
maxPods: 60
EOF

cat >"$state/config/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $state/config/admin.kubeconfig}
mode: iptables
clusterCIDR: $POD_CIDR
hostnameOverride: $NODE_NAME
bindAddress: $NODE_IP
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
nodePortAddresses: [$NODE_IP/32]
# 0: leave the kernel's conntrack settings alone (some are host-wide).
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
iptables: {localhostNodePorts: false}
oomScoreAdj: 0
EOF

cat >"$state/config/Corefile" <<EOF
cluster.local:53 in-addr.arpa:53 ip6.arpa:53 {
  bind $NODE_IP
  errors
  ready 127.0.0.1:8181
  kubernetes cluster.local in-addr.arpa ip6.arpa {
    kubeconfig $state/config/admin.kubeconfig
    pods insecure
  }
  cache 30
}
# Any other name: answered at once (REFUSED), never forwarded.
.:53 {
  bind $NODE_IP
  errors
}
EOF

# --- The sandbox image, from the pause program built with the rest.
pause_image="localhost/accord/pause:$(basename "$bin")"
if ! podman image exists "$pause_image"; then
  tar -C "$bin" -c pause | podman import --quiet --change 'ENTRYPOINT ["/pause"]' --change 'USER 65535:65535' - "$pause_image" >/dev/null
fi

# --- Start: the supervisor (deploy/cluster/node.sh) is PID 1 of new PID, mount and network
# namespaces; when it ends, the kernel ends everything in them.
log "starting (logs in $state/logs)"
setsid unshare --pid --fork --mount-proc --mount --propagation private --net \
  "$here/node.sh" "$state" "$bin" "$NODE_NAME" "$NODE_IP" "$POD_CIDR" "$SERVICE_CIDR" "$kube_router" \
  >"$state/logs/supervisor.log" 2>&1 </dev/null &
echo $! >"$state/unshare.pid"
for _ in $(seq 50); do
  supervisor=$(cat "/proc/$(cat "$state/unshare.pid")/task/"*/children 2>/dev/null | awk '{print $1}')
  [ -n "$supervisor" ] && break
  sleep 0.1
done
echo "$supervisor" >"$state/supervisor.pid"

deadline=$(($(date +%s) + 300))
until [ -f "$state/ready" ]; do
  if ! kill -0 "$supervisor" 2>/dev/null || [ "$(date +%s)" -gt "$deadline" ]; then
    log "did not come up; the supervisor's log says:"
    tail -n 30 "$state/logs/supervisor.log" >&2
    "$here/down.sh" >&2 || true
    exit 1
  fi
  sleep 0.5
done

# --- The API server on the host's loopback.
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
setsid node "$here/bridge.js" "tcp:127.0.0.1:$port" "unix:$state/run/apiserver.sock" >"$state/logs/host-bridge.log" 2>&1 </dev/null &
echo $! >"$state/host-bridge.pid"
kubeconfig "$state/kubeconfig" "https://127.0.0.1:$port"
for _ in $(seq 50); do grep -q listening "$state/logs/host-bridge.log" 2>/dev/null && break; sleep 0.1; done

cat >"$state/env" <<EOF
export KUBECONFIG=$state/kubeconfig
export KUBECACHEDIR=$state/kube-cache
export ACCORD_CLUSTER_STATE=$state
export PATH=$bin:$tools/bin:\$PATH
EOF
"$here/load-images.sh" "$pause_image" >/dev/null
log "up in $(($(date +%s) - started)) s: Kubernetes $(KUBECACHEDIR="$state/kube-cache" "$bin/kubectl" --kubeconfig "$state/kubeconfig" version -o json | node -pe 'JSON.parse(require("fs").readFileSync(0,"utf8")).serverVersion.gitVersion'), node $NODE_NAME ($NODE_IP)"
log "use it: source $state/env   (then kubectl, helm; npm run cluster:down ends it)"
cat "$state/env"
