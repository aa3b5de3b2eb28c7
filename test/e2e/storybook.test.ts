/**
 * The workshop on Storybook, as built (`storybook build` of demo/.storybook) and opened in Chromium: every story the
 * gallery has is in Storybook's index with a docs page per element; in each story's frame the story renders with no
 * error, axe finds nothing in it in light and dark, the markup its texts hold injects no element, and Escape cancels
 * its dialog (the story's agent gets `"cancelled":true`), the checks test/browser/stories.test.ts makes over the same
 * story modules in Chromium, Firefox and WebKit; an answer given in a story shows in the actions panel as the
 * elements' event and the exact JSON the agent got; Show code, the attribute and property controls, the toolbar's
 * language and direction.
 *
 * Only Chromium: playwright-core drives Debian's Chromium, but not Firefox ESR (Playwright's Firefox is a patched
 * build) nor WebKitGTK's MiniBrowser; and the runner that drives all three (web-test-runner) serves unbundled ES
 * modules, while Storybook's preview code (portable stories' composeStories included) imports CommonJS packages
 * (aria-query) that only a bundler such as Vite resolves.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium, type Page } from "playwright-core";
import { storyModules } from "../../demo/src/gallery/stories/index.js";
import { launchOptions } from "../../scripts/chromium.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DEMO = join(ROOT, "demo");
const AXE = join(ROOT, "node_modules/axe-core/axe.min.js");
const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".json": "application/json",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
};

interface IndexEntry {
  id: string;
  title: string;
  name: string;
  type: "story" | "docs";
}

/** A static server of the built Storybook on a free loopback port. */
function serve(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname)).replace(/^[/\\]+/, "");
    const file = join(root, path || "index.html");
    if (!file.startsWith(root)) return void response.writeHead(403).end();
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }),
    ),
  );
}

/**
 * Where a story's agent asks a question: always in a dialog element's stories, in some of pi-extension-ui's (one
 * shows the prompt with nothing pending); a dialog that opens must be cancelled by Escape.
 */
const DIALOGS: Record<string, "always" | "maybe"> = {
  "pi-select": "always",
  "pi-confirm": "always",
  "pi-input": "always",
  "pi-editor": "always",
  "pi-extension-ui": "maybe",
};

/**
 * Runs in a story's frame: the IMG and SCRIPT elements under the story's root, shadow roots included, except the
 * one image a story may show, the user's own (a file dropped on pi-prompt, a thumbnail of its blob:). The markup the
 * stories put in every text field must not become one.
 */
function injectedIn(): string[] {
  const found: string[] = [];
  const walk = (root: Element | ShadowRoot) => {
    for (const element of root.querySelectorAll("*")) {
      const userImage =
        element.matches('img[part~="thumbnail"]') && (element.getAttribute("src") ?? "").startsWith("blob:");
      if ((element.localName === "img" || element.localName === "script") && !userImage) found.push(element.outerHTML);
      if (element.shadowRoot) walk(element.shadowRoot);
    }
  };
  const root = document.querySelector("#storybook-root");
  if (root) walk(root);
  return found;
}

/**
 * When the story has a dialog open (waiting for it a while where the agent asks one), presses Escape and waits for
 * the story's agent to get `"cancelled":true` (its received lines are the "sent to the agent" actions on the
 * frame's Storybook channel, as the actions panel gets them). Undefined when no dialog is open.
 */
async function escapeCancels(page: Page, dialog: "always" | "maybe" | undefined): Promise<boolean | undefined> {
  const open = () =>
    page.evaluate(() => {
      const dialogs = ["pi-select", "pi-confirm", "pi-input", "pi-editor"];
      const walk = (root: Element | ShadowRoot): Element | undefined => {
        for (const element of root.querySelectorAll("*")) {
          if (dialogs.includes(element.localName) && element.hasAttribute("open")) return element;
          const inner = element.shadowRoot && walk(element.shadowRoot);
          if (inner) return inner;
        }
        return undefined;
      };
      const dialog = walk(document.querySelector("#storybook-root")!);
      let focused = document.activeElement;
      while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
      return dialog !== undefined && focused !== null && (dialog.shadowRoot?.contains(focused) ?? false);
    });
  for (let waited = 0; !(await open()); waited += 100) {
    if (dialog === undefined || waited >= (dialog === "always" ? 5000 : 1500))
      return dialog === "always" ? false : undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await page.evaluate(() => {
    const channel = (
      window as unknown as { __STORYBOOK_ADDONS_CHANNEL__: { on(event: string, f: (e: unknown) => void): void } }
    ).__STORYBOOK_ADDONS_CHANNEL__;
    const seen: unknown[] = [];
    (window as unknown as { sentToAgent: unknown[] }).sentToAgent = seen;
    channel.on("storybook/actions/action-event", (event) => seen.push(event));
  });
  await page.keyboard.press("Escape");
  try {
    await page.waitForFunction(
      () =>
        (window as unknown as { sentToAgent: { data: { name: string; args: unknown } }[] }).sentToAgent.some(
          (event) => event.data.name === "sent to the agent" && String(event.data.args).includes('"cancelled":true'),
        ),
      undefined,
      { timeout: 5000 },
    );
    return true;
  } catch {
    return false;
  }
}

describe("the workshop on Storybook, built", { timeout: 900_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), "pi-elements-storybook-"));
  let server: Server;
  let url: string;
  let browser: Browser;
  let entries: IndexEntry[] = [];

  before(async () => {
    await promisify(execFile)(
      join(DEMO, "node_modules/.bin/storybook"),
      ["build", "-c", ".storybook", "-o", out, "--quiet"],
      {
        cwd: DEMO,
        env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: "1" },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    ({ server, url } = await serve(out));
    entries = Object.values(
      (JSON.parse(await readFile(join(out, "index.json"), "utf8")) as { entries: Record<string, IndexEntry> }).entries,
    );
    browser = await chromium.launch(launchOptions());
  });

  after(async () => {
    await browser?.close();
    server?.close();
    rmSync(out, { recursive: true, force: true });
  });

  /** A story's frame, as Storybook's preview shows it; the page's errors collected. */
  async function openStory(id: string, globals = "", args = ""): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    // The functions this file runs in the page are compiled by tsx, which names inner functions through esbuild's
    // __name helper: the page gets one that does nothing.
    await page.addInitScript("globalThis.__name = (f) => f");
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    // A failed load is reported with its address (the console's "Failed to load resource" has none, and the
    // browser's own request for /favicon.ico, which Storybook's frame does not declare, is not the page's).
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
        errors.push(message.text());
    });
    page.on("response", (response) => {
      if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
    });
    const query = `${globals ? `&globals=${globals}` : ""}${args ? `&args=${args}` : ""}`;
    await page.goto(`${url}iframe.html?id=${id}&viewMode=story${query}`);
    await page.locator("#storybook-root .stage").waitFor();
    return { page, errors };
  }

  it("has every gallery story, under its element, and a docs page for each element", () => {
    const stories = entries.filter((e) => e.type === "story").map((e) => `${e.title} / ${e.name}`);
    const gallery = storyModules.flatMap((m) => m.stories.map((s) => `${m.title} / ${s.name}`));
    assert.deepEqual([...stories].sort(), [...gallery].sort());
    const docs = entries.filter((e) => e.type === "docs").map((e) => e.title);
    assert.deepEqual([...docs].sort(), storyModules.map((m) => m.title).sort());
  });

  it("renders each story with no error, axe finds nothing in it in light and dark, it injects nothing, and Escape cancels its dialog", async () => {
    const failures: string[] = [];
    let cancels = 0;
    for (const entry of entries.filter((e) => e.type === "story")) {
      for (const theme of ["light", "dark"] as const) {
        const { page, errors } = await openStory(entry.id, `theme:${theme}`);
        // What the story's agent sends arrives a frame after the elements are in; let it render.
        await page.evaluate(
          () =>
            new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))),
        );
        const shown = await page.locator("#storybook-root .stage *").count();
        if (shown === 0) failures.push(`${entry.id} (${theme}): nothing rendered`);
        // The a11y addon runs axe in the frame after each render: the page's own copy is used once it is done.
        if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
        const violations = await page.evaluate(async () => {
          const { axe } = window as unknown as {
            axe: { run(context: unknown): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
          };
          for (let attempt = 0; ; attempt++) {
            try {
              const result = await axe.run({ include: ["#storybook-root"] });
              return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
            } catch (error) {
              if (attempt > 100 || !String(error).includes("already running")) throw error;
              await new Promise((resolve) => setTimeout(resolve, 100));
            }
          }
        });
        for (const v of violations) failures.push(`${entry.id} (${theme}): ${v}`);
        if (theme === "light") {
          for (const injected of await page.evaluate(injectedIn)) failures.push(`${entry.id}: injected ${injected}`);
          const cancelled = await escapeCancels(page, DIALOGS[entry.title]);
          if (cancelled === false)
            failures.push(`${entry.id}: no dialog, or Escape did not reach the agent as cancelled`);
          if (cancelled) cancels++;
        }
        for (const e of errors) failures.push(`${entry.id} (${theme}): ${e}`);
        await page.close();
      }
    }
    assert.deepEqual(failures, []);
    // Every dialog element's story was cancelled, and pi-extension-ui's with a dialog pending too.
    const always = entries.filter((e) => e.type === "story" && DIALOGS[e.title] === "always").length;
    assert.ok(cancels > always, `${cancels} stories cancelled, ${always} dialog elements' stories`);
  });

  it("an answer shows in the actions panel: the element's event and the exact JSON the agent got", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}?path=/story/pi-select--plain`);
    const preview = page.frameLocator("#storybook-preview-iframe");
    await preview.getByRole("option", { name: "production" }).click();
    await page.getByRole("tab", { name: /Actions/ }).click();
    const panel = page.locator("#storybook-panel-root");
    await panel.getByText("sent to the agent").first().waitFor();
    await panel.getByText("pi-submit").first().waitFor();
    await panel
      .getByText(/"type":"extension_ui_response"/)
      .first()
      .waitFor();
    await page.close();
  });

  it("a docs page's Show code has the story's markup as a page writes it, one element a line", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}iframe.html?id=session-controls--docs&viewMode=docs`);
    await page.locator("button", { hasText: "Show code" }).first().click();
    const code = page.locator("pre.prismjs").first();
    await code.waitFor();
    const lines = ((await code.textContent()) ?? "").split("\n");
    // The story's own markup: the toolbar's stage, the story's host and Lit's markers are not part of it.
    assert.match(lines[0]!, /^<div style="display: grid/);
    assert.ok(lines.includes("    <pi-model-picker></pi-model-picker>"), lines.join("\n"));
    assert.ok(lines.includes("  <pi-session-stats></pi-session-stats>"), lines.join("\n"));
    assert.doesNotMatch(lines.join("\n"), /class="stage"|<!--/);
    await page.close();
  });

  it("a docs page shows the gallery's descriptions as written, not read as Markdown", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}iframe.html?id=pi-prompt--docs&viewMode=docs`);
    await page.getByText("After agent_start, Enter sends steer (Alt+Enter follow_up) and Esc sends abort.").waitFor();
    await page.close();
  });

  it("a docs page's stories follow the toolbar's theme", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const background = async (theme: string) => {
      await page.goto(`${url}?path=/docs/pi-status-bar--docs&globals=theme:${theme}`);
      const bar = page.frameLocator("#storybook-preview-iframe").locator("pi-status-bar").first();
      await bar.waitFor();
      // The status bar's own background, from the theme's tokens: its lightness as 0-255 (the mean of r, g, b).
      return bar.evaluate((element) => {
        const [r, g, b] = getComputedStyle(element)
          .backgroundColor.match(/[\d.]+/g)!
          .map(Number);
        return (r! + g! + b!) / 3;
      });
    };
    const dark = await background("dark");
    const light = await background("light");
    assert.ok(dark < 100 && light > 155, `the status bar's background: ${dark} dark, ${light} light`);
    await page.close();
  });

  it("an element's attribute control reaches the element the story renders", async () => {
    const { page, errors } = await openStory("pi-transcript--a-conversation");
    // The control's value in the frame's address, as a link to the story with that control set gives it.
    await page.goto(`${url}iframe.html?id=pi-transcript--a-conversation&viewMode=story&args=heading-level:2`);
    const transcript = page.locator("pi-transcript");
    await transcript.waitFor();
    assert.equal(await transcript.getAttribute("heading-level"), "2");
    await page.waitForFunction(() => document.querySelector("pi-transcript")?.shadowRoot?.querySelector("h2"));
    assert.equal(await page.locator("pi-transcript h3").count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("a property control (pi-transcript's strings, a JSON object) sets the property on the element", async () => {
    const { page, errors } = await openStory("pi-transcript--a-conversation", "", "strings.jumpToLatest:Newest");
    const jump = page.locator("pi-transcript [part~='jump']");
    await page.waitForFunction(() =>
      document
        .querySelector("pi-transcript")
        ?.shadowRoot?.querySelector("[part~='jump']")
        ?.textContent?.includes("Newest"),
    );
    assert.equal((await jump.textContent())?.trim(), "Newest");
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("the toolbar's language and direction reach the stage", async () => {
    const { page, errors } = await openStory("pi-confirm--plain", "locale:ja;direction:rtl");
    const stage = page.locator("#storybook-root .stage");
    assert.equal(await stage.getAttribute("lang"), "ja");
    assert.equal(await stage.getAttribute("dir"), "rtl");
    await page.getByRole("button", { name: "はい" }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });
});
