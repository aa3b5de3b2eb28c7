/**
 * The conversation store on real recordings of pi 0.73.1 and 1.6.0 (test/fixtures/conversation/<version>/, made by
 * scripts/record-conversation.ts against the scripted model): every scenario of both versions reduces to the
 * conversation pi's own `get_messages` gives at the end, and both versions of a scenario reduce to the same one.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConversationState } from "../src/conversation/conversation-state.js";
import { type AssistantMessage, isShown } from "../src/conversation/messages.js";
import type { ConversationSnapshot, StreamingBlock } from "../src/conversation/snapshot.js";
import type { AgentEventBase } from "../src/protocol/events.js";
import {
  CONVERSATION_SCENARIOS,
  CONVERSATION_VERSIONS,
  type ConversationScenario,
  type ConversationVersion,
  loadConversation,
} from "./conversation-fixtures.js";
import { feed as feedRun } from "./run-feed.js";

type Record_ = { type: string; [key: string]: unknown };

// The recordings, through the fixtures' own loader (conversation-fixtures.node.test.ts checks that the folders hold
// exactly these scenarios, for both versions).
const VERSIONS = CONVERSATION_VERSIONS;
const load = (version: ConversationVersion, scenario: ConversationScenario) =>
  loadConversation(version, scenario).records as Record_[];

interface Replay {
  /** A snapshot after each record, for what a scenario must have shown on the way. */
  seen: ConversationSnapshot[];
  state: ConversationState;
  problems: string[];
  /** The messages of the last get_messages answer in the recording. */
  finalHistory: unknown[];
  /** The text of the streaming message's blocks after each update, in order. */
  streamed: string[][];
}

/**
 * Feeds a recording's events to a store. A `get_messages` answer is given to the store only where the store's
 * refresh rule would have asked for one (after a `compaction_end` with a result, after a `bash` answer, whose
 * message has no event, after 1.6's `context_edit` entry): otherwise the store must reach pi's history from the
 * events alone.
 */
function replay(records: Record_[]): Replay {
  const problems: string[] = [];
  const state = new ConversationState({ onInvalidMessage: (problem) => problems.push(problem) });
  let finalHistory: unknown[] = [];
  let asked: number | undefined;
  const streamed: string[][] = [];
  const seen: ConversationSnapshot[] = [];
  for (const record of records) {
    if (seen.length > 0 || record.type !== "response") seen.push(state.getSnapshot());
    if (record.type === "response") {
      // The run's part of an answer (get_state's isStreaming), as the session hears it.
      feedRun(state, record);
      const data = record.data as { messages?: unknown[] } | undefined;
      if (record.command === "bash" && record.success === true) asked ??= state.mark();
      if (record.command === "get_messages" && Array.isArray(data?.messages)) {
        finalHistory = data.messages;
        if (asked !== undefined) state.setHistory(data.messages, asked);
        asked = undefined;
      }
      continue;
    }
    if (record.type === "extension_ui_request") continue;
    feedRun(state, record as AgentEventBase);
    if (record.type === "compaction_end" && typeof record.result === "object" && record.result !== null) {
      asked = state.mark();
    }
    if (record.type === "entry_appended" && (record.entry as { type?: unknown } | undefined)?.type === "context_edit") {
      asked ??= state.mark();
    }
    if (record.type === "message_update") {
      const blocks = state.getSnapshot().streaming?.blocks ?? [];
      streamed.push(blocks.map(blockText));
    }
  }
  return { seen, state, problems, finalHistory, streamed };
}

function blockText(block: StreamingBlock): string {
  if (block.type === "text") return `text:${block.text}`;
  if (block.type === "thinking") return `thinking:${block.thinking}`;
  return `toolCall:${block.id}:${block.name}:${JSON.stringify(block.arguments)}`;
}

const shownMessages = (snapshot: ConversationSnapshot) =>
  snapshot.entries.flatMap((entry) => (entry.kind === "notice" ? [] : [entry.message]));

/**
 * What a reader sees of a message, without what differs between runs and versions (timestamps, usage, ids, and a
 * tool's own output: temporary paths, 1.6's reworded write result).
 */
function sight(message: Record<string, unknown>): unknown {
  if (message.role === "toolResult") return [message.role, message.toolName, message.isError];
  const content = message.content;
  const blocks = Array.isArray(content)
    ? content.map((block: Record<string, unknown>) =>
        block.type === "toolCall"
          ? `toolCall:${String(block.name)}`
          : `${String(block.type)}:${String(block.text ?? block.thinking ?? "")}`,
      )
    : [String(content ?? message.summary ?? "")];
  return [message.role, message.stopReason, ...blocks];
}

for (const version of VERSIONS) {
  describe(`pi ${version} recordings`, () => {
    for (const scenario of CONVERSATION_SCENARIOS) {
      test(`${scenario}: the events reduce to get_messages' conversation, nothing streaming, every tool run done`, () => {
        const { state, problems, finalHistory } = replay(load(version, scenario));
        const snapshot = state.getSnapshot();
        assert.ok(finalHistory.length > 0, "the recording ends with a get_messages answer");
        assert.deepEqual(
          shownMessages(snapshot),
          finalHistory.filter((m) => isShown(m as { role: string })),
        );
        assert.deepEqual(problems, [], "every message pi sent passes its schema");
        assert.equal(snapshot.streaming, undefined);
        assert.ok(["idle", "aborted"].includes(snapshot.run.status), `run is ${snapshot.run.status}`);
        for (const message of finalHistory as Record<string, unknown>[]) {
          if (message.role !== "toolResult") continue;
          const run = snapshot.tools.get(message.toolCallId as string);
          assert.equal(run?.status, message.isError ? "error" : "done", `tool ${String(message.toolName)}`);
        }
      });

      test(`${scenario}: get_messages alone rebuilds the same entries, and again keeps every entry object`, () => {
        const { state, finalHistory } = replay(load(version, scenario));
        const fresh = new ConversationState();
        fresh.setHistory(finalHistory, 0);
        assert.deepEqual(shownMessages(fresh.getSnapshot()), shownMessages(state.getSnapshot()));
        const before = state.getSnapshot().entries;
        state.setHistory(structuredClone(finalHistory), state.mark());
        const after = state.getSnapshot().entries;
        assert.equal(after.length, before.length);
        for (const [i, entry] of after.entries()) assert.equal(entry, before[i], `entry ${i} kept its object`);
      });
    }
  });
}

describe("both versions' recordings of a scenario reduce to the same conversation", () => {
  const common = [...CONVERSATION_SCENARIOS];
  test("there are scenarios recorded on both versions", () => assert.ok(common.length >= 5, common.join()));
  for (const scenario of common) {
    test(`${scenario}: the same messages, notices and streamed text`, () => {
      const [old, current] = VERSIONS.map((version) => replay(load(version, scenario)));
      const view = (r: Replay) =>
        r.state
          .getSnapshot()
          .entries.map((entry) =>
            entry.kind === "notice"
              ? [entry.notice.type, "status" in entry.notice ? entry.notice.status : ""]
              : sight(entry.message as Record<string, unknown>),
          );
      assert.deepEqual(view(current!), view(old!));
      const distinct = (r: Replay) =>
        r.streamed.map((blocks) => blocks.join("|")).filter((s, i, all) => s !== all[i - 1]);
      assert.deepEqual(distinct(current!), distinct(old!), "the streaming message passes through the same states");
    });
  }
});

const assistants = (snapshot: ConversationSnapshot): AssistantMessage[] =>
  snapshot.entries.flatMap((entry) => {
    if (entry.kind !== "message") return [];
    const { message } = entry;
    return message.role === "assistant" ? [message] : [];
  });
const notices = (snapshot: ConversationSnapshot) =>
  snapshot.entries.flatMap((entry) => (entry.kind === "notice" ? [entry.notice] : []));

/** What each recorded scenario must show, on either version. */
const EXPECTATIONS: Record<string, (r: Replay, version: string) => void> = {
  abort({ state }) {
    const snapshot = state.getSnapshot();
    assert.equal(snapshot.run.status, "aborted");
    assert.equal(assistants(snapshot).at(-1)?.stopReason, "aborted");
  },
  "abort-tool"({ state }) {
    const snapshot = state.getSnapshot();
    assert.equal(snapshot.run.status, "aborted");
    const calls = assistants(snapshot).flatMap((message) =>
      message.content.flatMap((block) => (block.type === "toolCall" ? [block] : [])),
    );
    assert.deepEqual(
      calls.map((call) => call.name),
      ["write", "bash"],
    );
    const [write, bash] = calls.map((call) => snapshot.tools.get(call.id));
    // Stop while the write call was streamed: pi runs nothing, and the call ends with the aborted message.
    assert.deepEqual(
      [write?.status, write?.isError, write?.result],
      ["error", true, { content: [{ type: "text", text: "Operation aborted" }] }],
    );
    // Stop while bash ran: pi ends the run itself.
    assert.ok(bash);
    assert.equal(bash.status, "error");
    assert.deepEqual((bash.result as { content: unknown }).content, [{ type: "text", text: "Command aborted" }]);
  },
  compaction({ state, seen }) {
    const snapshot = state.getSnapshot();
    assert.ok(
      seen.some((s) => s.run.status === "compacting"),
      "compacting while it ran",
    );
    assert.deepEqual(
      notices(snapshot).map((n) => n.type === "compaction" && n.status),
      ["done"],
    );
    assert.equal(snapshot.entries[0]?.kind === "message" && snapshot.entries[0].message.role, "compactionSummary");
  },
  custom({ state }) {
    const customs = state
      .getSnapshot()
      .entries.flatMap((entry) => (entry.kind === "message" && entry.message.role === "custom" ? [entry.message] : []));
    assert.ok(customs.length > 0, "the displayed custom message is shown");
    assert.ok(
      customs.every((message) => message.display === true),
      "a custom message without display is hidden",
    );
  },
  error({ state }) {
    const last = assistants(state.getSnapshot()).at(-1);
    assert.equal(last?.stopReason, "error");
    assert.ok(last?.errorMessage, "the error is said");
  },
  retry({ state, seen }) {
    const snapshot = state.getSnapshot();
    assert.ok(
      seen.some((s) => s.run.status === "retrying" && s.run.retry?.attempt === 1),
      "retrying, attempt 1",
    );
    const retry = notices(snapshot).find((n) => n.type === "retry");
    assert.equal(retry?.type === "retry" && retry.status, "succeeded");
    assert.ok(
      assistants(snapshot).every((message) => message.stopReason !== "error"),
      "the failed answer is gone",
    );
  },
  steer({ state, seen }) {
    const queues = seen.map((s) => s.queue).filter((q, i, all) => q !== all[i - 1]);
    assert.deepEqual(
      queues.map((q) => [q.steering.length, q.followUp.length]),
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
      ],
    );
    assert.equal(
      assistants(state.getSnapshot()).length,
      3,
      "one answer, then one for the steer and the follow-up each",
    );
  },
  thinking({ streamed, state }) {
    assert.ok(
      streamed.some((blocks) => blocks.some((b) => b.startsWith("thinking:") && b.length > 9)),
      "thinking streamed",
    );
    const last = assistants(state.getSnapshot()).at(-1);
    assert.ok(Array.isArray(last?.content) && last.content.some((block) => block.type === "thinking"));
  },
  tools({ state, seen, streamed }, version) {
    const { tools } = state.getSnapshot();
    const calls = assistants(state.getSnapshot()).flatMap((message) =>
      message.content.flatMap((block) => (block.type === "toolCall" ? [block] : [])),
    );
    assert.ok(calls.length >= 5);
    for (const call of calls) assert.ok(tools.get(call.id), `the tool call ${call.name} has its run`);
    assert.ok(
      [...tools.values()].some((run) => run.status === "error"),
      "the failing read is an error",
    );
    const outputs = seen
      .map((s) => s.tools.get("call_1_1")?.partialResult as { content?: { text?: string }[] } | undefined)
      .map((result) => result?.content?.[0]?.text)
      .filter((text, i, all): text is string => text !== undefined && text !== all[i - 1]);
    assert.deepEqual(outputs, ["line 1\n", "line 1\nline 2\n", "line 1\nline 2\nline 3\n"], "bash's output replaced");
    if (version === "1.6.0") {
      assert.ok(
        [...tools.values()].every((run) => typeof run.durationMs === "number"),
        "1.6 times every run",
      );
    }
    assert.ok(
      streamed.some((blocks) => blocks.some((b) => b.includes(':write:{"path":"out/todo.md","content":"# Todo'))),
      "a write's content shows while its arguments stream",
    );
  },
  bash({ state }) {
    const first = state.getSnapshot().entries[0];
    assert.equal(
      first?.kind === "message" && first.message.role,
      "bashExecution",
      "the shell command, before the prompt",
    );
    assert.equal(assistants(state.getSnapshot()).length, 1);
  },
  text({ state }) {
    assert.equal(assistants(state.getSnapshot()).length, 1);
  },
  markdown({ state }) {
    const last = assistants(state.getSnapshot()).at(-1);
    assert.ok(Array.isArray(last?.content) && last.content.some((b) => b.type === "text" && b.text.includes("```")));
  },
};

describe("what each recorded scenario shows on the way", () => {
  for (const version of VERSIONS) {
    for (const scenario of CONVERSATION_SCENARIOS) {
      test(`${version} ${scenario}`, () => {
        const expectation = EXPECTATIONS[scenario];
        assert.ok(expectation, `an expectation for ${scenario}`);
        expectation(replay(load(version, scenario)), version);
      });
    }
  }
});
