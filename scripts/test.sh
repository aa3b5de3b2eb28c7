#!/usr/bin/env bash
# Every test, from a fresh clone: install, lint, typecheck, build, Node tests, browser tests (Chromium),
# end-to-end tests against a real pi. The same command CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_chromium
install_workspace
$PNPM run test
