import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Diagnostic } from "../src/diagnostics.js";
import type { AgentEvent } from "../src/protocol/events.js";
import type { ExtensionUiRequest } from "../src/protocol/extension-ui.js";
import { type DialogClosed, PiSession } from "../src/session/pi-session.js";
import { FakeTransport, ManualClock } from "./session-fakes.js";

function setup() {
  const transport = new FakeTransport();
  const clock = new ManualClock();
  const session = new PiSession(transport, { clock });
  const closed: DialogClosed[] = [];
  const diagnostics: Diagnostic[] = [];
  session.addEventListener("dialog-closed", (event) => closed.push(event.value));
  session.addEventListener("diagnostic", (event) => diagnostics.push(event.value));
  const ids = () => session.ui.getSnapshot().dialogs.map((d) => d.id);
  return { transport, clock, session, closed, diagnostics, ids };
}

const ui = (id: string, method: string, fields: Record<string, unknown> = {}) => ({
  type: "extension_ui_request",
  id,
  method,
  ...fields,
});
const select = (id: string, timeout?: number) => ui(id, "select", { title: "Pick", options: ["a", "b"], timeout });
const confirm = (id: string, timeout?: number) => ui(id, "confirm", { title: "Sure?", message: "Really", timeout });
const input = (id: string, timeout?: number) => ui(id, "input", { title: "Name", placeholder: "you", timeout });
const editor = (id: string) => ui(id, "editor", { title: "Edit", prefill: "a\nb" });

describe("requests reach the state and listeners", () => {
  test("ui-request fires for every valid request after the state changed", () => {
    const { transport, session, clock } = setup();
    const seen: [string, number][] = [];
    session.addEventListener("ui-request", (event) => {
      const request: ExtensionUiRequest = event.value;
      const snapshot = session.ui.getSnapshot();
      seen.push([request.method, snapshot.dialogs.length + snapshot.statuses.length]);
    });
    transport.receive(select("s", 3000), ui("k", "setStatus", { statusKey: "git", statusText: "main" }));
    assert.deepEqual(seen, [
      ["select", 1],
      ["setStatus", 2],
    ]);
    const [dialog] = session.ui.getSnapshot().dialogs;
    assert.equal(dialog?.receivedAt, clock.now());
    assert.equal(dialog?.deadline, clock.now() + 3000);
  });

  test("unknown extra fields are tolerated and kept on the request", () => {
    const { transport, session } = setup();
    const line = JSON.stringify({ ...select("s"), futureField: { x: 1 } });
    transport.receive(line);
    assert.deepEqual(session.ui.getSnapshot().dialogs[0]?.request, JSON.parse(line));
  });
});

describe("respond", () => {
  test("sends exactly one response per id in the method's shape and closes the dialog as answered", () => {
    const { transport, session, closed, ids } = setup();
    transport.receive(select("s"), confirm("c"), input("i"), editor("e"));
    assert.equal(session.respond("c", { confirmed: false }), true);
    assert.equal(session.respond("s", { value: "b" }), true);
    assert.equal(session.respond("i", { value: "" }), true);
    assert.equal(session.respond("e", { cancelled: true }), true);
    assert.deepEqual(transport.sentMessages(), [
      { type: "extension_ui_response", id: "c", confirmed: false },
      { type: "extension_ui_response", id: "s", value: "b" },
      { type: "extension_ui_response", id: "i", value: "" },
      { type: "extension_ui_response", id: "e", cancelled: true },
    ]);
    assert.deepEqual(ids(), []);
    assert.deepEqual(
      closed.map((c) => c.reason),
      ["answered", "answered", "answered", "answered"],
    );
  });

  test("a second answer, an unknown id, or the wrong shape returns false and sends nothing", () => {
    const { transport, session, ids } = setup();
    transport.receive(select("s"), confirm("c"), input("i"), editor("e"));
    assert.equal(session.respond("nope", { value: "x" }), false);
    assert.equal(session.respond("c", { value: "yes" }), false, "confirm takes {confirmed}");
    assert.equal(session.respond("s", { confirmed: true }), false, "select takes {value}");
    assert.equal(session.respond("i", { value: 42 } as never), false);
    assert.equal(session.respond("e", { cancelled: false } as never), false);
    assert.equal(session.respond("e", null as never), false);
    assert.equal(transport.sent.length, 0);
    assert.deepEqual(ids(), ["s", "c", "i", "e"]);
    assert.equal(session.respond("s", { value: "a" }), true);
    assert.equal(session.respond("s", { value: "a" }), false);
    assert.equal(transport.sent.length, 1);
  });

  test("a select value must be one of its options: the bridge refuses any other, so the session sends none", () => {
    const { transport, session, ids } = setup();
    transport.receive(select("s"));
    assert.equal(session.respond("s", { value: "not an option" }), false);
    assert.equal(transport.sent.length, 0);
    assert.deepEqual(ids(), ["s"]);
    assert.equal(session.respond("s", { value: "a" }), true);
  });
});

describe("deadlines on the session's clock", () => {
  test("at the deadline the dialog leaves the queue and cancelled:true is sent", () => {
    const { transport, clock, session, closed, ids } = setup();
    transport.receive(select("s", 5000));
    clock.advance(4999);
    assert.deepEqual(ids(), ["s"]);
    assert.equal(transport.sent.length, 0);
    clock.advance(1);
    assert.deepEqual(ids(), []);
    assert.deepEqual(transport.sentMessages(), [{ type: "extension_ui_response", id: "s", cancelled: true }]);
    assert.deepEqual(closed, [{ id: "s", reason: "timeout" }]);
    assert.equal(session.respond("s", { value: "a" }), false, "an expired id cannot be answered");
    assert.equal(transport.sent.length, 1);
  });

  test("one timer serves all deadlines, in deadline order, re-armed when the earliest is answered", () => {
    const { transport, clock, session, closed, ids } = setup();
    transport.receive(select("late", 3000), confirm("early", 1000), input("mid", 2000), editor("e"));
    assert.equal(clock.pending, 1);
    assert.equal(session.respond("early", { confirmed: true }), true);
    assert.equal(clock.pending, 1);
    clock.advance(1999);
    assert.deepEqual(ids(), ["late", "mid", "e"]);
    clock.advance(1);
    assert.deepEqual(ids(), ["late", "e"]);
    clock.advance(1000);
    assert.deepEqual(ids(), ["e"]);
    assert.deepEqual(
      closed.map((c) => `${c.id}:${c.reason}`),
      ["early:answered", "mid:timeout", "late:timeout"],
    );
    assert.equal(clock.pending, 0);
  });

  test("the editor never times out", () => {
    const { transport, clock, ids } = setup();
    transport.receive({ ...editor("e"), timeout: 10 });
    clock.advance(10 * 60 * 1000);
    assert.deepEqual(ids(), ["e"]);
    assert.equal(transport.sent.length, 0);
  });

  test("an answer after the deadline is refused even if the timer has not run yet (throttled tab)", () => {
    const { transport, clock, session, closed } = setup();
    transport.receive(input("i", 1000));
    clock.jump(1000);
    assert.equal(session.respond("i", { value: "too late" }), false);
    assert.deepEqual(transport.sentMessages(), [{ type: "extension_ui_response", id: "i", cancelled: true }]);
    assert.deepEqual(closed, [{ id: "i", reason: "timeout" }]);
  });

  test("a timeout longer than one timer can wait still ends exactly at its deadline", () => {
    const transport = new FakeTransport();
    const clock = new ManualClock(0, 1000);
    const session = new PiSession(transport, { clock });
    const ids = () => session.ui.getSnapshot().dialogs.map((d) => d.id);
    const long = 5500;
    transport.receive(select("s", long));
    clock.advance(long - 1);
    assert.deepEqual(ids(), ["s"]);
    clock.advance(1);
    assert.deepEqual(ids(), []);
  });
});

describe("bridge messages", () => {
  test("hello drops dialogs, statuses and widgets before the replay; the title stays", () => {
    const { transport, clock, session, closed, ids } = setup();
    transport.receive(
      select("s", 5000),
      ui("a", "setStatus", { statusKey: "k", statusText: "v" }),
      ui("b", "setWidget", { widgetKey: "w", widgetLines: ["x"] }),
      ui("c", "setTitle", { title: "T" }),
    );
    transport.receive({ type: "pi-elements/hello", protocol: 1 });
    let snapshot = session.ui.getSnapshot();
    assert.deepEqual(ids(), []);
    assert.deepEqual(snapshot.statuses, []);
    assert.deepEqual(snapshot.widgets, { aboveEditor: [], belowEditor: [] });
    assert.equal(snapshot.title, "T");
    assert.deepEqual(closed, [], "no dialog-closed: the replay brings back what is still pending");
    assert.equal(clock.pending, 0);
    // Replay: the same dialog with the time that remains.
    clock.advance(1000);
    transport.receive(select("s", 4000));
    snapshot = session.ui.getSnapshot();
    assert.equal(snapshot.dialogs[0]?.deadline, clock.now() + 4000);
    assert.equal(transport.sent.length, 0);
  });

  test("agent_diagnostic (what pi reported on its stderr) is a warning or an error from pi; another level is a warning", async () => {
    const { transport, session, diagnostics } = setup();
    transport.receive(
      { type: "pi-elements/agent_diagnostic", level: "warning", message: "Could not restore model a/b. Using c/d" },
      { type: "pi-elements/agent_diagnostic", level: "error", message: "<b>not markup</b>" },
      { type: "pi-elements/agent_diagnostic", level: "loud", message: "a newer level" },
      { type: "pi-elements/agent_diagnostic", level: "warning" },
    );
    await Promise.resolve();
    assert.deepEqual(
      session.ui.getSnapshot().notifications.map(({ type, message, origin }) => ({ type, message, origin })),
      [
        { type: "warning", message: "Could not restore model a/b. Using c/d", origin: { kind: "agent" } },
        { type: "error", message: "<b>not markup</b>", origin: { kind: "agent" } },
        { type: "warning", message: "a newer level", origin: { kind: "agent" } },
      ],
    );
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ["invalid-message"],
      "one without a message is an invalid bridge message",
    );
  });

  test("hello ends a run the replay does not bring back; a run still going comes back with its agent_start", () => {
    const { transport, session } = setup();
    transport.receive({ type: "agent_start" });
    assert.equal(session.ui.getSnapshot().run.working, true);
    // The run ended while the page was away: the bridge's replay has no agent_start.
    transport.receive({ type: "pi-elements/hello", protocol: 1 });
    assert.equal(session.ui.getSnapshot().run.working, false, "not working: Enter sends a prompt, not a steer");
    // Still going: the replay follows hello with the run's agent_start.
    transport.receive({ type: "pi-elements/hello", protocol: 1 }, { type: "agent_start" });
    assert.equal(session.ui.getSnapshot().run.working, true);
  });

  test("dialog_closed removes the dialog without answering it (reason remote)", () => {
    const { transport, session, closed, ids } = setup();
    transport.receive(select("s", 5000), input("i"));
    transport.receive({ type: "pi-elements/dialog_closed", id: "s", reason: "answered" });
    transport.receive({ type: "pi-elements/dialog_closed", id: "unknown", reason: "expired" });
    assert.deepEqual(ids(), ["i"]);
    assert.deepEqual(closed, [{ id: "s", reason: "remote" }]);
    assert.equal(transport.sent.length, 0);
    assert.equal(session.respond("s", { value: "a" }), false);
  });

  test("agent_exit sets agentExit, stops streaming, drops the dead agent's statuses and widgets and closes pending dialogs; agent_start clears it", () => {
    const { transport, clock, session, closed, ids } = setup();
    transport.receive(
      { type: "agent_start" },
      select("s", 5000),
      editor("e"),
      ui("a", "setStatus", { statusKey: "showcase", statusText: "● ready" }),
      ui("b", "setWidget", { widgetKey: "w", widgetLines: ["x"] }),
    );
    assert.equal(session.ui.getSnapshot().statuses.length, 1);
    transport.receive({
      type: "pi-elements/agent_exit",
      code: 1,
      signal: null,
      stderrTail: ["Error: boom"],
      restart: "on-request",
    });
    let snapshot = session.ui.getSnapshot();
    assert.deepEqual(snapshot.agentExit, {
      code: 1,
      signal: null,
      stderrTail: ["Error: boom"],
      restart: "on-request",
    });
    assert.equal(snapshot.run.working, false);
    assert.deepEqual(
      [snapshot.statuses, snapshot.widgets.aboveEditor, snapshot.widgets.belowEditor],
      [[], [], []],
      "no '● ready' from a process that is gone",
    );
    assert.deepEqual(ids(), []);
    assert.deepEqual(closed, [
      { id: "s", reason: "agent_exit" },
      { id: "e", reason: "agent_exit" },
    ]);
    assert.equal(transport.sent.length, 0, "nobody is left to answer");
    assert.equal(clock.pending, 0);
    transport.receive({ type: "pi-elements/agent_start", pid: 42 });
    snapshot = session.ui.getSnapshot();
    assert.equal(snapshot.agentExit, undefined);
  });

  test("restartAgent asks the bridge for the agent (pi-elements/restart), unless the bridge restarts only with itself", () => {
    const { transport, session } = setup();
    const exit = (restart?: string) =>
      transport.receive({ type: "pi-elements/agent_exit", code: 1, signal: null, ...(restart ? { restart } : {}) });
    const restarts = () => transport.sentMessages().filter((m) => m.type === "pi-elements/restart").length;
    exit("never");
    assert.equal(session.ui.getSnapshot().agentExit?.restart, "never");
    assert.equal(session.restartAgent(), false);
    assert.equal(restarts(), 0, "a bridge with --restart never ignores the request: none is sent");
    // A bridge that does not say (older), or says what this client does not know: asking may help.
    for (const [said, kept] of [
      [undefined, "unknown"],
      ["later-maybe", "unknown"],
      ["always", "always"],
    ] as const) {
      exit(said);
      assert.equal(session.ui.getSnapshot().agentExit?.restart, kept);
      assert.equal(session.restartAgent(), true);
    }
    assert.equal(restarts(), 3);
    session.close();
    assert.equal(session.restartAgent(), false, "a session that has ended sends nothing");
    assert.equal(restarts(), 3);
  });

  test("an invalid or unknown bridge message is a diagnostic and changes nothing", () => {
    const { transport, session, diagnostics } = setup();
    transport.receive(select("s"));
    const before = session.ui.getSnapshot();
    transport.receive({ type: "pi-elements/dialog_closed", reason: "answered" }, { type: "pi-elements/teleport" });
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ["invalid-message", "invalid-message"],
    );
    assert.equal(session.ui.getSnapshot(), before);
  });
});

describe("agent events and the transport", () => {
  test("every agent event fires agent-event; known ones also fire under their own name; unknown pass through", () => {
    const { transport, session } = setup();
    const all: string[] = [];
    const deltas: string[] = [];
    session.addEventListener("agent-event", (event) => all.push(event.value.type));
    session.addEventListener("message_update", (event) => {
      deltas.push(event.value.assistantMessageEvent.delta ?? "");
    });
    const future: AgentEvent[] = [];
    session.addEventListener("agent-event", (event) => {
      if (event.value.type === "shiny_new_event") future.push(event.value);
    });
    transport.receive(
      { type: "message_update", message: {}, assistantMessageEvent: { type: "text_delta", delta: "Hel" } },
      { type: "shiny_new_event", payload: 1 },
      { type: "message_update", message: {}, assistantMessageEvent: { type: "text_delta", delta: "lo" } },
    );
    assert.deepEqual(all, ["message_update", "shiny_new_event", "message_update"]);
    assert.deepEqual(deltas, ["Hel", "lo"]);
    assert.deepEqual(future, [{ type: "shiny_new_event", payload: 1 }]);
  });

  test("a listener added mid-stream hears the events after it, by EventTarget rules", () => {
    const { transport, session } = setup();
    const update = { type: "message_update", message: {}, assistantMessageEvent: { type: "text_delta" } };
    transport.receive(update);
    let named = 0;
    let any = 0;
    session.addEventListener("message_update", () => named++, { once: true });
    session.addEventListener("agent-event", () => any++);
    transport.receive(update, update);
    assert.equal(named, 1);
    assert.equal(any, 2);
  });

  test("agent_start and agent_end set streaming", () => {
    const { transport, session } = setup();
    transport.receive({ type: "agent_start" });
    assert.equal(session.ui.getSnapshot().run.working, true);
    transport.receive({ type: "agent_end", messages: [] });
    assert.equal(session.ui.getSnapshot().run.working, false);
  });

  test("transport state updates the connection; transport diagnostics are session diagnostics", () => {
    const transport = new FakeTransport();
    transport.state = "connecting";
    const session = new PiSession(transport, { clock: new ManualClock() });
    assert.equal(session.ui.getSnapshot().connection, "connecting");
    const diagnostics: Diagnostic[] = [];
    session.addEventListener("diagnostic", (event) => diagnostics.push(event.value));
    transport.setState("open");
    assert.equal(session.ui.getSnapshot().connection, "open");
    transport.setState("reconnecting");
    assert.equal(session.ui.getSnapshot().connection, "reconnecting");
    transport.reportDiagnostic({ code: "line-too-long", message: "too long" });
    assert.deepEqual(diagnostics, [{ code: "line-too-long", message: "too long" }]);
    assert.equal(session.diagnosticCount, 1);
  });

  test("reset clears statuses and widgets", () => {
    const { transport, session } = setup();
    transport.receive(
      ui("a", "setStatus", { statusKey: "k", statusText: "v" }),
      ui("b", "setWidget", { widgetKey: "w", widgetLines: ["x"], widgetPlacement: "belowEditor" }),
    );
    session.reset();
    const snapshot = session.ui.getSnapshot();
    assert.deepEqual(snapshot.statuses, []);
    assert.deepEqual(snapshot.widgets, { aboveEditor: [], belowEditor: [] });
  });

  test("maxNotifications sizes the ring buffer", () => {
    const transport = new FakeTransport();
    const session = new PiSession(transport, { maxNotifications: 2 });
    for (let i = 0; i < 5; i++) transport.receive(ui(`n${i}`, "notify", { message: `m${i}`, notifyType: "warning" }));
    const snapshot = session.ui.getSnapshot();
    assert.deepEqual(
      snapshot.notifications.map((n) => [n.id, n.type, n.message]),
      [
        [4, "warning", "m3"],
        [5, "warning", "m4"],
      ],
    );
    assert.equal(snapshot.notificationCount, 5);
  });
});
