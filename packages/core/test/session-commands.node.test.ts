import assert from "node:assert/strict";
import { test } from "node:test";
import type { Diagnostic } from "../src/diagnostics.js";
import { PiCommandError, PiSessionClosedError } from "../src/session/errors.js";
import { PiSession } from "../src/session/pi-session.js";
import { FakeTransport, ManualClock } from "./session-fakes.js";

function setup() {
  const transport = new FakeTransport();
  const clock = new ManualClock();
  const session = new PiSession(transport, { clock });
  const diagnostics: Diagnostic[] = [];
  session.addEventListener("diagnostic", (event) => diagnostics.push(event.value));
  return { transport, clock, session, diagnostics };
}

/** Lets settled promises run their reactions. */
const settled = async <T>(promise: Promise<T>) => {
  let state: "pending" | "resolved" | "rejected" = "pending";
  promise.then(
    () => {
      state = "resolved";
    },
    () => {
      state = "rejected";
    },
  );
  await new Promise<void>((resolve) => setImmediate(resolve));
  return state;
};

test("send writes one record with type, a generated id and the params; resolves with the response data", async () => {
  const { transport, session } = setup();
  const promise = session.send("get_state", {});
  const second = session.send("prompt", { message: "hi", streamingBehavior: "steer" });
  const [first, other] = transport.sentMessages();
  assert.equal(first?.type, "get_state");
  assert.deepEqual(other, { type: "prompt", id: other?.id, message: "hi", streamingBehavior: "steer" });
  assert.equal(typeof first?.id, "string");
  assert.notEqual(first?.id, other?.id);
  const data = { thinkingLevel: "off", isStreaming: false, sessionId: "s" };
  transport.receive({ type: "response", id: first?.id, command: "get_state", success: true, data });
  transport.receive({ type: "response", id: other?.id, command: "prompt", success: true });
  assert.deepEqual(await promise, data);
  assert.equal(await second, undefined);
});

test("success:false rejects with PiCommandError carrying pi's error", async () => {
  const { transport, session } = setup();
  const promise = session.send("set_model", { provider: "x", modelId: "y" });
  const id = transport.sentMessages()[0]?.id;
  transport.receive({ type: "response", id, command: "set_model", success: false, error: "Model not found: x/y" });
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof PiCommandError);
    assert.equal(error.message, "Model not found: x/y");
    assert.equal(error.command, "set_model");
    return true;
  });
});

test("a malformed response for a command in flight rejects it (it would wait forever) and is a diagnostic", async () => {
  const { transport, session, diagnostics } = setup();
  const promise = session.send("abort", {});
  const id = transport.sentMessages()[0]?.id;
  transport.receive({ type: "response", id, command: "abort", success: false });
  await assert.rejects(promise, PiCommandError);
  assert.equal(diagnostics[0]?.code, "invalid-message");
  assert.equal(diagnostics[0]?.id, id);
});

test("a response whose id matches no command is a diagnostic; a pending command is unaffected", async () => {
  const { transport, session, diagnostics } = setup();
  const promise = session.send("abort", {});
  transport.receive({ type: "response", id: "someone-else", command: "abort", success: true });
  transport.receive({ type: "response", command: "parse", success: false, error: "Failed to parse command" });
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.id]),
    [
      ["unknown-response-id", "someone-else"],
      ["unknown-response-id", undefined],
    ],
  );
  assert.match(diagnostics[1]?.message ?? "", /Failed to parse command/);
  assert.equal(session.diagnosticCount, 2);
  assert.equal(await settled(promise), "pending");
});

test("pi 0.73.1's id-less failure for a command it does not know settles the one command of that name in flight", async () => {
  const { transport, session, diagnostics } = setup();
  const other = session.send("get_state", {});
  const probe = session.send("get_available_thinking_levels", {});
  // As pi 0.73.1 answers (test/fixtures/session-controls/0.73.1.json): no id.
  transport.receive({
    type: "response",
    command: "get_available_thinking_levels",
    success: false,
    error: "Unknown command: get_available_thinking_levels",
  });
  await assert.rejects(probe, (error: unknown) => {
    assert.ok(error instanceof PiCommandError);
    assert.equal(error.command, "get_available_thinking_levels");
    assert.equal(error.message, "Unknown command: get_available_thinking_levels");
    return true;
  });
  assert.deepEqual(diagnostics, []);
  assert.equal(await settled(other), "pending");
});

test("id-less failures with two commands of that name in flight settle them oldest first", async () => {
  const { transport, session, diagnostics } = setup();
  const first = session.send("get_available_thinking_levels", {});
  const second = session.send("get_available_thinking_levels", {});
  const failure = { type: "response", command: "get_available_thinking_levels", success: false, error: "Unknown" };
  transport.receive(failure);
  await assert.rejects(first, PiCommandError);
  assert.equal(await settled(second), "pending");
  transport.receive(failure);
  await assert.rejects(second, PiCommandError);
  // A third has nothing left to settle: only a diagnostic.
  transport.receive(failure);
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ["unknown-response-id"],
  );
});

test("no global timeout: an unanswered command just waits", async () => {
  const { clock, session } = setup();
  const promise = session.send("get_messages", {});
  assert.equal(clock.pending, 0, "no timer is armed without options.timeout");
  clock.advance(24 * 3600 * 1000);
  assert.equal(await settled(promise), "pending");
});

test("options.timeout rejects with a TimeoutError at that time on the session's clock; a late response is a diagnostic", async () => {
  const { transport, clock, session, diagnostics } = setup();
  const promise = session.send("compact", {}, { timeout: 5000 });
  clock.advance(4999);
  assert.equal(await settled(promise), "pending");
  clock.advance(1);
  await assert.rejects(promise, (error: unknown) => (error as Error).name === "TimeoutError");
  transport.receive({ type: "response", id: transport.sentMessages()[0]?.id, command: "compact", success: true });
  assert.equal(diagnostics[0]?.code, "unknown-response-id");
});

test("a command timeout longer than one timer can wait still ends exactly on time", async () => {
  const transport = new FakeTransport();
  const clock = new ManualClock(0, 1000);
  const session = new PiSession(transport, { clock });
  const promise = session.send("compact", {}, { timeout: 5500 });
  clock.advance(5499);
  assert.equal(await settled(promise), "pending");
  clock.advance(1);
  await assert.rejects(promise, { name: "TimeoutError" });
});

test("a response before the timeout resolves and disarms the timer", async () => {
  const { transport, clock, session } = setup();
  const promise = session.send("get_commands", {}, { timeout: 1000 });
  transport.receive({
    type: "response",
    id: transport.sentMessages()[0]?.id,
    command: "get_commands",
    success: true,
    data: { commands: [] },
  });
  assert.deepEqual(await promise, { commands: [] });
  assert.equal(clock.pending, 0);
});

test("an AbortSignal stops waiting with its reason; an already aborted signal sends nothing", async () => {
  const { transport, session } = setup();
  const controller = new AbortController();
  const promise = session.send("bash", { command: "ls" }, { signal: controller.signal });
  controller.abort(new Error("user left"));
  await assert.rejects(promise, /user left/);
  const aborted = AbortSignal.abort();
  await assert.rejects(session.send("bash", { command: "ls" }, { signal: aborted }), {
    name: "AbortError",
  });
  assert.equal(transport.sent.length, 1);
});

test("params that do not match the command reject with a TypeError and send nothing", async () => {
  const { transport, session } = setup();
  // @ts-expect-error a JavaScript caller can pass anything
  await assert.rejects(session.send("set_thinking_level", { level: "extreme" }), TypeError);
  assert.equal(transport.sent.length, 0);
});

test("close rejects pending commands with PiSessionClosedError, closes the transport and ignores later records", async () => {
  const { transport, clock, session } = setup();
  const pending = session.send("get_state", {}, { timeout: 1000 });
  transport.receive({ type: "extension_ui_request", id: "d", method: "select", title: "t", options: [], timeout: 9 });
  session.close();
  await assert.rejects(pending, PiSessionClosedError);
  assert.equal(transport.closeCalls, 1);
  assert.equal(clock.pending, 0, "command and deadline timers are cleared");
  assert.equal(session.ui.getSnapshot().connection, "closed");
  await assert.rejects(session.send("abort", {}), PiSessionClosedError);
  assert.equal(session.respond("d", { value: "x" }), false);
  transport.receive({ type: "extension_ui_request", id: "n", method: "notify", message: "late" });
  assert.equal(session.ui.getSnapshot().notificationCount, 0);
  session.close();
  assert.equal(transport.closeCalls, 1, "close is idempotent");
});

test("several sessions are independent: their own ids, commands and state", async () => {
  const a = setup();
  const b = setup();
  const pa = a.session.send("abort", {});
  b.session.send("abort", {});
  const idA = a.transport.sentMessages()[0]?.id;
  const idB = b.transport.sentMessages()[0]?.id;
  assert.notEqual(idA, idB);
  b.transport.receive({ type: "response", id: idA, command: "abort", success: true });
  assert.equal(b.diagnostics[0]?.code, "unknown-response-id");
  assert.equal(await settled(pa), "pending");
  a.transport.receive({ type: "extension_ui_request", id: "s", method: "setStatus", statusKey: "k", statusText: "v" });
  assert.equal(a.session.ui.getSnapshot().statuses.length, 1);
  assert.equal(b.session.ui.getSnapshot().statuses.length, 0);
});

test("a transport that closes for good closes the session: pending commands reject, answers are refused", async () => {
  const { transport, session } = setup();
  const pending = session.send("get_state", {});
  transport.receive({ type: "extension_ui_request", id: "d", method: "input", title: "t" });
  transport.setState("reconnecting");
  assert.equal(await settled(pending), "pending", "reconnecting is not the end");
  transport.setState("closed");
  await assert.rejects(pending, PiSessionClosedError);
  assert.equal(session.respond("d", { value: "x" }), false);
  assert.equal(session.ui.getSnapshot().connection, "closed");
  assert.deepEqual(session.ui.getSnapshot().connectionEnd, { reason: "closed", detail: "" });
});

test("a transport refused for good (a bridge refusing the token) says so in the snapshot: connectionEnd 'refused'", () => {
  const { transport, session } = setup();
  assert.equal(session.ui.getSnapshot().connectionEnd, undefined);
  transport.setState("reconnecting");
  assert.equal(session.ui.getSnapshot().connectionEnd, undefined, "reconnecting has no end");
  transport.setState("closed", { reason: "refused", detail: "token refused" });
  assert.deepEqual(session.ui.getSnapshot(), {
    ...session.ui.getSnapshot(),
    connection: "closed",
    connectionEnd: { reason: "refused", detail: "token refused" },
  });
});
