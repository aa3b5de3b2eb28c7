/**
 * Feeds a conversation store as its session does (`conversationOf`): each record goes to `reduceRun` first, whose
 * run reaches the store through `setRun`, then to the store (an event to `apply`, `get_state`'s answer to
 * `setState`). For the tests that drive a `ConversationState` without a session.
 */
import type { AgentEventBase, ConversationState, RunRecord, RunState } from "../src/index.js";
import { IDLE_RUN, reduceRun } from "../src/index.js";

const runs = new WeakMap<ConversationState, RunState>();

export function feed(state: ConversationState, record: RunRecord | AgentEventBase): void {
  const run = reduceRun(runs.get(state) ?? IDLE_RUN, record as RunRecord);
  runs.set(state, run);
  state.setRun(run);
  if (record.type !== "response") state.apply(record as AgentEventBase);
  else if (record.command === "get_state" && typeof record.data === "object" && record.data !== null)
    state.setState(record.data);
}

/** `get_state`'s answer, as pi sends it. */
export function stateAnswer(data: Record<string, unknown>): RunRecord {
  return { type: "response", command: "get_state", success: true, data };
}
