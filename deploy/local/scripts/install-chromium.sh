#!/usr/bin/env bash
# Debian's Chromium for the browser tests (e2e/elements.test.ts drives it through playwright-core;
# never `npx playwright install`). Idempotent: does nothing when /usr/bin/chromium is there.
set -euo pipefail
if [ -x "${ACCORD_CHROMIUM:-/usr/bin/chromium}" ]; then exit 0; fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
