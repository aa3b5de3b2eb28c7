/**
 * The README's demo command, as a newcomer runs it (scripts/demo.ts after the build; `--isolated` so pi uses a
 * throwaway home): it prints its URLs, the gallery and the playground work with no agent, and the live page reaches
 * the real pi 0.73.1 running the showcase extension through the bridge: a slash command's select is answered with
 * the mouse and pi reports what it received.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { launchOptions } from "../../scripts/chromium.mjs";
import { dialogsArmed } from "../support/armed.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe's WCAG 2 A/AA and best-practice violations on the whole page, one line each. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }).axe;
    type AxeResult = { violations: { id: string; nodes: { target: string[] }[] }[] };
    const result = await axe.run(document, { runOnly: ["wcag2a", "wcag2aa", "best-practice"] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

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

  async function open(
    url: string,
    viewport = { width: 1280, height: 800 },
  ): Promise<{ page: Page; errors: string[]; console: string[] }> {
    const page = await browser.newPage({ viewport });
    const errors: string[] = [];
    const console: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") console.push(message.text());
    });
    page.on("response", (response) => {
      if (response.status() >= 400) console.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(url);
    return { page, errors, console };
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
    await dialogsArmed(page);
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

  it("works on a 375 px phone: nothing scrolls sideways, the story list opens from a menu button", async () => {
    const { page, errors } = await open(`${galleryUrl}#/gallery/extension-ui/0`, { width: 375, height: 740 });
    await page.locator("pi-extension-ui pi-confirm").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(overflow, 0);
    const stories = page.getByRole("navigation", { name: "Stories" });
    assert.equal(await stories.isVisible(), false);
    const menu = page.getByRole("button", { name: "Stories" });
    assert.equal(await menu.getAttribute("aria-expanded"), "false");
    await menu.click();
    assert.equal(await menu.getAttribute("aria-expanded"), "true");
    await stories.getByRole("link", { name: "Plain" }).first().click();
    const heading = page.getByRole("heading", { level: 1 });
    await heading.getByText("pi-select: Plain").waitFor();
    assert.equal(await stories.isVisible(), false);
    // A heading is broken between words, never inside one: this one fits one line.
    assert.ok((await heading.boundingBox())!.height < 40);
    assert.deepEqual(errors, []);
    await page.close();
  });

  for (const [name, route] of [
    ["the gallery", "#/gallery/select/0"],
    ["the playground", "#/playground"],
    ["the live page", "live"],
  ] as const) {
    it(`${name}: clean under axe, landmarks and headings in order, no console errors or warnings`, async () => {
      const { page, errors, console } = await open(route === "live" ? liveUrl : `${galleryUrl}${route}`);
      if (route === "live") await page.getByRole("status").getByText("Connected").waitFor();
      else await page.locator("main h1").first().waitFor();
      await page.waitForTimeout(300);
      assert.deepEqual(await axeViolations(page), []);
      assert.ok(await page.getByRole("banner").isVisible());
      assert.ok(await page.getByRole("main").isVisible());
      // No "Lit is in dev mode", no missing favicon: a newcomer's console is clean.
      assert.deepEqual(console, []);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  it("has a skip link: the first Tab reaches it, Enter moves focus to the page's content", async () => {
    // The live page: nothing on it takes focus by itself, so the first Tab starts at the top, as a keyboard user's.
    const { page, errors } = await open(liveUrl);
    await page.getByRole("status").getByText("Connected").waitFor();
    await page.keyboard.press("Tab");
    const skip = page.getByRole("button", { name: "Skip to content" });
    assert.ok(await skip.isVisible());
    assert.equal(await skip.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement), true);
    await page.keyboard.press("Enter");
    assert.equal(
      await page.getByRole("main").evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement),
      true,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("leaves no unhandled rejection when a page is left while its command runs", async () => {
    const { page, errors } = await open(liveUrl);
    await page.getByRole("status").getByText("Connected").waitFor();
    const rejections: string[] = [];
    await page.exposeFunction("reportRejection", (reason: string) => rejections.push(reason));
    await page.evaluate(() =>
      addEventListener("unhandledrejection", (event) =>
        (window as unknown as { reportRejection(r: string): void }).reportRejection(String(event.reason)),
      ),
    );
    await page.getByRole("button", { name: "/pick", exact: true }).click();
    await page.getByRole("option", { name: "staging" }).waitFor();
    // Away while pi waits for the answer: the page's session closes under the command in flight.
    await page.evaluate(() => {
      location.hash = "#/gallery/select/0";
    });
    await page.locator("pi-select").waitFor();
    await page.waitForTimeout(500);
    assert.deepEqual(rejections, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

describe("scripts/demo.sh, the README's demo command", { timeout: 300_000 }, () => {
  it("prints no pnpm update banner, and exits cleanly on Ctrl+C", async () => {
    const demo = spawn("bash", ["scripts/demo.sh", "--gallery", "--port", "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    demo.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    demo.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => demo.once("exit", (code) => resolve(code)));
    const deadline = Date.now() + 240_000;
    while (!/Gallery and playground:\s+http/.test(output)) {
      assert.ok(Date.now() < deadline, `the demo printed no URL:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Ctrl+C in a terminal signals the whole foreground process group.
    process.kill(-(demo.pid as number), "SIGINT");
    assert.equal(await exited, 0, output);
    assert.doesNotMatch(output, /Update available|ELIFECYCLE|curl /);
  });
});
