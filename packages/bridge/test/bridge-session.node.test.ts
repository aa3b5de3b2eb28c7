/**
 * A session that outlives its connections, several clients at once, and the agent's lifecycle, through a real
 * bridge around the fake agent. Deadlines run on a controlled clock.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createMemoryPair, type DialogClosed, PiSession } from "@pi-elements/core";
import { waitFor } from "../../../test/support/wait-for.js";
import { ManualClock, type Rec, startFakeBridge, TestClient, uiRequest } from "./support/harness.js";

type Bridge = Awaited<ReturnType<typeof startFakeBridge>>;

const isType = (type: string) => (r: Rec) => r.type === type;
const closedEvent = (id: string, reason: string) => ({ type: "pi-elements/dialog_closed", id, reason });

describe("replay to every client that connects", () => {
  let bridge: Bridge;
  let clock: ManualClock;
  before(async () => {
    clock = new ManualClock();
    bridge = await startFakeBridge({ clock });
  });
  after(() => bridge.close());

  it("sends hello first, then the state as ordinary requests, dialogs with the time that remains", async () => {
    const first = await TestClient.connect(bridge.url);
    first.directive(
      `emit ${JSON.stringify([
        uiRequest("t", "setTitle", { title: "Work <b>" }),
        uiRequest("s", "setStatus", { statusKey: "k", statusText: "\u001b[31mred\u001b[39m" }),
        uiRequest("w", "setWidget", { widgetKey: "w", widgetLines: ["1", "2"], widgetPlacement: "belowEditor" }),
        uiRequest("e", "set_editor_text", { text: "x\u2028y" }),
        uiRequest("dlg", "select", { title: "Pick", options: ["a", "b"], timeout: 10_000 }),
      ])}`,
    );
    await first.next((r) => r.id === "dlg");
    clock.advance(4000);
    await first.close();

    const second = await TestClient.connect(bridge.url);
    await second.next((r) => r.id === "dlg");
    const { id: _t, ...title } = second.records[1] as Rec;
    assert.deepEqual(second.records[0], { type: "pi-elements/hello", protocol: 1 });
    assert.deepEqual(title, { type: "extension_ui_request", method: "setTitle", title: "Work <b>" });
    assert.deepEqual(
      second.records.slice(2).map((r) => r.method),
      ["setStatus", "setWidget", "set_editor_text", "select"],
    );
    assert.deepEqual(second.records.at(-1), {
      type: "extension_ui_request",
      id: "dlg",
      method: "select",
      title: "Pick",
      options: ["a", "b"],
      timeout: 6000,
    });
    assert.equal(second.frames.length, 1, "hello and the replay arrive in one frame");

    // The answer from the reconnected client reaches the agent.
    second.send({ type: "extension_ui_response", id: "dlg", value: "b" });
    const at = await second.received((line) => line.type === "extension_ui_response");
    assert.deepEqual(JSON.parse(at.line as string), { type: "extension_ui_response", id: "dlg", value: "b" });
    await second.close();

    const third = await TestClient.connect(bridge.url);
    await third.next((r) => r.method === "set_editor_text");
    assert.equal(
      third.records.some((r) => r.id === "dlg"),
      false,
      "an answered dialog is not replayed",
    );
    await third.close();
  });

  it("expires a timed dialog at its deadline: pi gets the timeout's cancel, clients are told, a late answer is not forwarded", async () => {
    const client = await TestClient.connect(bridge.url);
    client.directive(
      `emit ${JSON.stringify([uiRequest("timed", "confirm", { title: "T", message: "m", timeout: 3000 })])}`,
    );
    await client.next((r) => r.id === "timed");
    clock.advance(2999);
    client.directive(`emit ${JSON.stringify([uiRequest("marker1", "notify", { message: "m" })])}`);
    await client.next((r) => r.id === "marker1");
    assert.equal(client.records.filter(isType("pi-elements/dialog_closed")).length, 0);
    clock.advance(1);
    assert.deepEqual(await client.next(isType("pi-elements/dialog_closed")), closedEvent("timed", "expired"));

    client.send({ type: "extension_ui_response", id: "timed", confirmed: true });
    // The client's own session times the dialog out too and sends its cancel: what pi got already, so no notice.
    client.send({ type: "extension_ui_response", id: "timed", cancelled: true });
    client.send({ type: "get_state", id: "after-late-answer" });
    await client.received((line) => line.id === "after-late-answer");
    assert.deepEqual(
      client.agentLines().filter((line) => line.type === "extension_ui_response" && line.id === "timed"),
      [{ type: "extension_ui_response", id: "timed", cancelled: true }],
      "pi gets the bridge's timeout cancel once, never the late answer",
    );
    assert.equal(client.records.filter(isNotice).length, 1, "the late answer, not the cancel, is said not to reach pi");
    assert.equal(client.socket.readyState, client.socket.OPEN, "a late answer is no reason to disconnect");
    await client.close();
  });

  it("an answer after the deadline, before the bridge's timer ran, gets the core's verdict: a timeout", async () => {
    const request = uiRequest("late", "confirm", { title: "Delete?", message: "rm -rf build/", timeout: 3000 });
    const answer = { type: "extension_ui_response", id: "late", confirmed: true };

    // The core on its own: a PiSession whose clock passed the deadline before its timer ran.
    const coreClock = new ManualClock();
    const [sessionEnd, agentEnd] = createMemoryPair();
    const toAgent: Rec[] = [];
    agentEnd.addEventListener("record", (event) => toAgent.push(JSON.parse(event.value) as Rec));
    const session = new PiSession(sessionEnd, { clock: coreClock });
    const closed: DialogClosed[] = [];
    session.addEventListener("dialog-closed", (event) => closed.push(event.value));
    agentEnd.send(JSON.stringify(request));
    await waitUntil(() => session.ui.getSnapshot().dialogs.length === 1, "the dialog to reach the core's session");
    coreClock.jump(3000);
    assert.equal(session.respond("late", { confirmed: true }), false, "the core refuses the late answer");
    await waitUntil(() => toAgent.length > 0, "the core's answer to the agent");
    assert.deepEqual(toAgent, [{ type: "extension_ui_response", id: "late", cancelled: true }]);
    assert.deepEqual(closed, [{ id: "late", reason: "timeout" }]);
    session.close();

    // The same answer, just as late, through the bridge.
    const client = await TestClient.connect(bridge.url);
    const from = client.records.length;
    client.directive(`emit ${JSON.stringify([request])}`);
    await client.next((r) => r.id === "late", from);
    clock.jump(3000);
    assert.ok(clock.pending > 0, "the bridge's deadline timer has not run");
    client.send(answer);
    client.send({ type: "get_state", id: "after-the-late-one" });
    await client.received((line) => line.id === "after-the-late-one");
    const atAgent = client.agentLines().filter((line) => line.type === "extension_ui_response" && line.id === "late");
    assert.deepEqual(atAgent, toAgent, "pi receives what the core sends: the timeout's cancel, not the answer");
    assert.deepEqual(
      client.records.slice(from).filter((r) => r.type === "pi-elements/dialog_closed"),
      [closedEvent("late", "expired")],
      "every client is told it expired (the core's timeout), not that it was answered",
    );
    assert.equal(
      client.records.slice(from).filter(isNotice).length,
      1,
      "the sender is told its answer did not reach pi",
    );
    const replayed = await TestClient.connect(bridge.url);
    await replayed.next(isType("pi-elements/hello"));
    assert.equal(
      replayed.records.some((r) => r.id === "late"),
      false,
      "an expired dialog is not replayed",
    );
    await replayed.close();
    await client.close();
  });
});

/** The bridge's notice that an answer did not reach the agent. */
const isNotice = (r: Rec) => r.method === "notify" && /did not reach the agent/.test(String(r.message));

const waitUntil = (condition: () => boolean, what: string) => waitFor(condition, { message: what });

describe("several clients", () => {
  let bridge: Bridge;
  before(async () => {
    bridge = await startFakeBridge();
  });
  after(() => bridge.close());

  it("all see everything; the first answer wins, is forwarded once, and the others are told", async () => {
    const a = await TestClient.connect(bridge.url);
    const b = await TestClient.connect(bridge.url);
    const c = await TestClient.connect(bridge.url);
    a.directive(`emit ${JSON.stringify([uiRequest("q", "input", { title: "Name?" })])}`);
    for (const client of [a, b, c]) await client.next((r) => r.id === "q");

    b.send({ type: "extension_ui_response", id: "q", value: "from b" });
    await a.received((line) => line.type === "extension_ui_response");
    // Later answers, over other connections (each connection's order is kept; a sync per connection proves it).
    a.send({ type: "extension_ui_response", id: "q", value: "from a" });
    a.send({ type: "get_state", id: "sync-a" });
    c.send({ type: "extension_ui_response", id: "q", cancelled: true });
    c.send({ type: "get_state", id: "sync-c" });
    await a.received((line) => line.id === "sync-a");
    await a.received((line) => line.id === "sync-c");

    const answers = a.agentLines().filter((line) => line.type === "extension_ui_response");
    assert.deepEqual(answers, [{ type: "extension_ui_response", id: "q", value: "from b" }]);
    assert.deepEqual(await a.next(isType("pi-elements/dialog_closed")), closedEvent("q", "answered"));
    assert.deepEqual(await c.next(isType("pi-elements/dialog_closed")), closedEvent("q", "answered"));
    // The winner is told too (harmless: its session no longer has the dialog), see the reconnect test below.
    assert.deepEqual(await b.next(isType("pi-elements/dialog_closed")), closedEvent("q", "answered"));
    assert.equal(a.records.filter(isType("pi-elements/dialog_closed")).length, 1, "told once");
    for (const client of [a, b, c]) assert.equal(client.socket.readyState, client.socket.OPEN);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it("two dialogs pending at once are answered independently", async () => {
    const a = await TestClient.connect(bridge.url);
    const b = await TestClient.connect(bridge.url);
    a.directive(
      `emit ${JSON.stringify([
        uiRequest("one", "confirm", { title: "1", message: "m" }),
        uiRequest("two", "select", { title: "2", options: ["x", "y"] }),
      ])}`,
    );
    await b.next((r) => r.id === "two");
    b.send({ type: "extension_ui_response", id: "two", value: "y" });
    a.send({ type: "extension_ui_response", id: "one", confirmed: true });
    await a.received((line) => line.id === "one");
    await a.received((line) => line.id === "two");
    assert.deepEqual(
      await a.next((r) => r.type === "pi-elements/dialog_closed" && r.id === "two"),
      closedEvent("two", "answered"),
    );
    assert.deepEqual(
      await b.next((r) => r.type === "pi-elements/dialog_closed" && r.id === "one"),
      closedEvent("one", "answered"),
    );
    await Promise.all([a.close(), b.close()]);
  });

  it("an answer sent on reconnecting closes the dialog that the reconnect's replay brought back", async () => {
    const a = await TestClient.connect(bridge.url);
    a.directive(`emit ${JSON.stringify([uiRequest("rc", "input", { title: "Again?" })])}`);
    await a.next((r) => r.id === "rc");
    await a.close();
    // What a reconnecting transport does: its queued answer goes out as soon as the socket opens.
    const again = new TestClient(bridge.url);
    again.socket.once("open", () => again.send({ type: "extension_ui_response", id: "rc", value: "queued" }));
    await again.opened;
    const replayed = await again.next((r) => r.id === "rc" && r.type === "extension_ui_request");
    const closed = await again.next((r) => r.type === "pi-elements/dialog_closed" && r.id === "rc");
    assert.ok(again.records.indexOf(replayed) < again.records.indexOf(closed));
    assert.deepEqual(closed, closedEvent("rc", "answered"));
    await again.received((line) => line.id === "rc");
    await again.close();
  });

  it("an answer of the wrong shape for the dialog disconnects its sender and leaves the dialog pending", async () => {
    const a = await TestClient.connect(bridge.url);
    a.directive(`emit ${JSON.stringify([uiRequest("cf", "confirm", { title: "C", message: "m" })])}`);
    await a.next((r) => r.id === "cf");
    const wrong = await TestClient.connect(bridge.url);
    // Nothing from the frame is acted on, not even the valid command before the misfit answer.
    wrong.send(
      `${JSON.stringify({ type: "get_state", id: "before-misfit" })}\n${JSON.stringify({ type: "extension_ui_response", id: "cf", value: "yes" })}\n`,
    );
    assert.equal((await wrong.closed).code, 1008);
    a.send({ type: "extension_ui_response", id: "cf", confirmed: true });
    await a.received((line) => line.id === "cf");
    assert.deepEqual(
      a.agentLines().filter((line) => line.id === "cf"),
      [{ type: "extension_ui_response", id: "cf", confirmed: true }],
    );
    assert.equal(
      a.agentLines().some((line) => line.id === "before-misfit"),
      false,
    );
    await a.close();
  });

  it("command responses go to every client", async () => {
    const a = await TestClient.connect(bridge.url);
    const b = await TestClient.connect(bridge.url);
    a.directive(`emit ${JSON.stringify([{ type: "response", command: "get_state", success: true, id: "r1" }])}`);
    await a.next((r) => r.id === "r1");
    await b.next((r) => r.id === "r1");
    await Promise.all([a.close(), b.close()]);
  });

  it("a 2,000-status burst arrives whole, in order, in few frames of complete records", async () => {
    const a = await TestClient.connect(bridge.url);
    const framesBefore = a.frames.length;
    a.directive("burst 2000");
    await a.next((r) => r.id === "b2000");
    const burst = a.records.filter((r) => typeof r.id === "string" && /^b\d+$/.test(r.id));
    assert.deepEqual(
      burst.map((r) => r.id),
      Array.from({ length: 2000 }, (_, i) => `b${i + 1}`),
    );
    const frames = a.frames.slice(framesBefore);
    for (const frame of frames) assert.ok(frame.endsWith("\n"), "every frame ends with a whole record");
    assert.ok(frames.length < 100, `batched: ${frames.length} frames`);
    await a.close();
    const late = await TestClient.connect(bridge.url);
    const status = await late.next((r) => r.method === "setStatus" && r.statusKey === "burst");
    assert.equal(status.statusText, "2000/2000");
    await late.close();
  });

  it("relays U+2028 inside a record without splitting it, and a record split across writes whole", async () => {
    const a = await TestClient.connect(bridge.url);
    const text = "漢字\u2028line\u2029para";
    const line = JSON.stringify(uiRequest("u", "set_editor_text", { text }));
    const framesBefore = a.frames.length;
    a.directive(`split ${JSON.stringify([line.slice(0, 20), line.slice(20, 40), `${line.slice(40)}\n`])}`);
    assert.equal((await a.next((r) => r.id === "u")).text, text);
    for (const frame of a.frames.slice(framesBefore))
      assert.ok(frame.endsWith("\n"), "no frame carries a partial record");
    await a.close();
  });

  it("sends a record cut across reads as one whole message, at every frame-length size", async () => {
    const a = await TestClient.connect(bridge.url);
    // Frame payload lengths under 126, under 65,536 and beyond: the three forms of a WebSocket length field.
    for (const size of [10, 1000, 70_000]) {
      const line = JSON.stringify(uiRequest(`s${size}`, "notify", { message: "é".repeat(size / 2) }));
      const framesBefore = a.frames.length;
      a.directive(`split ${JSON.stringify([line.slice(0, 7), line.slice(7, 9), `${line.slice(9)}\n`])}`);
      await a.next((r) => r.id === `s${size}`);
      // The fake agent's own "received" echo may share the frame (a loaded machine reads both at once): what matters
      // is that one frame holds the record whole, and no other frame holds a piece of it.
      const own = (frame: string) => frame.split("\n").filter((l) => l !== "" && !l.startsWith('{"type":"received"'));
      const frames = a.frames.slice(framesBefore).filter((frame) => own(frame).length > 0);
      assert.deepEqual(frames.map(own), [[line]]);
    }
    await a.close();
  });
});

describe("backpressure on the agent's stdin", () => {
  it("queues while the agent does not read, then delivers every command in order", async () => {
    const bridge = await startFakeBridge();
    try {
      const client = await TestClient.connect(bridge.url);
      client.directive("hold");
      await client.next(isType("holding"));
      const big = "y".repeat(512 * 1024);
      for (let i = 0; i < 40; i++) client.send({ type: "prompt", message: `${i} ${big}`, id: `big-${i}` });
      // 20 MB cannot fit in a pipe: the bridge holds the rest (and stops reading from clients past 8 MiB).
      for (let i = 0; i < 500 && bridge.agentBacklog < 8 * 1024 * 1024; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(bridge.agentBacklog > 8 * 1024 * 1024, `backlog ${bridge.agentBacklog}`);
      process.kill(bridge.agentPid as number, "SIGUSR2");
      await client.received((line) => line.id === "big-39");
      assert.deepEqual(
        client
          .agentLines()
          .filter((line) => String(line.id).startsWith("big-"))
          .map((line) => line.id),
        Array.from({ length: 40 }, (_, i) => `big-${i}`),
      );
      assert.equal(bridge.agentBacklog, 0);
      await client.close();
    } finally {
      await bridge.close();
    }
  });
});

describe("agent lifecycle", () => {
  it("reports the exit with code and stderr tail, and closes pending dialogs", async () => {
    const bridge = await startFakeBridge({ restart: "never" });
    try {
      const a = await TestClient.connect(bridge.url);
      a.directive(
        `emit ${JSON.stringify([uiRequest("p1", "input", { title: "1" }), uiRequest("p2", "editor", { title: "2" })])}`,
      );
      await a.next((r) => r.id === "p2");
      a.directive("stderr something went wrong");
      a.directive("exit 3");
      const exit = await a.next(isType("pi-elements/agent_exit"));
      assert.equal(exit.code, 3);
      assert.equal(exit.signal, null);
      assert.equal(exit.restart, "never", "the page is told that asking for a restart cannot help");
      assert.ok((exit.stderrTail as string[]).includes("something went wrong"));
      const closed = a.records.filter(isType("pi-elements/dialog_closed"));
      assert.deepEqual(closed, [closedEvent("p1", "agent_exit"), closedEvent("p2", "agent_exit")]);
      assert.ok(a.records.indexOf(closed[1] as Rec) < a.records.indexOf(exit), "dialogs close before the exit report");
      assert.ok(bridge.logs.includes("[agent] something went wrong"), "stderr is forwarded to the bridge's log");
      assert.equal(bridge.agentPid, undefined);

      // A client that connects later learns it too, and no dialog is replayed.
      const late = await TestClient.connect(bridge.url);
      const lateExit = await late.next(isType("pi-elements/agent_exit"));
      assert.equal(lateExit.code, 3);
      assert.equal(lateExit.restart, "never");
      assert.equal(late.records.filter(isType("extension_ui_request")).length, 0);

      // Under "never", a restart request changes nothing; a command is answered by the bridge with a failure.
      late.send({ type: "pi-elements/restart" });
      late.send({ type: "get_state", id: "nowhere" });
      assert.deepEqual(await late.next((r) => r.id === "nowhere"), {
        type: "response",
        command: "get_state",
        success: false,
        error: "The agent is not running.",
        id: "nowhere",
      });
      assert.equal(
        a.records.some((r) => r.id === "nowhere"),
        false,
        "only the sender gets it",
      );
      await a.close();
      await late.close();
      assert.equal(bridge.agentPid, undefined);
      assert.equal(late.records.filter(isType("pi-elements/agent_start")).length, 0);
    } finally {
      await bridge.close();
    }
  });

  it("restarts on request: agent_start, hello and an empty state follow", async () => {
    const bridge = await startFakeBridge({ restart: "on-request" });
    try {
      const a = await TestClient.connect(bridge.url);
      const firstPid = bridge.agentPid;
      a.directive(`emit ${JSON.stringify([uiRequest("s", "setStatus", { statusKey: "k", statusText: "old agent" })])}`);
      await a.next((r) => r.id === "s");
      a.directive("exit 0");
      assert.equal((await a.next(isType("pi-elements/agent_exit"))).restart, "on-request");
      const from = a.records.length;
      a.send({ type: "pi-elements/restart" });
      const start = await a.next(isType("pi-elements/agent_start"), from);
      assert.equal(typeof start.pid, "number");
      assert.notEqual(start.pid, firstPid);
      assert.equal(start.pid, bridge.agentPid);
      assert.deepEqual(a.records[a.records.indexOf(start) + 1], { type: "pi-elements/hello", protocol: 1 });

      a.send({ type: "get_state", id: "to-new-agent" });
      await a.received((line) => line.id === "to-new-agent", from);
      const late = await TestClient.connect(bridge.url);
      await late.next(isType("pi-elements/hello"));
      late.send({ type: "get_state", id: "sync" });
      await late.received((line) => line.id === "sync");
      assert.equal(
        late.records.some((r) => r.statusKey === "k" || r.type === "pi-elements/agent_exit"),
        false,
        "the new agent starts from an empty state",
      );
      await Promise.all([a.close(), late.close()]);
    } finally {
      await bridge.close();
    }
  });

  it("a restart request while the agent runs stops it first, then starts a new one", async () => {
    const bridge = await startFakeBridge({ restart: "on-request" });
    try {
      const a = await TestClient.connect(bridge.url);
      const firstPid = bridge.agentPid as number;
      a.send({ type: "pi-elements/restart" });
      const exit = await a.next(isType("pi-elements/agent_exit"));
      const start = await a.next(isType("pi-elements/agent_start"));
      assert.ok(a.records.indexOf(exit) < a.records.indexOf(start));
      assert.notEqual(start.pid, firstPid);
      assert.throws(() => process.kill(firstPid, 0), /ESRCH/, "the old agent is gone");
      await a.close();
    } finally {
      await bridge.close();
    }
  });

  it("restarts by itself under 'always', each time after its backoff delay on the bridge's clock", async () => {
    const clock = new ManualClock();
    const bridge = await startFakeBridge({
      restart: "always",
      restartBackoff: { initialDelay: 500, maxDelay: 2000 },
      clock,
    });
    try {
      const a = await TestClient.connect(bridge.url);
      for (const delay of [500, 1000, 2000]) {
        const from = a.records.length;
        a.directive("exit 1");
        // The exit report is broadcast in the same turn as the restart is scheduled.
        await a.next(isType("pi-elements/agent_exit"), from);
        clock.advance(delay - 1);
        assert.equal(bridge.agentPid, undefined, `no agent ${delay - 1} ms after the exit`);
        clock.advance(1);
        assert.notEqual(bridge.agentPid, undefined, `an agent ${delay} ms after the exit`);
        await a.next(isType("pi-elements/agent_start"), from);
      }
      assert.deepEqual(
        bridge.logs.filter((line) => line.includes("restarting the agent in")),
        [500, 1000, 2000].map((ms) => `[pi-bridge] restarting the agent in ${ms} ms`),
      );
      await a.close();
    } finally {
      await bridge.close();
    }
  });

  it("reports an agent that cannot be started", async () => {
    const logs: string[] = [];
    const { startBridge } = await import("../src/index.js");
    const bridge = await startBridge({
      port: 0,
      agent: { command: "/nonexistent/agent-binary", args: [] },
      restart: "never",
      log: (line) => logs.push(line),
    });
    try {
      const a = await TestClient.connect(bridge.url);
      const exit = await a.next(isType("pi-elements/agent_exit"));
      assert.equal(exit.code, null);
      assert.match((exit.stderrTail as string[]).join("\n"), /could not start \/nonexistent\/agent-binary/);
      await a.close();
    } finally {
      await bridge.close();
    }
  });

  it("close() stops the agent and disconnects clients with 1001", async () => {
    const bridge = await startFakeBridge();
    const a = await TestClient.connect(bridge.url);
    const pid = bridge.agentPid as number;
    await bridge.close();
    assert.equal((await a.closed).code, 1001);
    assert.throws(() => process.kill(pid, 0), /ESRCH/);
  });
});
