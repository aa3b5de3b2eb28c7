#!/usr/bin/env bash
# Every test, from a fresh clone: install, lint, typecheck, build, Node tests, browser tests in Chromium, Firefox and
# WebKit (with the end-to-end tests through a real pi into the single-file bundle in each), and the Chromium e2e tests. The same command CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_chromium
ensure_firefox_webkit
install_workspace
node scripts/run-steps.mjs
