/**
 * The workshop on Storybook, as built (scripts/storybook-build.mjs) and opened in Chromium with its manager: every
 * story the gallery has is in Storybook's index with a docs page per element; an answer given in a story shows in
 * the actions panel as the elements' event and the exact JSON the agent got; Show code, the gallery's descriptions,
 * a docs page's theme, the attribute and property controls, the toolbar's language and direction.
 *
 * Each story's own frame is checked in Chromium, Firefox and WebKit by test/browser/storybook.test.ts (renders, axe
 * in light and dark, injects nothing, Escape cancels). What this file drives is the manager around the frames, with
 * playwright-core's locators in Debian's Chromium.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { storyModules } from "../../demo/src/gallery/stories/index.js";
import { launchOptions } from "../../scripts/chromium.mjs";
import { buildStorybook, builtStorybook } from "../../scripts/storybook-build.mjs";
import { pageSettled, waitFor } from "../support/wait-for.js";

const ROOT_DEMO = fileURLToPath(new URL("../../demo/", import.meta.url));
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

describe("the workshop on Storybook, built", { timeout: 900_000 }, () => {
  // The test command's workshop step built it for all its steps (scripts/storybook-build.mjs); on its own, a build here.
  const shared = builtStorybook();
  const out = shared ? join(ROOT_DEMO, shared) : mkdtempSync(join(tmpdir(), "pi-elements-storybook-"));
  let server: Server;
  let url: string;
  let browser: Browser;
  let entries: IndexEntry[] = [];

  before(async () => {
    if (!shared) await buildStorybook(out);
    ({ server, url } = await serve(out));
    entries = Object.values(
      (JSON.parse(await readFile(join(out, "index.json"), "utf8")) as { entries: Record<string, IndexEntry> }).entries,
    );
    browser = await chromium.launch(launchOptions());
  });

  after(async () => {
    await browser?.close();
    server?.close();
    if (!shared) rmSync(out, { recursive: true, force: true });
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

  it("an answer shows in the actions panel: the element's event and the exact JSON the agent got", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}?path=/story/pi-select--plain`);
    const preview = page.frameLocator("#storybook-preview-iframe");
    await preview.getByRole("option", { name: "production" }).click();
    await page.getByRole("tab", { name: /Actions/ }).click();
    const panel = page.locator("#storybook-panel-root");
    await panel.getByText("sent to the agent").first().waitFor();
    await panel.getByText("pi-submit").first().waitFor();
    // The event's detail as the page gets it ({value: "production"}), not an empty object: its key is shown.
    await panel.getByText("value", { exact: true }).first().waitFor();
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

  it("a dialog's stories on a docs page follow the toolbar's theme as it changes, each in its own frame", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}?path=/docs/pi-confirm--docs&globals=theme:light`);
    const docs = page.frameLocator("#storybook-preview-iframe");
    // The primary story's frame, at the top of the page: the background of the dialog box pi-extension-ui draws
    // around the confirm, as 0-255 lightness.
    const lightness = () =>
      docs
        .frameLocator('iframe[id^="iframe--pi-confirm--plain"]')
        .first()
        .locator("pi-extension-ui:has(pi-confirm[open])")
        .evaluate((element) => {
          const [r, g, b] = getComputedStyle(element.shadowRoot!.querySelector("dialog")!)
            .backgroundColor.match(/[\d.]+/g)!
            .map(Number);
          return (r! + g! + b!) / 3;
        });
    assert.ok((await lightness()) > 155, "light at first");
    await page.getByRole("button", { name: /^Colour scheme/ }).click();
    await page.getByRole("option", { name: "dark" }).click();
    let dark = 255;
    await waitFor(
      async () => {
        dark = await lightness().catch(() => 255);
        return dark < 100;
      },
      {
        message: "the confirm's background to turn dark",
        timeout: 15_000,
        detail: () => `its lightness was ${dark}`,
      },
    );
    await page.close();
  });

  it("a docs page stays where the reader is while its stories open their dialogs and fill pi-prompt, and logs no error", async () => {
    for (const element of ["pi-select", "pi-confirm", "pi-extension-ui", "pi-prompt"]) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // The manager's, the docs page's and each story frame's (Storybook's dev server logged three "UniversalStore"
      // errors here: its previews' stores gave up waiting for the manager while each module compiled on request).
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      await page.goto(`${url}?path=/docs/${element}--docs`);
      await page.frameLocator("#storybook-preview-iframe").locator(".sbdocs-title").waitFor();
      // Every story has played: each story frame (the dialogs') and each story in the page shows its stage.
      await page.waitForFunction(
        () => {
          const preview = document.querySelector<HTMLIFrameElement>("#storybook-preview-iframe")!.contentDocument!;
          const frames = [...preview.querySelectorAll<HTMLIFrameElement>('iframe[id^="iframe--"]')];
          const stages = [preview, ...frames.map((f) => f.contentDocument)].flatMap((d) =>
            d ? [...d.querySelectorAll(".stage > div")] : [],
          );
          return (
            stages.length > 0 && stages.every((stage) => !(stage as HTMLElement).hidden && stage.childElementCount > 0)
          );
        },
        undefined,
        { timeout: 30_000 },
      );
      // Whatever would scroll the page does it as an element updates (a focus, a scrollIntoView): settled, it is done.
      const docs = page.frames().find((f) => f.url().includes("viewMode=docs"))!;
      for (const frame of [docs, ...docs.childFrames()]) await pageSettled(frame);
      const scrolled = await docs.evaluate(() => scrollY);
      assert.equal(scrolled, 0, `${element}'s docs page scrolled to ${scrolled}`);
      assert.deepEqual(errors, [], `${element}'s docs page`);
      await page.close();
    }
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
