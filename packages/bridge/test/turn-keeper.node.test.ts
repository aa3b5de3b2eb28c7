/**
 * The bridge's keeper of the turn in progress (turn-keeper.ts): what it replays, its cap, and what it makes of records
 * it cannot use. The property over every recorded stream is in turn-replay.node.test.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { TurnKeeper } from "../src/turn-keeper.js";

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const frame = (...values: unknown[]) => [Buffer.from(values.map(line).join(""))];
const replayed = (keeper: TurnKeeper) => keeper.replay().map((text) => JSON.parse(text) as Record<string, unknown>);

const start = { type: "message_start", message: { role: "assistant", content: [], model: "m", timestamp: 5 } };
const delta = (text: string, contentIndex = 0) => ({
  type: "message_update",
  assistantMessageEvent: { type: "text_delta", contentIndex, delta: text },
});

test("the streaming message is replayed as one message_start holding the text so far, with the real start's fields", () => {
  const keeper = new TurnKeeper();
  keeper.observe(
    frame({ type: "agent_start" }, start, {
      type: "message_update",
      assistantMessageEvent: { type: "text_start", contentIndex: 0 },
    }),
  );
  keeper.observe(frame(delta("Hel"), delta("lo")));
  const records = replayed(keeper);
  assert.deepEqual(records, [
    { type: "agent_start" },
    {
      type: "message_start",
      message: { role: "assistant", content: [{ type: "text", text: "Hello" }], model: "m", timestamp: 5 },
    },
  ]);
  keeper.observe(frame({ type: "message_end", message: { role: "assistant" } }));
  assert.deepEqual(replayed(keeper), [{ type: "agent_start" }], "after message_end only the run");
  keeper.observe(frame({ type: "agent_end", messages: [] }));
  assert.deepEqual(replayed(keeper), [], "after agent_end nothing");
});

test("an unfinished tool call is replayed with its raw argument text; a running tool with its latest update only", () => {
  const keeper = new TurnKeeper();
  keeper.observe(
    frame(start, {
      type: "message_update",
      assistantMessageEvent: { type: "toolcall_start", contentIndex: 0, id: "t1", toolName: "bash" },
    }),
  );
  keeper.observe(
    frame({
      type: "message_update",
      assistantMessageEvent: { type: "toolcall_delta", contentIndex: 0, delta: '{"command":"ls -' },
    }),
  );
  const [message] = replayed(keeper);
  assert.deepEqual((message?.message as { content?: unknown[] } | undefined)?.content, [
    { type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls -" }, partialArgs: '{"command":"ls -' },
  ]);
  keeper.observe(
    frame(
      { type: "message_end", message: {} },
      { type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: {} },
    ),
  );
  keeper.observe(
    frame({
      type: "tool_execution_update",
      toolCallId: "t1",
      partialResult: { content: [{ type: "text", text: "a" }] },
    }),
  );
  keeper.observe(
    frame({
      type: "tool_execution_update",
      toolCallId: "t1",
      partialResult: { content: [{ type: "text", text: "a\nb" }] },
    }),
  );
  assert.deepEqual(
    replayed(keeper).map((record) => [
      record.type,
      (record.partialResult as { content?: [{ text: string }] })?.content?.[0].text,
    ]),
    [
      ["tool_execution_start", undefined],
      ["tool_execution_update", "a\nb"],
    ],
  );
  keeper.observe(frame({ type: "tool_execution_end", toolCallId: "t1", result: {}, isError: false }));
  assert.deepEqual(replayed(keeper), []);
});

test("the last queue_update is replayed while something is queued", () => {
  const keeper = new TurnKeeper();
  keeper.observe(frame({ type: "queue_update", steering: ["faster"], followUp: [] }));
  assert.deepEqual(replayed(keeper), [{ type: "queue_update", steering: ["faster"], followUp: [] }]);
  keeper.observe(frame({ type: "queue_update", steering: [], followUp: [] }));
  assert.deepEqual(replayed(keeper), []);
});

test("pi 0.73.1's updates, which carry the whole message so far, are replayed as the latest one came", () => {
  const keeper = new TurnKeeper();
  const update = (text: string) => ({
    type: "message_update",
    assistantMessageEvent: {
      type: "text_delta",
      contentIndex: 0,
      delta: "x",
      partial: { role: "assistant", content: [{ type: "text", text }] },
    },
    message: { role: "assistant", content: [{ type: "text", text }] },
  });
  keeper.observe(frame(start, update("a"), update("ab")));
  keeper.observe(frame(update("abc")));
  assert.deepEqual(keeper.replay(), [JSON.stringify(update("abc"))]);
  keeper.observe(frame({ type: "message_end", message: {} }));
  assert.deepEqual(keeper.replay(), []);
});

test("a run pi retries (1.6's agent_end with willRetry) stays under way until agent_settled", () => {
  const keeper = new TurnKeeper();
  keeper.observe(frame({ type: "agent_start" }, { type: "agent_end", messages: [], willRetry: true }));
  assert.deepEqual(replayed(keeper), [{ type: "agent_start" }]);
  keeper.observe(frame({ type: "agent_settled" }));
  assert.deepEqual(replayed(keeper), []);
});

test("pi is working as the core's run says: 1.x's run lasts to agent_settled, even without a retry; 0.73's ends at agent_end", () => {
  const late = new TurnKeeper();
  late.observe(frame({ type: "agent_start" }, { type: "agent_end", messages: [], willRetry: false }));
  // pi 1.x refuses a prompt until agent_settled: a page that joins now must offer Steer, as one there all along does.
  assert.deepEqual(replayed(late), [{ type: "agent_start" }]);
  const old = new TurnKeeper();
  old.observe(frame({ type: "agent_start" }, { type: "agent_end", messages: [] }));
  assert.deepEqual(replayed(old), []);
});

test("past the cap the streaming message is dropped from the replay and told once; a tool update that does not fit is not kept", () => {
  const told: string[] = [];
  const keeper = new TurnKeeper({ maxChars: 10, onLimit: (message) => told.push(message) });
  keeper.observe(frame(start, delta("12345"), delta("67890")));
  assert.equal(replayed(keeper).length, 1, "10 characters fit");
  keeper.observe(frame(delta("x"), delta("y")));
  assert.deepEqual(replayed(keeper), [], "11 do not");
  assert.equal(told.length, 1);
  assert.match(told[0] ?? "", /passed 10 characters/);
  // The next message starts afresh.
  keeper.observe(frame({ type: "message_end", message: {} }, start, delta("ok")));
  assert.equal(replayed(keeper).length, 1);

  const tools = new TurnKeeper({ maxChars: 200, onLimit: (message) => told.push(message) });
  const begin = { type: "tool_execution_start", toolCallId: "t", toolName: "bash", args: {} };
  tools.observe(frame(begin));
  tools.observe(frame({ type: "tool_execution_update", toolCallId: "t", partialResult: "x".repeat(300) }));
  tools.observe(frame({ type: "tool_execution_update", toolCallId: "t", partialResult: "y".repeat(300) }));
  assert.deepEqual(replayed(tools), [begin], "the start is kept, the update is not");
  assert.equal(told.filter((message) => message.includes("tool run t")).length, 1, "told once for the run");
});

test("records cut across parts are read whole; CRLF endings, other types and malformed records are passed over", () => {
  const keeper = new TurnKeeper();
  const text = [
    line({ type: "agent_start" }).replace("\n", "\r\n"),
    '{"type":"message_start", not json\n',
    line({ type: "response", command: "prompt", success: true }),
    '{"type":"queue_update"}garbage\n',
    "[1,2]\n",
    line({ type: "extension_ui_request", id: "1", method: "notify", message: "x" }),
    line(start),
    line(delta("über 😀")),
  ].join("");
  const bytes = Buffer.from(text);
  keeper.observe([bytes]);
  // Every cut into two parts, some inside a multi-byte character.
  for (let at = 1; at < bytes.length; at++) {
    const cut = new TurnKeeper();
    cut.observe([bytes.subarray(0, at), bytes.subarray(at)]);
    assert.deepEqual(cut.replay(), keeper.replay(), `cut at ${at}`);
  }
  assert.deepEqual(
    replayed(keeper).map((record) => record.type),
    ["agent_start", "message_start"],
  );
  assert.deepEqual((replayed(keeper)[1]?.message as { content?: unknown[] } | undefined)?.content, [
    { type: "text", text: "über 😀" },
  ]);
});

test("a record whose parsed type is another than its first bytes say is judged by the parsed one", () => {
  const keeper = new TurnKeeper();
  keeper.observe([Buffer.from('{"type":"agent_start","type":"agent_settled"}\n')]);
  assert.deepEqual(keeper.replay(), []);
});

test("clear() forgets the turn (a new agent process)", () => {
  const keeper = new TurnKeeper();
  keeper.observe(
    frame({ type: "agent_start" }, start, delta("a"), { type: "queue_update", steering: ["s"], followUp: [] }),
  );
  keeper.observe(frame({ type: "tool_execution_start", toolCallId: "t", toolName: "read", args: {} }));
  assert.equal(keeper.replay().length, 4);
  keeper.clear();
  assert.deepEqual(keeper.replay(), []);
});
