/**
 * The React 19, Vue 3 and Svelte 5 hosts (demo/hosts/*), each built with Vite as an app would be, served, and used
 * in Chromium like a user: the dialogs pi-extension-ui shows are answered by keyboard and by mouse, and the test
 * reads the exact extension_ui_response lines the agent end received. Each host also shows the dialog the core
 * names (`shownDialog`, through its framework's own store binding): it agrees with pi-extension-ui through a timed
 * dialog arriving behind an untimed one, the queue bar's Next and Previous, and each answer. A standalone pi-input
 * checks the framework's own event binding.
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
      const host = page.locator("pi-extension-ui");
      const select = host.locator("pi-select");
      await select.getByRole("option", { name: "React" }).waitFor();
      // The framework's own store binding shows the dialog the core names; pi-extension-ui shows the same one.
      const bothShow = async (title: string) => {
        await page.locator("#core-shown", { hasText: title }).waitFor();
        await host.locator('[part~="dialog-element"] .heading-text', { hasText: title }).waitFor();
      };
      await bothShow("Pick a framework");
      // A timed question arrives behind the one on screen: it does not take over.
      await page.locator("#ask-timed").click();
      await host.locator('[part~="queue-position"]', { hasText: "1 of 3" }).waitFor();
      await bothShow("Pick a framework");
      // The queue bar's Next and Previous go through the core: the framework's binding follows.
      await host.getByRole("button", { name: "Next dialog" }).click();
      await bothShow("Ship it?");
      await host.getByRole("button", { name: "Previous dialog" }).click();
      await bothShow("Pick a framework");

      await select.getByRole("listbox").focus();
      await dialogsArmed(page);
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      // The earliest deadline comes next, not the oldest.
      await bothShow("Quick: which port?");
      await host.locator("pi-input").getByRole("textbox").fill("8080");
      await host.locator("pi-input").getByRole("textbox").press("Enter");
      await bothShow("Ship it?");
      await host.locator("pi-confirm").getByRole("button", { name: "Yes" }).click();
      await page.waitForFunction(
        () => (document.querySelector("#received")?.textContent ?? "").split("\n").length >= 3,
      );
      const lines = (await page.locator("#received").textContent())?.split("\n").map((line) => JSON.parse(line));
      assert.deepEqual(lines, [
        { type: "extension_ui_response", id: "host-1", value: "Vue" },
        { type: "extension_ui_response", id: "host-3", value: "8080" },
        { type: "extension_ui_response", id: "host-2", confirmed: true },
      ]);
      assert.equal(await page.locator("#core-shown").textContent(), "");
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
