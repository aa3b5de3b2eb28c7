import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DialogAnswer, type DialogRequest, LocalSession } from "@pi-elements/core";
import { UiMirror } from "../src/ui-mirror.js";
import { ManualClock, type Rec, uiRequest } from "./support/harness.js";

function mirror(clock = new ManualClock()) {
  /** Each expired dialog's id with what the agent is to be sent for it. */
  const expired: Array<{ id: string; answer: object }> = [];
  const ui = new UiMirror({ clock, onExpired: (dialog, answer) => expired.push({ id: dialog.id, answer }) });
  const feed = (...records: Rec[]) => ui.observe(records.map((r) => JSON.stringify(r)));
  const replay = () => ui.replay().map((line) => JSON.parse(line) as Rec);
  /** The replay without its generated ids, which are not part of the state. */
  const replayWithoutIds = () => replay().map(({ id: _id, ...rest }) => rest);
  return { ui, clock, feed, replay, replayWithoutIds, expired };
}

describe("UiMirror replay", () => {
  it("is empty for an empty state", () => {
    assert.deepEqual(mirror().replay(), []);
  });

  it("judges a record by its parsed type: another type with an id and a method is never cancelled or kept", () => {
    const m = mirror();
    // Candidates of the finder that are not UI requests (a \u escape, a second type key overriding the first).
    const unanswerable = m.ui.observe([
      '{"type":"response","id":"r1","command":"get_state","text":"\\u001b[31m"}',
      '{"type":"extension_ui_request","id":"r2","method":"confirm","title":"T","message":"M","type":"message_update"}',
      '{"type":"tool_execution_update","id":"r3","method":"nobody knows","x":"quest\\"}',
    ]);
    assert.deepEqual(unanswerable, []);
    assert.deepEqual(m.replay(), []);
  });

  it("renders title, statuses by key, widgets per placement in order, editor text, then dialogs", () => {
    const m = mirror();
    m.feed(
      uiRequest("1", "setStatus", { statusKey: "zeta", statusText: "\u001b[1mZ\u001b[22m\tend" }),
      uiRequest("2", "setStatus", { statusKey: "alpha", statusText: "" }),
      uiRequest("3", "setWidget", { widgetKey: "w1", widgetLines: ["one"] }),
      uiRequest("4", "setWidget", { widgetKey: "w2", widgetLines: ["two"], widgetPlacement: "belowEditor" }),
      uiRequest("5", "setWidget", {
        widgetKey: "w3",
        widgetLines: ["three", "<b>x</b>"],
        widgetPlacement: "aboveEditor",
      }),
      uiRequest("6", "setTitle", { title: "T" }),
      uiRequest("7", "set_editor_text", { text: "a\u2028b 漢字" }),
      uiRequest("d1", "editor", { title: "E", prefill: "p" }),
      uiRequest("d2", "confirm", { title: "C", message: "M" }),
      { type: "message_update", note: "not a UI request" },
      uiRequest("8", "notify", { message: "notifications come last, as earlier ones" }),
    );
    assert.deepEqual(m.replayWithoutIds(), [
      { type: "extension_ui_request", method: "setTitle", title: "T" },
      { type: "extension_ui_request", method: "setStatus", statusKey: "alpha", statusText: "" },
      // The raw text, escapes and tab included: the client sanitizes as it does for live requests.
      { type: "extension_ui_request", method: "setStatus", statusKey: "zeta", statusText: "\u001b[1mZ\u001b[22m\tend" },
      {
        type: "extension_ui_request",
        method: "setWidget",
        widgetKey: "w1",
        widgetLines: ["one"],
        widgetPlacement: "aboveEditor",
      },
      {
        type: "extension_ui_request",
        method: "setWidget",
        widgetKey: "w3",
        widgetLines: ["three", "<b>x</b>"],
        widgetPlacement: "aboveEditor",
      },
      {
        type: "extension_ui_request",
        method: "setWidget",
        widgetKey: "w2",
        widgetLines: ["two"],
        widgetPlacement: "belowEditor",
      },
      { type: "extension_ui_request", method: "set_editor_text", text: "a\u2028b 漢字" },
      { type: "extension_ui_request", method: "editor", title: "E", prefill: "p" },
      { type: "extension_ui_request", method: "confirm", title: "C", message: "M" },
      {
        type: "pi-elements/earlier_notifications",
        notifications: [{ id: "8", notifyType: "info", message: "notifications come last, as earlier ones", ageMs: 0 }],
      },
    ]);
    // Dialogs keep their ids: the answer must carry them.
    assert.deepEqual(
      m
        .replay()
        .slice(-3, -1)
        .map((r) => r.id),
      ["d1", "d2"],
    );
  });

  it("gives replayed fire-and-forget requests fresh, unique ids, built once per change of the state", () => {
    const m = mirror();
    m.feed(
      uiRequest("1", "setTitle", { title: "T" }),
      uiRequest("2", "setStatus", { statusKey: "k", statusText: "v" }),
    );
    const first = m.replay().map((r) => r.id);
    assert.equal(new Set(first).size, 2);
    assert.ok(first.every((id) => String(id).startsWith("pi-elements-replay-")));
    // No change, no rebuild: every connection gets the same records.
    assert.deepEqual(
      m.replay().map((r) => r.id),
      first,
    );
    m.feed(uiRequest("3", "setStatus", { statusKey: "k", statusText: "w" }));
    const next = m.replay().map((r) => r.id);
    assert.ok(next.every((id) => !first.includes(id)));
  });

  it("follows clears, moves and the last write", () => {
    const m = mirror();
    m.feed(
      uiRequest("1", "setStatus", { statusKey: "a", statusText: "first" }),
      uiRequest("2", "setStatus", { statusKey: "a", statusText: "second" }),
      uiRequest("3", "setStatus", { statusKey: "b", statusText: "gone" }),
      uiRequest("4", "setStatus", { statusKey: "b" }),
      uiRequest("5", "setWidget", { widgetKey: "mover", widgetLines: ["up"] }),
      uiRequest("6", "setWidget", { widgetKey: "stay", widgetLines: ["s"] }),
      uiRequest("7", "setWidget", { widgetKey: "mover", widgetLines: ["down"], widgetPlacement: "belowEditor" }),
      uiRequest("8", "setWidget", { widgetKey: "stay" }),
      uiRequest("9", "setTitle", { title: "old" }),
      uiRequest("10", "setTitle", { title: "new" }),
    );
    assert.deepEqual(m.replayWithoutIds(), [
      { type: "extension_ui_request", method: "setTitle", title: "new" },
      { type: "extension_ui_request", method: "setStatus", statusKey: "a", statusText: "second" },
      {
        type: "extension_ui_request",
        method: "setWidget",
        widgetKey: "mover",
        widgetLines: ["down"],
        widgetPlacement: "belowEditor",
      },
    ]);
  });

  it("keeps the last of a 2,000-status burst", () => {
    const m = mirror();
    m.feed(
      ...Array.from({ length: 2000 }, (_, i) =>
        uiRequest(`b${i}`, "setStatus", { statusKey: "burst", statusText: `${i + 1}` }),
      ),
    );
    assert.deepEqual(m.replayWithoutIds(), [
      { type: "extension_ui_request", method: "setStatus", statusKey: "burst", statusText: "2000" },
    ]);
  });

  it("keeps the last valid status per key of a batch, and everything else in order", () => {
    const m = mirror();
    m.ui.observe([
      JSON.stringify(uiRequest("1", "setStatus", { statusKey: "a", statusText: "first" })),
      JSON.stringify(uiRequest("d1", "confirm", { title: "one", message: "m" })),
      JSON.stringify(uiRequest("2", "setWidget", { widgetKey: "w1", widgetLines: ["1"] })),
      JSON.stringify(uiRequest("3", "setStatus", { statusKey: "a", statusText: "last valid" })),
      JSON.stringify(uiRequest("4", "setStatus", { statusKey: "b", statusText: "cleared later" })),
      JSON.stringify(uiRequest("d2", "select", { title: "two", options: ["x"] })),
      JSON.stringify(uiRequest("5", "setWidget", { widgetKey: "w2", widgetLines: ["2"] })),
      '{"type":"extension_ui_request","id":"6","method":"setStatus","statusKey":"a","statusText":5}',
      "not JSON",
      JSON.stringify(uiRequest("7", "setStatus", { statusKey: "b" })),
    ]);
    assert.deepEqual(
      m.replay().map((r) => (r.method === "confirm" || r.method === "select" ? r.id : (r.statusText ?? r.widgetKey))),
      ["last valid", "w1", "w2", "d1", "d2"],
    );
  });

  it("ignores invalid requests and records that only mention the word", () => {
    const m = mirror();
    m.ui.observe([
      '{"type":"extension_ui_request","id":"x","method":"setStatus","statusKey":5}',
      '{"type":"extension_ui_request","id":"y","method":"teleport"}',
      '{"type":"message_update","text":"extension_ui_request"}',
      "extension_ui_request but not JSON",
    ]);
    assert.deepEqual(m.replay(), []);
  });
});

describe("UiMirror dialogs", () => {
  it("replays a timed dialog with the time that remains", () => {
    const m = mirror();
    m.feed(uiRequest("s", "select", { title: "S", options: ["a"], timeout: 5000 }));
    m.clock.advance(1800);
    assert.equal(m.replay()[0]?.timeout, 3200);
    m.clock.advance(3199);
    assert.equal(m.replay()[0]?.timeout, 1);
  });

  it("expires a dialog at its deadline, once, and then refuses answers to it", () => {
    const m = mirror();
    m.feed(
      uiRequest("a", "input", { title: "A", timeout: 1000 }),
      uiRequest("b", "confirm", { title: "B", message: "m", timeout: 3000 }),
      uiRequest("c", "editor", { title: "C" }),
    );
    m.clock.advance(999);
    assert.equal(m.expired.length, 0);
    m.clock.advance(1);
    assert.deepEqual(m.expired, [{ id: "a", answer: { cancelled: true } }]);
    m.clock.advance(5000);
    assert.deepEqual(
      m.expired.map((e) => e.id),
      ["a", "b"],
    );
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "a", value: "late" }), "not-pending");
    assert.deepEqual(
      m.replay().map((r) => r.id),
      ["c"],
    );
  });

  it("forwards the first fitting answer only", () => {
    const m = mirror();
    m.feed(
      uiRequest("c", "confirm", { title: "C", message: "m" }),
      uiRequest("s", "select", { title: "S", options: ["x"] }),
    );
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "c", value: "yes" }), "wrong-shape");
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "s", confirmed: true }), "wrong-shape");
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "c", confirmed: false }), "answered");
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "c", confirmed: true }), "not-pending");
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "s", cancelled: true }), "answered");
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "nope", cancelled: true }), "not-pending");
    assert.deepEqual(m.replay(), []);
  });

  it("does not expire an answered dialog", () => {
    const m = mirror();
    m.feed(uiRequest("a", "input", { title: "A", timeout: 1000 }));
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "a", value: "v" }), "answered");
    m.clock.advance(2000);
    assert.deepEqual(m.expired, []);
  });

  it("ignores a duplicate dialog id while the first is pending", () => {
    const m = mirror();
    m.feed(uiRequest("d", "input", { title: "first" }), uiRequest("d", "input", { title: "second" }));
    assert.deepEqual(
      m.replay().map((r) => r.title),
      ["first"],
    );
  });

  it("closes all pending dialogs at once, and clear() forgets everything", () => {
    const m = mirror();
    m.feed(
      uiRequest("a", "input", { title: "A", timeout: 1000 }),
      uiRequest("b", "editor", { title: "B" }),
      uiRequest("t", "setTitle", { title: "T" }),
    );
    assert.deepEqual(
      m.ui.closeAll().map((d) => d.id),
      ["a", "b"],
    );
    m.clock.advance(5000);
    assert.deepEqual(m.expired, [], "a closed dialog does not expire later");
    assert.equal(m.replay().length, 1);
    m.ui.clear();
    assert.deepEqual(m.replay(), []);
  });

  it("an answer after the deadline, before the timer ran, is a timeout: not forwarded, the dialog expires now", () => {
    const m = mirror();
    m.feed(
      uiRequest("late", "confirm", { title: "L", message: "m", timeout: 1000 }),
      uiRequest("other", "input", { title: "O", timeout: 1000 }),
      uiRequest("untimed", "input", { title: "U" }),
    );
    m.clock.jump(1000);
    assert.equal(m.clock.pending, 1, "the deadline timer has not run");
    // A late answer of the wrong shape is a timeout too, not a reason to disconnect its sender.
    assert.equal(m.ui.misfits({ type: "extension_ui_response", id: "late", value: "x" }), false);
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "late", confirmed: true }), "expired");
    assert.deepEqual(m.expired, [
      { id: "late", answer: { cancelled: true } },
      { id: "other", answer: { cancelled: true } },
    ]);
    assert.deepEqual(
      m.replay().map((r) => r.id),
      ["untimed"],
    );
    m.clock.advance(10_000);
    assert.equal(m.expired.length, 2, "expired once");
    assert.equal(m.ui.answer({ type: "extension_ui_response", id: "late", confirmed: true }), "not-pending");
  });

  it("gives every answer the verdict the core's Dialogs gives it, at every time around the deadline", () => {
    const request: DialogRequest = {
      type: "extension_ui_request",
      id: "d",
      method: "confirm",
      title: "T",
      message: "m",
    };
    const answers: DialogAnswer[] = [{ confirmed: true }, { cancelled: true }, { value: "wrong" }];
    for (const at of [0, 999, 1000, 1001]) {
      for (const answer of answers) {
        const clock = new ManualClock();
        const m = mirror(clock);
        m.feed({ ...request, timeout: 1000 });
        const local = new LocalSession({ clock });
        local.open(request, 1000);
        clock.jump(at);
        const core = local.respond("d", answer);
        const misfit = m.ui.misfits({ type: "extension_ui_response", id: "d", ...answer });
        const verdict = misfit ? "wrong-shape" : m.ui.answer({ type: "extension_ui_response", id: "d", ...answer });
        assert.equal(verdict === "answered", core, `at ${at} ms, ${JSON.stringify(answer)}: ${verdict}`);
        assert.equal(
          verdict,
          at >= 1000 ? "expired" : "confirmed" in answer || "cancelled" in answer ? "answered" : "wrong-shape",
        );
        assert.equal(local.ui.getSnapshot().dialogs.length, m.replay().length, "the same dialogs left pending");
      }
    }
  });
});
