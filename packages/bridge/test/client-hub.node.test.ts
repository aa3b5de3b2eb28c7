/** The client hub on its own: a plain HTTP server whose upgrades all go to it, and ws clients. */
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { realClock } from "@pi-elements/core";
import WebSocket from "ws";
import { within } from "../../../test/support/wait-for.js";
import { ClientHub, type ClientHubOptions } from "../src/client-hub.js";
import { guardWith } from "../src/guard.js";
import { ManualClock } from "./support/harness.js";

async function hubOnServer(options: Partial<ClientHubOptions> = {}) {
  const logs: string[] = [];
  const frames: string[] = [];
  const connected: Array<import("ws").WebSocket> = [];
  const log = (line: string) => logs.push(line);
  const hub = new ClientHub({
    maxPayload: 1024,
    maxClientBacklog: 1024 * 1024,
    frameTimeoutMs: 30_000,
    clock: realClock,
    onConnect: (client) => {
      connected.push(client);
      client.send("welcome\n");
    },
    onFrame: (_client, data) => frames.push(String(data)),
    log,
    guarded: guardWith(log),
    ...options,
  });
  const server = createServer();
  server.on("upgrade", (request, socket, head) => hub.accept(request, socket, head));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const close = async () => {
    hub.close(1001, "done");
    hub.terminate();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { hub, url, logs, frames, connected, close };
}

/** A client that collects what it receives. */
async function client(url: string, options: WebSocket.ClientOptions = {}) {
  const socket = new WebSocket(url, options);
  const received: string[] = [];
  const waiters: Array<() => void> = [];
  socket.on("message", (data) => {
    received.push(String(data));
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  const receivedCount = async (count: number) => {
    while (received.length < count) await new Promise<void>((wake) => waiters.push(wake));
  };
  return { socket, received, closed, receivedCount };
}

describe("ClientHub", () => {
  it("greets each client first, and broadcasts to every client but the one left out", async () => {
    const { hub, url, connected, close } = await hubOnServer();
    try {
      const a = await client(url);
      const b = await client(url);
      assert.equal(hub.size, 2);
      hub.broadcast([Buffer.from('{"n":1}\n'), Buffer.from('{"n":2}\n')]);
      hub.broadcast('{"only":"a"}\n', connected[1]);
      hub.broadcast("");
      hub.broadcast("last\n");
      await a.receivedCount(4);
      await b.receivedCount(3);
      assert.deepEqual(a.received, ["welcome\n", '{"n":1}\n{"n":2}\n', '{"only":"a"}\n', "last\n"]);
      assert.deepEqual(b.received, ["welcome\n", '{"n":1}\n{"n":2}\n', "last\n"]);
      b.socket.close();
      await b.closed;
      while (hub.size > 1) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      await close();
    }
  });

  it("passes each client frame on, and counts handshakes under way as connections", async () => {
    const { hub, url, frames, close } = await hubOnServer();
    try {
      assert.equal(hub.connections, 0);
      const a = await client(url);
      a.socket.send("one");
      a.socket.send("two");
      a.socket.send("last");
      while (frames.length < 3) await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(frames, ["one", "two", "last"]);
      assert.equal(hub.connections, 1);
    } finally {
      await close();
    }
  });

  it("disconnects a client with more output waiting than allowed with 1013", async () => {
    const { hub, url, logs, close } = await hubOnServer({ maxClientBacklog: -1 });
    try {
      const a = await client(url);
      hub.broadcast("never sent\n");
      assert.deepEqual(await a.closed, { code: 1013, reason: "too much output waiting: reconnect" });
      assert.ok(logs.some((line) => line.includes("disconnecting a slow client")));
    } finally {
      await close();
    }
  });

  it("holds a message to one client (send) to the same backlog limit: 1013, and nothing more is sent", async () => {
    const { hub, url, connected, close } = await hubOnServer({ maxClientBacklog: -1 });
    try {
      const a = await client(url);
      hub.send(connected[0], "never sent\n");
      hub.send(connected[0], "nor this\n");
      assert.deepEqual(await a.closed, { code: 1013, reason: "too much output waiting: reconnect" });
      assert.ok(!a.received.some((text) => text.includes("never sent") || text.includes("nor this")));
    } finally {
      await close();
    }
  });

  it("pauses every client's input while asked to, clients that connect meanwhile too", async () => {
    const { hub, url, connected, close } = await hubOnServer();
    try {
      await client(url);
      hub.setPaused(true);
      await client(url);
      assert.deepEqual(
        connected.map((socket) => socket.isPaused),
        [true, true],
      );
      hub.setPaused(false);
      assert.deepEqual(
        connected.map((socket) => socket.isPaused),
        [false, false],
      );
    } finally {
      await close();
    }
  });

  it("pings every half of frameTimeoutMs; closes with 1008 a client whose ping has waited frameTimeoutMs, keeps one that answers", async () => {
    const clock = new ManualClock();
    const { url, logs, connected, close } = await hubOnServer({ frameTimeoutMs: 30_000, clock });
    try {
      const silent = await client(url, { autoPong: false });
      const answering = await client(url);
      const [silentSide, answeringSide] = connected;
      assert.ok(silentSide && answeringSide);
      let silentPings = 0;
      silent.socket.on("ping", () => silentPings++);
      for (const at of [15_000, 30_000]) {
        // At 15 s both are pinged; at 30 s only the one that answered (the silent one's ping is still waiting).
        const pinged = Promise.all([
          at === 15_000 ? once(silent.socket, "ping") : undefined,
          once(answering.socket, "ping"),
        ]);
        const pong = once(answeringSide, "pong");
        clock.advance(15_000);
        await within(pinged, { message: `the clients pinged at ${at} ms` });
        await within(pong, { message: `the answering client's pong at ${at} ms` });
      }
      assert.equal(silentPings, 1);
      clock.advance(14_999);
      assert.equal(silentSide.readyState, silentSide.OPEN, "its ping has waited 29,999 ms");
      clock.advance(1);
      assert.equal(silentSide.readyState, silentSide.CLOSING, "its ping has waited 30,000 ms");
      const { code } = await within(silent.closed, { message: "the silent client's close" });
      assert.ok(code === 1008 || code === 1006, `closed with ${code}`);
      assert.equal(answeringSide.readyState, answeringSide.OPEN, "the client that answers stays");
      assert.deepEqual(
        logs.filter((line) => line.includes("did not answer a ping")),
        ["[pi-bridge] closing a client that did not answer a ping in 30000 ms"],
      );
    } finally {
      await close();
    }
  });

  it("stops pinging once closed: no timer is left on its clock", async () => {
    const clock = new ManualClock();
    const { close } = await hubOnServer({ clock });
    assert.equal(clock.pending, 1, "the ping timer");
    await close();
    assert.equal(clock.pending, 0);
  });
});
