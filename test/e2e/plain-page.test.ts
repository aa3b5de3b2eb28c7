/**
 * The no-build page (demo/hosts/plain/index.html): the single-file bundle from one <script type="module">, served
 * by the real bridge next to a real pi 0.73.1. A user types a slash command into pi-prompt, answers the select that
 * pi sends with the mouse, and reads pi's own report of what it received in a toast.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { launchOptions } from "../../scripts/chromium.mjs";
import { isolatedPi, PI_VERSIONS } from "../support/real-pi.js";
import { promptReady } from "../support/wait-for.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

for (const version of PI_VERSIONS) {
  describe(`the no-build page with the single-file bundle, against a real pi (pi ${version.version})`, {
    timeout: 120_000,
  }, () => {
    let bridge: RunningBridge;
    let browser: Browser;
    const pi = isolatedPi(join(ROOT, "test/fixtures/pi/extensions/ui-exercise.ts"), { pi: version });
    const site = mkdtempSync(join(tmpdir(), "pi-plain-site-"));

    before(async () => {
      copyFileSync(join(ROOT, "demo/hosts/plain/index.html"), join(site, "index.html"));
      copyFileSync(join(ROOT, "packages/elements/dist/pi-elements.bundle.js"), join(site, "pi-elements.bundle.js"));
      bridge = await startBridge({
        port: 0,
        ...pi.options,
        staticDir: site,
        log: () => {},
      });
      browser = await chromium.launch(launchOptions());
    });

    after(async () => {
      await browser?.close();
      await bridge?.close();
      pi.cleanup();
      rmSync(site, { recursive: true, force: true });
    });

    it("a slash command typed in pi-prompt opens pi's select; the clicked option reaches pi", async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      const http = bridge.url.replace(/^ws:/, "http:").replace(/\/\?.*$/, "");
      // ?token= lets the bridge serve the page (and, by the cookie it sets, the page's script).
      await page.goto(`${http}/index.html?token=${bridge.token}&bridge=${encodeURIComponent(bridge.url)}`);

      await promptReady(page);
      const prompt = page.locator("pi-prompt").getByRole("textbox");
      await prompt.fill("/ui-select");
      await prompt.press("Enter");
      const select = page.locator("pi-extension-ui pi-select");
      await select.getByRole("option", { name: "雪 (snow)" }).click();
      await page.locator("pi-notifications", { hasText: 'ui-select -> "雪 (snow)"' }).waitFor();

      // The markup pi put in the title and options is text: no element was injected anywhere on the page.
      assert.equal(await page.locator("img").count(), 0);
      assert.deepEqual(errors, []);
      await page.close();
    });
  });
}
