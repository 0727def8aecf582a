#!/usr/bin/env bash
# The test stand-ins for MongoDB and NATS as images (deploy/images/base.sh test-mongo, test-nats),
# built when missing: the cluster test runs them in pods, the local stack's Docker path in
# containers. Prints two lines, ACCORD_MONGO_IMAGE=<image> and ACCORD_NATS_IMAGE=<image>.
# The database image carries the local mongo-java-server build (deploy/local), built first when
# needed into the tools folder (ACCORD_TOOLS_DIR, default .accord/tools).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/deploy/images"
export CONTAINERS_CONF="$here/containers.conf"
[ "$(nice)" -ge 10 ] || exec nice -n 10 "$0" "$@"

tools="${ACCORD_TOOLS_DIR:-$root/.accord/tools}"
"$root/deploy/local/scripts/install-mongo-java-server.sh" "$tools" >&2
export ACCORD_MONGO_JAVA_SERVER="$tools/mongo-java-server"
tag="$( (sha256sum "$here/base.sh" | cut -c1-12; cat "$ACCORD_MONGO_JAVA_SERVER/.stamp") | sha256sum | cut -c1-12)"
mongo="localhost/accord/test-mongo:$tag"
nats="localhost/accord/test-nats:$tag"
need=()
podman image exists "$mongo" || need+=(test-mongo)
podman image exists "$nats" || need+=(test-nats)
if [ ${#need[@]} -gt 0 ]; then
  echo "stand-ins: building ${need[*]} from Debian packages" >&2
  "$here/base.sh" "$tag" "${need[@]}" >&2
fi
echo "ACCORD_MONGO_IMAGE=$mongo"
echo "ACCORD_NATS_IMAGE=$nats"
