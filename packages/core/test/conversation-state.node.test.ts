import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConversationState } from "../src/conversation/conversation-state.js";
import type { ConversationSnapshot, MessageEntry, StreamingToolCall } from "../src/conversation/snapshot.js";
import type { AgentEventBase } from "../src/protocol/events.js";
import { assistant, streamAssistant, user, userTurn, VERSIONS, type WireVersion } from "./conversation-wire.js";
import { feed as feedRun } from "./run-feed.js";
import { ManualClock, ManualSchedule } from "./session-fakes.js";

function feed(state: ConversationState, events: readonly object[]): void {
  for (const event of events) feedRun(state, event as AgentEventBase);
}

const longAnswer = assistant([
  { type: "thinking", thinking: "The user wants a file listing; bash will do." },
  { type: "text", text: "Let me look at the files.\n\n```sh\nls -la\n```" },
  { type: "toolCall", id: "call_1", name: "write", arguments: { path: "a.txt", content: "line one\nline two\n" } },
]);

describe("both wire forms reduce to the same state", () => {
  test("every step of a streamed message (thinking, text, a tool call) looks the same on 0.73.1 and 1.6.0", () => {
    const streams = VERSIONS.map((version) => streamAssistant(version, longAnswer, 3));
    assert.equal(streams[0]!.length, streams[1]!.length);
    // One still clock for both: the thinking times they record must be equal too.
    const clock = new ManualClock();
    const states = VERSIONS.map(() => new ConversationState({ clock }));
    let sawPartialArguments = false;
    for (let i = 0; i < streams[0]!.length; i++) {
      const views = states.map((state, v) => {
        feedRun(state, streams[v]![i] as AgentEventBase);
        const { streaming, entries } = state.getSnapshot();
        return { streaming: streaming && { ...streaming, key: "" }, entries: entries.map((e) => ({ ...e, key: "" })) };
      });
      assert.deepEqual(views[1], views[0], `step ${i}`);
      const call = views[0]!.streaming?.blocks[2] as StreamingToolCall | undefined;
      if (call && !call.complete && typeof call.arguments.content === "string") sawPartialArguments = true;
    }
    assert.ok(sawPartialArguments, "a write's content shows while its arguments stream");
    const [final] = states.map((state) => state.getSnapshot());
    assert.equal(final!.streaming, undefined);
    assert.deepEqual((final!.entries[0] as MessageEntry).message, longAnswer);
  });

  test("the streaming text grows to the message's text, block by block", () => {
    for (const version of VERSIONS) {
      const state = new ConversationState();
      const events = streamAssistant(version, longAnswer, 5);
      feed(state, events.slice(0, -1));
      const { streaming } = state.getSnapshot();
      assert.deepEqual(
        streaming?.blocks.map((block) => block.type),
        ["thinking", "text", "toolCall"],
        version,
      );
      const text = streaming?.blocks[1];
      assert.equal(text?.type === "text" && text.text, "Let me look at the files.\n\n```sh\nls -la\n```");
      assert.deepEqual(streaming?.blocks[2], {
        type: "toolCall",
        id: "call_1",
        name: "write",
        arguments: { path: "a.txt", content: "line one\nline two\n" },
        complete: true,
      });
      assert.equal(streaming?.provider, "scripted");
      assert.equal(streaming?.usage?.output, events.length - 2, `${version}: the latest cumulative usage`);
    }
  });
});

describe("cost that does not grow with the message", () => {
  test("0.73.1: an update reads only the block it names from the partial, never walks it", () => {
    const state = new ConversationState();
    const events = streamAssistant("0.73.1", longAnswer, 4);
    feed(state, events.slice(0, 1));
    for (const event of events.slice(1, -1) as {
      type: string;
      message: { content: unknown[] };
      assistantMessageEvent: Record<string, unknown>;
    }[]) {
      const read = new Set<PropertyKey>();
      const content = new Proxy(event.message.content, {
        get(target, key, receiver) {
          read.add(key);
          return Reflect.get(target, key, receiver);
        },
      });
      const partial = { ...event.message, content };
      feedRun(state, {
        ...event,
        message: partial,
        assistantMessageEvent: { ...event.assistantMessageEvent, partial },
      });
      const index = String(event.assistantMessageEvent.contentIndex);
      assert.deepEqual(
        [...read].filter((key) => key !== index),
        [],
        `only content[${index}] is read`,
      );
    }
  });

  test("per token only the streaming message changes: entries, tools and unchanged blocks keep their objects", () => {
    for (const version of VERSIONS) {
      const state = new ConversationState();
      feed(state, userTurn("hi"));
      const events = streamAssistant(version, longAnswer, 4);
      feed(state, events.slice(0, 1));
      const before = state.getSnapshot();
      let previous: ConversationSnapshot = before;
      for (const event of events.slice(1, -1) as { assistantMessageEvent: { contentIndex: number } }[]) {
        feedRun(state, event as unknown as AgentEventBase);
        const next = state.getSnapshot();
        assert.notEqual(next, previous);
        assert.equal(next.entries, before.entries, `${version}: the committed entries keep their array`);
        assert.equal(next.tools, before.tools);
        assert.equal(next.info, before.info);
        const changed = event.assistantMessageEvent.contentIndex;
        next.streaming?.blocks.forEach((block, index) => {
          if (index !== changed && previous.streaming?.blocks[index]) {
            assert.equal(block, previous.streaming.blocks[index], `${version}: block ${index} kept its object`);
          }
        });
        previous = next;
      }
    }
  });

  test("a burst of updates is one notification; reading twice without a change is the same snapshot", () => {
    const schedule = new ManualSchedule();
    const state = new ConversationState({ schedule: schedule.schedule });
    let calls = 0;
    state.subscribe(() => {
      calls += 1;
    });
    feed(state, streamAssistant("1.6.0", longAnswer, 1));
    assert.equal(schedule.queued, 1);
    schedule.runAll();
    assert.equal(calls, 1);
    assert.equal(state.getSnapshot(), state.getSnapshot());
  });
});

describe("committed messages", () => {
  test("in order, typed, with stable identities; hidden roles left out; unknown roles kept", () => {
    const onInvalid: string[] = [];
    const state = new ConversationState({ onInvalidMessage: (problem) => onInvalid.push(problem) });
    const system = { role: "system", content: "You are pi.", timestamp: 1 };
    const hidden = { role: "custom", customType: "x", content: "internal", display: false, timestamp: 2 };
    const shown = { role: "custom", customType: "note", content: "Shown", display: true, timestamp: 3 };
    const future = { role: "hologram", payload: { x: 1 }, timestamp: 4 };
    for (const message of [system, user("hi", 5), hidden, shown, future]) {
      feedRun(state, { type: "message_end", message });
    }
    const first = state.getSnapshot().entries;
    assert.deepEqual(
      first.map((entry) => [entry.kind, entry.kind === "notice" ? "" : entry.message.role]),
      [
        ["message", "user"],
        ["message", "custom"],
        ["other", "hologram"],
      ],
    );
    assert.deepEqual(first[2]?.kind === "other" && first[2].message, future);
    feedRun(state, { type: "message_end", message: { role: "user", content: 42 } });
    const second = state.getSnapshot().entries;
    assert.equal(second[0], first[0], "an unchanged message keeps its entry object");
    assert.equal(second[2], first[2]);
    assert.equal(second[3]?.kind, "other");
    assert.match((second[3] as { problem?: string }).problem ?? "", /invalid user message: content/);
    assert.equal(onInvalid.length, 1);
  });
});

describe("tool executions", () => {
  test("keyed by toolCallId, linked to the toolCall block, partial output replaced, result, duration, parent", () => {
    const state = new ConversationState();
    feed(state, streamAssistant("1.6.0", longAnswer));
    feedRun(state, { type: "tool_execution_start", toolCallId: "call_1", toolName: "write", args: { path: "a.txt" } });
    assert.equal(state.getSnapshot().tools.get("call_1")?.status, "running");
    feedRun(state, {
      type: "tool_execution_update",
      toolCallId: "call_1",
      toolName: "write",
      partialResult: { content: [{ type: "text", text: "a" }] },
    });
    feedRun(state, {
      type: "tool_execution_update",
      toolCallId: "call_1",
      toolName: "write",
      partialResult: { content: [{ type: "text", text: "ab" }] },
    });
    assert.deepEqual(state.getSnapshot().tools.get("call_1")?.partialResult, {
      content: [{ type: "text", text: "ab" }],
    });
    feedRun(state, {
      type: "tool_execution_start",
      toolCallId: "nested",
      toolName: "read",
      args: {},
      parentToolCallId: "call_1",
    });
    feedRun(state, {
      type: "tool_execution_end",
      toolCallId: "nested",
      toolName: "read",
      result: { content: [] },
      isError: true,
      durationMs: 3,
    });
    feedRun(state, {
      type: "tool_execution_end",
      toolCallId: "call_1",
      toolName: "write",
      result: { content: [{ type: "text", text: "ok" }] },
      isError: false,
      durationMs: 12,
    });
    const { tools, entries } = state.getSnapshot();
    const block = (entries[0] as MessageEntry).message.content;
    const call = Array.isArray(block) ? block.find((b) => b.type === "toolCall") : undefined;
    const run = tools.get((call as { id: string }).id);
    assert.equal(run?.status, "done");
    assert.equal(run?.durationMs, 12);
    assert.deepEqual(run?.result, { content: [{ type: "text", text: "ok" }] });
    assert.deepEqual(run?.args, { path: "a.txt" });
    assert.equal(tools.get("nested")?.status, "error");
    assert.equal(tools.get("nested")?.parentToolCallId, "call_1");
  });
});

describe("times on the store's clock", () => {
  test("a tool run has its start and end as the store saw them; one from a history has neither", () => {
    const clock = new ManualClock();
    const state = new ConversationState({ clock });
    const t0 = clock.now();
    feedRun(state, { type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: { command: "ls" } });
    clock.advance(300);
    feedRun(state, { type: "tool_execution_update", toolCallId: "t1", toolName: "bash", partialResult: {} });
    assert.deepEqual(
      [state.getSnapshot().tools.get("t1")?.startedAt, state.getSnapshot().tools.get("t1")?.endedAt],
      [t0, undefined],
    );
    clock.advance(400);
    feedRun(state, { type: "tool_execution_end", toolCallId: "t1", toolName: "bash", result: {}, isError: false });
    const run = state.getSnapshot().tools.get("t1");
    assert.deepEqual([run?.startedAt, run?.endedAt], [t0, t0 + 700]);
    // Joined late: timed from the first record seen.
    feedRun(state, { type: "tool_execution_update", toolCallId: "t2", toolName: "bash", partialResult: {} });
    assert.equal(state.getSnapshot().tools.get("t2")?.startedAt, t0 + 700);
    const fresh = new ConversationState({ clock });
    fresh.setHistory(
      [{ role: "toolResult", toolCallId: "t9", toolName: "read", content: [], isError: false, timestamp: 1 }],
      0,
    );
    assert.deepEqual(
      [fresh.getSnapshot().tools.get("t9")?.startedAt, fresh.getSnapshot().tools.get("t9")?.endedAt],
      [undefined, undefined],
    );
    assert.equal(state.clock, clock);
  });
});

describe("how long pi thought", () => {
  const update = (event: Record<string, unknown>) => ({ type: "message_update", assistantMessageEvent: event });
  const start = { role: "assistant", content: [], provider: "p", model: "m", stopReason: "pending", timestamp: 1 };
  const final = assistant([
    { type: "thinking", thinking: "hmm" },
    { type: "text", text: "ok" },
  ]);

  test("from thinking_start to thinking_end (or the next block's start), on the store's clock, in the entry", () => {
    const clock = new ManualClock();
    const state = new ConversationState({ clock });
    feedRun(state, { type: "message_start", message: start });
    feedRun(state, update({ type: "thinking_start", contentIndex: 0 }));
    clock.advance(1_200);
    feedRun(state, update({ type: "thinking_delta", contentIndex: 0, delta: "hmm" }));
    clock.advance(1_300);
    feedRun(state, update({ type: "thinking_end", contentIndex: 0, content: "hmm" }));
    clock.advance(5_000);
    feedRun(state, update({ type: "text_start", contentIndex: 1 }));
    feedRun(state, { type: "message_end", message: final });
    const entry = state.getSnapshot().entries.at(-1);
    assert.deepEqual(entry?.kind === "message" ? [...(entry.thinkingMs ?? [])] : undefined, [[0, 2_500]]);
    // No thinking_end: the next block's start ends it.
    feedRun(state, { type: "message_start", message: start });
    feedRun(state, update({ type: "thinking_start", contentIndex: 0 }));
    clock.advance(700);
    feedRun(state, update({ type: "text_start", contentIndex: 1 }));
    clock.advance(9_000);
    feedRun(state, { type: "message_end", message: final });
    const second = state.getSnapshot().entries.at(-1);
    assert.deepEqual(second?.kind === "message" ? [...(second.thinkingMs ?? [])] : undefined, [[0, 700]]);
  });

  test("a message joined mid-thought is timed from the join; a message from a history has no times", () => {
    const clock = new ManualClock();
    const state = new ConversationState({ clock });
    const partial = { ...start, content: [{ type: "thinking", thinking: "so far" }] };
    feedRun(state, {
      type: "message_update",
      message: partial,
      assistantMessageEvent: { type: "thinking_delta", contentIndex: 0, delta: "far", partial },
    });
    clock.advance(400);
    feedRun(state, { type: "message_end", message: final });
    const joined = state.getSnapshot().entries.at(-1);
    assert.deepEqual(joined?.kind === "message" ? [...(joined.thinkingMs ?? [])] : undefined, [[0, 400]]);
    const fresh = new ConversationState({ clock });
    fresh.setHistory([final], 0);
    const fromHistory = fresh.getSnapshot().entries.at(-1);
    assert.equal(fromHistory?.kind === "message" ? fromHistory.thinkingMs : "not a message", undefined);
  });
});

describe("run state, queues and notices", () => {
  test("the run the session decides: streaming, compacting, retrying with attempt and delay, aborted, idle", () => {
    const state = new ConversationState();
    const status = () => state.getSnapshot().run;
    assert.equal(status().status, "idle");
    feedRun(state, { type: "agent_start" });
    assert.equal(status().status, "streaming");
    assert.equal(state.getSnapshot().info.isStreaming, true);
    feedRun(state, { type: "agent_end", messages: [] });
    feedRun(state, { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "529" });
    assert.equal(status().status, "retrying");
    assert.deepEqual(status().retry, { attempt: 1, maxAttempts: 3, delayMs: 2000 });
    feedRun(state, { type: "agent_start" });
    assert.equal(status().status, "streaming");
    feedRun(state, { type: "auto_retry_end", success: true, attempt: 2 });
    feedRun(state, { type: "compaction_start", reason: "threshold" });
    assert.equal(status().status, "compacting");
    assert.equal(state.getSnapshot().info.isCompacting, true);
    feedRun(state, {
      type: "compaction_end",
      reason: "threshold",
      result: { summary: "S", tokensBefore: 9 },
      aborted: false,
      willRetry: false,
    });
    assert.equal(status().status, "streaming");
    const aborted = assistant([{ type: "text", text: "partial" }], { stopReason: "aborted" });
    feedRun(state, { type: "message_end", message: aborted });
    feedRun(state, { type: "agent_end", messages: [aborted] });
    assert.equal(status().status, "aborted");
    feedRun(state, { type: "agent_start" });
    feedRun(state, { type: "agent_end", messages: [] });
    assert.equal(status().status, "idle");
  });

  test("queues from queue_update; notices at their place, each updated in place", () => {
    const state = new ConversationState();
    feedRun(state, { type: "queue_update", steering: ["focus"], followUp: ["then summarize"] });
    assert.deepEqual(state.getSnapshot().queue, { steering: ["focus"], followUp: ["then summarize"] });
    feed(state, userTurn("one", 1));
    feedRun(state, { type: "compaction_start", reason: "manual" });
    feedRun(state, { type: "auto_retry_start", attempt: 1, maxAttempts: 2, delayMs: 10, errorMessage: "overloaded" });
    feedRun(state, { type: "auto_retry_start", attempt: 2, maxAttempts: 2, delayMs: 20, errorMessage: "overloaded" });
    feedRun(state, { type: "auto_retry_end", success: false, attempt: 2, finalError: "gave up" });
    feedRun(state, { type: "compaction_end", reason: "manual", aborted: false, errorMessage: "quota" });
    feedRun(state, { type: "extension_error", extensionPath: "/x.ts", event: "tool_call", error: "boom" });
    feed(state, userTurn("two", 2));
    const entries = state.getSnapshot().entries;
    assert.deepEqual(
      entries.map((entry) => (entry.kind === "notice" ? entry.notice : entry.message.role)),
      [
        "user",
        { type: "compaction", reason: "manual", status: "failed", errorMessage: "quota" },
        {
          type: "retry",
          attempt: 2,
          maxAttempts: 2,
          delayMs: 20,
          errorMessage: "overloaded",
          status: "failed",
          finalError: "gave up",
        },
        { type: "extension_error", extensionPath: "/x.ts", event: "tool_call", error: "boom" },
        "user",
      ],
    );
  });
});

describe("history (get_messages) and the merge rule", () => {
  const history = [user("one", 1), assistant([{ type: "text", text: "first" }], { timestamp: 2 }), user("two", 3)];

  test("a history rebuilds the conversation; equal messages keep their entries; the stream stays", () => {
    const state = new ConversationState();
    state.setHistory(structuredClone(history), state.mark());
    const first = state.getSnapshot();
    assert.equal(first.historyLoaded, true);
    assert.deepEqual(
      first.entries.map((entry) => entry.kind !== "notice" && entry.message),
      history,
    );
    feed(
      state,
      streamAssistant("1.6.0", assistant([{ type: "text", text: "streaming now" }], { timestamp: 4 })).slice(0, 4),
    );
    state.setHistory(structuredClone(history), state.mark());
    const second = state.getSnapshot();
    for (const [i, entry] of second.entries.entries())
      assert.equal(entry, first.entries[i], `entry ${i} kept its object`);
    assert.ok(second.streaming, "the streaming message is not in any history and stays");
  });

  test("a message committed after get_messages was sent, missing from its answer, is kept once", () => {
    for (const answerHasIt of [false, true]) {
      const state = new ConversationState();
      state.setHistory(history.slice(0, 2), 0);
      const mark = state.mark();
      feed(state, userTurn("two", 3));
      state.setHistory(answerHasIt ? history : history.slice(0, 2), mark);
      assert.deepEqual(
        state.getSnapshot().entries.map((entry) => entry.kind !== "notice" && entry.message),
        history,
        answerHasIt ? "in the answer: once" : "not in the answer: kept",
      );
    }
  });

  test("a message committed before the request and gone from the answer is gone (compaction)", () => {
    const state = new ConversationState();
    state.setHistory(history, 0);
    feedRun(state, { type: "compaction_start", reason: "manual" });
    feedRun(state, { type: "compaction_end", reason: "manual", result: { summary: "S" }, aborted: false });
    const compacted = [{ role: "compactionSummary", summary: "S", tokensBefore: 9, timestamp: 5 }, user("two", 3)];
    state.setHistory(compacted, state.mark());
    const entries = state.getSnapshot().entries;
    assert.deepEqual(
      entries.map((entry) => (entry.kind === "notice" ? entry.notice.type : entry.message.role)),
      ["compactionSummary", "user", "compaction"],
      "the notice follows the last message that is still there",
    );
  });

  test("a toolResult in the history finishes its tool run", () => {
    const state = new ConversationState();
    feedRun(state, { type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: { command: "ls" } });
    state.setHistory(
      [
        {
          role: "toolResult",
          toolCallId: "t1",
          toolName: "bash",
          content: [{ type: "text", text: "a" }],
          isError: false,
          timestamp: 9,
        },
      ],
      0,
    );
    const run = state.getSnapshot().tools.get("t1");
    assert.equal(run?.status, "done");
    assert.deepEqual(run?.args, { command: "ls" });
    assert.deepEqual(run?.result, { content: [{ type: "text", text: "a" }], details: undefined });
  });

  test("pi 1.6's nestedCalls on a toolResult: the calls a tool made, each under its parent; live runs kept", () => {
    const state = new ConversationState();
    // call_9/1 was seen live, with its result; the history's record of it (no results) must not replace it.
    feedRun(state, {
      type: "tool_execution_start",
      toolCallId: "call_9/1",
      toolName: "read",
      args: { path: "a.txt" },
      parentToolCallId: "call_9",
    });
    feedRun(state, {
      type: "tool_execution_end",
      toolCallId: "call_9/1",
      toolName: "read",
      result: { content: [{ type: "text", text: "live text" }] },
      isError: false,
      parentToolCallId: "call_9",
    });
    state.setHistory(
      [
        {
          role: "toolResult",
          toolCallId: "call_9",
          toolName: "subagent",
          content: [{ type: "text", text: "done" }],
          isError: false,
          timestamp: 9,
          nestedCalls: {
            complete: false,
            calls: [
              { id: "call_9/1", name: "read", arguments: { path: "a.txt" }, status: "ok", durationMs: 4 },
              { id: "call_9/2", name: "bash", arguments: { command: "make" }, status: "error", error: "exit 2" },
              { id: "call_9/2/1", name: "ls", argumentsBytes: 90000, status: "unfinished" },
              { id: "odd", name: "grep", status: "ok" },
              { name: "no id", status: "ok" },
              "junk",
            ],
          },
        },
      ],
      0,
    );
    const { tools } = state.getSnapshot();
    assert.deepEqual(tools.get("call_9/1")?.result, { content: [{ type: "text", text: "live text" }] });
    const bash = tools.get("call_9/2");
    assert.equal(bash?.parentToolCallId, "call_9");
    assert.equal(bash?.status, "error");
    assert.deepEqual(bash?.args, { command: "make" });
    assert.deepEqual(bash?.result, { content: [{ type: "text", text: "exit 2" }] });
    // Nested in a nested call: its parent is the call its id extends.
    const ls = tools.get("call_9/2/1");
    assert.equal(ls?.parentToolCallId, "call_9/2");
    assert.equal(ls?.status, "error", "unfinished when its caller finished: it failed");
    assert.deepEqual(ls?.args, undefined);
    // An id not of pi's form belongs to the calling tool.
    assert.equal(tools.get("odd")?.parentToolCallId, "call_9");
    assert.equal(tools.get("odd")?.status, "done");
    assert.equal(tools.get("call_9")?.parentToolCallId, undefined);
    assert.deepEqual([...tools.keys()], ["call_9/1", "call_9", "call_9/2", "call_9/2/1", "odd"]);
  });

  test("joining mid-message: 0.73.1's partial brings the message back; 1.6.0's deltas wait for message_end", () => {
    const message = assistant([{ type: "text", text: "Hello there, friend" }]);
    const expected: Record<WireVersion, string | undefined> = { "0.73.1": "Hello there, friend", "1.6.0": undefined };
    for (const version of VERSIONS) {
      const state = new ConversationState();
      const events = streamAssistant(version, message, 4);
      feed(state, events.slice(3, -1));
      const block = state.getSnapshot().streaming?.blocks[0];
      assert.equal(block?.type === "text" ? block.text : undefined, expected[version], version);
      feedRun(state, events.at(-1) as AgentEventBase);
      assert.deepEqual(
        state.getSnapshot().entries.map((entry) => entry.kind !== "notice" && entry.message),
        [message],
      );
    }
  });

  test("agent_end brings the run's messages this store missed, and none twice", () => {
    const state = new ConversationState();
    feedRun(state, { type: "agent_start" });
    feed(state, userTurn("one", 1));
    const answer = assistant([{ type: "text", text: "first" }], { timestamp: 2 });
    feedRun(state, { type: "agent_end", messages: [user("one", 1), answer] });
    assert.deepEqual(
      state.getSnapshot().entries.map((entry) => entry.kind !== "notice" && entry.message),
      [user("one", 1), answer],
    );
  });

  test("agent_end tells messages apart by role, timestamp and tool call, and unstamped ones by their JSON", () => {
    const state = new ConversationState();
    feedRun(state, { type: "agent_start" });
    const result = (id: string) => ({
      role: "toolResult",
      toolCallId: id,
      toolName: "read",
      content: [{ type: "text", text: id }],
      isError: false,
      timestamp: 5,
    });
    const unstamped = { role: "custom", customType: "note", content: "no time", display: true };
    feedRun(state, { type: "message_end", message: result("a") });
    feedRun(state, { type: "message_end", message: unstamped });
    // The same timestamp as a held message but another tool call or role; an unstamped message held already.
    const answer = assistant([{ type: "text", text: "done" }], { timestamp: 5 });
    feedRun(state, { type: "agent_end", messages: [result("a"), result("b"), { ...unstamped }, answer] });
    assert.deepEqual(
      state.getSnapshot().entries.map((entry) => entry.kind !== "notice" && entry.message),
      // The missing ones where the run has them: b after a, the answer last.
      [result("a"), result("b"), unstamped, answer],
    );
  });

  test("reset forgets messages, notices, stream, tools and queues", () => {
    const state = new ConversationState();
    state.setHistory(history, 0);
    feedRun(state, { type: "queue_update", steering: ["x"], followUp: [] });
    feedRun(state, { type: "tool_execution_start", toolCallId: "t", toolName: "bash", args: {} });
    state.setStats({ tokens: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, total: 2 }, cost: 0.1 });
    state.reset();
    const snapshot = state.getSnapshot();
    assert.deepEqual(snapshot.entries, []);
    assert.equal(snapshot.tools.size, 0);
    assert.deepEqual(snapshot.queue, { steering: [], followUp: [] });
    assert.equal(snapshot.historyLoaded, false);
    assert.equal(snapshot.info.stats, undefined);
  });
});
