/**
 * A client that starts listening in the middle of an assistant message with no bridge replay (any transport): pi
 * 0.73.1's partial brings the message so far, and runs a delta or two ahead of the deltas sent with it, so the
 * blocks taken from it must follow the partials, never append deltas to them (which would double text). pi 1.6.0
 * sends no partial: such a client shows the message at its `message_end`. Every cut of every recording.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConversationState } from "../src/conversation/index.js";
import type { AgentEventBase } from "../src/index.js";
import { CONVERSATION_SCENARIOS, CONVERSATION_VERSIONS, loadConversation } from "./conversation-fixtures.js";
import { feed as feedRun } from "./run-feed.js";

type Block = { type: string; text?: string; thinking?: string };

for (const version of CONVERSATION_VERSIONS) {
  describe(`joining mid-message on pi ${version}'s recordings, without a replay`, () => {
    for (const scenario of CONVERSATION_SCENARIOS) {
      test(`${scenario}: the text shown is always a beginning of the message's final text`, () => {
        const { records } = loadConversation(version, scenario);
        for (let k = 0; k < records.length; k++) {
          const state = new ConversationState({ schedule: () => {} });
          for (let p = k; p < records.length; p++) {
            const record = records[p]!;
            if (record.type === "response") continue;
            feedRun(state, record as AgentEventBase);
            const streaming = state.getSnapshot().streaming;
            if (!streaming) continue;
            // The message this one ends as.
            const end = records.slice(p).find((next) => next.type === "message_end")?.message as
              | { content: Block[] }
              | undefined;
            assert.ok(end, "a message_end follows");
            streaming.blocks.forEach((block, index) => {
              const final = end.content[index];
              if (block.type === "text") assert.ok(final?.text?.startsWith(block.text), `${k}→${p}: text ${index}`);
              if (block.type === "thinking") {
                assert.ok(final?.thinking?.startsWith(block.thinking), `${k}→${p}: thinking ${index}`);
              }
            });
          }
        }
      });
    }
  });
}
