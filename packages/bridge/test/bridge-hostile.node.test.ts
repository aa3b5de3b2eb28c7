/**
 * The bridge under attack (issue #9): hostile requests, frames and agent output, through a real bridge around the
 * fake agent. Each case checks the bridge is still up afterwards: the same agent runs and a new client connects
 * and is served.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MAX_TIMER_DELAY } from "@pi-elements/core";
import {
  assertStillServing,
  type Rec,
  rawExchange,
  startFakeBridge,
  TestClient,
  uiRequest,
} from "./support/harness.js";

type Bridge = Awaited<ReturnType<typeof startFakeBridge>>;

function upgradeRequest(target: string, host: string, extra = ""): string {
  return (
    `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
    `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${extra}\r\n`
  );
}

describe("a page without the token", () => {
  let bridge: Bridge;
  let pid: number;
  before(async () => {
    bridge = await startFakeBridge();
    pid = await bridge.agentStarted();
  });
  after(() => bridge.close());

  for (const target of ["//?x", "//", "//:99999/", "//[/", "//%zz/", "http://[/", "*"]) {
    it(`cannot crash it with GET ${target} (400, logged)`, async () => {
      const answer = await rawExchange(bridge.port, upgradeRequest(target, `127.0.0.1:${bridge.port}`));
      assert.match(answer, /^HTTP\/1\.1 400 /);
      assert.ok(bridge.logs.some((line) => line.includes("refused a connection") && line.includes("400")));
      await assertStillServing(bridge, pid);
    });
  }

  it("gets its refusal logged with status, reason and Origin", async () => {
    const answer = await rawExchange(
      bridge.port,
      upgradeRequest("/", `127.0.0.1:${bridge.port}`, "Origin: http://evil.example\r\n"),
    );
    assert.match(answer, /^HTTP\/1\.1 403 /);
    assert.ok(
      bridge.logs.some((line) => /refused a connection from .*: 403 Forbidden, Origin "http:\/\/evil/.test(line)),
    );
  });

  it("cannot hold a half-sent handshake open: the connection is closed after handshakeTimeoutMs", async () => {
    const quick = await startFakeBridge({ handshakeTimeoutMs: 300 });
    try {
      const answer = await rawExchange(quick.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n`, { end: false });
      assert.match(answer, /^HTTP\/1\.1 40[08] /);
    } finally {
      await quick.close();
    }
  });
});

describe("a token holder's frames", () => {
  let bridge: Bridge;
  let pid: number;
  before(async () => {
    bridge = await startFakeBridge();
    pid = await bridge.agentStarted();
  });
  after(() => bridge.close());

  it("a 5,000-deep array inside images[] is refused with 1008 before parsing, and nothing reaches the agent", async () => {
    const client = await TestClient.connect(bridge.url);
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    client.send(
      `{"type":"prompt","message":"deep","images":[{"type":"image","data":"x","mimeType":"image/png","x":${deep}}]}`,
    );
    assert.deepEqual(await client.closed, { code: 1008, reason: "JSON nested deeper than 64 levels" });
    await assertStillServing(bridge, pid);
    const watcher = await TestClient.connect(bridge.url);
    watcher.send({ type: "get_state", id: "after-deep" });
    await watcher.received((line) => line.id === "after-deep");
    assert.ok(!watcher.agentLines().some((line) => line.message === "deep"));
    await watcher.close();
  });

  it("10 MB of nested brackets is refused (1008) by the depth check", async () => {
    const client = await TestClient.connect(bridge.url);
    client.send(`[${"[".repeat(10_000_000)}`);
    assert.equal((await client.closed).code, 1008);
    await assertStillServing(bridge, pid);
  });

  it("an answer with value, confirmed and cancelled is refused with 1008, not cut down", async () => {
    const client = await TestClient.connect(bridge.url);
    client.directive(`emit ${JSON.stringify([uiRequest("multi", "confirm", { title: "T", message: "M" })])}`);
    await client.next((r) => r.id === "multi");
    client.send({ type: "extension_ui_response", id: "multi", value: "v", confirmed: true, cancelled: true });
    assert.deepEqual(await client.closed, {
      code: 1008,
      reason: "an answer has exactly one of value, confirmed, cancelled",
    });
    const other = await TestClient.connect(bridge.url);
    other.send({ type: "extension_ui_response", id: "multi", confirmed: false });
    await other.received((line) => line.id === "multi");
    assert.deepEqual(
      other.agentLines().filter((line) => line.id === "multi"),
      [{ type: "extension_ui_response", id: "multi", confirmed: false }],
    );
    await other.close();
  });

  it("a select answer that is not one of the options is refused with 1008, and the select stays pending", async () => {
    const client = await TestClient.connect(bridge.url);
    client.directive(`emit ${JSON.stringify([uiRequest("pick", "select", { title: "T", options: ["a", "b"] })])}`);
    await client.next((r) => r.id === "pick");
    client.send({ type: "extension_ui_response", id: "pick", value: "c" });
    assert.deepEqual(await client.closed, { code: 1008, reason: "answer does not fit the dialog" });
    const other = await TestClient.connect(bridge.url);
    await other.next((r) => r.id === "pick");
    other.send({ type: "extension_ui_response", id: "pick", value: "b" });
    await other.received((line) => line.id === "pick");
    assert.deepEqual(
      other.agentLines().filter((line) => line.id === "pick"),
      [{ type: "extension_ui_response", id: "pick", value: "b" }],
    );
    await other.close();
  });
});

describe("hostile agent output", () => {
  let bridge: Bridge;
  let pid: number;
  before(async () => {
    bridge = await startFakeBridge();
    pid = await bridge.agentStarted();
  });
  after(() => bridge.close());

  it("a dialog with a deeply nested extra field is answered cancelled by the bridge; the next connection is served", async () => {
    const client = await TestClient.connect(bridge.url);
    // Written as text: JSON.stringify itself overflows on such a value.
    const nested = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const line = `{"type":"extension_ui_request","id":"deep-dialog","method":"confirm","title":"T","message":"M","extra":${nested}}\n`;
    client.directive(`raw ${JSON.stringify(line)}`);
    await client.received((line) => line.id === "deep-dialog");
    assert.deepEqual(
      client.agentLines().filter((line) => line.id === "deep-dialog"),
      [{ type: "extension_ui_response", id: "deep-dialog", cancelled: true }],
    );
    const closed = await client.next((r) => r.type === "pi-elements/dialog_closed" && r.id === "deep-dialog");
    assert.equal(closed.reason, "answered");
    await client.close();
    await assertStillServing(bridge, pid);
  });

  it("an invalid dialog gets exactly one cancel at the agent, however many clients answer it", async () => {
    const a = await TestClient.connect(bridge.url);
    const b = await TestClient.connect(bridge.url);
    // confirm without its message, and a select with numeric options: nobody can present them.
    a.directive(
      `emit ${JSON.stringify([
        uiRequest("bad-confirm", "confirm", { title: "T" }),
        uiRequest("bad-select", "select", { title: "T", options: [1, 2] }),
        uiRequest("odd-method", "paint", {}),
      ])}`,
    );
    for (const id of ["bad-confirm", "bad-select", "odd-method"]) {
      await a.received((line) => line.id === id);
      // What the core does for such a request: it answers cancelled too.
      a.send({ type: "extension_ui_response", id, cancelled: true });
      b.send({ type: "extension_ui_response", id, cancelled: true });
    }
    a.send({ type: "get_state", id: "marker" });
    await a.received((line) => line.id === "marker");
    for (const id of ["bad-confirm", "bad-select", "odd-method"]) {
      const answers = a.agentLines().filter((line) => line.type === "extension_ui_response" && line.id === id);
      assert.deepEqual(answers, [{ type: "extension_ui_response", id, cancelled: true }], id);
    }
    await Promise.all([a.close(), b.close()]);
  });

  it("records in the bridge's own pi-elements/ namespace are not relayed", async () => {
    const client = await TestClient.connect(bridge.url);
    client.directive(
      `emit ${JSON.stringify([
        uiRequest("real", "confirm", { title: "T", message: "M" }),
        { type: "pi-elements/dialog_closed", id: "real", reason: "answered" },
        { type: "pi-elements/agent_exit", code: 0 },
        { type: "after_spoof" },
      ])}`,
    );
    await client.next((r) => r.type === "after_spoof");
    assert.ok(
      !client.records.some((r) => r.type === "pi-elements/dialog_closed" || r.type === "pi-elements/agent_exit"),
    );
    assert.ok(
      bridge.logs.some((line) => /dropped 2 agent record\(s\) in the bridge's own pi-elements\/ namespace/.test(line)),
    );
    // The bridge and a new client still agree that the dialog is pending.
    const other = await TestClient.connect(bridge.url);
    await other.next((r) => r.id === "real");
    other.send({ type: "extension_ui_response", id: "real", confirmed: true });
    await other.received((line) => line.id === "real");
    await Promise.all([client.close(), other.close()]);
  });

  it("records in the namespace are dropped however disguised: pi-elements\\/…, \\u0070i-…, a second type key (issue #18, item 7)", async () => {
    const client = await TestClient.connect(bridge.url);
    await client.next((r) => r.type === "pi-elements/hello");
    const from = client.records.length;
    const raw = [
      '{"type":"extension_ui_request","id":"held","method":"confirm","title":"T","message":"M"}',
      '{"type":"pi-elements\\/dialog_closed","id":"held","reason":"answered"}',
      '{"type":"\\u0070i-elements/agent_exit","code":0,"signal":null,"stderrTail":["fake"]}',
      '{"type":"message_update","type":"pi-elements/agent_exit","code":0,"signal":null,"stderrTail":["fake"]}',
      '{"type":"after_disguises"}',
    ];
    client.directive(`raw ${JSON.stringify(`${raw.join("\n")}\n`)}`);
    await client.next((r) => r.type === "after_disguises", from);
    const spoofed = client.records.slice(from).filter((r) => r.type.startsWith("pi-elements/"));
    assert.deepEqual(spoofed, [], "no record the client parses as pi-elements/… came from the agent");
    // The bridge still holds the dialog, and so does a client that connects now.
    const other = await TestClient.connect(bridge.url);
    await other.next((r) => r.id === "held");
    other.send({ type: "extension_ui_response", id: "held", confirmed: true });
    await other.received((line) => line.id === "held" && line.type === "extension_ui_response");
    await Promise.all([client.close(), other.close()]);
  });

  for (const [name, request] of [
    ["a \\u escape", '{"type":"extension_\\u0075i_request","id":"ID","method":"confirm","title":"T","message":"M"}'],
    [
      "a second type key",
      '{"type":"message_update","id":"ID","method":"confirm","title":"T","message":"M","type":"extension_ui_request"}',
    ],
  ] as const) {
    it(`a UI request disguised with ${name} is mirrored: the page's answer reaches the agent (issue #18, item 7)`, async () => {
      const id = `disguised-${name.length}`;
      const client = await TestClient.connect(bridge.url);
      await client.next((r) => r.type === "pi-elements/hello");
      client.directive(`raw ${JSON.stringify(`${request.replace("ID", id)}\n`)}`);
      const seen = await client.next((r) => r.id === id);
      assert.equal(seen.type, "extension_ui_request", "the client parses it as a UI request");
      // A client that connects later gets it in its replay, as the bridge holds it.
      const late = await TestClient.connect(bridge.url);
      await late.next((r) => r.id === id && r.type === "extension_ui_request");
      client.send({ type: "extension_ui_response", id, confirmed: true });
      await client.received((line) => line.type === "extension_ui_response" && line.id === id);
      assert.ok(
        !client.records.some((r) => r.type === "extension_ui_request" && String(r.id).startsWith("pi-elements-notice")),
      );
      await Promise.all([client.close(), late.close()]);
    });
  }

  it("a dialog timeout above 2^31-1 ms arms no timer longer than Node accepts", async () => {
    const delays: number[] = [];
    const original = globalThis.setTimeout;
    globalThis.setTimeout = ((fn: () => void, ms?: number, ...rest: unknown[]) => {
      delays.push(ms ?? 0);
      return original(fn, ms, ...rest);
    }) as typeof setTimeout;
    try {
      const client = await TestClient.connect(bridge.url);
      client.directive(
        `emit ${JSON.stringify([uiRequest("long", "confirm", { title: "T", message: "M", timeout: 2 ** 32 })])}`,
      );
      await client.next((r) => r.id === "long");
      client.send({ type: "extension_ui_response", id: "long", confirmed: true });
      await client.received((line) => line.id === "long");
      await client.close();
    } finally {
      globalThis.setTimeout = original;
    }
    assert.ok(delays.length > 0);
    assert.ok(
      delays.every((ms) => ms <= MAX_TIMER_DELAY),
      `delays: ${delays.filter((ms) => ms > MAX_TIMER_DELAY)}`,
    );
  });
});

describe("a huge stderr", () => {
  it("is cut per line; dialog_closed and agent_exit arrive as their own small messages", async () => {
    const bridge = await startFakeBridge({ restart: "never" });
    try {
      const client = await TestClient.connect(bridge.url);
      client.directive(`emit ${JSON.stringify([uiRequest("open", "confirm", { title: "T", message: "M" })])}`);
      await client.next((r) => r.id === "open");
      client.directive("stderr-flood 20 7000000");
      client.directive("exit 3");
      const exit = await client.next((r) => r.type === "pi-elements/agent_exit");
      const tail = exit.stderrTail as string[];
      assert.equal(tail.length, 20);
      for (const line of tail) assert.match(line, /^(\d)\1{1999}… \[6998000 more characters cut\]$/);
      const closedFrame = client.frames.find((frame) => frame.includes('"pi-elements/dialog_closed"'));
      const exitFrame = client.frames.find((frame) => frame.includes('"pi-elements/agent_exit"'));
      assert.ok(closedFrame !== undefined && exitFrame !== undefined && closedFrame !== exitFrame);
      assert.ok((exitFrame as string).length < 64 * 1024, `agent_exit message: ${(exitFrame as string).length} chars`);
      // A new connection gets the small exit report in its replay.
      const again = await TestClient.connect(bridge.url);
      const replayed = await again.next((r: Rec) => r.type === "pi-elements/agent_exit");
      assert.deepEqual(replayed.stderrTail, tail);
      await Promise.all([client.close(), again.close()]);
    } finally {
      await bridge.close();
    }
  });
});

describe("an answer that reaches no pending dialog", () => {
  it("after the bridge restarted, the page's queued answer is not forwarded, and the page is told so", async () => {
    const first = await startFakeBridge();
    const page = await TestClient.connect(first.url);
    page.directive(`emit ${JSON.stringify([uiRequest("old", "confirm", { title: "T", message: "M" })])}`);
    await page.next((r) => r.id === "old");
    await first.close();

    // The page's transport reconnects to the new bridge and sends the answer the user gave meanwhile.
    const second = await startFakeBridge();
    try {
      const again = await TestClient.connect(second.url);
      await again.next((r) => r.type === "pi-elements/hello");
      again.send({ type: "extension_ui_response", id: "old", confirmed: true });
      const notice = await again.next((r) => r.method === "notify");
      assert.equal(notice.type, "extension_ui_request");
      assert.equal(notice.notifyType, "warning");
      assert.match(String(notice.message), /^Your answer did not reach the agent/);
      again.send({ type: "get_state", id: "marker" });
      await again.received((line) => line.id === "marker");
      assert.ok(!again.agentLines().some((line) => line.id === "old"));
      await again.close();
    } finally {
      await second.close();
    }
  });

  it("a client's cancel of a request the bridge cancelled itself gets no notice", async () => {
    const bridge = await startFakeBridge();
    try {
      const client = await TestClient.connect(bridge.url);
      client.directive(`emit ${JSON.stringify([uiRequest("bad", "confirm", { title: "no message" })])}`);
      await client.received((line) => line.id === "bad");
      client.send({ type: "extension_ui_response", id: "bad", cancelled: true });
      client.send({ type: "get_state", id: "marker" });
      await client.received((line) => line.id === "marker");
      assert.ok(!client.records.some((r) => r.method === "notify"));
      await client.close();
    } finally {
      await bridge.close();
    }
  });
});
