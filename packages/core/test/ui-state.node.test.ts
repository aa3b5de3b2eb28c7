import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ExtensionUiRequest } from "../src/protocol/extension-ui.js";
import { IDLE_RUN, reduceRun } from "../src/session/run.js";
import { sanitizeStatusText, UiState } from "../src/session/ui-state.js";
import { ManualSchedule } from "./session-fakes.js";

let n = 0;
const req = (fields: Record<string, unknown>) =>
  ({ type: "extension_ui_request", id: `r${++n}`, ...fields }) as ExtensionUiRequest;
const status = (statusKey: string, statusText?: string) => req({ method: "setStatus", statusKey, statusText });
const widget = (widgetKey: string, widgetLines?: string[], widgetPlacement?: string) =>
  req({ method: "setWidget", widgetKey, widgetLines, widgetPlacement });

describe("UiState dialogs", () => {
  test("queue in arrival order with receivedAt and a deadline from timeout", () => {
    const state = new UiState();
    state.apply(req({ id: "s", method: "select", title: "Pick", options: ["a"], timeout: 5000 }), 100);
    state.apply(req({ id: "c", method: "confirm", title: "Sure?", message: "m" }), 200);
    state.apply(req({ id: "i", method: "input", title: "Name", timeout: 0 }), 300);
    state.apply(req({ id: "e", method: "editor", title: "Edit", prefill: "x\ny", timeout: 10 }), 400);
    const { dialogs } = state.getSnapshot();
    assert.deepEqual(
      dialogs.map((d) => [d.id, d.receivedAt, d.deadline]),
      [
        ["s", 100, 5100],
        ["c", 200, undefined],
        // pi arms no timer for timeout 0, and the editor never has one even if a timeout field is present.
        ["i", 300, undefined],
        ["e", 400, undefined],
      ],
    );
    assert.equal(dialogs[0]?.request.method, "select");
    assert.equal(state.nextDeadline(), 5100);
  });

  test("a duplicate pending id is ignored and reported by apply's result", () => {
    const state = new UiState();
    assert.equal(state.apply(req({ id: "d", method: "input", title: "A" }), 1), true);
    const before = state.getSnapshot();
    assert.equal(state.apply(req({ id: "d", method: "input", title: "B" }), 2), false);
    assert.equal(state.getSnapshot(), before);
    assert.equal(before.dialogs.length, 1);
  });

  test("removeDialog, clearDialogs and expire take dialogs out of the queue", () => {
    const state = new UiState();
    state.apply(req({ id: "a", method: "input", title: "A", timeout: 100 }), 0);
    state.apply(req({ id: "b", method: "input", title: "B", timeout: 50 }), 0);
    state.apply(req({ id: "c", method: "input", title: "C" }), 0);
    assert.equal(state.removeDialog("nope"), undefined);
    assert.deepEqual(
      state.expire(50).map((d) => d.id),
      ["b"],
    );
    assert.equal(state.removeDialog("a")?.id, "a");
    assert.equal(state.hasDialog("a"), false);
    assert.deepEqual(
      state.clearDialogs().map((d) => d.id),
      ["c"],
    );
    assert.deepEqual(state.getSnapshot().dialogs, []);
  });
});

describe("UiState statuses", () => {
  test("sanitizeStatusText matches pi: CR/LF/TAB to spaces, runs collapsed, trimmed, ANSI kept", () => {
    assert.equal(sanitizeStatusText("  a\r\n\tb   c  "), "a b c");
    assert.equal(sanitizeStatusText("\u001b[38;5;226mok\u001b[39m\nnext"), "\u001b[38;5;226mok\u001b[39m next");
  });

  test("sorted by key with localeCompare, sanitized text beside the raw text", () => {
    const state = new UiState();
    for (const key of ["b", "ä", "A", "a", "c"]) state.apply(status(key, `${key}\ttext `), 0);
    const { statuses } = state.getSnapshot();
    assert.deepEqual(
      statuses.map((s) => s.key),
      ["b", "ä", "A", "a", "c"].sort((x, y) => x.localeCompare(y)),
    );
    assert.deepEqual(
      statuses.find((s) => s.key === "c"),
      { key: "c", text: "c text", raw: "c\ttext " },
    );
  });

  test("absent statusText deletes the key; an empty string is kept", () => {
    const state = new UiState();
    state.apply(status("x", "one"), 0);
    state.apply(status("y", "two"), 0);
    state.apply(status("x"), 0);
    state.apply(status("y", ""), 0);
    assert.deepEqual(state.getSnapshot().statuses, [{ key: "y", text: "", raw: "" }]);
  });

  test("setting the same text again or clearing a missing key is not a change", () => {
    const state = new UiState();
    state.apply(status("x", "one"), 0);
    const before = state.getSnapshot();
    state.apply(status("x", "one"), 0);
    state.apply(status("missing"), 0);
    assert.equal(state.getSnapshot(), before);
  });
});

describe("UiState widgets", () => {
  test("placement defaults to aboveEditor; re-setting a key moves it to the end of its placement", () => {
    const state = new UiState();
    state.apply(widget("w1", ["1"]), 0);
    state.apply(widget("w2", ["2"]), 0);
    state.apply(widget("w3", ["3"], "belowEditor"), 0);
    state.apply(widget("w1", ["1b"]), 0);
    state.apply(widget("w2", ["2b"], "belowEditor"), 0);
    const { widgets } = state.getSnapshot();
    assert.deepEqual(
      widgets.aboveEditor.map((w) => [w.key, w.lines]),
      [["w1", ["1b"]]],
    );
    assert.deepEqual(
      widgets.belowEditor.map((w) => [w.key, w.lines, w.placement]),
      [
        ["w3", ["3"], "belowEditor"],
        ["w2", ["2b"], "belowEditor"],
      ],
    );
  });

  test("absent lines clear the widget from either placement; an empty array is kept", () => {
    const state = new UiState();
    state.apply(widget("a", ["x"], "belowEditor"), 0);
    state.apply(widget("b", []), 0);
    state.apply(widget("a"), 0);
    const { widgets } = state.getSnapshot();
    assert.deepEqual(widgets.belowEditor, []);
    assert.deepEqual(widgets.aboveEditor, [{ key: "b", lines: [], placement: "aboveEditor" }]);
  });

  test("lines are kept exactly as sent (markup is text)", () => {
    const state = new UiState();
    state.apply(widget("x", ["<img src=x onerror=alert(1)>", "\u001b[1mbold\u001b[22m"]), 0);
    assert.deepEqual(state.getSnapshot().widgets.aboveEditor[0]?.lines, [
      "<img src=x onerror=alert(1)>",
      "\u001b[1mbold\u001b[22m",
    ]);
  });
});

describe("UiState title, editor text, notifications", () => {
  test("title is set; the editor text has a sequence number so the same text twice is seen", () => {
    const state = new UiState();
    state.apply(req({ method: "setTitle", title: "pi — project" }), 0);
    state.apply(req({ method: "set_editor_text", text: "hello" }), 0);
    const first = state.getSnapshot();
    state.apply(req({ method: "set_editor_text", text: "hello" }), 0);
    const second = state.getSnapshot();
    assert.equal(second.title, "pi — project");
    assert.deepEqual(first.editorText, { text: "hello", seq: 1 });
    assert.deepEqual(second.editorText, { text: "hello", seq: 2 });
    assert.notEqual(first, second);
  });

  test("notifications are a ring buffer with ids, types (info by default), times, pi's request ids and a total count", () => {
    const state = new UiState({ maxNotifications: 3 });
    for (let i = 1; i <= 5; i++) {
      state.apply(
        { ...req({ method: "notify", message: `m${i}`, notifyType: i === 5 ? "error" : undefined }), id: `pi-${i}` },
        i * 10,
      );
    }
    const snapshot = state.getSnapshot();
    assert.deepEqual(snapshot.notifications, [
      { id: 3, type: "info", message: "m3", time: 30, requestId: "pi-3" },
      { id: 4, type: "info", message: "m4", time: 40, requestId: "pi-4" },
      { id: 5, type: "error", message: "m5", time: 50, requestId: "pi-5" },
    ]);
    assert.equal(snapshot.notificationCount, 5);
  });

  test("the ring buffer holds 100 by default (also when given a nonsensical size)", () => {
    for (const state of [
      new UiState(),
      new UiState({ maxNotifications: Number.NaN }),
      new UiState({ maxNotifications: -1 }),
    ]) {
      fillAndCheck(state);
    }
  });

  function fillAndCheck(state: UiState) {
    for (let i = 0; i < 150; i++) state.apply(req({ method: "notify", message: String(i) }), 0);
    const snapshot = state.getSnapshot();
    assert.equal(snapshot.notifications.length, 100);
    assert.equal(snapshot.notifications[0]?.message, "50");
    assert.equal(snapshot.notificationCount, 150);
  }

  test("maxNotifications 0 keeps none but still counts", () => {
    const state = new UiState({ maxNotifications: 0 });
    state.apply(req({ method: "notify", message: "x" }), 0);
    assert.deepEqual(state.getSnapshot().notifications, []);
    assert.equal(state.getSnapshot().notificationCount, 1);
  });
});

describe("UiState snapshots", () => {
  test("getSnapshot returns the same object until something changes; unchanged parts keep identity", () => {
    const state = new UiState();
    state.apply(status("a", "1"), 0);
    state.apply(status("b", "2"), 0);
    state.apply(widget("w", ["x"]), 0);
    state.apply(req({ method: "notify", message: "hi" }), 0);
    state.apply(req({ id: "d", method: "input", title: "T" }), 0);
    const first = state.getSnapshot();
    assert.equal(state.getSnapshot(), first);

    state.apply(status("b", "2!"), 0);
    const second = state.getSnapshot();
    assert.notEqual(second, first);
    assert.notEqual(second.statuses, first.statuses);
    assert.equal(second.statuses[0], first.statuses[0], "the untouched status entry is the same object");
    assert.equal(second.dialogs, first.dialogs);
    assert.equal(second.widgets, first.widgets);
    assert.equal(second.notifications, first.notifications);

    state.apply(widget("v", ["y"], "belowEditor"), 0);
    const third = state.getSnapshot();
    assert.equal(third.widgets.aboveEditor, second.widgets.aboveEditor, "the other placement keeps identity");
    assert.notEqual(third.widgets.belowEditor, second.widgets.belowEditor);
    assert.equal(third.statuses, second.statuses);
  });

  test("connection, the run and agentExit are part of the snapshot", () => {
    const state = new UiState({ connection: "connecting" });
    assert.equal(state.getSnapshot().connection, "connecting");
    state.setConnection("open");
    const run = reduceRun(IDLE_RUN, { type: "agent_start" });
    state.setRun(run);
    const exit = { code: 1, signal: null, stderrTail: ["boom"], restart: "on-request" } as const;
    state.setAgentExit(exit);
    const snapshot = state.getSnapshot();
    assert.equal(snapshot.connection, "open");
    assert.equal(snapshot.run, run);
    assert.equal(snapshot.agentExit, exit);
    state.setConnection("open");
    state.setRun(run);
    assert.equal(state.getSnapshot(), snapshot, "setting the same value is not a change");
  });

  test("reset clears statuses and widgets only", () => {
    const state = new UiState();
    state.apply(status("a", "1"), 0);
    state.apply(widget("w", ["x"]), 0);
    state.apply(req({ method: "setTitle", title: "T" }), 0);
    state.apply(req({ id: "d", method: "input", title: "T" }), 0);
    state.reset();
    const snapshot = state.getSnapshot();
    assert.deepEqual(snapshot.statuses, []);
    assert.deepEqual(snapshot.widgets, { aboveEditor: [], belowEditor: [] });
    assert.equal(snapshot.title, "T");
    assert.equal(snapshot.dialogs.length, 1);
  });
});

describe("UiState written directly (an element without a session)", () => {
  test("setStatus, setWidget and notify keep pi's semantics and are changes subscribers hear of", () => {
    const schedule = new ManualSchedule();
    const state = new UiState({ schedule: schedule.schedule, maxNotifications: 2 });
    let calls = 0;
    state.subscribe(() => calls++);
    assert.equal(state.setStatus("b", "  two\twords "), true);
    assert.equal(state.setStatus("a", "one"), true);
    assert.equal(state.setStatus("a", "one"), false, "the same text again is no change");
    assert.equal(state.setStatus("missing", undefined), false);
    state.setWidget("w", ["x"]);
    state.setWidget("v", ["y"], "belowEditor");
    state.setWidget("u", ["z"]);
    state.setWidget("w", ["x2"]);
    assert.equal(state.notify("warning", "first", 10), 1);
    assert.equal(state.notify("success", "<b>second</b>", 20), 2);
    assert.equal(state.notify("error", "third", 30), 3);
    schedule.runAll();
    assert.equal(calls, 1);
    const snapshot = state.getSnapshot();
    assert.deepEqual(
      snapshot.statuses.map((s) => [s.key, s.text]),
      [
        ["a", "one"],
        ["b", "two words"],
      ],
    );
    assert.deepEqual(
      snapshot.widgets.aboveEditor.map((w) => [w.key, w.lines]),
      [
        ["u", ["z"]],
        ["w", ["x2"]],
      ],
    );
    assert.deepEqual(
      snapshot.widgets.belowEditor.map((w) => w.key),
      ["v"],
    );
    assert.deepEqual(
      snapshot.notifications.map((n) => [n.id, n.type, n.message, n.time]),
      [
        [2, "info", "<b>second</b>", 20],
        [3, "error", "third", 30],
      ],
    );
    assert.equal(snapshot.notificationCount, 3);
    state.setStatus("b", undefined);
    state.setWidget("v", undefined, "belowEditor");
    assert.deepEqual(
      state.getSnapshot().statuses.map((s) => s.key),
      ["a"],
    );
    assert.deepEqual(state.getSnapshot().widgets.belowEditor, []);
  });
});

describe("UiState subscribe", () => {
  test("a 2,000-setStatus burst is one listener call, through the schedule option", () => {
    const schedule = new ManualSchedule();
    const state = new UiState({ schedule: schedule.schedule });
    let calls = 0;
    state.subscribe(() => calls++);
    for (let i = 0; i < 2000; i++) state.apply(status(`k${String(i).padStart(4, "0")}`, `v${i}`), 0);
    assert.equal(schedule.queued, 1);
    assert.equal(calls, 0, "nothing is delivered before the scheduled flush");
    schedule.runAll();
    assert.equal(calls, 1);
    assert.equal(state.getSnapshot().statuses.length, 2000);
    assert.equal(state.getSnapshot().statuses[1999]?.key, "k1999");
  });

  test("default schedule is a microtask: one call per synchronous burst", async () => {
    const state = new UiState();
    let calls = 0;
    state.subscribe(() => calls++);
    for (let i = 0; i < 2000; i++) state.apply(status(`k${i}`, "v"), 0);
    await Promise.resolve();
    assert.equal(calls, 1);
    state.apply(status("k0", "changed"), 0);
    await Promise.resolve();
    assert.equal(calls, 2);
  });

  test("unsubscribe stops calls; with no listener nothing is scheduled", () => {
    const schedule = new ManualSchedule();
    const state = new UiState({ schedule: schedule.schedule });
    let calls = 0;
    const unsubscribe = state.subscribe(() => calls++);
    unsubscribe();
    state.apply(status("a", "1"), 0);
    assert.equal(schedule.queued, 0);
    assert.equal(calls, 0);
  });

  test("getSnapshot and subscribe work unbound (as useSyncExternalStore calls them)", () => {
    const schedule = new ManualSchedule();
    const state = new UiState({ schedule: schedule.schedule });
    const { getSnapshot, subscribe } = state;
    let seen = 0;
    subscribe(() => {
      seen = getSnapshot().statuses.length;
    });
    state.apply(status("a", "1"), 0);
    schedule.runAll();
    assert.equal(seen, 1);
  });
});
