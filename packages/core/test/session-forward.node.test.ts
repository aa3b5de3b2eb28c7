/**
 * Forward compatible by design: the session sends any well-formed command with all its fields (pi 1.6.0's new ones
 * typed, a later pi's untyped), renders drifted extension-UI requests instead of dropping them, and understands pi
 * 1.6.0's events.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PiSession } from "../src/session/pi-session.js";
import { FakeTransport, ManualClock } from "./session-fakes.js";

function setup() {
  const transport = new FakeTransport();
  const session = new PiSession(transport, { clock: new ManualClock() });
  return { transport, session };
}

test("pi 1.6.0's commands are typed and sent with all their fields; their results are typed", async () => {
  const { transport, session } = setup();
  const cleared = session.send("clear_queue", {});
  session.send("get_available_thinking_levels", {});
  session.send("get_entries", { since: "e7" });
  session.send("get_tree", {});
  session.send("bash", { command: "ls", excludeFromContext: true });
  session.send("set_thinking_level", { level: "max" });
  const sent = transport.sentMessages();
  assert.deepEqual(
    sent.map(({ id: _id, ...rest }) => rest),
    [
      { type: "clear_queue" },
      { type: "get_available_thinking_levels" },
      { type: "get_entries", since: "e7" },
      { type: "get_tree" },
      { type: "bash", command: "ls", excludeFromContext: true },
      { type: "set_thinking_level", level: "max" },
    ],
  );
  transport.receive({
    type: "response",
    id: sent[0]?.id,
    command: "clear_queue",
    success: true,
    data: { steering: ["a"], followUp: [] },
  });
  const { steering } = await cleared;
  assert.deepEqual(steering, ["a"]);
});

test("a prompt resolves with pi 1.x's disposition, and with nothing from pi 0.73", async () => {
  const { transport, session } = setup();
  const newer = session.send("prompt", { message: "hi" });
  const older = session.send("prompt", { message: "hi" });
  const [a, b] = transport.sentMessages();
  transport.receive({ type: "response", id: a?.id, command: "prompt", success: true, data: { disposition: "queued" } });
  transport.receive({ type: "response", id: b?.id, command: "prompt", success: true });
  assert.deepEqual(await newer, { disposition: "queued" });
  assert.equal(await older, undefined);
});

test("a command this core does not know is sent as given, fields unknown to a known command too", async () => {
  const { transport, session } = setup();
  const later = session.send("get_something_new", { depth: 2, filter: { kinds: ["a", "b"] }, flag: null });
  session.send("prompt", { message: "x", futureOption: true } as { message: string });
  const [first, second] = transport.sentMessages();
  assert.deepEqual(first, {
    type: "get_something_new",
    id: first?.id,
    depth: 2,
    filter: { kinds: ["a", "b"] },
    flag: null,
  });
  assert.equal(second?.futureOption, true);
  transport.receive({ type: "response", id: first?.id, command: "get_something_new", success: true, data: { ok: 1 } });
  assert.deepEqual(await later, { ok: 1 });
});

test("what is not a command, or not JSON, is refused with a TypeError and nothing is sent", async () => {
  const { transport, session } = setup();
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  for (const [type, params] of [
    ["extension_ui_response", { value: "x" }],
    ["response", {}],
    ["extension_ui_request", {}],
    ["pi-elements/restart", {}],
    ["new_thing", { when: Number.NaN }],
    ["new_thing", { run: () => 1 }],
    ["new_thing", { cycle }],
    ["new_thing", { big: 1n }],
  ] as const) {
    await assert.rejects(session.send(type as "new_thing", params as Record<string, unknown>), TypeError, type);
  }
  assert.equal(transport.sent.length, 0);
});

test("a notify of a type this client does not know is shown as info, not dropped", () => {
  const { transport, session } = setup();
  transport.receive({
    type: "extension_ui_request",
    id: "n1",
    method: "notify",
    message: "Done!",
    notifyType: "success",
  });
  transport.receive({ type: "extension_ui_request", id: "n2", method: "notify", message: "Odd", notifyType: 42 });
  assert.deepEqual(
    session.ui.getSnapshot().notifications.map(({ type, message }) => ({ type, message })),
    [
      { type: "info", message: "Done!" },
      { type: "info", message: "Odd" },
    ],
  );
  assert.equal(session.diagnosticCount, 0);
});

test("set_editor_text without text (pi 0.73.1's qna) sets an empty editor", () => {
  const { transport, session } = setup();
  transport.receive({ type: "extension_ui_request", id: "e1", method: "set_editor_text", text: "draft" });
  const before = session.ui.getSnapshot().editorText;
  transport.receive({ type: "extension_ui_request", id: "e2", method: "set_editor_text" });
  const after = session.ui.getSnapshot().editorText;
  assert.equal(before?.text, "draft");
  assert.equal(after?.text, "");
  assert.ok((after?.seq ?? 0) > (before?.seq ?? 0));
});

test("pi 0.73.1's run ends at agent_end (no willRetry, no agent_settled)", () => {
  const { transport, session } = setup();
  transport.receive({ type: "agent_start" });
  assert.equal(session.ui.getSnapshot().run.working, true);
  transport.receive({ type: "agent_end", messages: [] });
  assert.equal(session.ui.getSnapshot().run.working, false);
});

test("pi 1.6.0's events: a run keeps streaming until agent_settled, a retried one too; new events arrive under their names", () => {
  const { transport, session } = setup();
  const seen: string[] = [];
  for (const type of ["agent_settled", "bash_execution_update", "entry_appended", "summarization_retry_scheduled"]) {
    session.addEventListener(type as "agent_settled", (event) => seen.push(event.value.type));
  }
  transport.receive({ type: "agent_start" });
  assert.equal(session.ui.getSnapshot().run.working, true);
  transport.receive({ type: "agent_end", messages: [], willRetry: true });
  assert.equal(session.ui.getSnapshot().run.working, true, "pi will retry: still working");
  transport.receive({ type: "agent_end", messages: [], willRetry: false });
  // pi 1.6.0 is busy until it settles: a prompt sent now would be refused.
  assert.equal(session.ui.getSnapshot().run.working, true, "pi 1.x: working until agent_settled");
  transport.receive({ type: "agent_settled", aborted: false });
  assert.equal(session.ui.getSnapshot().run.working, false);
  transport.receive({ type: "bash_execution_update", id: "b1", delta: "total 48\n" });
  transport.receive({ type: "entry_appended", entry: { id: "x" } });
  transport.receive({ type: "summarization_retry_scheduled", attempt: 1, maxAttempts: 3 });
  transport.receive({ type: "some_event_from_pi_2", payload: 1 });
  assert.deepEqual(seen, ["agent_settled", "bash_execution_update", "entry_appended", "summarization_retry_scheduled"]);
  assert.equal(session.diagnosticCount, 0);
});

test("the bridge's earlier notifications are kept once, marked earlier and timed by their age", () => {
  const transport = new FakeTransport();
  const clock = new ManualClock();
  const session = new PiSession(transport, { clock });
  const now = clock.now();
  // Seen live before a reconnect…
  transport.receive({ type: "extension_ui_request", id: "n1", method: "notify", message: "Session started" });
  transport.receive({ type: "pi-elements/hello", protocol: 1 });
  // …and replayed with another one this page never saw.
  transport.receive({
    type: "pi-elements/earlier_notifications",
    notifications: [
      { id: "n1", notifyType: "info", message: "Session started", ageMs: 5000 },
      { id: "n2", notifyType: "success", message: "Rules loaded", ageMs: 60_000 },
    ],
  });
  const notes = session.ui.getSnapshot().notifications;
  assert.deepEqual(
    notes.map(({ type, message, time, earlier, requestId }) => ({ type, message, time, earlier, requestId })),
    [
      { type: "info", message: "Session started", time: now, earlier: undefined, requestId: "n1" },
      { type: "info", message: "Rules loaded", time: now - 60_000, earlier: true, requestId: "n2" },
    ],
  );
  // The same replay again (another reconnect) adds nothing.
  transport.receive({
    type: "pi-elements/earlier_notifications",
    notifications: [{ id: "n2", notifyType: "info", message: "Rules loaded", ageMs: 61_000 }],
  });
  assert.equal(session.ui.getSnapshot().notifications.length, 2);
  assert.equal(session.diagnosticCount, 0);
});
