import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { answerFields, type DialogRequest } from "../src/protocol/extension-ui.js";
import { DeadlineTimer, MAX_TIMER_DELAY } from "../src/session/clock.js";
import { ManualClock } from "./session-fakes.js";

describe("DeadlineTimer", () => {
  test("runs once at its deadline, not before", () => {
    const clock = new ManualClock(0);
    let due = 0;
    const timer = new DeadlineTimer(clock, () => due++);
    timer.set(1000);
    clock.advance(999);
    assert.equal(due, 0);
    clock.advance(1);
    assert.equal(due, 1);
    assert.equal(timer.deadline, undefined);
    clock.advance(5000);
    assert.equal(due, 1);
  });

  test("keeps one timer: the same deadline again leaves it alone, a new one replaces it, undefined clears it", () => {
    const clock = new ManualClock(0);
    let due = 0;
    const timer = new DeadlineTimer(clock, () => due++);
    timer.set(1000);
    timer.set(1000);
    assert.equal(clock.pending, 1);
    timer.set(3000);
    assert.equal(clock.pending, 1);
    clock.advance(2000);
    assert.equal(due, 0);
    timer.set(undefined);
    assert.equal(clock.pending, 0);
    timer.set(Number.NaN);
    timer.set(Number.POSITIVE_INFINITY);
    assert.equal(clock.pending, 0);
    clock.advance(10_000);
    assert.equal(due, 0);
  });

  test("never asks a clock for more than 2^31-1 ms, and a capped wait is armed again until the deadline", () => {
    const clock = new ManualClock(0);
    const asked = clock.delays;
    let due = 0;
    new DeadlineTimer(clock, () => due++).set(2 ** 32);
    assert.deepEqual(asked, [MAX_TIMER_DELAY]);
    clock.advance(MAX_TIMER_DELAY);
    assert.equal(due, 0, "woken before the deadline, it waits again");
    clock.advance(2 ** 32 - MAX_TIMER_DELAY);
    assert.equal(due, 1);
    assert.ok(asked.every((ms) => ms <= MAX_TIMER_DELAY));
  });

  test("a clock that fires early (a capped one) does not make it run early", () => {
    const clock = new ManualClock(0, 100);
    let due = 0;
    new DeadlineTimer(clock, () => due++).set(1000);
    clock.advance(999);
    assert.equal(due, 0);
    clock.advance(1);
    assert.equal(due, 1);
  });
});

describe("answerFields: the one check of an answer's shape", () => {
  const base = { type: "extension_ui_request", id: "x", title: "T" } as const;
  const select: DialogRequest = { ...base, method: "select", options: ["a", "b"] };
  const confirm: DialogRequest = { ...base, method: "confirm", message: "m" };
  const input: DialogRequest = { ...base, method: "input" };
  const editor: DialogRequest = { ...base, method: "editor" };

  test("each method's answer, and cancelled for all", () => {
    assert.deepEqual(answerFields(select, { value: "b" }), { value: "b" });
    assert.deepEqual(answerFields(confirm, { confirmed: false }), { confirmed: false });
    assert.deepEqual(answerFields(input, { value: "" }), { value: "" });
    assert.deepEqual(answerFields(editor, { value: "x\ny" }), { value: "x\ny" });
    for (const request of [select, confirm, input, editor]) {
      assert.deepEqual(answerFields(request, { cancelled: true, value: "a" }), { cancelled: true });
    }
  });

  test("the wrong shape is undefined", () => {
    assert.equal(answerFields(select, { value: "c" }), undefined, "not one of the options");
    assert.equal(answerFields(select, { confirmed: true }), undefined);
    assert.equal(answerFields(confirm, { value: "yes" }), undefined);
    assert.equal(answerFields(confirm, { confirmed: "yes" }), undefined);
    assert.equal(answerFields(input, { value: 42 }), undefined);
    assert.equal(answerFields(editor, { cancelled: false }), undefined);
    assert.equal(answerFields(editor, null), undefined);
    assert.equal(answerFields(editor, "text"), undefined);
  });
});
