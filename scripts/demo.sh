#!/usr/bin/env bash
# Starts the demo from a fresh clone: installs, builds, and serves it. Pass --gallery for the gallery alone.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
install_workspace
$PNPM run build
exec $PNPM run demo "$@"
