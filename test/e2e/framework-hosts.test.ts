/**
 * The React 19, Vue 3 and Svelte 5 hosts (demo/hosts/*), each built with Vite as an app would be, served, and used
 * in Chromium like a user: the dialogs pi-extension-ui shows are answered by keyboard and by mouse, and the test
 * reads the exact extension_ui_response lines the agent end received. A standalone pi-input checks the framework's
 * own event binding.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { build, preview } from "vite";
import { launchOptions } from "../../scripts/chromium.mjs";
import { dialogsArmed } from "../support/armed.js";

const HOSTS = fileURLToPath(new URL("../../demo/hosts/", import.meta.url));

let browser: Browser;
before(async () => {
  browser = await chromium.launch(launchOptions());
});
after(async () => {
  await browser?.close();
});

for (const framework of ["react", "vue", "svelte"] as const) {
  describe(`${framework} host`, { timeout: 120_000 }, () => {
    const outDir = mkdtempSync(join(tmpdir(), `pi-host-${framework}-`));
    let url = "";
    let close: () => Promise<void> = async () => {};

    before(async () => {
      const configFile = join(HOSTS, framework, "vite.config.ts");
      await build({ configFile, logLevel: "warn", build: { outDir, emptyOutDir: true } });
      const server = await preview({
        configFile,
        logLevel: "warn",
        build: { outDir },
        preview: { port: 0, host: "127.0.0.1" },
      });
      url = server.resolvedUrls?.local[0] ?? "";
      close = () => new Promise((resolve) => server.httpServer.close(() => resolve()));
    });
    after(async () => {
      await close();
      rmSync(outDir, { recursive: true, force: true });
    });

    it("answers the queued select by keyboard and the confirm by mouse; the agent receives exactly those responses", async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(url);
      const select = page.locator("pi-extension-ui pi-select");
      await select.getByRole("option", { name: "React" }).waitFor();
      await select.getByRole("listbox").focus();
      await dialogsArmed(page);
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await page.locator("pi-extension-ui pi-confirm").getByRole("button", { name: "Yes" }).click();
      await page.waitForFunction(
        () => (document.querySelector("#received")?.textContent ?? "").split("\n").length >= 2,
      );
      const lines = (await page.locator("#received").textContent())?.split("\n").map((line) => JSON.parse(line));
      assert.deepEqual(lines, [
        { type: "extension_ui_response", id: "host-1", value: "Vue" },
        { type: "extension_ui_response", id: "host-2", confirmed: true },
      ]);
      assert.deepEqual(errors, []);
      await page.close();
    });

    it("binds the element's pi-submit event with the framework's own syntax", async () => {
      const page = await browser.newPage();
      await page.goto(url);
      const input = page.locator("main > pi-input").getByRole("textbox");
      await input.fill("Ada 世界");
      await dialogsArmed(page);
      await input.press("Enter");
      await page.locator("#standalone", { hasText: "Ada 世界" }).waitFor();
      await page.close();
    });
  });
}
