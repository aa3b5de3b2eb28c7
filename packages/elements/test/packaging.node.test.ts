/**
 * What the package ships, checked after the build: the single-file bundle works from a plain
 * `<script type="module">` in Chromium with Lit's production build, each element's entry pulls in only what it
 * needs, and the manifest and framework typings name every element and event.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { launchOptions } from "../../../scripts/chromium.mjs";
// @ts-expect-error: a plain .mjs helper without type declarations.
import { bundledElementNames, bundleElement, elementNames } from "../scripts/bundle.mjs";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const bundle = readFileSync(`${packageDir}dist/pi-elements.bundle.js`, "utf8");
const manifest = JSON.parse(readFileSync(`${packageDir}custom-elements.json`, "utf8")) as {
  modules: { declarations?: { tagName?: string; customElement?: boolean; events?: { name: string }[] }[] }[];
};
const tags = (elementNames() as string[]).map((name) => `pi-${name}`);
/** The tags the single-file bundle defines (the conversation's elements and the session controls are not in it). */
const bundledTags = (bundledElementNames() as string[]).map((name) => `pi-${name}`);

const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>bundle</title>
<pi-extension-ui><pi-prompt></pi-prompt></pi-extension-ui>
<script type="module">
  import { createMemoryPair, PiSession } from "/pi-elements.bundle.js";
  const [client, agent] = createMemoryPair();
  const session = new PiSession(client);
  const answers = [];
  agent.addEventListener("record", (e) => answers.push(JSON.parse(e.value)));
  document.querySelector("pi-extension-ui").session = session;
  agent.send(JSON.stringify({ type: "extension_ui_request", id: "q1", method: "confirm", title: "From the bundle?", message: "yes" }));
  window.answers = answers;
</script>`;

describe("packaging", () => {
  let server: ReturnType<typeof createServer>;
  let origin = "";
  before(async () => {
    server = createServer((request, response) => {
      if (request.url === "/pi-elements.bundle.js")
        response.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
      else response.writeHead(200, { "content-type": "text/html" }).end(page);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it("the bundle runs from a plain module script: every element defined, a dialog shown and answered", async () => {
    const browser = await chromium.launch(launchOptions());
    try {
      const tab = await browser.newPage();
      const messages: string[] = [];
      tab.on("console", (message) => messages.push(message.text()));
      tab.on("pageerror", (error) => messages.push(`pageerror: ${error.message}`));
      await tab.goto(origin);
      await tab.locator("pi-confirm").getByRole("button", { name: "Yes" }).click();
      await tab.waitForFunction(() => (window as unknown as { answers: unknown[] }).answers.length === 1);
      const answers = await tab.evaluate(() => (window as unknown as { answers: unknown[] }).answers);
      assert.deepEqual(answers, [{ type: "extension_ui_response", id: "q1", confirmed: true }]);
      const defined = await tab.evaluate((names) => names.filter((n) => !customElements.get(n)), bundledTags);
      assert.deepEqual(defined, []);
      assert.deepEqual(messages, [], "no dev-mode warning, no error");
    } finally {
      await browser.close();
    }
  });

  it("has Lit's production build and the templates' CSS as the sources write it", () => {
    assert.ok(!bundle.includes("Lit is in dev mode"), "Lit's dev build is bundled");
    // pi-select's option marker: a build that rewrote it as a CSS escape ("\2192") broke the whole template.
    assert.ok(bundle.includes('content: "→" / "";'), "template CSS was rewritten");
    assert.ok(!bundle.includes("jitless:!0"), "the bundle switches zod to jitless for the whole page");
  });

  it("bundles one element's entry without the elements it does not use", async () => {
    const prompt = new TextDecoder().decode(await bundleElement("prompt"));
    for (const other of ["pi-select", "pi-confirm", "pi-status-bar", "pi-notifications"]) {
      assert.ok(!prompt.includes(`"${other}"`), `pi-prompt's entry contains ${other}`);
    }
    assert.ok(prompt.includes('"pi-prompt"'));
  });

  it("bundles the display elements' entries without zod: they keep a store but validate no protocol", async () => {
    for (const name of ["status-bar", "widget-slot", "notifications"]) {
      const code = new TextDecoder().decode(await bundleElement(name));
      // One of zod's issue codes: in the bundle exactly when zod is.
      assert.ok(!code.includes("invalid_type"), `pi-${name}'s entry contains zod`);
      assert.ok(code.includes(`"pi-${name}"`));
    }
  });

  it("bundles the dialog elements' entries without zod: used alone they keep a local session that validates nothing", async () => {
    // pi-session stays out: its WebSocket path validates pi's messages, which is what zod is for.
    for (const name of ["select", "confirm", "input", "editor", "extension-ui"]) {
      const code = new TextDecoder().decode(await bundleElement(name));
      assert.ok(!code.includes("invalid_type"), `pi-${name}'s entry contains zod`);
      assert.ok(code.includes(`"pi-${name}"`));
    }
  });

  it("lists every element in custom-elements.json, with its events", () => {
    // Registered elements have a tag; DialogElement, their abstract base, is listed without one.
    const declared = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement && d.tagName);
    assert.deepEqual(declared.map((d) => d.tagName).sort(), [...tags].sort());
    // The dialogs' inherited API (heading, timeout, open, ask, ...) is documented on each dialog.
    const select = declared.find((d) => d.tagName === "pi-select") as unknown as { members?: { name: string }[] };
    for (const name of ["heading", "timeout", "open", "modal", "ask", "show"]) {
      assert.ok(
        select.members?.some((m) => m.name === name),
        `pi-select documents ${name}`,
      );
    }
    const prompt = declared.find((d) => d.tagName === "pi-prompt")!;
    assert.deepEqual(prompt.events?.map((e) => e.name).sort(), ["pi-abort", "pi-send", "pi-send-error"]);
  });

  it("generates React, Vue and Svelte typings naming every element and event", () => {
    const react = readFileSync(`${packageDir}dist/frameworks/react.d.ts`, "utf8");
    const vue = readFileSync(`${packageDir}dist/frameworks/vue.d.ts`, "utf8");
    const svelte = readFileSync(`${packageDir}dist/frameworks/svelte.d.ts`, "utf8");
    for (const tag of tags) {
      for (const typings of [react, vue, svelte]) assert.ok(typings.includes(`"${tag}"`), `${tag} missing`);
    }
    assert.match(react, /"onpi-send"\?: \(event: GlobalEventHandlersEventMap\["pi-send"\]\) => void/);
    assert.match(vue, /"onPiSend"\?: \(event: GlobalEventHandlersEventMap\["pi-send"\]\) => void/);
    assert.match(svelte, /"onpi-send"\?: \(event: GlobalEventHandlersEventMap\["pi-send"\]\) => void/);
    assert.match(react, /Partial<Pick<Elements\.PiPrompt, [^>]*"value"/);
  });
});
