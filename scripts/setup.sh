#!/usr/bin/env bash
# Installs what the workspace needs on a fresh clone: the dependencies with the pinned pnpm, and a Chromium for the
# browser tests (Debian's package when running as root on Debian; otherwise it says how to point CHROME_PATH at one).
# Sourced by scripts/test.sh and scripts/demo.sh.
set -euo pipefail

PNPM="npx --yes pnpm@12.4.2"

ensure_chromium() {
  local path="${CHROME_PATH:-/usr/bin/chromium}"
  if [ -x "$path" ]; then return 0; fi
  if [ -n "${CHROME_PATH:-}" ]; then
    echo "CHROME_PATH is set to '$CHROME_PATH', but nothing executable is there." >&2
    exit 1
  fi
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "== Installing Debian's chromium (and CJK and emoji fonts for the screenshots)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk fonts-noto-color-emoji >/dev/null
    return 0
  fi
  echo "No Chromium found at /usr/bin/chromium. Install Chromium or Chrome and set CHROME_PATH to its binary," >&2
  echo "for example: CHROME_PATH=/usr/bin/google-chrome bash scripts/test.sh" >&2
  exit 1
}

install_workspace() {
  echo "== Installing the workspace (pnpm 12.4.2)"
  $PNPM install --frozen-lockfile --reporter=append-only </dev/null
}
