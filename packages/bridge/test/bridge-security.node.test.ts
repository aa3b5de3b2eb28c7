/**
 * Who may connect and what a client may send, through a real bridge around the fake agent. The agent reports every
 * line it receives, so "nothing invalid is forwarded" is checked at the agent, after a valid marker command.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { type AddressInfo, connect, createServer, type NetConnectOpts, type Socket } from "node:net";
import { hostname } from "node:os";
import { after, before, describe, it } from "node:test";
import { TOKEN_REFUSED_CLOSE_CODE } from "@pi-elements/core";
import { within } from "../../../test/support/wait-for.js";
import { startBridge } from "../src/index.js";
import { fakeAgent, type Rec, startFakeBridge, TestClient, uiRequest, withToken } from "./support/harness.js";

type Bridge = Awaited<ReturnType<typeof startFakeBridge>>;
type ClientOptions = ConstructorParameters<typeof TestClient>[1];

let served = 0;

/**
 * Proves a connection made this way is served, not only opened: a first client's command reaches the agent and
 * what the agent writes comes back to it (a status); a second client gets `pi-elements/hello` first, then the
 * replay of the state it missed (that status), and the agent's answer to its own command.
 */
async function assertServed(url: string, options?: ClientOptions): Promise<void> {
  const n = ++served;
  const first = await TestClient.connect(url, options);
  const status = uiRequest(`served-${n}`, "setStatus", { statusKey: `served-${n}`, statusText: `status ${n}` });
  first.directive(`emit ${JSON.stringify([status])}`);
  assert.deepEqual(await first.next((r) => r.id === status.id, 0, "the agent's status at the first client"), status);
  await first.close();

  const second = await TestClient.connect(url, options);
  const probe = { type: "get_state", id: `probe-${n}` };
  second.send(probe);
  const echo = await second.received((line) => line.id === probe.id);
  assert.deepEqual(JSON.parse(echo.line as string), probe, "the command reached the agent whole");
  const replay = second.records.slice(0, second.records.indexOf(echo));
  assert.deepEqual(replay[0], { type: "pi-elements/hello", protocol: 1 }, "hello comes first");
  assert.ok(
    replay.some(
      (r) => r.method === "setStatus" && r.statusKey === status.statusKey && r.statusText === status.statusText,
    ),
    `the replay holds the status set before: ${JSON.stringify(replay)}`,
  );
  await second.close();
}

describe("binding", () => {
  it("listens on 127.0.0.1 by default", async () => {
    const bridge = await startFakeBridge();
    try {
      assert.equal(bridge.host, "127.0.0.1");
      assert.match(bridge.url, /^ws:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    } finally {
      await bridge.close();
    }
  });

  it("refuses a non-loopback address without allowRemote, and starts no agent", async () => {
    await assert.rejects(
      startBridge({ port: 0, host: "0.0.0.0", agent: fakeAgent(), log: () => {} }),
      /not a loopback address.*allow-remote/i,
    );
  });

  it("binds another address with allowRemote, and warns", async () => {
    const bridge = await startFakeBridge({ host: "0.0.0.0", allowRemote: true });
    try {
      assert.ok(bridge.logs.some((line) => /WARNING: listening on 0\.0\.0\.0/.test(line)));
      await assertServed(withToken(`ws://127.0.0.1:${bridge.port}/`, bridge.token));
    } finally {
      await bridge.close();
    }
  });

  it("with allowRemote, still checks Host: the machine's names and --allow-host pass, others get 421", async () => {
    const bridge = await startFakeBridge({ host: "0.0.0.0", allowRemote: true, allowHosts: ["box.example"] });
    try {
      const url = withToken(`ws://127.0.0.1:${bridge.port}/`, bridge.token);
      for (const name of [hostname(), "box.example", "BOX.example"]) {
        await assertServed(url, { headers: { Host: `${name}:${bridge.port}` } });
      }
      assert.equal(await new TestClient(url, { headers: { Host: `evil.example:${bridge.port}` } }).refused, 421);
    } finally {
      await bridge.close();
    }
  });
});

/** Whether this machine has the IPv6 loopback address (a container may not). */
async function hasIpv6Loopback(): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(0, "::1", () => probe.close(() => resolve(true)));
  });
}

describe("localhost: the other loopback address", () => {
  it("a bridge on 127.0.0.1 also holds [::1] at its port, so http://localhost:PORT/ reaches no one else", async (t) => {
    if (!(await hasIpv6Loopback())) return t.skip("this machine has no ::1");
    const bridge = await startFakeBridge();
    try {
      const client = await TestClient.connect(withToken(`ws://[::1]:${bridge.port}/`, bridge.token));
      await client.next((r) => r.type === "pi-elements/hello");
      await client.close();
      const squatter = createServer();
      const taken = await new Promise<string>((resolve) => {
        squatter.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
        squatter.listen(bridge.port, "::1", () => squatter.close(() => resolve("listening")));
      });
      assert.equal(taken, "EADDRINUSE", "another program could listen on [::1] at the bridge's port");
    } finally {
      await bridge.close();
    }
  });

  it("a bridge on ::1 also holds 127.0.0.1 at its port", async (t) => {
    if (!(await hasIpv6Loopback())) return t.skip("this machine has no ::1");
    const bridge = await startFakeBridge({ host: "::1" });
    try {
      const client = await TestClient.connect(withToken(`ws://127.0.0.1:${bridge.port}/`, bridge.token));
      await client.next((r) => r.type === "pi-elements/hello");
      await client.close();
    } finally {
      await bridge.close();
    }
  });

  it("warns when another program holds [::1] at its port already", async (t) => {
    if (!(await hasIpv6Loopback())) return t.skip("this machine has no ::1");
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, "::1", resolve));
    const { port } = squatter.address() as AddressInfo;
    const bridge = await startFakeBridge({ port });
    try {
      assert.ok(
        bridge.logs.some((line) => line.includes(`WARNING: another program listens on [::1]:${port}`)),
        bridge.logs.join("\n"),
      );
      const client = await TestClient.connect(bridge.url);
      await client.close();
    } finally {
      await bridge.close();
      squatter.close();
    }
  });
});

describe("--allow-host", () => {
  it("lets the page the bridge serves at http://NAME:PORT/ open its socket; other origins of NAME stay out", async () => {
    const bridge = await startFakeBridge({ allowHosts: ["box.example"] });
    try {
      const url = withToken(`ws://127.0.0.1:${bridge.port}/`, bridge.token);
      const host = `box.example:${bridge.port}`;
      for (const origin of [`http://box.example:${bridge.port}`, `https://BOX.example:${bridge.port}`]) {
        const client = await TestClient.connect(url, { headers: { Host: host }, origin });
        await client.close();
      }
      for (const origin of [`http://box.example:${bridge.port + 1}`, "http://box.example", "http://evil.example"]) {
        assert.equal(await new TestClient(url, { headers: { Host: host }, origin }).refused, 403, origin);
      }
    } finally {
      await bridge.close();
    }
  });

  it("refuses a value that is not a host name before starting anything", async () => {
    for (const bad of ["http://box", "box:8080", "box/x"]) {
      // A bridge that starts anyway is closed, so that the failure does not leave it running.
      const started = startBridge({ port: 0, allowHosts: [bad], agent: fakeAgent(), log: () => {} });
      await assert.rejects(
        started.then((bridge) => bridge.close()),
        /Not a host name/,
        bad,
      );
    }
  });
});

describe("handshake", () => {
  let bridge: Bridge;
  before(async () => {
    bridge = await startFakeBridge({ allowOrigins: ["https://app.example"] });
  });
  after(() => bridge.close());

  it("accepts the printed URL", async () => {
    const client = await TestClient.connect(bridge.url);
    assert.deepEqual(await client.next((r) => r.type === "pi-elements/hello"), {
      type: "pi-elements/hello",
      protocol: 1,
    });
    await client.close();
  });

  it("refuses a missing token: closed with 4401 and its reason before anything is sent", async () => {
    const client = new TestClient(withToken(bridge.url, undefined));
    assert.equal(await client.answer, TOKEN_REFUSED_CLOSE_CODE);
    assert.deepEqual(await client.closed, { code: 4401, reason: "token refused: open the address pi-bridge printed" });
    assert.deepEqual(client.frames, []);
  });

  it("refuses a wrong token: closed with 4401 before anything is sent", async () => {
    assert.equal(await new TestClient(withToken(bridge.url, `${bridge.token}x`)).answer, TOKEN_REFUSED_CLOSE_CODE);
    assert.equal(await new TestClient(withToken(bridge.url, "")).answer, TOKEN_REFUSED_CLOSE_CODE);
  });

  it("accepts the token as Authorization: Bearer", async () => {
    await assertServed(withToken(bridge.url, undefined), { headers: { Authorization: `Bearer ${bridge.token}` } });
  });

  it("refuses a page from another origin with 403, even with the right token", async () => {
    assert.equal(await new TestClient(bridge.url, { origin: "http://evil.example" }).refused, 403);
    assert.equal(await new TestClient(bridge.url, { origin: "null" }).refused, 403);
  });

  it("accepts loopback pages on any port and the --allow-origin ones", async () => {
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:1234", "https://app.example"]) {
      await assertServed(bridge.url, { origin });
    }
  });

  it("refuses a Host header that is not loopback (DNS rebinding) with 421", async () => {
    assert.equal(await new TestClient(bridge.url, { headers: { Host: "evil.example:80" } }).refused, 421);
  });

  it("refuses other paths with 404", async () => {
    const url = new URL(bridge.url);
    url.pathname = "/other";
    assert.equal(await new TestClient(url.toString()).refused, 404);
  });

  it("answers plain HTTP with 426 when there is no static folder", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: "127.0.0.1", port: bridge.port, path: "/" }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    assert.equal(status, 426);
  });
});

describe("without a token", () => {
  it("accepts clients only when disabled explicitly, and warns", async () => {
    const bridge = await startFakeBridge({ token: false });
    try {
      assert.equal(bridge.token, undefined);
      assert.match(bridge.url, /^ws:\/\/127\.0\.0\.1:\d+\/$/);
      assert.ok(bridge.logs.some((line) => /WARNING: token check disabled/.test(line)));
      await assertServed(bridge.url);
      // The origin check still applies.
      assert.equal(await new TestClient(bridge.url, { origin: "http://evil.example" }).refused, 403);
    } finally {
      await bridge.close();
    }
  });

  it("uses a given token", async () => {
    const bridge = await startFakeBridge({ token: "correct horse battery staple" });
    try {
      assert.equal(bridge.token, "correct horse battery staple");
      assert.equal(await new TestClient(withToken(bridge.url, "correct horse")).answer, TOKEN_REFUSED_CLOSE_CODE);
      await assertServed(bridge.url);
    } finally {
      await bridge.close();
    }
  });
});

describe("client frames", () => {
  let bridge: Bridge;
  /** A client that watches what reaches the agent. */
  let observer: TestClient;
  before(async () => {
    bridge = await startFakeBridge({ maxPayload: 4096 });
    observer = await TestClient.connect(bridge.url);
  });
  after(async () => {
    await observer.close();
    await bridge.close();
  });

  /** Sends a bad frame from a fresh client, expects the close code, then proves the agent got nothing of it. */
  async function expectDisconnect(frame: string | Buffer, code: number): Promise<void> {
    const client = await TestClient.connect(bridge.url);
    const before = observer.records.length;
    client.socket.send(frame);
    assert.equal((await within(client.closed, { message: `a close with ${code}` })).code, code);
    const marker = `marker-${Math.random()}`;
    const probe = await TestClient.connect(bridge.url);
    probe.send({ type: "get_state", id: marker });
    await observer.received((line) => line.id === marker, before);
    const reached = observer.records.slice(before).filter((r) => r.type === "received");
    assert.deepEqual(
      reached.map((r) => JSON.parse(r.line as string).id),
      [marker],
      "only the marker reached the agent",
    );
    await probe.close();
  }

  it("forwards a command whole, with the fields it does not name (a newer pi's)", async () => {
    const client = await TestClient.connect(bridge.url);
    const from = observer.records.length;
    client.send({ type: "prompt", message: "hi\u2028there 漢字", id: "p1", extra: "<kept>" });
    const line = await observer.received((l) => l.id === "p1", from);
    assert.deepEqual(JSON.parse(line.line as string), {
      type: "prompt",
      message: "hi\u2028there 漢字",
      id: "p1",
      extra: "<kept>",
    });
    await client.close();
  });

  it("forwards the commands pi 1.6 added, and any well-formed command it may add later, with all their fields", async () => {
    const client = await TestClient.connect(bridge.url);
    const from = observer.records.length;
    const commands = [
      { type: "clear_queue", id: "n1" },
      { type: "get_available_thinking_levels", id: "n2" },
      { type: "get_entries", id: "n3", since: "entry-7" },
      { type: "get_tree", id: "n4" },
      { type: "bash", id: "n5", command: "ls", excludeFromContext: true },
      { type: "some_future_command", id: "n6", options: { deep: [1, "two", null] } },
    ];
    for (const command of commands) client.send(command);
    await observer.received((l) => l.id === "n6", from);
    const forwarded = observer.agentLines().filter((l) => typeof l.id === "string" && l.id.startsWith("n"));
    assert.deepEqual(forwarded.slice(-commands.length), commands);
    await client.close();
  });

  it("accepts a JSONL frame of several records, forwarded in order", async () => {
    const client = await TestClient.connect(bridge.url);
    const from = observer.records.length;
    client.send(
      `${JSON.stringify({ type: "get_state", id: "j1" })}\r\n${JSON.stringify({ type: "abort", id: "j2" })}\n`,
    );
    await observer.received((l) => l.id === "j2", from);
    const ids = observer
      .agentLines()
      .slice(-2)
      .map((l) => l.id);
    assert.deepEqual(ids, ["j1", "j2"]);
    await client.close();
  });

  it("closes 1007 on a frame that is not JSON", () => expectDisconnect("{not json", 1007));
  it("closes 1008 on JSON that is not an object", () => expectDisconnect("[1,2]", 1008));
  it("closes 1008 on a record without a type", () => expectDisconnect('{"id":"x"}', 1008));
  it("closes 1008 on a type a client may not send", async () => {
    await expectDisconnect(
      JSON.stringify({ type: "extension_ui_request", id: "x", method: "notify", message: "m" }),
      1008,
    );
    await expectDisconnect(JSON.stringify({ type: "pi-elements/hello", protocol: 1 }), 1008);
    await expectDisconnect(JSON.stringify({ type: "pi-elements/anything_else" }), 1008);
    await expectDisconnect(JSON.stringify({ type: "response", command: "prompt", success: true }), 1008);
  });
  it("closes 1008 on a command whose id is not a string", () =>
    expectDisconnect(JSON.stringify({ type: "prompt", message: "x", id: 42 }), 1008));
  it("closes 1008 on an invalid extension_ui_response", () =>
    expectDisconnect(JSON.stringify({ type: "extension_ui_response", id: "x", value: 5 }), 1008));
  it("forwards nothing from a frame with one bad record among good ones", () =>
    expectDisconnect(`${JSON.stringify({ type: "get_state", id: "good" })}\n{bad\n`, 1007));
  it("closes 1003 on a binary frame", () => expectDisconnect(Buffer.from('{"type":"get_state"}'), 1003));
  it("closes 1009 on a frame over maxPayload", () =>
    expectDisconnect(JSON.stringify({ type: "prompt", message: "x".repeat(5000) }), 1009));
  it("closes 1008 on an empty frame", () => expectDisconnect("\n\n", 1008));

  it("leaves the agent running and other clients connected", async () => {
    assert.ok(bridge.agentPid !== undefined);
    assert.equal(observer.socket.readyState, observer.socket.OPEN);
    assert.equal(
      observer.records.filter((r: Rec) => r.type === "pi-elements/agent_exit").length,
      0,
      "the agent never exited",
    );
  });
});

describe("slow clients", () => {
  it("are disconnected with 1013 when too much output waits for them", async () => {
    const bridge = await startFakeBridge({ maxClientBacklog: 1 });
    try {
      const fast = await TestClient.connect(bridge.url);
      // The slow client's TCP socket, made through ws's public createConnection option, so the test can stop reading.
      let tcp: Socket | undefined;
      const slow = await TestClient.connect(bridge.url, {
        createConnection: (options) => {
          tcp = connect(options as NetConnectOpts);
          return tcp;
        },
      });
      // Stop reading on the slow client's side so the bridge's send buffer fills up.
      tcp?.pause();
      // Kernel buffers absorb some megabytes first: keep the output coming until the bridge gives up on it.
      for (let round = 1; !bridge.logs.some((line) => line.includes("disconnecting a slow client")); round++) {
        assert.ok(round <= 50, "the slow client was never disconnected");
        const from = fast.records.length;
        fast.directive("burst 20000");
        await fast.next((r) => r.id === "b20000", from);
      }
      tcp?.resume();
      assert.equal((await within(slow.closed, { message: "the slow client's close" })).code, 1013);
      assert.equal(fast.socket.readyState, fast.socket.OPEN);
      await fast.close();
    } finally {
      await bridge.close();
    }
  });
});
