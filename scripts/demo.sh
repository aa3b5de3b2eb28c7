#!/usr/bin/env bash
# Starts the demo from a fresh clone: installs, builds, and serves it. Pass --gallery for the gallery alone.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
install_workspace
$PNPM run build
# Node directly (not `pnpm run`), so Ctrl+C ends the demo quietly with its own exit code.
exec node --import tsx scripts/demo.ts "$@"
