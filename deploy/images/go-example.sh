#!/usr/bin/env bash
# The Go gRPC example (clients/go/examples/consent) as an image, for the cluster test's Job:
# the static binary clients/go/scripts/build-example.sh builds into the tools folder, alone in
# an image (no shell, no libraries, no CA bundle: it talks plaintext or TLS with the CA file it
# is given), run as uid 65532. Built without a registry (podman import), tagged with the
# binary's hash, so an unchanged example is not imported again. Prints one line,
# ACCORD_GO_EXAMPLE_IMAGE=<image>.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
export CONTAINERS_CONF="$root/deploy/images/containers.conf"

binary=$("$root/clients/go/scripts/build-example.sh")
image="localhost/accord/go-example:$(sha256sum "$binary" | cut -c1-12)"
if ! podman image exists "$image"; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  install -m 0755 "$binary" "$work/accord-go-example"
  tar -C "$work" --owner=0 --group=0 --numeric-owner -c accord-go-example |
    podman import --quiet --change 'ENTRYPOINT ["/accord-go-example"]' --change 'USER 65532:65532' - "$image" >/dev/null
  echo "go example: $image imported" >&2
fi
echo "ACCORD_GO_EXAMPLE_IMAGE=$image"
