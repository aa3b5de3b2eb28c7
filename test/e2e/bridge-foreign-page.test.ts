/**
 * A web page of a foreign origin, in a real Chromium, attacking the bridge without its token (issue #9, item 1).
 * The page is served from http://evil.example (mapped to loopback by Chromium's host resolver, so the browser
 * believes it is another site) and opens WebSockets to the bridge with URLs whose request target the browser sends
 * as `GET //?x` and the like. Before the fix, the bridge's upgrade listener threw on such a target and the process
 * (and with it the agent's stdin) died. Now each is refused, the refusal is logged, and the bridge serves on.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { type Browser, chromium } from "playwright-core";
import { type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { fakeAgent, TestClient } from "../../packages/bridge/test/support/harness.js";
import { launchOptions } from "../../scripts/chromium.mjs";

const PAGE = `<!doctype html><meta charset="utf-8"><title>evil</title><script>
  window.attack = (port) => Promise.all(["//?x", "//", "//:99999/", "//[/", "//%zz/"].map((path) =>
    new Promise((resolve) => {
      let socket;
      try {
        socket = new WebSocket("ws://127.0.0.1:" + port + path);
      } catch (error) {
        resolve(path + " threw in the page: " + error.name);
        return;
      }
      socket.onopen = () => resolve(path + " OPENED");
      socket.onclose = (event) => resolve(path + " closed " + event.code);
    })));
</script>`;

describe("a page of a foreign origin in Chromium", { timeout: 60_000 }, () => {
  let bridge: RunningBridge;
  let site: Server;
  let browser: Browser;
  const logs: string[] = [];

  before(async () => {
    bridge = await startBridge({ port: 0, agent: fakeAgent(), log: (line) => logs.push(line), stopGraceMs: 1000 });
    await bridge.agentStarted();
    site = createServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end(PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const options = launchOptions();
    browser = await chromium.launch({
      ...options,
      args: [...options.args, "--host-resolver-rules=MAP evil.example 127.0.0.1"],
    });
  });

  after(async () => {
    await browser?.close();
    await bridge?.close();
    site?.close();
  });

  it("cannot kill the bridge or the agent with ws://127.0.0.1:PORT//?x and similar URLs", async () => {
    const pid = bridge.agentPid;
    const page = await browser.newPage();
    await page.goto(`http://evil.example:${(site.address() as AddressInfo).port}/`);
    assert.equal(
      await page.evaluate(() => location.origin),
      `http://evil.example:${(site.address() as AddressInfo).port}`,
    );
    const outcomes = await page.evaluate(
      (port) => (window as unknown as { attack(port: number): Promise<string[]> }).attack(port),
      bridge.port,
    );
    // No socket opened; whatever the browser made of each URL, the bridge refused what reached it.
    assert.ok(
      outcomes.every((outcome) => !outcome.endsWith("OPENED")),
      outcomes.join("; "),
    );
    const refused = logs.filter((line) => line.includes("refused a connection"));
    assert.ok(
      refused.some((line) => /: 400 Bad Request, Origin "http:\/\/evil\.example:\d+"/.test(line)),
      logs.join("\n"),
    );

    // The same agent still runs, and a client with the token is served.
    assert.equal(bridge.agentPid, pid);
    const client = await TestClient.connect(bridge.url);
    client.send({ type: "get_state", id: "after-attack" });
    await client.received((line) => line.id === "after-attack");
    await client.close();
  });
});
