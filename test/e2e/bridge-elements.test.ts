/**
 * End to end: the real pi 0.73.1 with the test extension, behind the real bridge (which also serves the page), into
 * the real elements in Chromium, driven like a user. What pi actually received is read from the notify the
 * extension sends back, through a second, plain WebSocket client.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { type Browser, chromium, type LaunchOptions, type Page } from "playwright-core";
import { type RestartPolicy, type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { type Rec, TestClient } from "../../packages/bridge/test/support/harness.js";
import { dialogsArmed } from "../support/armed.js";
import { isolatedPi, PI_0_73, PI_VERSIONS } from "../support/real-pi.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXTENSION = join(ROOT, "test/fixtures/pi/extensions/ui-exercise.ts");
/** The shared Chromium settings (scripts/chromium.mjs ships no types; a computed specifier keeps tsc out of it). */
const chromiumScript = new URL("../../scripts/chromium.mjs", import.meta.url).href;
const { launchOptions } = (await import(chromiumScript)) as { launchOptions(): LaunchOptions };

/**
 * The page: every element registered, one pi-session connected to the bridge that served it. The consumers' entries
 * come before pi-session's (all.ts adds it last here), so their tags are defined and upgraded before the provider
 * exists: the page works only because the session still reaches them (context.ts's ContextRoot).
 */
async function writePage(dir: string): Promise<void> {
  await build({
    stdin: {
      contents: `
        import "./elements/extension-ui/define.ts";
        import "./elements/prompt/define.ts";
        import "./elements/status-bar/define.ts";
        import "./elements/widget-slot/define.ts";
        import "./all.ts";
        const token = new URLSearchParams(location.search).get("token");
        document.querySelector("pi-session").url = "ws://" + location.host + "/?token=" + token;
      `,
      resolveDir: join(ROOT, "packages/elements/src"),
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    outfile: join(dir, "app.js"),
    logLevel: "silent",
  });
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>pi-elements e2e</title><link rel="icon" href="data:,">
<pi-session>
  <pi-widget-slot placement="aboveEditor"></pi-widget-slot>
  <pi-extension-ui><p>ready</p><pi-prompt></pi-prompt></pi-extension-ui>
  <pi-widget-slot placement="belowEditor"></pi-widget-slot>
  <pi-status-bar></pi-status-bar>
</pi-session>
<script type="module" src="./app.js"></script>`,
  );
}

const notifyWith = (prefix: string) => (r: Rec) =>
  r.type === "extension_ui_request" && r.method === "notify" && String(r.message).startsWith(prefix);

interface Stack {
  bridge: RunningBridge;
  browser: Browser;
  page: Page;
  /** A plain WebSocket client beside the page: it runs commands and reads what pi reports back. */
  agent: TestClient;
  pageUrl: string;
  pageErrors: string[];
  close(): Promise<void>;
}

/** The real pi with `extension`, the bridge serving the page, Chromium with the page open. */
async function openStack(extension: string, restart: RestartPolicy = "never", version = PI_0_73): Promise<Stack> {
  const pi = isolatedPi(extension, { pi: version });
  const site = mkdtempSync(join(tmpdir(), "pi-e2e-site-"));
  await writePage(site);
  const bridge = await startBridge({
    port: 0,
    ...pi.options,
    staticDir: site,
    restart,
    log: () => {},
  });
  const pageUrl = bridge.url.replace(/^ws:/, "http:");
  const agent = await TestClient.connect(bridge.url);
  const browser = await chromium.launch(launchOptions());
  const page = await browser.newPage();
  // Keeps every WebSocket the page opens, so a test can drop the connection as a network would.
  await page.addInitScript(() => {
    const Native = WebSocket;
    const sockets: WebSocket[] = [];
    (window as unknown as { piSockets: WebSocket[] }).piSockets = sockets;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        sockets.push(this);
      }
    };
  });
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  await page.goto(pageUrl);
  return {
    bridge,
    browser,
    page,
    agent,
    pageUrl,
    pageErrors,
    async close() {
      await agent.close();
      await browser.close();
      await bridge.close();
      pi.cleanup();
      rmSync(site, { recursive: true, force: true });
    },
  };
}

for (const version of PI_VERSIONS) {
  describe(`pi → bridge → elements in Chromium (pi ${version.version})`, { timeout: 180_000 }, () => {
    let stack: Stack;
    let browser: Browser;
    let page: Page;
    let agent: TestClient;
    let pageUrl: string;
    let pageErrors: string[];

    before(async () => {
      stack = await openStack(EXTENSION, "never", version);
      ({ browser, page, agent, pageUrl, pageErrors } = stack);
    });

    after(() => stack?.close());

    /** Runs an extension command from the plain client and returns where its records start. */
    function command(text: string): number {
      const from = agent.records.length;
      agent.send({ type: "prompt", message: text, id: `e2e-${from}` });
      return from;
    }

    it("a select answered with the mouse reaches pi", async () => {
      const from = command("/ui-select");
      await page.locator("pi-select [role=option]", { hasText: "Beta" }).click();
      assert.equal((await agent.next(notifyWith("ui-select ->"), from)).message, 'ui-select -> "Beta"');
      await page.locator("pi-select").waitFor({ state: "detached" });
    });

    it("a confirm answered with the keyboard reaches pi", async () => {
      const from = command("/ui-confirm");
      await page.locator("pi-confirm").waitFor();
      await dialogsArmed(page);
      // No has focus (the least destructive choice): the arrow moves to Yes.
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("Enter");
      assert.equal((await agent.next(notifyWith("ui-confirm ->"), from)).message, "ui-confirm -> true");
    });

    it("a page reloaded in the middle of a dialog shows it again, and the answer reaches pi", async () => {
      const from = command("/ui-input");
      await page.locator("pi-input").waitFor();
      await page.reload();
      const input = page.locator("pi-input input");
      await input.waitFor();
      await input.fill("after reload 漢字");
      await dialogsArmed(page);
      await input.press("Enter");
      assert.equal((await agent.next(notifyWith("ui-input ->"), from)).message, 'ui-input -> "after reload 漢字"');
    });

    it("an answer from another client closes the dialog in the page", async () => {
      const from = command("/ui-input");
      const request = await agent.next((r) => r.method === "input", from);
      await page.locator("pi-input").waitFor();
      agent.send({ type: "extension_ui_response", id: request.id, value: "from elsewhere" });
      await page.locator("pi-input").waitFor({ state: "detached" });
      assert.equal((await agent.next(notifyWith("ui-input ->"), from)).message, 'ui-input -> "from elsewhere"');
    });

    it("two dialogs pending at once are shown one after the other and both answers reach pi", async () => {
      const from = command("/ui-two");
      await page.locator("pi-extension-ui [part=queue]", { hasText: "1 of 2" }).waitFor();
      await page.locator("pi-confirm").waitFor();
      await dialogsArmed(page);
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("Enter");
      const input = page.locator("pi-input input");
      await input.waitFor();
      await input.fill("second");
      await dialogsArmed(page);
      await input.press("Enter");
      assert.equal(
        (await agent.next(notifyWith("ui-two ->"), from)).message,
        'ui-two -> {"confirmed":true,"value":"second"}',
      );
    });

    it("a timed dialog left alone closes in the page, and pi gets its default", async () => {
      const from = command("/ui-timed-input 1500");
      await page.locator("pi-input").waitFor();
      await page.locator("pi-input").waitFor({ state: "detached" });
      assert.equal((await agent.next(notifyWith("ui-timed-input ->"), from)).message, "ui-timed-input -> undefined");
    });

    it("markup in a dialog is shown as text, never parsed", async () => {
      const from = command("/ui-select");
      const dialog = page.locator("pi-select");
      await dialog.waitFor();
      assert.match(
        (await dialog.locator("[part~=heading]").textContent()) ?? "",
        /Pick one <img src=x onerror=alert\(1\)>/,
      );
      assert.equal(await page.locator("pi-select img").count(), 0);
      await page.locator("pi-select [role=option]", { hasText: "<img" }).click();
      assert.equal(
        (await agent.next(notifyWith("ui-select ->"), from)).message,
        'ui-select -> "<img src=x onerror=alert(1)>"',
      );
    });

    it("the WebSocket dropped mid-dialog: the answer given meanwhile reaches pi after the reconnect", async () => {
      const from = command("/ui-input");
      const input = page.locator("pi-input input");
      await input.waitFor();
      const sockets = () => page.evaluate(() => (window as unknown as { piSockets: WebSocket[] }).piSockets.length);
      const before = await sockets();
      await page.evaluate(() => (window as unknown as { piSockets: WebSocket[] }).piSockets.at(-1)?.close());
      await input.fill("answered while offline");
      await dialogsArmed(page);
      await input.press("Enter");
      await page.locator("pi-input").waitFor({ state: "detached" });
      assert.equal((await agent.next(notifyWith("ui-input ->"), from)).message, 'ui-input -> "answered while offline"');
      assert.ok((await sockets()) > before, "the page reconnected");
      // The replay on reconnecting brought the dialog back until the bridge said it was answered: it stays closed.
      await page.locator("pi-extension-ui p", { hasText: "ready" }).waitFor();
      assert.equal(await page.locator("pi-input").count(), 0);
    });

    it("two pages: the first answer wins and the other page's dialog closes", async () => {
      const second = await browser.newPage();
      try {
        await second.goto(pageUrl);
        const from = command("/ui-input");
        await page.locator("pi-input").waitFor();
        await second.locator("pi-input").waitFor();
        const input = second.locator("pi-input input");
        await input.fill("from the second page");
        await dialogsArmed(second);
        await input.press("Enter");
        await page.locator("pi-input").waitFor({ state: "detached" });
        assert.equal((await agent.next(notifyWith("ui-input ->"), from)).message, 'ui-input -> "from the second page"');
      } finally {
        await second.close();
      }
    });

    it("styled statuses and widgets render their text without escapes or markup", async () => {
      const from = command("/ui-styled");
      await agent.next(notifyWith("ui-styled ->"), from);
      const bar = page.locator("pi-status-bar");
      await bar.getByText("warm bold struck after a tab").waitFor();
      const barText = (await bar.evaluate((el) => el.shadowRoot?.textContent)) ?? "";
      assert.match(barText, /accent error bold <img src=x onerror=alert\(1\)>/);
      assert.equal(barText.includes("\u001b"), false, "no raw escape reaches the page");
      const widget = page.locator("pi-widget-slot[placement=aboveEditor] [part~=widget][data-key=styled]");
      await widget.waitFor();
      const lines = await widget.locator("[part~=line]").allTextContents();
      assert.deepEqual(lines.slice(0, 4), [
        "✔ success line",
        "⚠ warning line <img src=x onerror=alert(1)>",
        "italic strikethrough",
        "warm bold struck",
      ]);
      assert.equal(await page.locator("pi-widget-slot img, pi-status-bar img").count(), 0);
    });

    it("a widget over 10 lines is truncated as in pi, a moved widget changes placement, a burst shows its last status", async () => {
      let from = command("/ui-tall");
      await agent.next(notifyWith("ui-tall ->"), from);
      const tall = page.locator("pi-widget-slot[placement=aboveEditor] [part~=widget][data-key=tall]");
      await tall.locator("[part~=toggle]").waitFor();
      from = command("/ui-move");
      await agent.next(notifyWith("ui-move ->"), from);
      await page.locator("pi-widget-slot[placement=belowEditor] [data-key=mover]").getByText("I moved below").waitFor();
      assert.equal(await page.locator("pi-widget-slot[placement=aboveEditor] [data-key=mover]").count(), 0);
      from = command("/ui-burst");
      await agent.next(notifyWith("ui-burst ->"), from);
      await page.locator("pi-status-bar").getByText("burst 2000/2000").waitFor();
    });

    it("clears empty the status bar and the widget slots", async () => {
      const from = command("/ui-clear");
      await agent.next(notifyWith("ui-clear ->"), from);
      await page.locator("pi-widget-slot [part~=widget]").first().waitFor({ state: "detached" });
      assert.equal(await page.locator("pi-widget-slot [part~=widget]").count(), 0);
      assert.equal(await page.locator("pi-status-bar").getByText("burst").count(), 0);
    });

    it("the page threw nothing and logged no error", () => {
      assert.deepEqual(pageErrors, []);
    });
  });
}

describe("pi's own rpc-demo extension through the bridge into the elements", { timeout: 120_000 }, () => {
  let stack: Stack;
  before(async () => {
    stack = await openStack(join(ROOT, "node_modules/@mariozechner/pi-coding-agent/examples/extensions/rpc-demo.ts"));
  });
  after(() => stack?.close());

  it("/rpc-input answered with the keyboard", async () => {
    const from = stack.agent.records.length;
    stack.agent.send({ type: "prompt", message: "/rpc-input", id: "demo-input" });
    const input = stack.page.locator("pi-input input");
    await input.waitFor();
    await input.fill("typed in the page");
    await dialogsArmed(stack.page);
    await input.press("Enter");
    assert.equal((await stack.agent.next(notifyWith("You entered:"), from)).message, "You entered: typed in the page");
  });

  it("/rpc-editor: the prefill edited over several lines, submitted with Enter", async () => {
    const from = stack.agent.records.length;
    stack.agent.send({ type: "prompt", message: "/rpc-editor", id: "demo-editor" });
    const textarea = stack.page.locator("pi-editor textarea");
    await textarea.waitFor();
    assert.equal(await textarea.inputValue(), "Line 1\nLine 2\nLine 3");
    await dialogsArmed(stack.page);
    await textarea.press("End");
    await textarea.press("Shift+Enter");
    await textarea.pressSequentially("Line 4");
    await textarea.press("Enter");
    assert.equal((await stack.agent.next(notifyWith("Editor submitted"), from)).message, "Editor submitted (4 lines)");
  });

  it("the page threw nothing and logged no error", () => {
    assert.deepEqual(stack.pageErrors, []);
  });
});

for (const version of PI_VERSIONS) {
  describe(`pi killed under the page, then restarted on request (pi ${version.version})`, { timeout: 120_000 }, () => {
    let stack: Stack;
    before(async () => {
      stack = await openStack(EXTENSION, "on-request", version);
    });
    after(() => stack?.close());

    it("the page says the agent exited, closes its dialog and disables sending; its Restart button brings sending back", async () => {
      const { page, agent, bridge } = stack;
      const from = agent.records.length;
      agent.send({ type: "prompt", message: "/ui-input", id: "kill-input" });
      await page.locator("pi-input").waitFor();
      const pid = bridge.agentPid;
      assert.ok(pid);
      process.kill(pid, "SIGKILL");

      const alert = page.locator("pi-prompt [part~=agent-exit]");
      await alert.waitFor();
      assert.equal(await alert.getAttribute("role"), "alert");
      // pi 1.6.0 writes to stderr before it is killed: its last lines follow behind a disclosure.
      assert.match((await alert.textContent()) ?? "", /^\s*The agent exited \(code SIGKILL\)/);
      await page.locator("pi-input").waitFor({ state: "detached" });
      const send = page.locator("pi-prompt [part~=send]");
      assert.equal(await send.isDisabled(), true);

      // A page opened now learns it from the bridge's replay.
      const late = await stack.browser.newPage();
      try {
        await late.goto(stack.pageUrl);
        await late.locator("pi-prompt [part~=agent-exit]", { hasText: "The agent exited (code SIGKILL)" }).waitFor();
      } finally {
        await late.close();
      }

      // The person restarts pi from the page: the alert's Restart button, by keyboard.
      const restart = page.locator("pi-prompt [part~=restart-button]");
      assert.equal(await restart.textContent(), "Restart pi");
      await restart.focus();
      await restart.press("Enter");
      await alert.waitFor({ state: "detached" });
      await bridge.agentStarted();
      // The focus the button had went to the prompt's box, not to the page.
      assert.equal(
        await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute("part") ?? "(none)"),
        "textarea",
      );
      // Sending works again: a command typed in the page's prompt reaches the new pi, which asks back.
      const field = page.locator("pi-prompt textarea");
      await field.fill("/ui-confirm");
      await field.press("Enter");
      await page.locator("pi-confirm").waitFor();
      await page.locator("pi-confirm [part~=yes-button]").click();
      assert.equal((await agent.next(notifyWith("ui-confirm ->"), from)).message, "ui-confirm -> true");
    });

    it("the page threw nothing and logged no error", () => {
      assert.deepEqual(stack.pageErrors, []);
    });
  });
}
