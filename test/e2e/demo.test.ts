/**
 * The README's demo command, as a newcomer runs it (scripts/demo.ts after the build; `--isolated` so pi uses a
 * throwaway home): it prints its URLs, the gallery and the playground work with no agent, and the live page reaches
 * the real pi 0.73.1 running the showcase extension through the bridge: a slash command's select is answered with
 * the mouse and pi reports what it received.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { launchOptions } from "../../scripts/chromium.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("the demo command", { timeout: 180_000 }, () => {
  let demo: ChildProcess;
  let browser: Browser;
  let galleryUrl = "";
  let liveUrl = "";

  before(async () => {
    demo = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/demo.ts", "--isolated", "--port", "0", "--bridge-port", "0"],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo printed no URLs:\n${output}`)), 60_000);
      demo.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const gallery = /Gallery and playground:\s+(\S+)/.exec(output);
        const live = /Live page with real pi:\s+(\S+)/.exec(output);
        if (gallery?.[1] && live?.[1]) {
          galleryUrl = gallery[1];
          liveUrl = live[1];
          clearTimeout(timer);
          resolve();
        }
      });
      demo.on("exit", (code) => reject(new Error(`the demo exited (${code}):\n${output}`)));
    });
    browser = await chromium.launch(launchOptions());
  });

  after(async () => {
    await browser?.close();
    if (demo && demo.exitCode === null) {
      const exited = new Promise((resolve) => demo.once("exit", resolve));
      demo.kill("SIGTERM");
      await exited;
    }
  });

  async function open(url: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url);
    return { page, errors };
  }

  it("serves the gallery: the sidebar lists every element's stories, and a story's answer is logged as JSON", async () => {
    const { page, errors } = await open(`${galleryUrl}#/gallery/select/0`);
    for (const tag of ["pi-select", "pi-confirm", "pi-input", "pi-editor", "pi-status-bar", "pi-widget-slot"]) {
      await page.getByRole("navigation").getByText(tag, { exact: true }).waitFor();
    }
    await page.getByRole("option", { name: "production" }).click();
    await page
      .locator("demo-story-view code", {
        hasText: '{"type":"extension_ui_response","id":"story-1","value":"production"}',
      })
      .waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("runs the playground with no agent: /pick from the command list opens a select answered by keyboard", async () => {
    const { page, errors } = await open(`${galleryUrl}#/playground`);
    await page.getByRole("button", { name: "/pick", exact: true }).click();
    await page.getByRole("option", { name: "staging" }).waitFor();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.locator("pi-notifications", { hasText: 'select answered "production"' }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("connects the live page to the real pi: the showcase's select, answered with the mouse, reaches pi", async () => {
    const { page, errors } = await open(liveUrl);
    await page.getByRole("status").getByText("Connected").waitFor();
    await page.locator("pi-widget-slot", { hasText: "pi-elements showcase" }).waitFor();
    await page.getByRole("button", { name: "/pick", exact: true }).click();
    await page.getByRole("option", { name: "preview-42" }).click();
    await page.locator("pi-notifications", { hasText: 'select answered "preview-42"' }).waitFor();
    assert.equal(await page.title(), "pi-elements showcase");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
