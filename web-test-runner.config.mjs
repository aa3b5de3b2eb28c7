// Browser tests: every *.browser.test.ts under packages/ and test/browser, in Debian's Chromium (CHROME_PATH).
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { playwrightLauncher } from "@web/test-runner-playwright";
import { launchOptions } from "./scripts/chromium.mjs";
import { testServerPlugins } from "./test/support/wtr-plugins.mjs";

export default {
  files: ["packages/*/test/**/*.browser.test.ts", "test/browser/**/*.test.ts"],
  nodeResolve: { exportConditions: ["browser", "development"] },
  plugins: [esbuildPlugin({ ts: true, target: "es2022", tsconfig: "tsconfig.base.json" }), ...testServerPlugins()],
  browsers: [playwrightLauncher({ product: "chromium", launchOptions: launchOptions() })],
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 300000,
};
