/**
 * A client that connects mid-turn ends with the same conversation as one that saw everything (issue #20, item 3),
 * on every recorded real pi stream of both versions (test/fixtures/conversation), cut at every record.
 *
 * The model of a connection, as `conversationOf(session)` lives it behind the bridge: a client that connects after
 * record k gets the bridge's replay of the turn (`TurnKeeper`, fed the first k records in frames cut anywhere), sends
 * `get_messages` then (its mark), goes on receiving records k…, and gets pi's answer after record j ≥ k: pi's
 * messages at j. pi's messages at every point are modelled from the recording (`historyAt`), and the model is itself
 * checked: at the end it is the recording's own final `get_messages`. A `bash` command's answer refreshes the history
 * (its `bashExecution` message has no event), as the refresh rule does for the client that sent it (here both
 * clients do), and so does a compaction's end.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AgentEventBase } from "@pi-elements/core";
import { type ConversationSnapshot, ConversationState } from "@pi-elements/core/conversation";
import fc from "fast-check";
import {
  CONVERSATION_SCENARIOS,
  CONVERSATION_VERSIONS,
  loadConversation,
  type RecordedConversation,
  type RecordedMessage,
} from "../../core/test/conversation-fixtures.js";
import { TurnKeeper } from "../src/turn-keeper.js";

/** pi's messages after each record: `history[p]` is what `get_messages` answers after the first p records. */
function historyAt(recording: RecordedConversation): unknown[][] {
  const { records } = recording;
  const final = finalMessages(recording);
  const history: unknown[][] = [[]];
  let messages: unknown[] = [];
  records.forEach((record, p) => {
    if (record.type === "message_end") messages.push(record.message);
    else if (record.type === "auto_retry_start") {
      // pi takes the failed answer out before it retries.
      const last = messages.at(-1) as RecordedMessage | undefined;
      if (last?.role === "assistant" && last.stopReason === "error") messages.pop();
    } else if (record.type === "compaction_end" && isObject(record.result)) {
      // The compacted history: the final one without what later records add.
      const later = records.slice(p + 1).filter((next) => next.type === "message_end").length;
      messages = final.slice(0, final.length - later);
    } else if (record.type === "response" && record.command === "bash" && record.success === true) {
      const bash = final.find(
        (message) => isObject(message) && message.role === "bashExecution" && !messages.includes(message),
      );
      if (bash !== undefined) messages.push(bash);
    }
    history[p + 1] = [...messages];
  });
  return history;
}

function finalMessages(recording: RecordedConversation): unknown[] {
  const answer = [...recording.records]
    .reverse()
    .find((record) => record.type === "response" && record.command === "get_messages");
  const data = answer?.data;
  assert.ok(isObject(data) && Array.isArray(data.messages), "the recording ends with get_messages");
  return data.messages;
}

const isEvent = (record: RecordedMessage): boolean =>
  record.type !== "response" && record.type !== "extension_ui_request" && typeof record.type === "string";

/** One client's store, applying records as `conversationOf` does (events; a bash answer refreshes the history). */
class Client {
  readonly state = new ConversationState({ schedule: () => {} });
  constructor(readonly history: unknown[][]) {}
  record(record: RecordedMessage, p: number): void {
    if (isEvent(record)) this.state.apply(record as AgentEventBase);
    // The refresh rule's get_messages after a compaction and after a bash command, answered at once.
    if (
      (record.type === "compaction_end" && isObject(record.result)) ||
      (record.type === "response" && record.command === "bash" && record.success === true)
    ) {
      this.state.setHistory(this.history[p + 1] as unknown[], this.state.mark());
    }
  }
  get snapshot(): ConversationSnapshot {
    return this.state.getSnapshot();
  }
}

/** The shown messages of a snapshot, in order. */
const shown = (snapshot: ConversationSnapshot): unknown[] =>
  snapshot.entries.filter((entry) => entry.kind !== "notice").map((entry) => entry.message);

/** What a fresh client shows for a history: the oracle. */
function shownOf(messages: readonly unknown[]): unknown[] {
  const state = new ConversationState({ schedule: () => {} });
  state.setHistory(messages, 0);
  return shown(state.getSnapshot());
}

/** The first `k` records as frames of agent output, grouped and cut into parts as `cuts` says. */
function framesOf(lines: readonly string[], k: number, cuts: readonly number[]): Buffer[][] {
  const frames: Buffer[][] = [];
  let i = 0;
  let c = 0;
  while (i < k) {
    const take = Math.min(k - i, 1 + ((cuts[c++ % cuts.length] ?? 0) % 4));
    const bytes = Buffer.from(
      lines
        .slice(i, i + take)
        .map((line) => `${line}\n`)
        .join(""),
    );
    const at = (cuts[c++ % cuts.length] ?? 0) % bytes.length;
    frames.push(at === 0 ? [bytes] : [bytes.subarray(0, at), bytes.subarray(at)]);
    i += take;
  }
  return frames;
}

function replayAt(recording: RecordedConversation, k: number, cuts: readonly number[]): RecordedMessage[] {
  const keeper = new TurnKeeper();
  for (const frame of framesOf(recording.lines, k, cuts)) keeper.observe(frame);
  return keeper.replay().map((line) => JSON.parse(line) as RecordedMessage);
}

/** Runs a client that connects after record k and is answered after record j; checks it on the way. */
function lateClient(
  recording: RecordedConversation,
  history: unknown[][],
  full: ConversationSnapshot[],
  k: number,
  j: number,
  cuts: readonly number[],
): Client {
  const late = new Client(history);
  for (const record of replayAt(recording, k, cuts)) late.state.apply(record as AgentEventBase);
  const atJoin = late.snapshot;
  const seen = full[k] as ConversationSnapshot;
  // The text so far: what the client connected all along shows of the streaming message. On 1.x the same blocks
  // (the bridge reduced the same deltas); on 0.73.1 pi's latest partial, which runs a delta or two ahead of them.
  if (recording.version === "0.73.1") assertAhead(atJoin, seen, recording.records.slice(k), k);
  else assert.deepEqual(atJoin.streaming?.blocks, seen.streaming?.blocks, `the streaming message at ${k}`);
  assert.equal(atJoin.run.status === "streaming", seen.info.isStreaming, `pi is working at ${k}`);
  assert.deepEqual(atJoin.queue, seen.queue, `the queues at ${k}`);
  for (const [id, tool] of seen.tools) {
    if (tool.status !== "running") continue;
    assert.equal(atJoin.tools.get(id)?.status, "running", `tool ${id} runs at ${k}`);
    assert.deepEqual(atJoin.tools.get(id)?.partialResult, tool.partialResult, `tool ${id}'s output at ${k}`);
  }
  const mark = late.state.mark();
  recording.records.forEach((record, p) => {
    if (p < k) return;
    if (p === j) late.state.setHistory(history[j] as unknown[], mark);
    late.record(record, p);
  });
  if (j === recording.records.length) late.state.setHistory(history[j] as unknown[], mark);
  return late;
}

/** Each text or thinking block shown is the connected client's or longer, and a beginning of the final one. */
function assertAhead(
  late: ConversationSnapshot,
  seen: ConversationSnapshot,
  rest: readonly RecordedMessage[],
  k: number,
): void {
  assert.equal(late.streaming === undefined, seen.streaming === undefined, `a message streams at ${k}`);
  if (!seen.streaming) return;
  const end = rest.find((record) => record.type === "message_end")?.message as
    | { content: Array<Record<string, unknown>> }
    | undefined;
  assert.ok(end);
  seen.streaming.blocks.forEach((block, index) => {
    if (block.type === "toolCall") return;
    const field = block.type === "text" ? "text" : "thinking";
    const mine = late.streaming?.blocks[index] as unknown as Record<string, unknown> | undefined;
    const text = String(mine?.[field] ?? "");
    assert.ok(text.startsWith(String((block as unknown as Record<string, unknown>)[field])), `block ${index} at ${k}`);
    assert.ok(String(end.content[index]?.[field] ?? "").startsWith(text), `block ${index} at ${k}: not doubled`);
  });
}

for (const version of CONVERSATION_VERSIONS) {
  describe(`turn replay on pi ${version}'s recordings`, () => {
    for (const scenario of CONVERSATION_SCENARIOS) {
      const recording = loadConversation(version, scenario);
      const n = recording.records.length;

      test(`${scenario}: the model of pi's messages ends with the recorded get_messages`, () => {
        assert.deepEqual(historyAt(recording).at(-1), finalMessages(recording));
      });

      test(`${scenario}: connecting after any record ends with what a client connected all along shows, which is pi's get_messages`, () => {
        const history = historyAt(recording);
        const full = new Client(history);
        const fullAt: ConversationSnapshot[] = [full.snapshot];
        recording.records.forEach((record, p) => {
          full.record(record, p);
          fullAt.push(full.snapshot);
        });
        const expected = shownOf(finalMessages(recording));
        assert.deepEqual(shown(full.snapshot), expected, "the client connected all along");
        const check = (k: number, delay: number, cuts: number[]) => {
          const j = Math.min(n, k + delay);
          const late = lateClient(recording, history, fullAt, k, j, cuts);
          const end = late.snapshot;
          assert.deepEqual(shown(end), expected, `connected after ${k}, answered after ${j}`);
          assert.equal(end.streaming, undefined);
          for (const [id, tool] of full.snapshot.tools) {
            const mine = end.tools.get(id);
            if (mine === undefined) continue;
            assert.equal(mine.status, tool.status, `tool ${id}`);
            assert.equal(mine.isError, tool.isError, `tool ${id}`);
          }
        };
        // Every cut, answered at once and at the end; then random answer delays and frame cuts.
        for (let k = 0; k <= n; k++) {
          check(k, 0, [0]);
          check(k, n, [3, 7, 1]);
        }
        fc.assert(
          fc.property(
            fc.integer({ min: 0, max: n }),
            fc.integer({ min: 0, max: n }),
            fc.array(fc.nat({ max: 1 << 20 }), { minLength: 1, maxLength: 16 }),
            (k, delay, cuts) => check(k, delay, cuts),
          ),
          { numRuns: 200 },
        );
      });
    }
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
