/** The validation policy: every kind of bad input has one defined outcome, and the session always goes on. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Diagnostic } from "../src/diagnostics.js";
import { PiSession } from "../src/session/pi-session.js";
import { FakeTransport, ManualClock } from "./session-fakes.js";

function setup() {
  const transport = new FakeTransport();
  const session = new PiSession(transport, { clock: new ManualClock() });
  const diagnostics: Diagnostic[] = [];
  session.addEventListener("diagnostic", (event) => diagnostics.push(event.value));
  return { transport, session, diagnostics };
}
const cancelled = (id: string) => ({ type: "extension_ui_response", id, cancelled: true });

describe("records that are not messages", () => {
  test("a line that is not JSON is a diagnostic with a short excerpt; the session goes on", () => {
    const { transport, session, diagnostics } = setup();
    const garbage = `{"type":"extension_ui_request", oops ${"x".repeat(500)}`;
    transport.receive(garbage, { type: "extension_ui_request", id: "t", method: "setTitle", title: "still here" });
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]?.code, "invalid-json");
    assert.ok(garbage.startsWith((diagnostics[0]?.excerpt ?? "").slice(0, -1)));
    assert.ok((diagnostics[0]?.excerpt ?? "").length <= 120);
    assert.equal(session.ui.getSnapshot().title, "still here");
    assert.equal(transport.sent.length, 0);
  });

  test("JSON that is not an object with a string type is an invalid-message diagnostic", () => {
    const { transport, session, diagnostics } = setup();
    transport.receive("42", "null", "[1]", '{"type":7}', '{"no":"type"}');
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      Array(5).fill("invalid-message"),
    );
    assert.equal(session.diagnosticCount, 5);
  });
});

describe("extension-UI requests", () => {
  const invalidDialogs: [string, Record<string, unknown>][] = [
    ["select without options", { method: "select", title: "t" }],
    ["select with non-string options", { method: "select", title: "t", options: [1, 2] }],
    ["confirm without message", { method: "confirm", title: "t" }],
    ["input with a string timeout", { method: "input", title: "t", timeout: "5000" }],
    ["input with a negative timeout", { method: "input", title: "t", timeout: -1 }],
    ["editor with a numeric title", { method: "editor", title: 3 }],
  ];
  for (const [name, fields] of invalidDialogs) {
    test(`a dialog with a usable id but invalid fields is answered cancelled at once: ${name}`, () => {
      const { transport, session, diagnostics } = setup();
      transport.receive({ type: "extension_ui_request", id: "bad", ...fields });
      assert.deepEqual(transport.sentMessages(), [cancelled("bad")]);
      assert.equal(diagnostics.length, 1);
      assert.equal(diagnostics[0]?.code, "invalid-ui-request");
      assert.equal(diagnostics[0]?.id, "bad");
      assert.deepEqual(session.ui.getSnapshot().dialogs, []);
    });
  }

  test("a request whose method this client cannot present is answered cancelled when it has an id", () => {
    const { transport, session, diagnostics } = setup();
    transport.receive(
      { type: "extension_ui_request", id: "c1", method: "custom", component: "x" },
      { type: "extension_ui_request", id: "c2", method: "pick_file", title: "t" },
    );
    assert.deepEqual(transport.sentMessages(), [cancelled("c1"), cancelled("c2")]);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.id]),
      [
        ["unsupported-ui-method", "c1"],
        ["unsupported-ui-method", "c2"],
      ],
    );
    assert.equal(session.diagnosticCount, 2);
  });

  test("without a usable id nothing can be answered: only a diagnostic", () => {
    const { transport, diagnostics } = setup();
    transport.receive(
      { type: "extension_ui_request", method: "select", title: "t", options: [] },
      { type: "extension_ui_request", id: "", method: "confirm", title: "t", message: "m" },
      { type: "extension_ui_request", id: 5, method: "input", title: "t" },
      { type: "extension_ui_request", method: "custom" },
    );
    assert.equal(transport.sent.length, 0);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ["invalid-ui-request", "invalid-ui-request", "invalid-ui-request", "unsupported-ui-method"],
    );
  });

  test("an invalid fire-and-forget request is dropped with a diagnostic and changes nothing", () => {
    const { transport, session, diagnostics } = setup();
    const before = session.ui.getSnapshot();
    transport.receive(
      { type: "extension_ui_request", id: "1", method: "setStatus", statusKey: 7, statusText: "x" },
      { type: "extension_ui_request", id: "2", method: "setWidget", widgetKey: "w", widgetLines: "not lines" },
      { type: "extension_ui_request", id: "3", method: "setWidget", widgetKey: "w", widgetPlacement: "left" },
      { type: "extension_ui_request", id: "5", method: "setTitle" },
      { type: "extension_ui_request", id: "6", method: "set_editor_text", text: null },
      // A notify of an unknown type is not invalid: it shows as info (session-forward.node.test.ts).
      { type: "extension_ui_request", id: "7", method: "notify", message: 5 },
    );
    assert.equal(transport.sent.length, 0);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      Array(6).fill("invalid-ui-request"),
    );
    assert.equal(session.ui.getSnapshot(), before);
  });

  test("a duplicate pending dialog id is a diagnostic and is ignored (the first one stays, nothing is sent)", () => {
    const { transport, session, diagnostics } = setup();
    const first = { type: "extension_ui_request", id: "d", method: "input", title: "first" };
    transport.receive(first, { type: "extension_ui_request", id: "d", method: "select", title: "second", options: [] });
    // An invalid request reusing the pending id must not answer the first dialog either.
    transport.receive({ type: "extension_ui_request", id: "d", method: "custom" });
    const { dialogs } = session.ui.getSnapshot();
    assert.equal(dialogs.length, 1);
    assert.equal(dialogs[0]?.request.title, "first");
    assert.equal(transport.sent.length, 0);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.id]),
      [
        ["duplicate-request-id", "d"],
        ["unsupported-ui-method", "d"],
      ],
    );
    // Once answered, the id is free again.
    assert.equal(session.respond("d", { value: "x" }), true);
    transport.receive({ type: "extension_ui_request", id: "d", method: "input", title: "again" });
    assert.equal(session.ui.getSnapshot().dialogs.length, 1);
  });

  test("agent events get an envelope check only: any payload with a string type passes", () => {
    const { transport, session, diagnostics } = setup();
    const types: string[] = [];
    session.addEventListener("agent-event", (event) => types.push(event.value.type));
    transport.receive({ type: "message_update" }, { type: "tool_execution_end", result: "not checked" });
    assert.deepEqual(types, ["message_update", "tool_execution_end"]);
    assert.equal(diagnostics.length, 0);
  });

  test("diagnosticCount counts every diagnostic from every source", () => {
    const { transport, session } = setup();
    transport.receive("nope", "1", { type: "response", id: "x", command: "abort", success: true });
    transport.receive({ type: "extension_ui_request", id: "u", method: "custom" });
    transport.reportDiagnostic({ code: "transport", message: "queue full" });
    assert.equal(session.diagnosticCount, 5);
  });
});
