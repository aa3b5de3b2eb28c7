/**
 * The README's demo command, as a newcomer runs it (scripts/demo.ts after the build, with no option and no API key in
 * its environment): it prints its URLs, the gallery and the playground work with no agent, and the live page reaches
 * the real pi 0.73.1 running the showcase extension through the bridge, with the demo's scripted model: a streamed
 * conversation in which pi really runs its tools in the throwaway folder the demo prints (a bash run, an edit with
 * its diff, a test written and run, an rm the showcase's permission gate asks about), the whole pi web UI laid out at
 * 1280 and 375 px in both themes, and a slash command's select answered with the mouse.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type AddressInfo, createServer } from "node:net";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { storyModules } from "../../demo/src/gallery/stories/index.js";
import { launchOptions } from "../../scripts/chromium.mjs";
import { dialogsArmed } from "../support/armed.js";
import { pageSettled } from "../support/wait-for.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/** `DEMO_SCREENSHOT=/tmp/demo` writes the live page's PNGs (/tmp/demo-1280-light.png…) for a person to look at. */
const SCREENSHOT = process.env["DEMO_SCREENSHOT"];

/**
 * The environment without anything that looks like a provider's key: the demo must not need one. Nor node's test
 * runner's mark, which pi's bash would pass on to the `node --test` it runs (that one would then skip its files).
 */
function keylessEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/API_KEY|_TOKEN|OAUTH|^NODE_TEST_CONTEXT$/i.test(name)),
  );
}

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

/** Waits until pi's turn is over as the page shows it: nothing streams, and the run is idle. */
async function turnOver(page: Page): Promise<void> {
  await page.waitForFunction(deepFind, "pi-transcript");
  await page.waitForFunction(() => {
    // (No named helper in here: tsx would wrap it in a `__name` the page does not have.)
    const transcript = (window as unknown as { deepFind(selector: string): Element | undefined }).deepFind(
      "pi-transcript",
    ) as { snapshot?: { run: { status: string }; streaming: unknown } } | undefined;
    return transcript?.snapshot?.run.status === "idle" && transcript.snapshot.streaming === undefined;
  });
}

/** Waits for pi-thinking-level's select to show `level` (what pi reports). */
async function levelShows(page: Page, level: string): Promise<void> {
  await page.waitForFunction(deepFind, "pi-thinking-level");
  await page.waitForFunction((wanted) => {
    const select = (window as unknown as { deepFind(selector: string): Element | undefined })
      .deepFind("pi-thinking-level")
      ?.shadowRoot?.querySelector("select");
    return select?.value === wanted;
  }, level);
}

/**
 * Installs `window.deepFind(selector)` in the page, the first element matching `selector` across open shadow roots,
 * and says whether it finds one.
 */
function deepFind(selector: string): boolean {
  const install = new Function(
    "selector",
    `window.deepFind = (s) => {
      const stack = [document];
      while (stack.length > 0) {
        const root = stack.shift();
        const found = root.querySelector(s);
        if (found) return found;
        for (const element of root.querySelectorAll("*")) if (element.shadowRoot) stack.push(element.shadowRoot);
      }
      return undefined;
    };
    return window.deepFind(selector) !== undefined;`,
  );
  return install(selector) as boolean;
}

describe("the demo command", { timeout: 180_000 }, () => {
  let demo: ChildProcess;
  let browser: Browser;
  let galleryUrl = "";
  let liveUrl = "";
  /** The throwaway folder pi works in, as the demo prints it. */
  let workspace = "";
  /** The live page after the scripted conversation, kept for the layout checks. */
  let conversation: Page | undefined;

  before(async () => {
    demo = spawn(
      process.execPath,
      // A quick pace: the scripted model streams in small chunks still, just not at a reader's speed.
      ["--import", "tsx", "scripts/demo.ts", "--port", "0", "--bridge-port", "0", "--pace", "8"],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: keylessEnv() },
    );
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo printed no URLs:\n${output}`)), 60_000);
      demo.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const gallery = /Gallery and playground:\s+(\S+)/.exec(output);
        const live = /Live page with real pi:\s+(\S+)/.exec(output);
        const cwd = /pi works in:\s+(\S+)/.exec(output);
        if (gallery?.[1] && live?.[1] && cwd?.[1]) {
          galleryUrl = gallery[1];
          liveUrl = live[1];
          workspace = cwd[1];
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
    // The throwaway folder goes with the demo.
    assert.equal(existsSync(workspace), false, `${workspace} is removed`);
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

  it("has a real conversation with no API key: streamed thinking and Markdown, tools pi really runs, a diff, a follow-up", async () => {
    const { page, errors } = await open(liveUrl);
    conversation = page;
    await page.getByRole("status").getByText("Connected").waitFor();
    await page.getByRole("button", { name: "Model: Scripted model" }).waitFor();
    const transcript = page.locator("pi-transcript");
    await page.getByRole("button", { name: "Make greet() friendlier" }).click();

    // It streams: the article being written shows a beginning of pi's Markdown before the whole of it.
    await page.waitForFunction(deepFind, "pi-transcript");
    const partial = await page.waitForFunction(
      () => {
        const streaming = (window as unknown as { deepFind(selector: string): Element | undefined }).deepFind(
          "[part~=streaming]",
        );
        const markdown = streaming?.querySelector("pi-markdown")?.shadowRoot?.textContent ?? "";
        return markdown.includes("tiny ES module") && !markdown.includes("make it warmer") ? markdown : false;
      },
      undefined,
      { polling: "raf" },
    );
    assert.match(String(await partial.jsonValue()), /tiny ES module/);
    await transcript.locator("pi-markdown", { hasText: "is friendlier now" }).waitFor();
    await turnOver(page);

    // Thinking, collapsed once done; the bash card shows what pi's run printed (file names the command never named).
    await transcript.locator("details[part~=thinking]").first().waitFor();
    const ls = transcript.locator("pi-tool-card", { hasText: "ls -1 && cat greet.js" });
    await ls.locator("[part~=output]", { hasText: "package.json" }).waitFor();
    // The edit's diff, and the file really changed in pi's throwaway folder; pi ran the new code.
    const edit = transcript.locator("pi-tool-card", { has: page.locator("[part~=diff]") });
    await edit.locator("[part~=diff-added]", { hasText: "Nice to see you." }).waitFor();
    await edit.locator("[part~=diff-removed]", { hasText: '"Hello, " + name' }).waitFor();
    assert.match(readFileSync(join(workspace, "greet.js"), "utf8"), /`Hello, \$\{name\}! Nice to see you\.`/);
    // The answer quotes that run in a code block.
    const answer = transcript.locator("pi-markdown", { hasText: "is friendlier now" });
    const codeOf = (markdown: typeof answer) =>
      markdown
        .locator("pi-code-block")
        .first()
        .evaluate((block) => (block as HTMLElement & { code: string }).code);
    assert.equal(await codeOf(answer), "Hello, pi! Nice to see you.");
    // The footer counts the turn's tokens.
    await page.locator("pi-session-stats [part~=input]").waitFor();

    // A follow-up: pi writes a test and runs it; the answer quotes node's own summary.
    await page.getByRole("button", { name: "Add a test" }).click();
    await transcript.locator("pi-markdown", { hasText: "The test is in" }).waitFor();
    await turnOver(page);
    assert.match(readFileSync(join(workspace, "greet.test.js"), "utf8"), /node:test/);
    assert.match(await codeOf(transcript.locator("pi-markdown", { hasText: "The test is in" })), /^# pass 1$/m);

    // The extension's UI in a model turn: the showcase's permission gate asks before pi runs rm; No blocks it.
    await page.getByRole("button", { name: "Clean up the build folder" }).click();
    const gate = page.locator("pi-extension-ui pi-confirm", { hasText: "rm -rf build" });
    await gate.waitFor();
    await gate.getByRole("button", { name: "No", exact: true }).click();
    // The suggestion that started it is disabled while pi works: the focus goes to the prompt, not the page's body.
    await page.waitForFunction(() => {
      let node = document.activeElement;
      while (node?.shadowRoot?.activeElement) node = node.shadowRoot.activeElement;
      return node?.localName === "textarea";
    });
    await transcript.locator("pi-markdown", { hasText: "You said no, so nothing was deleted" }).waitFor();
    await turnOver(page);
    assert.equal(existsSync(join(workspace, "build/bundle.js")), true);
    assert.deepEqual(errors, []);
  });

  it("lays the live page out at 1280 and 375 px in light and dark: no sideways scroll, every part on screen, axe clean", async () => {
    const page = conversation;
    assert.ok(page, "the conversation test ran first");
    const select = page.locator(".top select").first();
    for (const [width, height] of [
      [1280, 800],
      [375, 740],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const theme of ["light", "dark"]) {
        await select.selectOption(theme);
        await page.locator("pi-transcript [part~=entry]").first().waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0);
        for (const part of [
          "pi-model-picker",
          "pi-thinking-level",
          "pi-session-actions",
          "pi-transcript",
          "pi-prompt",
        ]) {
          const box = await page.locator(part).boundingBox();
          assert.ok(box && box.width > 0 && box.height > 0, `${part} is laid out at ${width} px`);
          assert.ok(
            box.x >= 0 && box.x + box.width <= width,
            `${part} fits across ${width} px: ${JSON.stringify(box)}`,
          );
        }
        // The conversation is the region that scrolls, and it keeps a readable height.
        const feed = await page.locator("pi-transcript").boundingBox();
        assert.ok(feed && feed.height >= 250, `the transcript is ${feed?.height} px tall at ${width} px`);
        await page.locator("pi-session-stats").scrollIntoViewIfNeeded();
        assert.ok(await page.locator("pi-status-bar").isVisible());
        if (width === 1280) {
          // Everything on one screen: the footer is in the window without scrolling the page.
          const footer = await page.locator("pi-session-stats").boundingBox();
          assert.ok(footer && footer.y + footer.height <= height, "the footer is on screen");
        }
        assert.deepEqual(await axeViolations(page), [], `axe at ${width} px, ${theme}`);
        if (SCREENSHOT) await page.screenshot({ path: `${SCREENSHOT}-${width}-${theme}.png` });
      }
    }
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

  it("keeps real sessions: Export HTML writes pi's file, Fork… puts the message back in the prompt and keeps the level; the focus never falls to the page", async () => {
    const { page, errors } = await open(liveUrl);
    await page.getByRole("status").getByText("Connected").waitFor();
    const transcript = page.locator("pi-transcript");
    await transcript.locator("pi-markdown", { hasText: "You said no, so nothing was deleted" }).waitFor();
    const focused = () =>
      page.evaluate(() => {
        let node = document.activeElement;
        while (node?.shadowRoot?.activeElement) node = node.shadowRoot.activeElement;
        return node === document.body ? "body" : `${node?.localName} ${node?.textContent?.trim() ?? ""}`.trim();
      });

    // Export HTML, by keyboard: pi writes the session's page (the demo's pi keeps a session file) and says where.
    const exportButton = page.locator("pi-session-actions").getByRole("button", { name: "Export HTML" });
    await exportButton.focus();
    await page.keyboard.press("Enter");
    const status = page.locator("pi-session-actions [part~=status]", { hasText: "Exported to" });
    await status.waitFor();
    const written = /Exported to (.+\.html) \(on pi's machine\)/.exec((await status.textContent()) ?? "")?.[1];
    assert.ok(written, (await status.textContent()) ?? "no status");
    assert.match(readFileSync(resolve(workspace, written), "utf8"), /<html/i);
    assert.equal(await focused(), "button Export HTML");

    // The thinking level set to high, a turn, then a fork from that turn's question: the transcript goes back to before
    // it, the question is in the prompt (focused, to edit and send again) and the level is still high (pi keeps it in
    // the session file; it was chosen before the message forked from, so the branch has it).
    const level = page.locator("pi-thinking-level select");
    await level.selectOption("high");
    await levelShows(page, "high");
    await page.getByRole("button", { name: "What can you do?" }).click();
    await transcript.locator("article", { hasText: "What can you do in this demo?" }).waitFor();
    await turnOver(page);
    await page.locator("pi-session-actions").getByRole("button", { name: "Fork…" }).click();
    await page.locator("pi-session-actions [part~=fork-option]", { hasText: "What can you do in this demo?" }).click();
    await page.waitForFunction(() => {
      let node = document.activeElement;
      while (node?.shadowRoot?.activeElement) node = node.shadowRoot.activeElement;
      return (node as HTMLTextAreaElement | null)?.value === "What can you do in this demo?";
    });
    assert.equal(await focused(), "textarea");
    await transcript.locator("article", { hasText: "What can you do in this demo?" }).waitFor({ state: "detached" });
    await transcript.locator("pi-markdown", { hasText: "You said no" }).waitFor();
    // pi itself says high (the page shows what pi reports, after the fork's new runtime).
    await page.reload();
    await page.getByRole("status").getByText("Connected").waitFor();
    await levelShows(page, "high");
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("at 1280 x 800 with widgets, toasts and a long dialog open, the conversation keeps a usable height and no toast covers the dialog", async () => {
    const { page, errors } = await open(liveUrl, { width: 1280, height: 800 });
    await page.getByRole("status").getByText("Connected").waitFor();
    await page.getByRole("button", { name: "/widget", exact: true }).click();
    await page.getByRole("button", { name: "/notify", exact: true }).click();
    await page.locator("pi-notifications [part~='toasts'] [part~='toast']").nth(2).waitFor();
    await page.getByRole("button", { name: "/pick-long", exact: true }).click();
    const dialog = page.locator("pi-extension-ui pi-select");
    await dialog.waitFor();
    const conversation = (await page.locator("demo-live section.conversation").boundingBox())!;
    assert.ok(conversation.height >= 350, `the conversation is ${conversation.height} px high`);
    const toasts = (await page.locator("pi-notifications [part~='base']").boundingBox())!;
    for (const button of await dialog.getByRole("button").all()) {
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      const apart =
        box.x + box.width <= toasts.x ||
        toasts.x + toasts.width <= box.x ||
        box.y + box.height <= toasts.y ||
        toasts.y + toasts.height <= box.y;
      assert.ok(
        apart,
        `the toasts ${JSON.stringify(toasts)} cover ${await button.textContent()} ${JSON.stringify(box)}`,
      );
    }
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("on a phone, a reload with a dialog pending and earlier notifications replayed keeps the dialog's options uncovered", async () => {
    const { page, errors } = await open(liveUrl, { width: 375, height: 740 });
    await page.getByRole("status").getByText("Connected").waitFor();
    // Three notifications from pi (each answer is acknowledged with one), then a question left open.
    for (let i = 0; i < 3; i++) {
      await page.getByRole("button", { name: "/pick", exact: true }).click();
      await page.getByRole("option", { name: "preview-42" }).click();
      await page.locator("pi-select").waitFor({ state: "detached" });
    }
    await page.getByRole("button", { name: "/pick", exact: true }).click();
    await page.getByRole("option", { name: "staging" }).waitFor();
    await page.reload();
    await page.getByRole("status").getByText("Connected").waitFor();
    // The bridge replays them: one collapsed "Earlier notifications (N)" line at the top of a phone's screen, no
    // toast (a wall of them covered the page's controls for seconds after every reload).
    const summary = page.locator("pi-notifications [part~='earlier-summary']");
    await summary.waitFor();
    assert.match((await summary.textContent()) ?? "", /^Earlier notifications \((\d+)\)$/);
    const said = (await summary.textContent()) ?? "";
    assert.ok(Number(/\d+/.exec(said)?.[0]) >= 3, said);
    assert.equal(await page.locator("pi-notifications [part~='toasts'] [part~='toast']").count(), 0);
    const option = page.getByRole("option", { name: "staging" });
    await option.waitFor();
    await option.scrollIntoViewIfNeeded();
    const toasts = (await page.locator("pi-notifications [part~='base']").boundingBox())!;
    const options = (await page.locator("pi-select [role='listbox']").boundingBox())!;
    assert.ok(
      toasts.y + toasts.height <= options.y || options.y + options.height <= toasts.y,
      `the toasts ${JSON.stringify(toasts)} cover the options ${JSON.stringify(options)}`,
    );
    await page.getByRole("option", { name: "production" }).click();
    await page.locator("pi-select").waitFor({ state: "detached" });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("works on a 375 px phone: nothing scrolls sideways, the story list opens from a menu button", async () => {
    const { page, errors } = await open(`${galleryUrl}#/gallery/extension-ui/0`, { width: 375, height: 740 });
    await page.locator("pi-extension-ui pi-confirm").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(overflow, 0);
    // The top bar takes two rows (brand and menu; theme, language, direction), not three; its controls keep their names.
    const bar = (await page.getByRole("banner").boundingBox())!;
    assert.ok(bar.height < 85, `the top bar is ${bar.height} px tall`);
    for (const name of ["Theme", "Language", "Direction"]) assert.ok(await page.getByLabel(name).isVisible(), name);
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

  it("turns the whole page right to left: the story list, the stage and the log, whose JSON still reads left to right", async () => {
    const { page, errors } = await open(`${galleryUrl}#/gallery/select/0`, { width: 1280, height: 800 });
    await page.getByRole("option", { name: "production" }).waitFor();
    await page.getByLabel("Direction").selectOption("rtl");
    await page.getByRole("option", { name: "production" }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
    const nav = (await page.getByRole("navigation", { name: "Stories" }).boundingBox())!;
    const main = (await page.getByRole("main").boundingBox())!;
    assert.ok(nav.x > main.x, `the story list is on the right: nav at ${nav.x}, main at ${main.x}`);
    const stage = page.getByRole("region", { name: "Stage" });
    assert.equal(await stage.evaluate((el) => getComputedStyle(el).direction), "rtl");
    // An answer sent: its JSON line in the log reads left to right, its braces at their own ends.
    await page.getByRole("option", { name: "production" }).click();
    const line = page.locator("demo-story-view code", { hasText: '"value":"production"' });
    await line.waitFor();
    assert.match((await line.textContent()) ?? "", /^\{"type":"extension_ui_response"/);
    assert.equal(await line.evaluate((el) => getComputedStyle(el).direction), "ltr");
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
      await pageSettled(page);
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
    // The live page's session closed as it left: a rejection it left unhandled is reported in a task after that.
    await pageSettled(page);
    assert.deepEqual(rejections, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

describe("scripts/demo.sh, the README's demo command", { timeout: 300_000 }, () => {
  it("starts the workshop (Storybook), built, with every story, moving off a taken port and saying so; no pnpm update banner; exits cleanly on Ctrl+C", async () => {
    // The workshop's port is taken: the demo says where it went instead.
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const taken = (blocker.address() as AddressInfo).port;
    const demo = spawn("bash", ["scripts/demo.sh", "--gallery", "--port", "0", "--workshop-port", String(taken)], {
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
    const workshop = /Workshop \(Storybook\):\s+(http:\/\/127\.0\.0\.1:(\d+)\/)/.exec(output);
    assert.ok(workshop, `the demo prints the workshop's address:\n${output}`);
    assert.notEqual(Number(workshop[2]), taken);
    assert.match(output, new RegExp(`port ${taken} was taken: the workshop moved to ${workshop[2]}`));
    const index = (await (await fetch(`${workshop[1]}index.json`)).json()) as {
      entries: Record<string, { type: string }>;
    };
    // Built and served as files (its pages open at once), not Storybook's dev server compiling on request.
    const preview = await (await fetch(`${workshop[1]}iframe.html`)).text();
    assert.doesNotMatch(preview, /@vite\/client/);
    assert.match(preview, /assets\/iframe-[\w-]+\.js/);
    const stories = Object.values(index.entries).filter((entry) => entry.type === "story").length;
    assert.equal(
      stories,
      storyModules.reduce((sum, module) => sum + module.stories.length, 0),
    );
    // Ctrl+C in a terminal signals the whole foreground process group.
    process.kill(-(demo.pid as number), "SIGINT");
    assert.equal(await exited, 0, output);
    blocker.close();
    // Nothing of the workshop is left listening.
    await assert.rejects(fetch(`${workshop[1]}index.json`));
    assert.doesNotMatch(output, /Update available|ELIFECYCLE|curl /);
  });
});
