#!/usr/bin/env bash
# The browser of the console's browser tests (e2e/console-browser.test.ts): Debian's Chromium,
# driven by playwright-core (never `npx playwright install`). Idempotent: nothing happens when
# ACCORD_CHROMIUM or /usr/bin/chromium is already there.
set -euo pipefail
if [ -x "${ACCORD_CHROMIUM:-/usr/bin/chromium}" ]; then exit 0; fi
apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
