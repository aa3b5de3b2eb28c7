import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DialogRequest } from "../src/protocol/extension-ui.js";
import { type DialogClosedReason, Dialogs, judgeAnswer, LocalSession } from "../src/session/dialogs.js";
import { UiState } from "../src/session/ui-state.js";
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

describe("the verdict on an answer (judgeAnswer, Dialogs.judge / answer), the one both a session and the bridge use", () => {
  const confirm: DialogRequest = { type: "extension_ui_request", id: "c", method: "confirm", title: "T", message: "m" };

  test("judgeAnswer: answered with its fields in time, expired at and after the deadline whatever the shape", () => {
    const dialog = { id: "c", request: confirm, receivedAt: 0, deadline: 1000 };
    assert.deepEqual(judgeAnswer(dialog, { confirmed: true }, 999), {
      verdict: "answered",
      fields: { confirmed: true },
    });
    assert.deepEqual(judgeAnswer(dialog, { value: "x" }, 999), { verdict: "wrong-shape" });
    assert.deepEqual(judgeAnswer(dialog, { confirmed: true }, 1000), { verdict: "expired" });
    assert.deepEqual(judgeAnswer(dialog, { value: "x" }, 5000), { verdict: "expired" });
    assert.deepEqual(judgeAnswer(undefined, { confirmed: true }, 0), { verdict: "not-pending" });
  });

  test("Dialogs.answer: a late answer expires the dialog now, with the timeout answer; judge changes nothing", () => {
    const clock = new ManualClock(0);
    const state = new UiState({ schedule: (flush) => flush() });
    const closed: Array<[string, DialogClosedReason, object | undefined]> = [];
    const dialogs = new Dialogs(state, clock, (dialog, reason, fields) => closed.push([dialog.id, reason, fields]));
    state.addDialog(confirm, 0, 1000);
    dialogs.changed();
    clock.jump(1000);
    assert.equal(dialogs.judge("c", { confirmed: true }), "expired");
    assert.equal(state.getSnapshot().dialogs.length, 1, "judging alone expires nothing");
    assert.equal(dialogs.answer("c", { confirmed: true }), "expired");
    assert.deepEqual(closed, [["c", "timeout", { cancelled: true }]]);
    assert.equal(dialogs.answer("c", { confirmed: true }), "not-pending");
    assert.equal(clock.pending, 0, "no timer is left for it");
  });
});
