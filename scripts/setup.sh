#!/usr/bin/env bash
# Installs what the workspace needs on a fresh clone: the dependencies with the pinned pnpm, and a Chromium for the
# browser tests, plus Firefox ESR, WebKitGTK and Xvfb for the other two engines (Debian's packages when running as root
# on Debian; otherwise it says which variables point at your own builds).
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

# Firefox ESR, WebKitGTK's MiniBrowser with WebKitWebDriver, and Xvfb (MiniBrowser has no headless mode) for the
# browser suite's other two engines. FIREFOX_PATH, WEBKIT_DRIVER_PATH and MINIBROWSER_PATH point at other builds.
ensure_firefox_webkit() {
  local firefox="${FIREFOX_PATH:-/usr/bin/firefox-esr}" driver="${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}"
  local minibrowser="${MINIBROWSER_PATH:-$(ls /usr/lib/*/webkit2gtk-4.1/MiniBrowser 2>/dev/null | head -n 1)}"
  if [ -x "$firefox" ] && [ -x "$driver" ] && [ -n "$minibrowser" ] && [ -x "$minibrowser" ] && command -v Xvfb >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "== Installing Debian's firefox-esr, webkit2gtk-driver, libwebkit2gtk-4.1-0 and xvfb"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr webkit2gtk-driver libwebkit2gtk-4.1-0 xvfb >/dev/null
    return 0
  fi
  echo "Firefox, WebKitWebDriver + MiniBrowser or Xvfb is missing. On Debian: apt-get install firefox-esr" >&2
  echo "webkit2gtk-driver libwebkit2gtk-4.1-0 xvfb; or set FIREFOX_PATH / WEBKIT_DRIVER_PATH / MINIBROWSER_PATH." >&2
  exit 1
}

install_workspace() {
  echo "== Installing the workspace (pnpm 12.4.2)"
  # puppeteer-core never downloads; this keeps any puppeteer a dependency pulls in from fetching a browser too.
  PUPPETEER_SKIP_DOWNLOAD=true $PNPM install --frozen-lockfile --reporter=append-only </dev/null
}
