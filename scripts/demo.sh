#!/usr/bin/env bash
# Starts the demo from a fresh clone: installs, builds, and serves it. `--help` lists the options (--real, --gallery…).
set -euo pipefail
# A relative --cwd means the folder the command was run from, not the clone's root this script moves to.
export PI_DEMO_INVOKED_FROM="$PWD"
cd "$(dirname "$0")/.."
source scripts/setup.sh
install_workspace
$PNPM run build
# Node directly (not `pnpm run`), so Ctrl+C ends the demo quietly with its own exit code.
exec node --import tsx scripts/demo.ts "$@"
