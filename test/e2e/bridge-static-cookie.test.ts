/**
 * The page the bridge serves (`--static`), in real Chromium and Firefox ESR, against a server on another port of
 * 127.0.0.1 (issue 18, items 1 and 12). Cookies ignore ports: once the user has opened the bridge's tokened page,
 * every local server the browser visits receives the bridge's static cookie. Before the fix that cookie was the
 * socket token, and the other server (from Node, or from its page) drove the agent with it. Now the cookie holds a
 * secret that only opens the static files, the page keeps its token in sessionStorage (per origin and tab) and
 * removes it from its address, and the files' headers keep another origin from loading or framing them.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { PI_ELEMENTS_PROTOCOL, tokenProtocol } from "@pi-elements/core";
import { build } from "esbuild";
import { chromium, type Browser as PlaywrightBrowser } from "playwright-core";
import puppeteer, { type Browser as PuppeteerBrowser } from "puppeteer-core";
import { type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { fakeAgent, TestClient } from "../../packages/bridge/test/support/harness.js";
import { engines, firefoxLaunchOptions } from "../../scripts/browsers.mjs";
import { launchOptions } from "../../scripts/chromium.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TITLE = "pi-bridge static page";

/** The page the bridge serves: `<pi-session url="/">`, as a user writes it, and its connection for the test. */
async function writeSite(dir: string): Promise<void> {
  await build({
    stdin: {
      contents: `
        import "./elements/session/define.ts";
        window.connection = () => document.querySelector("pi-session")?.session?.ui.getSnapshot().connection;
        window.connectionEnd = () => document.querySelector("pi-session")?.session?.ui.getSnapshot().connectionEnd;
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
    `<!doctype html><meta charset="utf-8"><title>${TITLE}</title><link rel="icon" href="data:,">
<pi-session url="/"></pi-session><script type="module" src="./app.js"></script>`,
  );
}

/**
 * The other local server's page: with the cookie value its server received (`VALUE`), it tries the bridge's socket
 * every way a page can (the browser adds the cookie itself to the handshake), sends `bash` where one opens, and
 * tries to load the bridge's script and to frame its page.
 */
function attackerPage(bridgePort: number, value: string): string {
  return `<!doctype html><meta charset="utf-8"><title>other server</title><script>
  const BRIDGE = "127.0.0.1:${bridgePort}";
  const VALUE = ${JSON.stringify(value)};
  const tokenProtocol = ${JSON.stringify(tokenProtocol(value))};
  const tryOpen = (label, url, protocols) => new Promise((resolve) => {
    const socket = new WebSocket(url, protocols);
    // A refused token completes the handshake only to close at once (4401): the attacker still tries its bash, and
    // counts as in only if the bridge sends it anything (a client's first message is the replay).
    socket.onopen = () => socket.send(JSON.stringify({ type: "bash", id: "attack", command: "echo pwned" }) + "\\n");
    socket.onmessage = () => resolve(label + " OPENED");
    socket.onclose = (event) => resolve(label + " closed " + event.code);
  });
  window.attack = () => Promise.all([
    tryOpen("cookie alone", "ws://" + BRIDGE + "/"),
    tryOpen("?token=cookie", "ws://" + BRIDGE + "/?token=" + encodeURIComponent(VALUE)),
    tryOpen("subprotocol", "ws://" + BRIDGE + "/", [${JSON.stringify(PI_ELEMENTS_PROTOCOL)}, tokenProtocol]),
  ]);
  window.loadScript = () => new Promise((resolve) => {
    // A classic script: a no-cors request, which carries the cookie and needs no CORS (a module script would).
    const script = document.createElement("script");
    script.src = "http://" + BRIDGE + "/app.js";
    script.onload = () => resolve("loaded");
    script.onerror = () => resolve("blocked");
    document.head.append(script);
  });
  window.frame = () => new Promise((resolve) => {
    const frame = document.createElement("iframe");
    frame.src = "http://" + BRIDGE + "/";
    frame.onload = () => resolve();
    document.body.append(frame);
  });
</script><body></body>`;
}

/** What Playwright's and puppeteer's pages have in common, as far as this test needs it. */
interface TestPage {
  goto(url: string): Promise<unknown>;
  reload(): Promise<unknown>;
  url(): string;
  evaluate<R>(fn: (() => R | Promise<R>) | string): Promise<R>;
  frames(): Array<{ evaluate<R>(fn: () => R | Promise<R>): Promise<R> }>;
}

interface Engine {
  name: string;
  launch(): Promise<{ page(): Promise<TestPage>; close(): Promise<void> }>;
}

const ENGINES: Engine[] = [
  {
    name: "Chromium",
    async launch() {
      const browser: PlaywrightBrowser = await chromium.launch(launchOptions());
      const context = await browser.newContext();
      return { page: async () => (await context.newPage()) as unknown as TestPage, close: () => browser.close() };
    },
  },
  {
    name: "Firefox",
    async launch() {
      const browser: PuppeteerBrowser = await puppeteer.launch(firefoxLaunchOptions());
      return { page: async () => (await browser.newPage()) as unknown as TestPage, close: () => browser.close() };
    },
  },
];

/** Waits, in the page, until its pi-session's connection is open (bounded, with what it was). */
async function connected(page: TestPage): Promise<void> {
  // A string, not a function: tsx would wrap the function's inner arrow in a helper the page lacks.
  const state = await page.evaluate<string>(`(async () => {
    for (let i = 0; i < 200 && window.connection?.() !== "open"; i++) await new Promise((r) => setTimeout(r, 50));
    return window.connection?.() ?? "(no session)";
  })()`);
  assert.equal(state, "open", "the page's pi-session did not connect within 10 s");
}

/** The Node side of the other server: the received cookie tried as a token every way, and `bash` sent if open. */
async function attackFromNode(bridgePort: number, cookie: string, value: string): Promise<string[]> {
  const bare = `ws://127.0.0.1:${bridgePort}/`;
  const attempts: Array<[string, TestClient]> = [
    ["Cookie header", new TestClient(bare, { headers: { Cookie: cookie } })],
    ["?token=", new TestClient(`${bare}?token=${encodeURIComponent(value)}`)],
    ["Bearer", new TestClient(bare, { headers: { Authorization: `Bearer ${value}` } })],
    ["subprotocol", new TestClient(bare, { protocols: [PI_ELEMENTS_PROTOCOL, tokenProtocol(value)] } as never)],
  ];
  return Promise.all(
    attempts.map(async ([label, client]) => {
      // The attacker sends its bash the moment the socket opens (a refused token opens only to be closed, 4401).
      void client.opened.then(() => client.send({ type: "bash", id: "attack", command: "echo pwned" }));
      const answer = await client.answer;
      if (answer === 101) {
        await client.received((line) => line.id === "attack");
        await client.close();
        return `${label} OPENED and ran bash`;
      }
      return `${label} refused ${answer}`;
    }),
  );
}

// ENGINES="chromium" (scripts/browsers.mjs) narrows the run, as it does for the browser tests.
for (const engine of ENGINES.filter(({ name }) => engines().includes(name.toLowerCase() as "chromium"))) {
  describe(`the bridge's static page in ${engine.name}, and a server on another 127.0.0.1 port`, {
    timeout: 90_000,
  }, () => {
    let site: string;
    let bridge: RunningBridge;
    let other: Server;
    let browser: Awaited<ReturnType<Engine["launch"]>>;
    let page: TestPage;
    /** A token holder beside the page: sees every line that reaches the agent (the fake agent reports each). */
    let observer: TestClient;
    /** The Cookie headers the other server received. */
    const received: string[] = [];
    let otherUrl = "";

    before(async () => {
      site = mkdtempSync(join(tmpdir(), "pi-e2e-static-"));
      await writeSite(site);
      bridge = await startBridge({ port: 0, staticDir: site, agent: fakeAgent(), log: () => {}, stopGraceMs: 1000 });
      await bridge.agentStarted();
      observer = await TestClient.connect(bridge.url);
      other = createServer((request: IncomingMessage, response) => {
        const cookie = request.headers.cookie ?? "";
        received.push(cookie);
        const value = /(?:^|;\s*)pi-bridge-\d+=([^;]*)/.exec(cookie)?.[1] ?? "";
        response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        response.end(attackerPage(bridge.port, decodeURIComponent(value)));
      });
      await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
      otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
      browser = await engine.launch();
      page = await browser.page();
      // The user opens the address the bridge printed (here with a parameter and a hash of the page's own).
      await page.goto(`http://127.0.0.1:${bridge.port}/?token=${bridge.token}&view=1#top`);
    });

    after(async () => {
      await observer?.close();
      await browser?.close();
      await bridge?.close();
      other?.close();
      if (site) rmSync(site, { recursive: true, force: true });
    });

    it("the page connects, drops ?token= from its address (keeping the rest), and reconnects after a reload", async () => {
      await connected(page);
      assert.equal(page.url(), `http://127.0.0.1:${bridge.port}/?view=1#top`);
      await page.reload();
      await connected(page);
      assert.equal(page.url(), `http://127.0.0.1:${bridge.port}/?view=1#top`);
    });

    it("the other server receives the static cookie, but neither it nor its page can open the socket", async () => {
      await page.goto(otherUrl);
      const cookie = received.at(-1) ?? "";
      const name = `pi-bridge-${bridge.port}`;
      const pair = cookie.split(/;\s*/).find((part) => part.startsWith(`${name}=`)) ?? "";
      // The leak this guards against is real: the browser did send the bridge's cookie to the other port.
      assert.ok(pair !== "", `no ${name} cookie reached the other server: ${JSON.stringify(received)}`);
      const value = decodeURIComponent(pair.slice(name.length + 1));
      const fromNode = await attackFromNode(bridge.port, pair, value);
      const fromPage = await page.evaluate(() => (window as unknown as { attack(): Promise<string[]> }).attack());
      // What reached the agent, read by a token holder: everything before its own marker, and no bash.
      observer.send({ type: "get_state", id: "marker" });
      await observer.received((line) => line.id === "marker");
      const reached = observer.records.filter((r) => r.type === "received").map((r) => String(r.line));
      assert.deepEqual(
        reached.filter((line) => line.includes("pwned")),
        [],
        "the other server drove the agent",
      );
      assert.deepEqual(fromNode, [
        "Cookie header refused 4401",
        "?token= refused 4401",
        "Bearer refused 4401",
        "subprotocol refused 4401",
      ]);
      // Each refused as a token is (the page can read why: 4401), none let in.
      assert.deepEqual(fromPage, ["cookie alone closed 4401", "?token=cookie closed 4401", "subprotocol closed 4401"]);
      assert.ok(!cookie.includes(bridge.token as string), "the cookie carries the token");
    });

    it("a cookie of the same name that the other server's page sets for a longer path does not lock the page out", async () => {
      await page.goto(otherUrl);
      const name = `pi-bridge-${bridge.port}`;
      await page.evaluate(`document.cookie = "${name}=planted; path=/app.js"`);
      // The bridge's page again, as a user returns to it (the token is in the tab's sessionStorage, not the URL).
      await page.goto(`http://127.0.0.1:${bridge.port}/?view=1`);
      assert.equal(await page.evaluate<string>("document.title"), TITLE, "the page itself was refused");
      await connected(page);
    });

    it("the other server's page can neither load the bridge's scripts nor frame its page", async () => {
      await page.goto(otherUrl);
      assert.equal(
        await page.evaluate(() => (window as unknown as { loadScript(): Promise<string> }).loadScript()),
        "blocked",
      );
      await page.evaluate(() => (window as unknown as { frame(): Promise<void> }).frame());
      const [, frame] = page.frames();
      assert.ok(frame, "no frame");
      const title = await frame.evaluate(() => document.title).catch((error: Error) => `(${error.message})`);
      assert.notEqual(title, TITLE, "the bridge's page rendered inside the other server's page");
    });

    it("left open while the bridge restarts with a new token, the page stops retrying: its session ended 'refused'", async () => {
      await page.goto(`http://127.0.0.1:${bridge.port}/?token=${bridge.token}`);
      await connected(page);
      const { port } = bridge;
      await observer.close();
      await bridge.close();
      // The same address, a new run: a new token, as `pi-bridge` makes at every start.
      bridge = await startBridge({ port, staticDir: site, agent: fakeAgent(), log: () => {}, stopGraceMs: 1000 });
      observer = await TestClient.connect(bridge.url);
      const end = await page.evaluate<string>(`(async () => {
        for (let i = 0; i < 400 && window.connection?.() !== "closed"; i++) await new Promise((r) => setTimeout(r, 50));
        return JSON.stringify([window.connection?.(), window.connectionEnd?.()]);
      })()`);
      assert.equal(
        end,
        JSON.stringify(["closed", { reason: "refused", detail: "token refused: open the address pi-bridge printed" }]),
        "the page's session 20 s after the restart",
      );
    });
  });
}

describe("the bridge's static page served under --allow-host, in Chromium", {
  timeout: 60_000,
  skip: !engines().includes("chromium") && "ENGINES leaves out Chromium",
}, () => {
  let site: string;
  let bridge: RunningBridge;
  let browser: PlaywrightBrowser;

  before(async () => {
    site = mkdtempSync(join(tmpdir(), "pi-e2e-static-"));
    await writeSite(site);
    bridge = await startBridge({
      port: 0,
      staticDir: site,
      allowHosts: ["box.example"],
      agent: fakeAgent(),
      log: () => {},
      stopGraceMs: 1000,
    });
    // box.example is this machine to the browser, as a LAN or /etc/hosts name would be.
    const options = launchOptions();
    browser = await chromium.launch({
      ...options,
      args: [...options.args, "--host-resolver-rules=MAP box.example 127.0.0.1"],
    });
  });

  after(async () => {
    await browser?.close();
    await bridge?.close();
    if (site) rmSync(site, { recursive: true, force: true });
  });

  it("opened at http://box.example:PORT/, the page's own socket is accepted (it was refused with 403)", async () => {
    const page = (await browser.newPage()) as unknown as TestPage;
    await page.goto(`http://box.example:${bridge.port}/?token=${bridge.token}`);
    assert.equal(await page.evaluate<string>("document.title"), TITLE);
    await connected(page);
  });
});
