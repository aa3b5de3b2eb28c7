// Browser tests: every *.browser.test.ts under packages/ and test/browser, each in the engines test/engines.mjs gives
// it (TEST_FILES=prompt,code-block narrows the files to those whose path contains a part), out of three engines: Debian's Chromium
// (CHROME_PATH, through playwright-core), Firefox ESR (FIREFOX_PATH, puppeteer-core over WebDriver BiDi, headless)
// and WebKitGTK's MiniBrowser (MINIBROWSER_PATH / WEBKIT_DRIVER_PATH, WebDriver classic on an Xvfb display; see
// test/support/webkit-launcher.mjs). ENGINES=firefox,webkit narrows the run; package.json's test:browser runs it for
// Chromium with Firefox, then for WebKit (scripts/test-browser.mjs). Results are grouped by engine name.
// test/e2e/browser drives the real pi through the real bridge (test/support/plugins/real-pi.mjs): the runner is
// started under tsx (scripts/test-browser.mjs does) so that plugin can load the bridge's TypeScript.
import { createServer } from "node:net";
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { defaultReporter } from "@web/test-runner";
import { playwrightLauncher } from "@web/test-runner-playwright";
import { engines, firefoxLaunchOptions } from "./scripts/browsers.mjs";
import { launchOptions } from "./scripts/chromium.mjs";
import { plan } from "./test/engines.mjs";
import { failureReporter } from "./test/support/failure-reporter.mjs";
import { FirefoxLauncher } from "./test/support/firefox-launcher.mjs";
import { tsForJs } from "./test/support/plugins/ts-for-js.mjs";
import { timingReporter } from "./test/support/timing-reporter.mjs";
import { WebKitLauncher } from "./test/support/webkit-launcher.mjs";
import { testServerPlugins } from "./test/support/wtr-plugins.mjs";

const launchers = {
  chromium: () => playwrightLauncher({ product: "chromium", launchOptions: launchOptions() }),
  // A new Firefox for each file, one file at a time (test/support/firefox-launcher.mjs says why).
  firefox: () => new FirefoxLauncher(firefoxLaunchOptions()),
  webkit: () => new WebKitLauncher(),
};
// One group per set of engines (test/engines.mjs decides each file's); TEST_FILES narrows the files. A browser is
// started only where a group needs it.
const planned = plan(engines(), process.env.TEST_FILES ?? "");
if (planned.size === 0)
  throw new Error(`No browser test file matches TEST_FILES=${process.env.TEST_FILES} in ${engines()}`);
const browsers = Object.fromEntries(
  engines()
    .filter((engine) => [...planned.keys()].some((key) => key.split("+").includes(engine)))
    .map((engine) => [engine, launchers[engine]()]),
);
const groups = [...planned].map(([key, files]) => ({
  name: key,
  files,
  browsers: key.split("+").map((engine) => browsers[engine]),
}));

/**
 * A port the system gives as free. The runner's own choice is the first free one from 8000, which two runs started
 * together (the test command runs the engines side by side) can both take.
 */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export default {
  port: await freePort(),
  groups,
  nodeResolve: { exportConditions: ["browser", "production"] },
  // A worker's file named as the build names it (`highlight-worker.js`), served from its source.
  middleware: [tsForJs()],
  plugins: [
    esbuildPlugin({ ts: true, target: "es2022", tsconfig: "tsconfig.base.json" }),
    ...testServerPlugins({ storybook: [...planned.values()].flat().includes("test/browser/storybook.test.ts") }),
  ],
  browsers: Object.values(browsers),
  reporters: [defaultReporter(), timingReporter(), failureReporter()],
  concurrency: 2,
  // A bound against a hang, not a timed assertion: axe passes on two cores shared by two engines can take over 10 s.
  testFramework: { config: { timeout: 30000 } },
  // Two engines share two cores: opening a page can take longer than the default 30 s while the other runs.
  browserStartTimeout: 120000,
  testsStartTimeout: 180000,
  testsFinishTimeout: 600000,
};
