/**
 * The bridge's limits (issue #9, item 7): a client that breaks one gets a close code and reason (or an HTTP status
 * at the handshake), and the bridge and the agent go on serving the others.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { waitFor, within } from "../../../test/support/wait-for.js";
import { assertStillServing, ManualClock, startFakeBridge, TestClient, uiRequest } from "./support/harness.js";

describe("limits", () => {
  it("maxClients: one client more is refused with 503 and logged; a place freed is taken again", async () => {
    const bridge = await startFakeBridge({ maxClients: 2 });
    try {
      const a = await TestClient.connect(bridge.url);
      const b = await TestClient.connect(bridge.url);
      assert.equal(await new TestClient(bridge.url).refused, 503);
      assert.ok(bridge.logs.some((line) => /refused a connection .*503 Too Many Clients/.test(line)));
      await a.close();
      const c = await TestClient.connect(bridge.url);
      await c.next((r) => r.type === "pi-elements/hello");
      await Promise.all([b.close(), c.close()]);
    } finally {
      await bridge.close();
    }
  });

  it("frameTimeoutMs: a client holding a partial frame is closed with 1008; the others are served", async () => {
    const clock = new ManualClock();
    const bridge = await startFakeBridge({ frameTimeoutMs: 30_000, clock });
    try {
      const pid = await bridge.agentStarted();
      const url = new URL(bridge.url);
      const socket = connect(bridge.port, "127.0.0.1");
      socket.on("error", () => {});
      let received = Buffer.alloc(0);
      socket.on("data", (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
      });
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      socket.write(
        `GET /${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
      );
      // The header of a masked 1 MiB text frame and a first piece of its payload, then nothing more.
      const header = Buffer.from([0x81, 0xff, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4]);
      socket.write(Buffer.concat([header, Buffer.alloc(1000, 0x61)]));
      await waitFor(() => bridge.clientCount === 1, { message: "the raw client to be connected" });
      // Pinged at 15 s; its ping has waited 30 s at 45 s (it cannot answer in the middle of its frame).
      clock.advance(45_000);
      await within(closed, { message: "the bridge to close the connection holding a partial frame" });
      const text = received.toString("latin1");
      assert.match(text, /^HTTP\/1\.1 101 /);
      // The close frame: opcode 8, code 1008 (0x03f0), then the reason.
      const close = received.indexOf(Buffer.from([0x88]));
      assert.ok(close > 0, "a close frame was sent");
      assert.equal(received.readUInt16BE(close + 2), 1008);
      assert.match(received.subarray(close + 4).toString("utf8"), /no pong in time/);
      await assertStillServing(bridge, pid);
    } finally {
      await bridge.close();
    }
  });

  it("frameTimeoutMs: a client that answers pings (as browsers do) stays connected", async () => {
    const clock = new ManualClock();
    const bridge = await startFakeBridge({ frameTimeoutMs: 30_000, clock });
    try {
      const client = await TestClient.connect(bridge.url);
      let pings = 0;
      client.socket.on("ping", () => {
        pings++;
      });
      // Four ping rounds, 15 s apart; the client's automatic pongs keep it. ws writes the pong before it tells of the
      // ping, and TCP keeps order: once a command sent after the ping reaches the agent, the bridge has the pong.
      for (let round = 1; round <= 4; round++) {
        clock.advance(15_000);
        await waitFor(() => pings >= round, { message: `ping ${round}`, detail: () => `got ${pings}` });
        client.send({ type: "get_state", id: `after-ping-${round}` });
        await client.received((line) => line.id === `after-ping-${round}`);
      }
      clock.advance(30_000);
      client.send({ type: "get_state", id: "still-here" });
      await client.received((line) => line.id === "still-here");
      await client.close();
    } finally {
      await bridge.close();
    }
  });

  it("maxPayload: a bigger message is closed with 1009; the others are served", async () => {
    const bridge = await startFakeBridge({ maxPayload: 1024 });
    try {
      const pid = await bridge.agentStarted();
      const client = await TestClient.connect(bridge.url);
      client.send({ type: "prompt", message: "x".repeat(2000) });
      assert.equal((await within(client.closed, { message: "a close after the oversized message" })).code, 1009);
      await assertStillServing(bridge, pid);
    } finally {
      await bridge.close();
    }
  });

  it("maxJsonDepth is configurable: a record nested one level deeper is closed with 1008", async () => {
    const bridge = await startFakeBridge({ maxJsonDepth: 3 });
    try {
      const ok = await TestClient.connect(bridge.url);
      ok.send({ type: "prompt", message: "m", images: [{ type: "image", data: "x", mimeType: "image/png" }] });
      await ok.received((line) => line.message === "m");
      const deep = await TestClient.connect(bridge.url);
      deep.send({ type: "prompt", message: "n", images: [{ type: "image", data: "x", mimeType: "image/png", x: [] }] });
      assert.deepEqual(await within(deep.closed, { message: "a close after the too deep record" }), {
        code: 1008,
        reason: "JSON nested deeper than 3 levels",
      });
      await ok.close();
    } finally {
      await bridge.close();
    }
  });

  it("mirror limits: 200 status keys keep the replay to maxStatuses; pending dialogs past maxDialogs are cancelled", async () => {
    const bridge = await startFakeBridge({ mirror: { maxStatuses: 50, maxDialogs: 2 } });
    try {
      const client = await TestClient.connect(bridge.url);
      const statuses = Array.from({ length: 200 }, (_, i) =>
        uiRequest(`s${i}`, "setStatus", { statusKey: `k${i}`, statusText: "v" }),
      );
      client.directive(`emit ${JSON.stringify(statuses)}`);
      client.directive(
        `emit ${JSON.stringify([1, 2, 3].map((i) => uiRequest(`d${i}`, "confirm", { title: "T", message: "M" })))}`,
      );
      // The third dialog is one too many: the bridge answers it, the first two stay pending.
      await client.received((line) => line.id === "d3");
      assert.deepEqual(
        client.agentLines().filter((line) => line.type === "extension_ui_response"),
        [{ type: "extension_ui_response", id: "d3", cancelled: true }],
      );
      const late = await TestClient.connect(bridge.url);
      await late.next((r) => r.id === "d2");
      const replayed = late.records.filter((r) => r.type === "extension_ui_request");
      assert.equal(replayed.filter((r) => r.method === "setStatus").length, 50);
      assert.deepEqual(
        replayed.filter((r) => r.method === "confirm").map((r) => r.id),
        ["d1", "d2"],
      );
      assert.ok(bridge.logs.some((line) => line.includes("UI state limit reached (50 status keys)")));
      await Promise.all([client.close(), late.close()]);
    } finally {
      await bridge.close();
    }
  });
});

describe("maxClientBacklog on every send (issue #18, item 9)", () => {
  it("a client that never reads the bridge's own answers to it is closed with 1013 before they all pile up", async () => {
    const backlog = 256 * 1024;
    const bridge = await startFakeBridge({ restart: "never", maxClientBacklog: backlog });
    try {
      const client = await TestClient.connect(bridge.url);
      await client.next((r) => r.type === "pi-elements/hello");
      client.directive("exit 0");
      await client.next((r) => r.type === "pi-elements/agent_exit");
      // From now on every command is answered "The agent is not running." by the bridge, to this client alone.
      client.socket.pause();
      const id = "x".repeat(10_000);
      const frames = 40;
      const perFrame = 100;
      const line = JSON.stringify({ type: "get_state", id });
      for (let i = 0; i < frames; i++) client.send(Array(perFrame).fill(line).join("\n"));
      // 40 MB of answers, far past what the sockets' buffers and the limit hold together.
      await waitFor(() => bridge.logs.some((l) => l.includes("disconnecting a slow client")), {
        message: "the bridge disconnects the client that does not read",
      });
      client.socket.resume();
      assert.equal((await client.closed).code, 1013);
      const answers = client.records.filter((r) => r.type === "response" && r.id === id).length;
      assert.ok(answers < frames * perFrame, `the bridge stopped sending (${answers} of ${frames * perFrame} answers)`);
      const late = await TestClient.connect(bridge.url);
      await late.next((r) => r.type === "pi-elements/agent_exit");
      await late.close();
    } finally {
      await bridge.close();
    }
  });
});
