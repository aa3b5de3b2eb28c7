/**
 * The tool calls of the recorded conversations (test/fixtures/conversation/<version>/tools.jsonl), reduced by the
 * core's own conversation state exactly as a transcript would see them: each call as it streamed (the partial
 * arguments of every `toolcall_delta`), as committed in the assistant message, and its `ToolExecution` at every step
 * (start, each `tool_execution_update`, end).
 */
import { ConversationState, type StreamingToolCall, type ToolExecution } from "@pi-elements/core/conversation";
import type { ToolCallBlock } from "../../src/elements/tool-card/define.js";
import { FakeClock } from "./fake-clock.js";

export const VERSIONS = ["0.73.1", "1.6.0"] as const;
export type Version = (typeof VERSIONS)[number];

export interface RecordedCall {
  readonly id: string;
  readonly name: string;
  /** The call while it streamed, one entry per snapshot in which its arguments changed. */
  readonly streaming: StreamingToolCall[];
  /** The `toolCall` block of the committed assistant message. */
  readonly committed: ToolCallBlock;
  /** The execution after each tool event, first (`running`, no result) to last (`done` or `error`). */
  readonly executions: ToolExecution[];
}

const cache = new Map<string, Promise<RecordedCall[]>>();

/** The recorded calls of `scenario` (default `tools`) for `version`, in the order the model made them. */
export function recordedCalls(version: Version, scenario = "tools"): Promise<RecordedCall[]> {
  const key = `${version}/${scenario}`;
  let calls = cache.get(key);
  if (!calls) {
    calls = load(version, scenario);
    cache.set(key, calls);
  }
  return calls;
}

async function load(version: Version, scenario: string): Promise<RecordedCall[]> {
  const response = await fetch(`/test/fixtures/conversation/${version}/${scenario}.jsonl`);
  if (!response.ok) throw new Error(`fixture ${version}/${scenario}: HTTP ${response.status}`);
  const records = (await response.text())
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
  // The store times tool runs: each recorded tool record is taken 200 ms after the one before.
  const clock = new FakeClock();
  const state = new ConversationState({ schedule: (flush) => flush(), clock });
  const calls = new Map<
    string,
    { streaming: StreamingToolCall[]; committed?: ToolCallBlock; executions: ToolExecution[] }
  >();
  const of = (id: string) => {
    let call = calls.get(id);
    if (!call) {
      call = { streaming: [], executions: [] };
      calls.set(id, call);
    }
    return call;
  };
  for (const record of records) {
    state.apply(record);
    const snapshot = state.getSnapshot();
    if (record.type === "message_update") {
      for (const block of snapshot.streaming?.blocks ?? []) {
        if (block?.type !== "toolCall" || !block.id) continue;
        const seen = of(block.id).streaming;
        const last = seen[seen.length - 1];
        if (JSON.stringify(last?.arguments) !== JSON.stringify(block.arguments) || last?.complete !== block.complete)
          seen.push(block);
      }
    } else if (record.type.startsWith("tool_execution_")) {
      const id = record.toolCallId as string;
      const execution = snapshot.tools.get(id);
      if (execution) of(id).executions.push(execution);
      clock.advance(200);
    } else if (record.type === "message_end") {
      const message = record.message as { role?: string; content?: unknown[] };
      if (message.role !== "assistant") continue;
      for (const block of message.content ?? []) {
        const call = block as ToolCallBlock;
        if (call.type === "toolCall" && call.id) of(call.id).committed = call;
      }
    }
  }
  return [...calls].map(([id, call]) => {
    if (!call.committed) throw new Error(`${version}: call ${id} was never committed`);
    return { id, name: call.committed.name ?? "", ...call, committed: call.committed };
  });
}
