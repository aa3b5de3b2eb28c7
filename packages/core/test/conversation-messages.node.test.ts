/**
 * The final-message schemas: `checkMessage` (what the store runs on `message_end`, `agent_end` and `get_messages`)
 * and the exported loose schemas accept and refuse the same messages; the check keeps pi's own object, the exported
 * schemas' parse keeps every field.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AssistantMessage, checkMessage, MESSAGE_SCHEMAS, UserMessage } from "../src/conversation/messages.js";

const answer = {
  role: "assistant",
  content: [
    { type: "thinking", thinking: "hmm", thinkingSignature: "reasoning_content" },
    { type: "text", text: "Hi" },
    { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } },
    { type: "hologram", data: 1 },
  ],
  usage: {
    input: 1,
    output: 2,
    cacheRead: 0,
    cacheWrite: 0,
    reasoning: 3,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, totalFromProvider: 0 },
  },
  stopReason: "stop",
  durationMs: 12,
  timestamp: 1,
};

const invalid: [string, unknown][] = [
  ["a text block without text", { ...answer, content: [{ type: "text" }] }],
  ["a text block whose text is a number", { ...answer, content: [{ type: "text", text: 5 }] }],
  ["a tool call without arguments", { ...answer, content: [{ type: "toolCall", id: "c", name: "read" }] }],
  ["a block without a type", { ...answer, content: [{ text: "x" }] }],
  ["usage without output", { ...answer, usage: { input: 1, cacheRead: 0, cacheWrite: 0 } }],
  [
    "usage.cost without total",
    { ...answer, usage: { ...answer.usage, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } },
  ],
  ["a user image without data", { role: "user", content: [{ type: "image", mimeType: "image/png" }] }],
  ["a tool result without isError", { role: "toolResult", toolCallId: "c", toolName: "read", content: [] }],
];

describe("final message checks", () => {
  test("a valid message passes, as pi's own object, with the fields and block types this client does not know", () => {
    const checked = checkMessage(answer);
    assert.equal(checked.ok, true);
    assert.equal(checked.ok && checked.message, answer);
    assert.equal(checked.ok && checked.known, true);
  });

  test("the exported schemas are loose: their parse keeps every field", () => {
    const parsed = AssistantMessage.parse(answer);
    assert.deepEqual(parsed, answer);
    assert.equal(UserMessage.parse({ role: "user", content: "x", source: "rpc" }).source, "rpc");
  });

  for (const [what, message] of invalid) {
    test(`refused by the check and by the exported schema alike: ${what}`, () => {
      const checked = checkMessage(message);
      assert.equal(checked.ok, false);
      const role = (message as { role: keyof typeof MESSAGE_SCHEMAS }).role;
      assert.equal(MESSAGE_SCHEMAS[role].safeParse(message).success, false);
      assert.match(checked.ok ? "" : checked.problem, new RegExp(`^invalid ${role} message: `));
    });
  }
});
