import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DialogRequest } from "../src/protocol/extension-ui.js";
import { LocalSession } from "../src/session/dialogs.js";
import { ManualClock } from "./session-fakes.js";

const editor: DialogRequest = { type: "extension_ui_request", id: "e", method: "editor", title: "Edit", prefill: "x" };
const select: DialogRequest = {
  type: "extension_ui_request",
  id: "s",
  method: "select",
  title: "Pick",
  options: ["a"],
};

describe("LocalSession: a dialog's life with no agent", () => {
  test("queues, answers once through respond, and the dialog leaves the snapshot before respond returns", () => {
    const session = new LocalSession({ clock: new ManualClock(0) });
    let heard = 0;
    session.ui.subscribe(() => heard++);
    assert.equal(session.open(select), true);
    assert.equal(session.open(select), false, "a pending id");
    assert.equal(heard, 1);
    assert.equal(session.respond("s", { value: "b" }), false, "not one of the options");
    assert.equal(session.respond("s", { value: "a" }), true);
    assert.equal(heard, 2);
    assert.deepEqual(session.ui.getSnapshot().dialogs, []);
    assert.equal(session.respond("s", { value: "a" }), false);
  });

  test("a timeout (an editor's too) ends the dialog at its deadline on the session's one timer", () => {
    const clock = new ManualClock(0);
    const session = new LocalSession({ clock });
    session.open(editor, 3000);
    session.open(select, Number.NaN);
    assert.equal(session.ui.getSnapshot().dialogs[0]?.deadline, 3000);
    assert.equal(session.ui.getSnapshot().dialogs[1]?.deadline, undefined);
    assert.equal(clock.pending, 1);
    clock.advance(2999);
    assert.equal(session.ui.getSnapshot().dialogs.length, 2);
    clock.advance(1);
    assert.deepEqual(
      session.ui.getSnapshot().dialogs.map((d) => d.id),
      ["s"],
    );
    assert.equal(session.respond("e", { value: "late" }), false);
    assert.equal(clock.pending, 0);
  });

  test("update asks a pending dialog again with new fields: its deadline stays, the new options are what fits", () => {
    const clock = new ManualClock(0);
    const session = new LocalSession({ clock });
    session.open(select, 5000);
    clock.advance(1000);
    assert.equal(session.update({ ...select, options: ["b"] }), true);
    const [dialog] = session.ui.getSnapshot().dialogs;
    assert.deepEqual([dialog?.receivedAt, dialog?.deadline], [0, 5000]);
    assert.equal(session.respond("s", { value: "a" }), false, "no longer one of the options");
    assert.equal(session.respond("s", { value: "b" }), true);
    assert.equal(session.update(select), false, "no longer pending");
  });

  test("close removes a dialog without an answer", () => {
    const clock = new ManualClock(0);
    const session = new LocalSession({ clock });
    session.open(editor, 1000);
    assert.equal(session.close("e"), true);
    assert.equal(session.close("e"), false);
    assert.equal(clock.pending, 0);
  });
});
