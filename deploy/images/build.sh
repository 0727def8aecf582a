#!/usr/bin/env bash
# `npm run images`: the five service images, built with podman (no daemon, no registry) from
# deploy/Dockerfile on the base images of deploy/images/base.sh:
#
#   localhost/accord/{gateway,oauth,consent,dataprocessing,webhook}:$TAG
#
# TAG defaults to the chart's appVersion, the tag charts/accord uses. The base images are built
# only when their recipe changed; the install and build stages of the Dockerfile run once for
# the five (podman's layer cache), and again only when their inputs change. Ends with each
# image's size, the layers they share and the time taken.
#
# Usage: deploy/images/build.sh [service...]   (no argument: all five)
# Needs root for podman's storage. Runs niced: the machine keeps serving tests meanwhile.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/deploy/images"
export CONTAINERS_CONF="$here/containers.conf"

[ "$(nice)" -ge 10 ] || exec nice -n 10 "$0" "$@"
started=$(date +%s)

# Debian's podman and mmdebstrap (apt-get as root, else the command to run).
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
command -v slirp4netns >/dev/null || missing+=(slirp4netns)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "images: ${missing[*]} missing: run \`sudo apt-get install -y ${missing[*]}\`, then npm run images again" >&2
    exit 1
  fi
  echo "images: installing ${missing[*]} with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

tag=${TAG:-$(sed -nE "s/^appVersion: *'?([^' ]+)'?.*/\1/p" "$root/charts/accord/Chart.yaml")}
services=("$@")
[ ${#services[@]} -gt 0 ] || services=(gateway oauth consent dataprocessing webhook)

base_tag="$(sha256sum "$here/base.sh" | cut -c1-12)"
need=()
podman image exists "localhost/accord/node:$base_tag" || need+=(runtime)
podman image exists "localhost/accord/node-build:$base_tag" || need+=(build)
if [ ${#need[@]} -gt 0 ]; then
  echo "images: base images (${need[*]}) :$base_tag from Debian $(sed -nE 's/^SUITE=//p' "$here/base.sh") and node $(sed -nE 's/^NODE_VERSION=//p' "$here/base.sh")"
  "$here/base.sh" "$base_tag" "${need[@]}"
fi
base_done=$(date +%s)

# The CA of a TLS-intercepting proxy on the way to the npm registry, as a build secret (in no
# layer). An empty file when there is none: the Dockerfile always mounts the secret.
ca=$(mktemp)
trap 'rm -f "$ca"' EXIT
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then cp "$NODE_EXTRA_CA_CERTS" "$ca"; fi

for s in "${services[@]}"; do
  t0=$(date +%s)
  podman build --quiet --layers --network host -f "$root/deploy/Dockerfile" \
    --build-arg "SERVICE=$s" \
    --build-arg "BUILD_IMAGE=localhost/accord/node-build:$base_tag" \
    --build-arg "RUNTIME_IMAGE=localhost/accord/node:$base_tag" \
    --secret "id=build-ca,src=$ca" \
    -t "localhost/accord/$s:$tag" "$root" >/dev/null
  echo "images: localhost/accord/$s:$tag built in $(($(date +%s) - t0)) s"
done

# Sizes: each image, the base they start from, the layers all of them share, and their own.
node - "$tag" "localhost/accord/node:$base_tag" "${services[@]}" <<'EOF'
const { execFileSync } = require('node:child_process');
const [tag, base, ...services] = process.argv.slice(2);
const podman = (...args) => execFileSync('podman', args, { encoding: 'utf8' });
const size = (ref) => Number(podman('image', 'inspect', '--format', '{{.Size}}', ref).trim());
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
const images = services.map((s) => `localhost/accord/${s}:${tag}`);
// The newest build step every image has in its history is the last layer they share.
const histories = images.map((ref) => JSON.parse(podman('history', '--format', 'json', ref)).map((h) => h.id).filter((id) => id !== '<missing>'));
const shared = histories[0].find((id) => histories.every((h) => h.includes(id)));
const sharedSize = shared ? size(shared) : 0;
console.log(`images: base ${base} ${mb(size(base))}; shared by the ${images.length}: ${mb(sharedSize)} (base included)`);
for (const ref of images) console.log(`images: ${ref.padEnd(40)} ${mb(size(ref)).padStart(9)}, its own layers ${mb(size(ref) - sharedSize)}`);
EOF
echo "images: base $((base_done - started)) s, services $(($(date +%s) - base_done)) s, total $(($(date +%s) - started)) s"
