/**
 * Connections that hold places (issue #18, items 3 and 4): refused upgrades and refused HTTP requests close their
 * socket whether or not the peer ever sends its FIN, silent connections are dropped, and the default connection
 * limit is above what one browser can open, so a token holder still gets in.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { waitFor, within } from "../../../test/support/wait-for.js";
import { ManualClock, SilentPeer, startFakeBridge, TestClient, withToken } from "./support/harness.js";

type Bridge = Awaited<ReturnType<typeof startFakeBridge>>;

function upgrade(host: string, target = "/", extra = ""): string {
  return (
    `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
    `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${extra}\r\n`
  );
}

async function assertTokenHolderGetsIn(bridge: Bridge): Promise<void> {
  const client = await TestClient.connect(bridge.url);
  await client.next((r) => r.type === "pi-elements/hello");
  await client.close();
}

async function connectionsDropTo(bridge: Bridge, count: number, what: string): Promise<void> {
  let last = -1;
  await waitFor(
    async () => {
      last = await bridge.openConnections();
      return last <= count;
    },
    { message: what, detail: () => `the bridge still holds ${last} connections` },
  );
}

describe("refused upgrades (issue #18, item 3)", () => {
  it("are closed by the bridge even when the peer never sends FIN: every place is free again", async () => {
    const bridge = await startFakeBridge({ maxConnections: 8 });
    const peers: SilentPeer[] = [];
    try {
      const host = `127.0.0.1:${bridge.port}`;
      const requests = [
        upgrade(host), // no token: the handshake, then a 4401 close the peer never answers
        upgrade(host, "/", "Origin: https://evil.example\r\n"), // 403
        upgrade(host, "/other"), // 404
        upgrade("evil.example"), // 421
        upgrade(host, "//[/"), // 400
      ];
      for (let i = 0; i < 8; i++) peers.push(new SilentPeer(bridge.port, requests[i % requests.length]));
      await Promise.all(peers.map((peer) => peer.ended));
      for (const [i, peer] of peers.entries()) {
        if (i % requests.length === 0) assert.match(peer.answer, /^HTTP\/1\.1 101 .*\r\n\r\n\x88/s, "a close frame");
        else assert.match(peer.answer, /^HTTP\/1\.1 4\d\d .*\r\nConnection: close\r\n/s);
      }
      await connectionsDropTo(bridge, 0, "the refused sockets are released");
      await assertTokenHolderGetsIn(bridge);
    } finally {
      for (const peer of peers) peer.destroy();
      await bridge.close();
    }
  });
});

describe("half-sent requests (issue #18, item 3: the handshakeTimeoutMs promise)", () => {
  it("are answered 408 (400 before) after handshakeTimeoutMs and their socket destroyed, though the peer never sends FIN", async () => {
    const bridge = await startFakeBridge({ handshakeTimeoutMs: 300, maxConnections: 4 });
    const peers: SilentPeer[] = [];
    try {
      // The first-byte deadline (2 s by default) is longer than this handshake deadline: only the latter ends them.
      for (let i = 0; i < 4; i++) peers.push(new SilentPeer(bridge.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n`));
      await Promise.all(peers.map((peer) => peer.ended));
      for (const peer of peers) assert.match(peer.answer, /^HTTP\/1\.1 40[08] /);
      await connectionsDropTo(bridge, 0, "the timed-out sockets are released");
      await assertTokenHolderGetsIn(bridge);
    } finally {
      for (const peer of peers) peer.destroy();
      await bridge.close();
    }
  });
});

describe("silent and refused connections (issue #18, item 4)", () => {
  it("a connection that sends nothing is dropped after firstByteTimeoutMs, freeing its place", async () => {
    const bridge = await startFakeBridge({ maxConnections: 8, firstByteTimeoutMs: 200 });
    const peers: SilentPeer[] = [];
    try {
      for (let i = 0; i < 8; i++) peers.push(new SilentPeer(bridge.port));
      await Promise.all(peers.map((peer) => peer.ended));
      await connectionsDropTo(bridge, 0, "the silent sockets are dropped");
      await assertTokenHolderGetsIn(bridge);
      // A client that connects and speaks at once is not affected by the deadline once its request is in.
      const client = await TestClient.connect(bridge.url);
      client.send({ type: "get_state", id: "later" });
      await client.received((line) => line.id === "later");
      await client.close();
    } finally {
      for (const peer of peers) peer.destroy();
      await bridge.close();
    }
  });

  it("by default, 300 open connections (more than Chromium's 256 per profile) leave room for a token holder", async () => {
    // The silent ones are kept open here (no first-byte deadline) to test the limit alone.
    const bridge = await startFakeBridge({ firstByteTimeoutMs: 600_000 });
    const peers: SilentPeer[] = [];
    try {
      for (let i = 0; i < 300; i++) peers.push(new SilentPeer(bridge.port));
      await Promise.all(peers.map((peer) => peer.connected));
      await waitFor(async () => (await bridge.openConnections()) >= 300, {
        message: "the bridge to hold the 300 connections",
      });
      await assertTokenHolderGetsIn(bridge);
      assert.ok(
        peers.every((peer) => !peer.bridgeEnded),
        "no silent connection was dropped meanwhile",
      );
    } finally {
      for (const peer of peers) peer.destroy();
      await bridge.close();
    }
  });

  it("refused HTTP requests (421, 400, 401, a wrong token's 401, 426) are answered with Connection: close and the socket is closed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-bridge-static-"));
    writeFileSync(join(dir, "index.html"), "<p>hi</p>");
    const withStatic = await startFakeBridge({ staticDir: dir });
    const plain = await startFakeBridge();
    const peers: SilentPeer[] = [];
    try {
      const get = (host: string, target = "/") => `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      const cases: Array<[Bridge, string, number]> = [
        [withStatic, get("evil.example"), 421],
        [withStatic, get(`127.0.0.1:${withStatic.port}`, "//[/"), 400],
        [withStatic, get(`127.0.0.1:${withStatic.port}`), 401],
        [withStatic, get(`127.0.0.1:${withStatic.port}`, "/?token=wrong"), 401], // a guess: answered in its turn
        [plain, get(`127.0.0.1:${plain.port}`), 426],
      ];
      for (const [bridge, request, status] of cases) {
        const peer = new SilentPeer(bridge.port, request);
        peers.push(peer);
        await peer.ended;
        assert.match(peer.answer, new RegExp(`^HTTP/1\\.1 ${status} `));
        assert.match(peer.answer, /\r\nConnection: close\r\n/i, `${status} says Connection: close`);
      }
      await connectionsDropTo(withStatic, 0, "the refused static requests are closed");
      await connectionsDropTo(plain, 0, "the 426 request is closed");
      await assertTokenHolderGetsIn(withStatic);
    } finally {
      for (const peer of peers) peer.destroy();
      await Promise.all([withStatic.close(), plain.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("failed token attempts (issue #18, item 10)", () => {
  it("wrong tokens are still answered (closed with 4401), each in its turn on the bridge's clock, and a right token gets in meanwhile", async () => {
    const clock = new ManualClock();
    const bridge = await startFakeBridge({ clock });
    try {
      const answered: number[] = [];
      const wrong = [1, 2, 3].map((i) => new TestClient(withToken(bridge.url, `wrong-${i}`)));
      for (const client of wrong) void client.answer.then((code) => answered.push(code));
      // The gate logs a refusal when it judges it, before the answer waits for its turn.
      const judged = () => bridge.logs.filter((line) => line.includes("401 token refused")).length;
      await waitFor(() => judged() === 3, { message: "the three guesses judged", detail: () => `${judged()} judged` });
      assert.deepEqual(
        clock.delays.filter((ms) => ms === 250),
        [250],
        "the turns run on the bridge's clock (one timer at a time)",
      );
      await assertTokenHolderGetsIn(bridge);
      assert.deepEqual(answered, [], "no guess is answered before its turn");
      for (let turn = 1; turn <= 3; turn++) {
        // One answer per 250 ms (DEFAULT_TOKEN_FAILURES), in arrival order.
        clock.advance(250);
        await waitFor(() => answered.length >= turn, { message: `guess ${turn} answered in its turn` });
      }
      assert.deepEqual(answered, [4401, 4401, 4401]);
      await connectionsDropTo(bridge, 0, "the refused guesses are closed");
    } finally {
      await bridge.close();
    }
  });

  it("close() does not wait for the turns: the guesses still waiting are answered at once", async () => {
    const clock = new ManualClock();
    const bridge = await startFakeBridge({ clock });
    const wrong = [1, 2].map((i) => new TestClient(withToken(bridge.url, `wrong-${i}`)));
    const judged = () => bridge.logs.filter((line) => line.includes("401 token refused")).length;
    await waitFor(() => judged() === 2, { message: "the two guesses judged", detail: () => `${judged()} judged` });
    await within(bridge.close(), { message: "bridge.close() while two guesses wait for their turn" });
    assert.deepEqual(
      await within(Promise.all(wrong.map((client) => client.answer)), { message: "the answers" }),
      [4401, 4401],
    );
  });
});
