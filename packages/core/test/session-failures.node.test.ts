/**
 * Failures the user must see: a command pi answers with `success: false` and an extension's `extension_error` become
 * error notifications in the session's snapshot (what pi-notifications shows), with pi's own words.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PiCommandError } from "../src/session/errors.js";
import { PiSession } from "../src/session/pi-session.js";
import { FakeTransport, ManualClock } from "./session-fakes.js";

const NO_KEY = "No API key found for the selected model. Use /login or set an API key environment variable.";

function setup() {
  const transport = new FakeTransport();
  const clock = new ManualClock();
  const session = new PiSession(transport, { clock });
  return { transport, clock, session };
}

test("a failed command shows pi's error as an error notification, and the promise still rejects with it", async () => {
  const { transport, clock, session } = setup();
  clock.advance(1234);
  const sent = session.send("prompt", { message: "hello" });
  const id = transport.sentMessages()[0]?.id;
  transport.receive({ type: "response", id, command: "prompt", success: false, error: NO_KEY });
  await assert.rejects(sent, (error) => error instanceof PiCommandError && error.message === NO_KEY);
  assert.deepEqual(session.ui.getSnapshot().notifications, [
    { id: 1, type: "error", message: NO_KEY, time: clock.now(), origin: { kind: "command", command: "prompt" } },
  ]);
  assert.equal(session.ui.getSnapshot().notificationCount, 1);
});

test("report: false leaves the error to the caller; a success reports nothing", async () => {
  const { transport, session } = setup();
  const quiet = session.send("prompt", { message: "x" }, { report: false });
  const ok = session.send("get_state", {});
  const [first, second] = transport.sentMessages();
  transport.receive({ type: "response", id: first?.id, command: "prompt", success: false, error: "nope" });
  transport.receive({ type: "response", id: second?.id, command: "get_state", success: true, data: {} });
  await assert.rejects(quiet, PiCommandError);
  await ok;
  assert.deepEqual(session.ui.getSnapshot().notifications, []);
});

test("an extension_error becomes an error notification naming the extension and the event", () => {
  const { transport, session } = setup();
  transport.receive({
    type: "extension_error",
    extensionPath: "/home/me/.pi/extensions/rules.ts",
    event: "session_start",
    error: "Cannot read properties of undefined (reading 'rules')",
  });
  transport.receive({ type: "extension_error" });
  const [first, second] = session.ui.getSnapshot().notifications;
  assert.equal(first?.type, "error");
  assert.equal(first?.message, "Cannot read properties of undefined (reading 'rules')");
  assert.deepEqual(first?.origin, {
    kind: "extension",
    extensionPath: "/home/me/.pi/extensions/rules.ts",
    event: "session_start",
  });
  // Missing fields still make a visible, defined message.
  assert.equal(second?.message, "An extension failed.");
  assert.deepEqual(second?.origin, { kind: "extension" });
});

test("a response for no command in flight, or a malformed one, is a diagnostic, not a notification", () => {
  const { transport, session } = setup();
  transport.receive({ type: "response", id: "nobody", command: "prompt", success: false, error: "late" });
  assert.deepEqual(session.ui.getSnapshot().notifications, []);
});
