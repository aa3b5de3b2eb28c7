/**
 * Two pages on one pi (two clients of the real bridge, the core's PiSession with `conversationOf` over `ws`): what
 * one page does to the session shows in the other, though pi announces neither a new session nor a model change.
 * Behind the bridge every client hears the answers to the other's commands; the core acts on them (sync.ts).
 * Real pi 0.73.1 and 1.6.0, the scripted model.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PiSession, type WebSocketConstructorLike, WebSocketTransport } from "@pi-elements/core";
import { type ConversationStore, conversationOf } from "@pi-elements/core/conversation";
import { WebSocket } from "ws";
import { type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { type IsolatedPi, isolatedPi, PI_VERSIONS } from "../support/real-pi.js";
import { piModelsJson, type ScriptedModel, startScriptedModel } from "../support/scripted-model.js";
import { waitFor } from "../support/wait-for.js";

function page(url: string): { session: PiSession; store: ConversationStore } {
  const session = new PiSession(
    new WebSocketTransport(url, {
      WebSocket: WebSocket as unknown as WebSocketConstructorLike,
      framing: "jsonl",
      reconnect: false,
    }),
  );
  return { session, store: conversationOf(session) };
}

const texts = (store: ConversationStore) =>
  store
    .getSnapshot()
    .entries.flatMap((entry) => (entry.kind === "message" && entry.message.role === "user" ? [entry.message] : []))
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
    );

for (const version of PI_VERSIONS) {
  describe(`pi ${version.version}: two pages on one pi`, { timeout: 120_000 }, () => {
    let model: ScriptedModel;
    let pi: IsolatedPi;
    let bridge: RunningBridge;
    let one: ReturnType<typeof page>;
    let two: ReturnType<typeof page>;

    before(async () => {
      model = await startScriptedModel();
      pi = isolatedPi(undefined, { pi: version, model });
      // A reasoning model, so that pi takes a thinking level other than "off".
      writeFileSync(join(pi.home, "agent", "models.json"), piModelsJson(model, { reasoning: true }));
      bridge = await startBridge({ port: 0, ...pi.options, restart: "never", log: () => {} });
      one = page(bridge.url);
      two = page(bridge.url);
      await waitFor(
        () => (one.store.getSnapshot().historyLoaded && two.store.getSnapshot().historyLoaded) || undefined,
        {
          message: "both pages loaded the history",
          // A bound against a hang: pi takes over 10 s to start while other suites share the two cores.
          timeout: 60_000,
        },
      );
    });
    after(async () => {
      one.session.close();
      two.session.close();
      await bridge.close();
      await model.close();
      pi.cleanup();
    });

    it("a new session started in one page empties the other's transcript too", async () => {
      model.setScript([{ text: "Hello from the scripted model." }]);
      await one.session.send("prompt", { message: "first question" });
      await waitFor(
        () =>
          (texts(two.store).includes("first question") && two.store.getSnapshot().run.status === "idle") || undefined,
        {
          message: "the turn in the second page",
          timeout: 30_000,
        },
      );
      const result = await one.session.send("new_session", {});
      assert.deepEqual(result, { cancelled: false });
      await waitFor(
        () => (two.store.getSnapshot().entries.length === 0 && two.store.getSnapshot().historyLoaded) || undefined,
        {
          message: "the second page's transcript emptied",
          timeout: 30_000,
        },
      );
      assert.deepEqual(one.store.getSnapshot().entries, []);
    });

    it("a thinking level set in one page is the level the other shows", async () => {
      const before = await waitFor(() => two.store.getSnapshot().info.thinkingLevel, { message: "a level" });
      const level = before === "high" ? "low" : "high";
      await one.session.send("set_thinking_level", { level });
      await waitFor(() => (two.store.getSnapshot().info.thinkingLevel === level ? true : undefined), {
        message: `the second page shows ${level}`,
        detail: () =>
          JSON.stringify([one.store.getSnapshot().info.thinkingLevel, two.store.getSnapshot().info.thinkingLevel]),
        timeout: 30_000,
      });
    });
  });
}
