/**
 * pi's own example extensions behind the README's embedding page: the no-build page (demo/hosts/plain/index.html)
 * with the single-file bundle, served by the real bridge next to a real pi (either version) that loads the examples
 * with `-e`. The browser is one function (`openPage`), so another engine can take its place; a plain WebSocket
 * client on the same bridge reads what pi sends and sends what the page has no control for (new_session, fork).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { type Rec, TestClient } from "../../packages/bridge/test/support/harness.js";
import { launchOptions } from "../../scripts/chromium.mjs";
import { type IsolatedPi, isolatedPi, type PiVersion } from "./real-pi.js";
import type { ScriptedModel } from "./scripted-model.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The folder of a pi version's example extensions. */
export function examplesDir(pi: PiVersion): string {
  return join(pi.nodeModules, pi.packageName, "examples/extensions");
}

let browser: Browser | undefined;

/** A new page at `url` in the shared browser (started on first use, closed by `closeBrowser`). */
export async function openPage(url: string): Promise<Page> {
  browser ??= await chromium.launch(launchOptions());
  const page = await browser.newPage();
  await page.goto(url);
  return page;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

export interface ExampleSession {
  readonly pi: IsolatedPi;
  readonly bridge: RunningBridge;
  /** A second client of the same bridge: every record pi sent, and a way to send what the page cannot. */
  readonly client: TestClient;
  readonly page: Page;
  /** Uncaught errors on the page. */
  readonly pageErrors: string[];
  /** The bridge's log, with pi's stderr. */
  readonly logs: string[];
  close(): Promise<void>;
}

export interface ExampleSessionOptions {
  pi: PiVersion;
  /** Paths relative to the version's examples/extensions folder; each is loaded with its own `-e`. */
  examples: readonly string[];
  model?: ScriptedModel;
  /** Runs before pi starts, with its working directory (also its HOME; pi's agent dir is `agent/` in it). */
  prepare?: (cwd: string) => void;
}

export async function startExampleSession(options: ExampleSessionOptions): Promise<ExampleSession> {
  const dir = examplesDir(options.pi);
  const [first, ...rest] = options.examples.map((example) => join(dir, example));
  const pi = isolatedPi(first, {
    pi: options.pi,
    ...(options.model === undefined ? {} : { model: options.model }),
    args: rest.flatMap((path) => ["-e", path]),
  });
  options.prepare?.(pi.cwd);
  const site = mkdtempSync(join(tmpdir(), "pi-examples-site-"));
  copyFileSync(join(ROOT, "demo/hosts/plain/index.html"), join(site, "index.html"));
  copyFileSync(join(ROOT, "packages/elements/dist/pi-elements.bundle.js"), join(site, "pi-elements.bundle.js"));
  const logs: string[] = [];
  const bridge = await startBridge({
    port: 0,
    ...pi.options,
    staticDir: site,
    restart: "never",
    log: (line) => logs.push(line),
  });
  const client = await TestClient.connect(bridge.url);
  // pi has loaded its extensions (and run their session_start) once it answers; many examples take a while.
  client.send({ type: "get_state", id: "ready" });
  for (let attempt = 1; ; attempt++) {
    try {
      await client.next((r) => r.type === "response" && r.id === "ready", 0, "pi's first answer");
      break;
    } catch (error) {
      if (attempt === 6) throw error;
    }
  }
  const http = bridge.url.replace(/^ws:/, "http:").replace(/\/\?.*$/, "");
  // The bridge serves its static files to token holders only (the token then rides in a cookie).
  const token = encodeURIComponent(bridge.token ?? "");
  const page = await openPage(`${http}/index.html?token=${token}&bridge=${encodeURIComponent(bridge.url)}`);
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.locator("pi-prompt").getByRole("textbox").waitFor();
  return {
    pi,
    bridge,
    client,
    page,
    pageErrors,
    logs,
    async close() {
      await page.close();
      await client.close();
      await bridge.close();
      pi.cleanup();
      rmSync(site, { recursive: true, force: true });
    },
  };
}

/** What a user does in the page, and what a test reads back from pi. */
export class ExampleUser {
  /** Where the current case began in pi's records: the waits below look from here on unless told otherwise. */
  since = 0;

  constructor(readonly session: ExampleSession) {}

  /** Marks the start of a case. */
  startCase(): void {
    this.since = this.mark();
  }

  get page(): Page {
    return this.session.page;
  }

  /** The number of records pi has sent so far: pass it to the waits below to look only at what comes next. */
  mark(): number {
    return this.session.client.records.length;
  }

  /**
   * Types into pi-prompt like a user and presses Enter, once the prompt can send (its Send button is enabled: the
   * agent is idle and pi answered the previous prompt, which it does once a command's handler is done).
   */
  async type(text: string): Promise<void> {
    const prompt = this.page.locator("pi-prompt");
    await prompt.getByRole("button", { name: "Send", disabled: false }).waitFor();
    const box = prompt.getByRole("textbox");
    await box.fill(text);
    await box.press("Enter");
  }

  /** The dialog pi-extension-ui shows (its one `<dialog>`, inline or modal, named by the title; a confirm's is an alertdialog). */
  dialog(name: string | RegExp) {
    const host = this.page.locator("pi-extension-ui");
    return host.getByRole("dialog", { name }).or(host.getByRole("alertdialog", { name }));
  }

  /** Waits for a toast with this text in pi-notifications. */
  async toast(text: string | RegExp): Promise<void> {
    await this.page.locator("pi-notifications", { hasText: text }).waitFor();
  }

  /** Waits for pi's own `notify` with this message (what pi's extension decided), from `from` on. */
  notified(message: string | RegExp, from = this.since): Promise<Rec> {
    return this.ui("notify", (r) => matches(r.message, message), from);
  }

  /** Waits for an extension_ui_request of `method` that satisfies `match`. */
  ui(method: string, match: (record: Rec) => boolean = () => true, from = this.since): Promise<Rec> {
    return this.session.client.next(
      (r) => r.type === "extension_ui_request" && r.method === method && match(r),
      from,
      `pi's ${method}`,
    );
  }

  /** Waits for a record pi sent. */
  record(match: (record: Rec) => boolean, from = this.since, what?: string): Promise<Rec> {
    return this.session.client.next(match, from, what);
  }

  /** Sends a command the page has no control for, over the second client, and returns pi's response. */
  async command(command: Record<string, unknown> & { type: string }): Promise<Rec> {
    const id = `${command.type}-${Math.random().toString(36).slice(2)}`;
    const from = this.mark();
    this.session.client.send({ ...command, id });
    return this.record((r) => r.type === "response" && r.id === id, from, `the response to ${command.type}`);
  }

  /**
   * Waits for the end of the first agent run that starts after `from` (pi sends a run's `agent_end` after its
   * extensions' agent_end handlers, which may ask the user first).
   */
  async agentEnd(from: number): Promise<Rec> {
    const start = await this.record((r) => r.type === "agent_start", from, "agent_start");
    const at = this.session.client.records.indexOf(start);
    return this.record((r) => r.type === "agent_end", at, "agent_end");
  }

  /** Waits until pi reports that it is not streaming. */
  async idle(): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const state = await this.command({ type: "get_state" });
      if ((state.data as { isStreaming?: boolean }).isStreaming === false) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error("pi is still streaming");
  }
}

/** The text as rendered, line breaks included: what a user reads, not the DOM's text content. */
export function shownText(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's rendered text is the point here.
  return locator.innerText();
}

function matches(value: unknown, expected: string | RegExp): boolean {
  return typeof value === "string" && (typeof expected === "string" ? value === expected : expected.test(value));
}
