// Firefox and WebKit for the test runner, the e2e tests and the screenshot script (Chromium lives in chromium.mjs).
// No tool downloads a browser: Firefox is Debian's firefox-esr driven by puppeteer-core over WebDriver BiDi
// (headless); WebKit is WebKitGTK's MiniBrowser driven by WebKitWebDriver (WebDriver classic) on an Xvfb display
// started here. FIREFOX_PATH, WEBKIT_DRIVER_PATH and MINIBROWSER_PATH override the Debian defaults.
// Xvfb and the driver are started on loopback with free ports / display numbers and stopped by PID.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createServer } from "node:net";

/** The engines the suites run in, in the order results are printed. ENGINES="chromium,firefox" narrows it. */
export const ALL_ENGINES = ["chromium", "firefox", "webkit"];

export function engines() {
  const wanted = (process.env.ENGINES ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !ALL_ENGINES.includes(name));
  if (unknown.length > 0)
    throw new Error(`ENGINES names unknown engines: ${unknown.join(", ")} (known: ${ALL_ENGINES})`);
  return wanted.length > 0 ? ALL_ENGINES.filter((name) => wanted.includes(name)) : ALL_ENGINES;
}

function executable(variable, fallback, hint) {
  const path = process.env[variable] || fallback;
  if (!path || !existsSync(path)) {
    throw new Error(
      `No ${hint} at ${path ?? "(not found)"}. Install Debian's packages (bash scripts/setup.sh does it as root) or set ${variable}.`,
    );
  }
  return path;
}

export function firefoxPath() {
  return executable("FIREFOX_PATH", "/usr/bin/firefox-esr", "Firefox");
}

export function webkitDriverPath() {
  return executable("WEBKIT_DRIVER_PATH", "/usr/bin/WebKitWebDriver", "WebKitWebDriver");
}

/** Debian puts MiniBrowser under the multiarch directory, /usr/lib/<triplet>/webkit2gtk-4.1/. */
export function miniBrowserPath() {
  const found = readdirSync("/usr/lib", { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `/usr/lib/${entry.name}/webkit2gtk-4.1/MiniBrowser`)
    .find((path) => existsSync(path));
  return executable("MINIBROWSER_PATH", found, "WebKitGTK MiniBrowser");
}

/** puppeteer-core's `launch()` options for Firefox (WebDriver BiDi, headless). */
export function firefoxLaunchOptions() {
  return {
    browser: "firefox",
    executablePath: firefoxPath(),
    headless: true,
    extraPrefsFirefox: {
      // No first-run pages, no update checks, no telemetry: a test browser talks to loopback only.
      "app.update.enabled": false,
      "browser.shell.checkDefaultBrowser": false,
      "datareporting.policy.dataSubmissionEnabled": false,
      "toolkit.telemetry.enabled": false,
    },
  };
}

/** webdriverio capabilities for MiniBrowser through WebKitWebDriver (classic: this driver refuses BiDi). */
export function webkitCapabilities() {
  return {
    browserName: "MiniBrowser",
    "wdio:enforceWebDriverClassic": true,
    "webkitgtk:browserOptions": { binary: miniBrowserPath(), args: ["--automation"] },
  };
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function stopper(child) {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
      child.once("exit", () => resolve(undefined));
      child.kill("SIGTERM");
    });
}

/** An Xvfb on a display number it picks itself (printed on fd 3), listening on no TCP port. */
export async function startXvfb() {
  const child = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], {
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  const display = await new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr?.on("data", (chunk) => {
      err += chunk;
    });
    child.stdio[3]?.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(`:${out.trim()}`);
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`Xvfb exited (${code}): ${err.trim()}`)));
  });
  return { display, pid: child.pid, stop: stopper(child) };
}

/**
 * Xvfb plus WebKitWebDriver on 127.0.0.1:<free port>, ready to accept sessions. `stop()` ends both, by PID.
 * Pass the result's `hostname`/`port` to webdriverio's `remote()`.
 */
export async function startWebKitDriver() {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = spawn(webkitDriverPath(), ["--host=local", `--port=${port}`], {
    stdio: ["ignore", "ignore", "pipe"],
    // GTK's own input method, whatever the machine's is (IBus on a desktop): WebDriver's keys reach this one, and
    // the live WebKit composition test uses it (Ctrl+Shift+U Unicode entry).
    env: { ...process.env, DISPLAY: xvfb.display, GTK_IM_MODULE: "gtk-im-context-simple" },
  });
  let log = "";
  driver.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  const stopDriver = stopper(driver);
  const stop = async () => {
    await stopDriver();
    await xvfb.stop();
  };
  try {
    for (let attempt = 0; ; attempt++) {
      if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode}): ${log.trim()}`);
      const ready = await fetch(`http://127.0.0.1:${port}/status`)
        .then((response) => response.ok)
        .catch(() => false);
      if (ready) break;
      if (attempt > 100) throw new Error(`WebKitWebDriver did not answer on port ${port}: ${log.trim()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { hostname: "127.0.0.1", port, display: xvfb.display, stop };
}
