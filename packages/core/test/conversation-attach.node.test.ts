/**
 * Attaching a store to a session, as a user of the core sees it: `session.attach(observer)` and what it returns, and
 * `conversationOf(session)`, the store the core attaches so. `conversationOf` keeps its attachment to itself: its
 * store lives as long as its session (a WeakMap) and stops hearing when the session closes (the session takes its
 * listeners off the transport); there is no call to detach it earlier.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { conversationOf } from "../src/conversation/conversation-of.js";
import type { Diagnostic } from "../src/diagnostics.js";
import { PiSession, type SessionObserver } from "../src/session/pi-session.js";
import { assistant, streamAssistant, userTurn } from "./conversation-wire.js";
import { FakeTransport, ManualClock, ManualSchedule } from "./session-fakes.js";

function setup() {
  const transport = new FakeTransport();
  const schedule = new ManualSchedule();
  const clock = new ManualClock();
  const session = new PiSession(transport, { schedule: schedule.schedule, clock });
  return { transport, schedule, clock, session };
}

/** An observer that writes down every call it gets, as [member, what]. */
function recorder() {
  const calls: [string, unknown][] = [];
  const observer: Required<SessionObserver> = {
    agentEvent: (event) => calls.push(["agentEvent", event.type]),
    bridgeMessage: (message) => calls.push(["bridgeMessage", message.type]),
    commandSent: (command) => calls.push(["commandSent", command.type]),
    commandResult: (command, data) => calls.push(["commandResult", [command.type, data]]),
    commandFailed: (command, error) => calls.push(["commandFailed", [command.type, error]]),
    otherResult: (command, data) => calls.push(["otherResult", [command, data]]),
    connection: (state) => calls.push(["connection", state]),
    run: (run) => calls.push(["run", run.status]),
  };
  return { calls, observer };
}

const texts = (session: PiSession) =>
  conversationOf(session)
    .getSnapshot()
    .entries.map((entry) =>
      entry.kind === "message" && entry.message.role === "assistant" ? entry.message : undefined,
    )
    .filter((message) => message !== undefined)
    .map((message) => message.content.map((block) => (block.type === "text" ? block.text : "")).join(""));

describe("session.attach(observer)", () => {
  test("the observer hears the run as it is, then events, runs, bridge messages, commands, answers and transport states", async () => {
    const { transport, session } = setup();
    transport.receive({ type: "agent_start" }, { type: "agent_end", messages: [] });
    const { calls, observer } = recorder();
    session.attach(observer);
    assert.deepEqual(calls, [["run", "idle"]], "nothing that came before is replayed: that run ended");
    transport.receive({ type: "agent_start" }, { type: "turn_start" }, { type: "a_newer_event" });
    transport.receive({ type: "pi-elements/agent_start", pid: 7 });
    const answered = session.send("get_state", {});
    const { id } = transport.sentMessages().at(-1) as { id: string };
    transport.receive({ type: "response", id, command: "get_state", success: true, data: { isStreaming: false } });
    await answered;
    transport.setState("reconnecting");
    assert.deepEqual(calls, [
      ["run", "idle"],
      ["run", "streaming"],
      ["agentEvent", "agent_start"],
      ["agentEvent", "turn_start"],
      ["agentEvent", "a_newer_event"],
      ["run", "idle"],
      ["bridgeMessage", "pi-elements/agent_start"],
      ["commandSent", "get_state"],
      ["commandResult", ["get_state", { isStreaming: false }]],
      ["connection", "reconnecting"],
    ]);
  });

  test("pi's failure answer is told as commandFailed, a timeout not; the attachment's diagnose reports on the session's diagnostic event", async () => {
    const { transport, clock, session } = setup();
    const { calls, observer } = recorder();
    const attachment = session.attach(observer);
    const diagnostics: Diagnostic[] = [];
    session.addEventListener("diagnostic", (event) => diagnostics.push(event.value));
    const failed = session.send("get_state", {}, { report: false });
    const { id } = transport.sentMessages().at(-1) as { id: string };
    transport.receive({ type: "response", id, command: "get_state", success: false, error: "no" });
    await assert.rejects(failed);
    const timedOut = session.send("get_messages", {}, { timeout: 100 });
    clock.advance(100);
    await assert.rejects(timedOut, { name: "TimeoutError" });
    attachment.diagnose({ code: "invalid-message", message: "from the store" });
    assert.deepEqual(calls, [
      ["run", "idle"],
      ["commandSent", "get_state"],
      ["commandFailed", ["get_state", "no"]],
      ["commandSent", "get_messages"],
    ]);
    assert.deepEqual(diagnostics, [{ code: "invalid-message", message: "from the store" }]);
    assert.equal(session.diagnosticCount, 1);
  });

  test("an answer to a command this session did not send is told as otherResult when it succeeded, and diagnosed", () => {
    const { transport, session } = setup();
    const { calls, observer } = recorder();
    session.attach(observer);
    const diagnostics: Diagnostic[] = [];
    session.addEventListener("diagnostic", (event) => diagnostics.push(event.value));
    transport.receive(
      { type: "response", id: "another-tab", command: "new_session", success: true, data: { cancelled: false } },
      { type: "response", id: "another-tab-2", command: "fork", success: false, error: "no" },
    );
    assert.deepEqual(calls, [
      ["run", "idle"],
      ["otherResult", ["new_session", { cancelled: false }]],
    ]);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ["unknown-response-id", "unknown-response-id"],
    );
  });

  test("detach stops the calls to that observer only, at once, and twice is once", () => {
    const { transport, session } = setup();
    const first = recorder();
    const second = recorder();
    // The first observer detaches itself while the session is calling the observers for one event.
    const attachment = session.attach({
      agentEvent: (event) => {
        first.observer.agentEvent(event);
        attachment.detach();
      },
    });
    session.attach(second.observer);
    transport.receive({ type: "turn_start" }, { type: "turn_end" });
    attachment.detach();
    assert.deepEqual(first.calls, [["agentEvent", "turn_start"]]);
    assert.deepEqual(
      second.calls,
      [
        ["run", "idle"],
        ["agentEvent", "turn_start"],
        ["agentEvent", "turn_end"],
      ],
      "the other observer heard the event being dispatched and every later one",
    );
  });
});

describe("a store made in the middle of a run (pi 1.x streams only deltas)", () => {
  const answer = assistant([{ type: "text", text: "The answer so far, and then the rest of it." }]);
  const streamingText = (session: PiSession) =>
    (conversationOf(session).getSnapshot().streaming?.blocks ?? [])
      .map((block) => (block?.type === "text" ? block.text : ""))
      .join("");

  test("shows the answer so far at once, then streams on, as a store made at agent_start would", () => {
    for (const version of ["1.6.0", "0.73.1"] as const) {
      const { transport, schedule, session } = setup();
      const events = streamAssistant(version, answer, 5);
      const half = Math.floor(events.length / 2);
      transport.receive({ type: "agent_start" }, { type: "turn_start" }, ...events.slice(0, half));
      const store = conversationOf(session, { schedule: schedule.schedule });
      schedule.runAll();
      const soFar = streamingText(session);
      assert.ok(soFar.length > 0 && answer.content[0]!.type === "text", `${version}: some text at once`);
      assert.ok(answer.content[0]!.text.startsWith(soFar), `${version}: ${JSON.stringify(soFar)}`);
      assert.equal(store.getSnapshot().run.status, "streaming", `${version}: pi is working`);
      transport.receive(...events.slice(half, -1));
      schedule.runAll();
      assert.equal(streamingText(session), answer.content[0]!.text, `${version}: the rest streamed on`);
    }
  });

  test("hears the run once: a second observer, or a run that ended, gets nothing replayed", () => {
    const { transport, session } = setup();
    transport.receive({ type: "agent_start" }, { type: "turn_start" });
    const first = recorder();
    session.attach(first.observer);
    assert.deepEqual(first.calls, [
      ["run", "streaming"],
      ["agentEvent", "agent_start"],
      ["agentEvent", "turn_start"],
    ]);
    const second = recorder();
    session.attach(second.observer);
    assert.deepEqual(second.calls, [["run", "streaming"]], "the first observer took the events; the run is told");
  });

  test("is bounded: past maxRunLogChars the run is not kept, and the store starts from pi's history", () => {
    const transport = new FakeTransport();
    const session = new PiSession(transport, { maxRunLogChars: 300 });
    transport.receive({ type: "agent_start" }, ...streamAssistant("1.6.0", answer, 2).slice(0, -1));
    const { calls, observer } = recorder();
    session.attach(observer);
    assert.deepEqual(calls, [["run", "streaming"]]);
  });

  test("a reconnect's hello, or the agent's exit, forgets the run (the bridge's replay restates one still going)", () => {
    for (const end of [
      { type: "pi-elements/hello", protocol: 1 },
      { type: "pi-elements/agent_exit", code: 1 },
    ]) {
      const { transport, session } = setup();
      transport.receive({ type: "agent_start" }, { type: "turn_start" }, end);
      const { calls, observer } = recorder();
      session.attach(observer);
      assert.deepEqual(calls, [["run", "idle"]], end.type);
    }
  });
});

describe("conversationOf(session) and the session's life", () => {
  test("after the session closes the store keeps what it had and hears nothing more", () => {
    const { transport, schedule, session } = setup();
    const store = conversationOf(session, { schedule: schedule.schedule });
    let notified = 0;
    store.subscribe(() => notified++);
    transport.receive(...userTurn("one", 1), ...streamAssistant("1.6.0", assistant([{ type: "text", text: "first" }])));
    schedule.runAll();
    const before = store.getSnapshot();
    assert.deepEqual(texts(session), ["first"]);
    const sentBefore = transport.sent.length;
    notified = 0;

    // The connect's commands are still in flight: closing rejects them, which the store takes quietly.
    session.close();
    transport.receive(
      { type: "agent_start" },
      ...streamAssistant("1.6.0", assistant([{ type: "text", text: "second" }], { timestamp: 3 })),
      { type: "agent_end", messages: [] },
    );
    schedule.runAll();
    assert.equal(store.getSnapshot(), before, "the same snapshot: nothing changed");
    assert.equal(notified, 0);
    assert.equal(transport.sent.length, sentBefore, "no refresh is sent after the close");
    assert.equal(conversationOf(session), store, "still the session's one store");
  });

  test("a store first asked for after the close sends nothing and stays empty", () => {
    const { transport, session } = setup();
    session.close();
    const store = conversationOf(session);
    transport.receive(...streamAssistant("0.73.1", assistant([{ type: "text", text: "late" }])));
    assert.deepEqual(store.getSnapshot().entries, []);
    assert.equal(store.getSnapshot().historyLoaded, false);
    assert.deepEqual(transport.sent, []);
  });

  test("two sessions' stores are two stores, each with its own session's conversation and commands", () => {
    const a = setup();
    const b = setup();
    const storeA = conversationOf(a.session, { schedule: a.schedule.schedule });
    const storeB = conversationOf(b.session, { schedule: b.schedule.schedule });
    assert.notEqual(storeA, storeB);
    let notifiedB = 0;
    storeB.subscribe(() => notifiedB++);
    const connect = (transport: FakeTransport) => transport.sentMessages().map((message) => message.type);
    assert.deepEqual(connect(a.transport), connect(b.transport), "each connect went to its own pi");

    a.transport.receive(...streamAssistant("0.73.1", assistant([{ type: "text", text: "for A" }])));
    a.schedule.runAll();
    b.schedule.runAll();
    assert.deepEqual(texts(a.session), ["for A"]);
    assert.deepEqual(storeB.getSnapshot().entries, []);
    assert.equal(notifiedB, 0);

    // Closing one leaves the other attached.
    a.session.close();
    b.transport.receive(...streamAssistant("1.6.0", assistant([{ type: "text", text: "for B" }])));
    b.schedule.runAll();
    assert.deepEqual(texts(b.session), ["for B"]);
    assert.deepEqual(texts(a.session), ["for A"]);
    assert.equal(notifiedB, 1);
  });
});
