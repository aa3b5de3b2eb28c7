/**
 * A page that connects while pi streams a long answer shows the text so far and continues it (issue #20, item 3):
 * real pi 0.73.1 and 1.6.0 behind the real bridge, the scripted model streaming slowly, one client that started the
 * turn and a second one (the core's PiSession with `conversationOf`, over `ws`) that connects in the middle of it.
 * Without the bridge's replay a 1.6.0 client would show nothing of the answer until its message_end.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PiSession, type WebSocketConstructorLike, WebSocketTransport } from "@pi-elements/core";
import { type ConversationSnapshot, conversationOf } from "@pi-elements/core/conversation";
import { WebSocket } from "ws";
import { type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { TestClient } from "../../packages/bridge/test/support/harness.js";
import { type IsolatedPi, isolatedPi, PI_VERSIONS } from "../support/real-pi.js";
import { type ScriptedModel, startScriptedModel } from "../support/scripted-model.js";
import { waitFor } from "../support/wait-for.js";

const ANSWER = Array.from({ length: 30 }, (_, i) => `Sentence ${i + 1} of a long answer.`).join(" ");
const THINKING = "Let me think about how long this answer should be.";

const textOf = (snapshot: ConversationSnapshot | undefined): string =>
  (snapshot?.streaming?.blocks ?? []).map((block) => (block?.type === "text" ? block.text : "")).join("");

for (const version of PI_VERSIONS) {
  describe(`pi ${version.version}: a client that connects mid-answer`, { timeout: 120_000 }, () => {
    let model: ScriptedModel;
    let pi: IsolatedPi;
    let bridge: RunningBridge;
    let starter: TestClient;
    let late: PiSession | undefined;

    before(async () => {
      model = await startScriptedModel();
      pi = isolatedPi(undefined, { pi: version, model });
      bridge = await startBridge({ port: 0, ...pi.options, restart: "never", log: () => {} });
      starter = await TestClient.connect(bridge.url);
    });
    after(async () => {
      late?.close();
      await starter.close();
      await bridge.close();
      await model.close();
      pi.cleanup();
    });

    it("shows the thinking and text so far at once, continues them, and ends with pi's message once", async () => {
      // About 40 chunks 60 ms apart: the second client connects while they stream.
      model.setScript([{ thinking: THINKING, text: ANSWER, delayMs: 60 }]);
      const from = starter.records.length;
      starter.send({ type: "prompt", id: "long", message: "Answer at length" });
      // Some text has streamed to the first client.
      await starter.next(
        (r) =>
          r.type === "message_update" &&
          (r.assistantMessageEvent as { type?: string }).type === "text_delta" &&
          starter.records.slice(from).filter((x) => x.type === "message_update").length > 12,
        from,
        "text deltas",
      );
      const seenByStarter = starter.records.slice(from).filter((r) => r.type === "message_update").length;

      late = new PiSession(
        new WebSocketTransport(bridge.url, {
          WebSocket: WebSocket as unknown as WebSocketConstructorLike,
          framing: "jsonl",
          reconnect: false,
        }),
      );
      const store = conversationOf(late);
      const texts: string[] = [];
      store.subscribe(() => texts.push(textOf(store.getSnapshot())));
      const first = await waitFor(() => store.getSnapshot().streaming, { message: "the streaming message" });
      const thinking = first.blocks.find((block) => block?.type === "thinking");
      assert.equal(thinking?.type === "thinking" ? thinking.thinking : undefined, THINKING, "the thinking so far");
      const atJoin = textOf(store.getSnapshot());
      assert.ok(atJoin.length > 0, "text streamed before the connect is shown");
      assert.ok(ANSWER.startsWith(atJoin), `a beginning of the answer: ${JSON.stringify(atJoin)}`);
      assert.equal(store.getSnapshot().run.status, "streaming", "pi is working");
      assert.equal(late.ui.getSnapshot().run.working, true, "the UI store knows pi is working too");

      await waitFor(() => store.getSnapshot().run.status === "idle" && store.getSnapshot().historyLoaded, {
        message: "the end of the turn",
        timeout: 30_000,
      });
      const streamed = texts.filter((text) => text !== "");
      assert.ok(streamed.length > 1, "it went on streaming after the connect");
      for (const text of streamed) assert.ok(ANSWER.startsWith(text), "every text shown is a beginning of the answer");
      assert.ok(
        streamed.some((text) => text.length > atJoin.length),
        `it continued past what it joined with (${seenByStarter} updates had streamed)`,
      );
      const { entries, streaming } = store.getSnapshot();
      assert.equal(streaming, undefined);
      const answers = entries.filter(
        (entry) => entry.kind === "message" && entry.message.role === "assistant",
      ) as Array<{ message: { content: Array<{ type: string; text?: string }> } }>;
      assert.equal(answers.length, 1, "the answer once");
      assert.equal(answers[0]?.message.content.find((block) => block.type === "text")?.text, ANSWER);
      assert.ok(
        entries.some((entry) => entry.kind === "message" && entry.message.role === "user"),
        "the prompt, from pi's history",
      );
    });
  });
}
