#!/usr/bin/env bash
# Builds the local MongoDB-wire server (mongo-java-server behind deploy/local/mongo-java-server's
# main class) into a project-local tools folder, from Maven Central. Idempotent: nothing is built
# or downloaded when the build there matches the sources. Needs a JDK >= 17 and Maven
# (Debian: apt-get install -y openjdk-17-jdk-headless maven).
#   usage: install-mongo-java-server.sh [TOOLS_DIR]   (default: <repo>/.accord/tools)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
src="$root/deploy/local/mongo-java-server"
dest="${1:-${ACCORD_TOOLS_DIR:-$root/.accord/tools}}/mongo-java-server"
for tool in java mvn; do
  command -v "$tool" >/dev/null || { echo "install-mongo-java-server: $tool not found: apt-get install -y openjdk-17-jdk-headless maven" >&2; exit 1; }
done
stamp=$(cat "$src/pom.xml" "$src"/src/main/java/accord/local/*.java | sha256sum | cut -c1-16)
if [ -f "$dest/accord-local-mongo-1.jar" ] && [ "$(cat "$dest/.stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
rm -rf "$dest"
mvn -q -B -Dstyle.color=never --no-transfer-progress -f "$src/pom.xml" -Daccord.build.dir="$dest" package
echo "$stamp" > "$dest/.stamp"
echo "mongo-java-server built into $dest"
