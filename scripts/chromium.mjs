// Where the browser lives and how it is started: one answer for the test runner, the e2e tests, the benchmarks
// and the screenshot script. No tool downloads a browser of its own; CHROME_PATH overrides the Debian default.
import { existsSync } from "node:fs";

export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];

export function chromiumPath() {
  const path = process.env.CHROME_PATH || "/usr/bin/chromium";
  if (!existsSync(path)) {
    throw new Error(
      `No Chromium at ${path}. Install Debian's "chromium" package or set CHROME_PATH to a Chromium/Chrome binary.`,
    );
  }
  return path;
}

/** Options for playwright-core's `chromium.launch()`. */
export function launchOptions() {
  return { executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS };
}
