/**
 * Property-based (fast-check): random and hostile frames, request targets, headers and agent lines never throw
 * out of a listener. After each case the bridge still serves with the same agent; an uncaught exception would fail
 * the test that caused it (node:test reports it), and a crash would end the run.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import WebSocket from "ws";
import { assertStillServing, rawExchange, startFakeBridge, TestClient } from "./support/harness.js";

type Bridge = Awaited<ReturnType<typeof startFakeBridge>>;

const UI_METHODS = ["select", "confirm", "input", "editor", "notify", "setStatus", "setWidget", "setTitle", "x"];
const CLIENT_TYPES = [
  "prompt",
  "extension_ui_response",
  "pi-elements/restart",
  "get_state",
  "abort",
  "x",
  "pi-elements/hello",
];

/** Text that nests: brackets and braces, strings and escapes around them. */
const nesting = fc
  .array(fc.constantFrom("[", "]", "{", "}", '"', "\\", ",", ":", "1", "\n", "\r"), { maxLength: 400 })
  .map((chars) => chars.join(""));
const deep = fc.integer({ min: 60, max: 8000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`);

const clientRecord = fc.record(
  {
    type: fc.constantFrom(...CLIENT_TYPES),
    id: fc.oneof(fc.string(), fc.integer(), fc.constant("d1")),
    message: fc.oneof(fc.string(), fc.jsonValue()),
    value: fc.oneof(fc.string(), fc.jsonValue()),
    confirmed: fc.oneof(fc.boolean(), fc.jsonValue()),
    cancelled: fc.oneof(fc.constant(true), fc.jsonValue()),
    images: fc.jsonValue(),
  },
  { requiredKeys: ["type"] },
);

const clientFrame = fc.oneof(
  fc.string({ unit: "binary", maxLength: 300 }),
  nesting,
  deep.map((d) => `{"type":"prompt","message":"m","images":[{"type":"image","data":"","mimeType":"x","x":${d}}]}`),
  clientRecord.map((r) => JSON.stringify(r)),
  fc.array(clientRecord, { maxLength: 5 }).map((rs) => rs.map((r) => JSON.stringify(r)).join("\n")),
  fc.uint8Array({ maxLength: 200 }),
);

const agentRecord = fc.oneof(
  fc
    .record(
      {
        type: fc.constantFrom(
          "extension_ui_request",
          "pi-elements/dialog_closed",
          "pi-elements/agent_exit",
          "response",
        ),
        id: fc.oneof(fc.string(), fc.constant("d1"), fc.integer()),
        method: fc.constantFrom(...UI_METHODS),
        title: fc.oneof(fc.string(), fc.jsonValue()),
        message: fc.oneof(fc.string(), fc.jsonValue()),
        options: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
        timeout: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 40)),
        statusKey: fc.string(),
        statusText: fc.oneof(fc.string(), fc.jsonValue()),
        widgetLines: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
        extra: fc.jsonValue(),
      },
      { requiredKeys: ["type"] },
    )
    .map((r) => JSON.stringify(r)),
  deep.map((d) => `{"type":"extension_ui_request","id":"deep","method":"confirm","title":"t","message":"m","x":${d}}`),
  fc.string({ unit: "binary", maxLength: 300 }),
  nesting,
);

describe("fuzzing the bridge", { timeout: 240_000 }, () => {
  let bridge: Bridge;
  let pid: number;
  before(async () => {
    bridge = await startFakeBridge({ restart: "never", maxClients: 64 });
    pid = await bridge.agentStarted();
  });
  after(() => bridge.close());

  it("random and hostile client frames", async () => {
    await fc.assert(
      fc.asyncProperty(clientFrame, async (frame) => {
        const client = await TestClient.connect(bridge.url);
        client.socket.send(frame);
        // Either the bridge closes the connection, or the frame was acted on and a marker behind it arrives.
        client.socket.send(JSON.stringify({ type: "get_state", id: "fuzz-marker" }));
        const outcome = await Promise.race([
          client.closed.then(() => "closed"),
          client.received((line) => line.id === "fuzz-marker").then(() => "served"),
        ]);
        assert.ok(outcome === "closed" || outcome === "served");
        if (client.socket.readyState === WebSocket.OPEN) await client.close();
        assert.equal(bridge.agentPid, pid);
      }),
      { numRuns: 150 },
    );
    await assertStillServing(bridge, pid);
  });

  it("random request targets and headers before any token", async () => {
    const headerValue = fc.string({ unit: "binary", maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ""));
    // A loopback Host most of the time, so that requests get past the rebinding check to the parsing behind it.
    const hostHeader = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(`127.0.0.1:${bridge.port}`, "localhost", "[::1]:1") },
      { weight: 1, arbitrary: headerValue },
    );
    const pieces = fc
      .array(fc.constantFrom("/", "?", "#", "%", "[", "]", ":", "@", "\\", ".", "x", "zz", "9", "token="), {
        maxLength: 20,
      })
      .map((parts) => parts.join(""));
    // Also targets that start like a network-path or absolute URL, which a page's `new WebSocket` can produce.
    const target = fc.oneof(
      pieces,
      fc.tuple(fc.constantFrom("//", "http://", "/"), pieces).map(([a, b]) => a + b),
      fc.webUrl(),
    );
    await fc.assert(
      fc.asyncProperty(target, hostHeader, headerValue, headerValue, async (path, host, origin, auth) => {
        const clean = path.replace(/[\s]/g, "") || "/";
        const request =
          `GET ${clean} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${origin}\r\nAuthorization: ${auth}\r\n` +
          "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n" +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
        const answer = await rawExchange(bridge.port, Buffer.from(request, "latin1"));
        // Refused with an HTTP status, or closed; never upgraded without the token.
        assert.ok(answer === "" || /^HTTP\/1\.1 (4\d\d|5\d\d) /.test(answer), answer.slice(0, 80));
        assert.equal(bridge.agentPid, pid);
      }),
      { numRuns: 150 },
    );
    await assertStillServing(bridge, pid);
  });

  it("random and hostile agent lines", async () => {
    const driver = await TestClient.connect(bridge.url);
    await fc.assert(
      fc.asyncProperty(fc.array(agentRecord, { minLength: 1, maxLength: 6 }), async (records) => {
        const from = driver.records.length;
        driver.directive(`raw ${JSON.stringify(`${records.join("\n")}\n{"type":"fuzz_done"}\n`)}`);
        await driver.next((r) => r.type === "fuzz_done", from);
        assert.equal(bridge.agentPid, pid);
        // A new connection gets the replay of whatever state that left.
        const late = await TestClient.connect(bridge.url);
        await late.next((r) => r.type === "pi-elements/hello");
        await late.close();
      }),
      { numRuns: 100 },
    );
    await driver.close();
    await assertStillServing(bridge, pid);
  });
});
