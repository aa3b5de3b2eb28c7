/**
 * The queue while pi streams (conversation/queue.ts): stopping a run gives the queued text back on pi 1.x and leaves
 * pi's queue alone on 0.73.1; taking one message back keeps the others queued in pi's order; `attachedConversation`
 * finds a store without making one.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { attachedConversation, onConversationAttached } from "../src/conversation/attached.js";
import { conversationOf } from "../src/conversation/conversation-of.js";
import { canClearQueue, restoredEditorText, stopRun, takeBack } from "../src/conversation/queue.js";
import { PiSession } from "../src/session/pi-session.js";
import { FakeTransport } from "./session-fakes.js";

/** A pi that answers every command at once, `data` per command type, or fails the types in `failing`. */
function fakePi(data: Record<string, unknown> = {}, failing: ReadonlySet<string> = new Set()) {
  const transport = new FakeTransport();
  const session = new PiSession(transport);
  const commands: Record<string, unknown>[] = [];
  const send = transport.send.bind(transport);
  transport.send = (record: string) => {
    send(record);
    const command = JSON.parse(record) as { type: string; id: string };
    const { id: _id, ...rest } = command;
    commands.push(rest);
    const ok = !failing.has(command.type);
    queueMicrotask(() =>
      transport.receive({
        type: "response",
        command: command.type,
        id: command.id,
        success: ok,
        ...(ok ? { data: data[command.type] } : { error: "refused" }),
      }),
    );
  };
  return { session, commands };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("canClearQueue", () => {
  test("is true once pi answered get_available_thinking_levels (1.x), false before and on 0.73.1", () => {
    assert.equal(canClearQueue(undefined), false);
    assert.equal(canClearQueue({ protocol: undefined }), false);
    assert.equal(canClearQueue({ protocol: "0.73" }), false);
    assert.equal(canClearQueue({ protocol: "1.x" }), true);
  });
});

describe("restoredEditorText", () => {
  test("joins steering, follow-ups and the current text as pi's TUI does, leaving blanks out", () => {
    assert.equal(restoredEditorText({ steering: ["a", "b"], followUp: ["c"] }, "draft"), "a\n\nb\n\nc\n\ndraft");
    assert.equal(restoredEditorText({ steering: [], followUp: ["c"] }, "  "), "c");
    assert.equal(restoredEditorText({ steering: [], followUp: [] }, ""), "");
  });
});

describe("stopRun", () => {
  test("on pi 1.x sends clear_queue, then abort, and resolves with what was queued", async () => {
    const queues = { steering: ["left"], followUp: ["tidy"] };
    const { session, commands } = fakePi({ clear_queue: queues });
    assert.deepEqual(await stopRun(session, true), queues);
    assert.deepEqual(commands, [{ type: "clear_queue" }, { type: "abort" }]);
  });

  test("on pi 0.73.1 sends abort only and resolves with nothing (the queue stays with pi)", async () => {
    const { session, commands } = fakePi();
    assert.equal(await stopRun(session, false), undefined);
    assert.deepEqual(commands, [{ type: "abort" }]);
  });

  test("still aborts when clear_queue fails, and reports nothing", async () => {
    const { session, commands } = fakePi({}, new Set(["clear_queue", "abort"]));
    assert.equal(await stopRun(session, true), undefined);
    await flush();
    assert.deepEqual(commands, [{ type: "clear_queue" }, { type: "abort" }]);
    assert.deepEqual(session.ui.getSnapshot().notifications, []);
  });
});

describe("takeBack", () => {
  test("clears both queues and queues the others again in pi's order, steering then follow-ups", async () => {
    const { session, commands } = fakePi({ clear_queue: { steering: ["s1", "s2"], followUp: ["f1", "f2"] } });
    const result = await takeBack(session, "followUp", "f1");
    assert.deepEqual(result, { taken: "f1", unsent: [] });
    assert.deepEqual(commands, [
      { type: "clear_queue" },
      { type: "steer", message: "s1" },
      { type: "steer", message: "s2" },
      { type: "follow_up", message: "f2" },
    ]);
  });

  test("finds the message by its text: one delivered meanwhile is not taken, and the rest go back", async () => {
    const { session, commands } = fakePi({ clear_queue: { steering: ["s2"], followUp: [] } });
    assert.deepEqual(await takeBack(session, "steering", "s1"), { taken: undefined, unsent: [] });
    assert.deepEqual(commands.slice(1), [{ type: "steer", message: "s2" }]);
  });

  test("gives back what pi refused to queue again", async () => {
    const { session } = fakePi({ clear_queue: { steering: ["s1", "s2"], followUp: [] } }, new Set(["steer"]));
    assert.deepEqual(await takeBack(session, "steering", "s1"), { taken: "s1", unsent: ["s2"] });
  });

  test("rejects and sends nothing more when clear_queue fails", async () => {
    const { session, commands } = fakePi({}, new Set(["clear_queue"]));
    await assert.rejects(takeBack(session, "steering", "s1"));
    assert.deepEqual(commands, [{ type: "clear_queue" }]);
  });
});

describe("attachedConversation", () => {
  test("is undefined until conversationOf makes the store, then that store; listeners hear the session", () => {
    const { session } = fakePi();
    const heard: PiSession[] = [];
    const off = onConversationAttached((s) => heard.push(s));
    assert.equal(attachedConversation(session), undefined);
    const store = conversationOf(session);
    assert.equal(attachedConversation(session), store);
    conversationOf(session);
    off();
    assert.deepEqual(heard, [session]);
  });
});
