/**
 * Which dialog shows is the core's: `UiSnapshot.shownDialogId`, chosen by the store (see dialog-order.ts), and
 * a session that ends for good leaves no dialog behind to answer.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { shownDialog } from "../src/session/dialog-order.js";
import { type DialogClosed, PiSession } from "../src/session/pi-session.js";
import { FakeTransport, ManualClock } from "./session-fakes.js";

function setup() {
  const transport = new FakeTransport();
  const clock = new ManualClock();
  const session = new PiSession(transport, { clock });
  const closed: DialogClosed[] = [];
  session.addEventListener("dialog-closed", (event) => closed.push(event.value));
  const shown = () => shownDialog(session.ui.getSnapshot())?.id;
  return { transport, clock, session, closed, shown };
}

const request = (id: string, method: string, fields: Record<string, unknown>) => ({
  type: "extension_ui_request",
  id,
  method,
  ...fields,
});
const input = (id: string, timeout?: number) => request(id, "input", { title: id, timeout });

describe("the dialog to show", () => {
  test("the first dialog is shown; one that arrives later, even timed, never replaces it", () => {
    const { transport, session, shown } = setup();
    assert.equal(session.ui.getSnapshot().shownDialogId, undefined);
    transport.receive(input("untimed"));
    assert.equal(shown(), "untimed");
    transport.receive(input("timed", 5000));
    assert.equal(shown(), "untimed");
    assert.deepEqual(
      session.ui.getSnapshot().dialogs.map((d) => d.id),
      ["untimed", "timed"],
    );
  });

  test("when the shown one leaves, the earliest deadline comes next, else the oldest", () => {
    const { transport, session, shown } = setup();
    transport.receive(input("first"));
    assert.equal(shown(), "first");
    transport.receive(input("older untimed"), input("later", 9000), input("sooner", 4000));
    assert.equal(session.respond("first", { value: "x" }), true);
    assert.equal(shown(), "sooner");
    assert.equal(session.respond("sooner", { value: "x" }), true);
    assert.equal(shown(), "later");
    assert.equal(session.respond("later", { cancelled: true }), true);
    assert.equal(shown(), "older untimed");
    assert.equal(session.respond("older untimed", { cancelled: true }), true);
    assert.equal(session.ui.getSnapshot().shownDialogId, undefined);
  });

  test("dialogs that arrive in one burst are chosen among together: a timed one is shown first", () => {
    const { transport, shown } = setup();
    transport.receive(input("untimed"), input("timed", 5000));
    assert.equal(shown(), "timed");
  });

  test("showDialog picks another pending dialog for every reader of the store; an unknown id changes nothing", async () => {
    const { transport, session, shown } = setup();
    transport.receive(input("a"), input("b"));
    assert.equal(shown(), "a");
    let heard = 0;
    session.ui.subscribe(() => heard++);
    assert.equal(session.showDialog("b"), true);
    assert.equal(shown(), "b");
    assert.equal(session.showDialog("nope"), false);
    assert.equal(shown(), "b");
    await Promise.resolve();
    assert.equal(heard, 1);
    // Answering the picked one brings back the rule.
    assert.equal(session.respond("b", { value: "" }), true);
    assert.equal(shown(), "a");
  });

  test("a timed dialog that expires while shown hands over by the rule", () => {
    const { transport, clock, shown } = setup();
    transport.receive(input("t", 1000));
    transport.receive(input("u"), input("v", 3000));
    assert.equal(shown(), "t");
    clock.advance(1000);
    assert.equal(shown(), "v");
  });

  test("the snapshot keeps its identity while the shown dialog does not change", () => {
    const { transport, session } = setup();
    transport.receive(input("a"));
    const first = session.ui.getSnapshot();
    assert.equal(session.ui.getSnapshot(), first);
    assert.equal(shownDialog(first), first.dialogs[0]);
  });
});

describe("a session that ends for good", () => {
  for (const [how, end] of [
    ["close()", (s: ReturnType<typeof setup>) => s.session.close()],
    [
      "its transport closing (a stream's end, reconnects exhausted)",
      (s: ReturnType<typeof setup>) => s.transport.setState("closed"),
    ],
  ] as const) {
    test(`${how}: pending dialogs leave with reason "closed", connection is "closed" first, nothing is sent`, () => {
      const s = setup();
      s.transport.receive(input("a"), input("b", 5000));
      const seen: string[] = [];
      s.session.ui.subscribe(() => {
        const snapshot = s.session.ui.getSnapshot();
        seen.push(`${snapshot.connection}:${snapshot.dialogs.length}`);
      });
      s.session.addEventListener("dialog-closed", () => {
        const snapshot = s.session.ui.getSnapshot();
        seen.push(`closed-event while ${snapshot.connection}`);
      });
      end(s);
      const snapshot = s.session.ui.getSnapshot();
      assert.equal(snapshot.connection, "closed");
      assert.deepEqual(snapshot.dialogs, []);
      assert.equal(snapshot.shownDialogId, undefined);
      assert.deepEqual(s.closed, [
        { id: "a", reason: "closed" },
        { id: "b", reason: "closed" },
      ]);
      assert.deepEqual(seen.slice(0, 2), ["closed-event while closed", "closed-event while closed"]);
      assert.deepEqual(s.transport.sent, []);
      assert.equal(s.session.respond("a", { value: "late" }), false);
      assert.deepEqual(s.transport.sent, []);
    });
  }
});
