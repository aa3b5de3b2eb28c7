/**
 * Agent events: everything pi sends that is neither a response nor an extension-UI request. They are the
 * high-volume part of the stream (`message_update` per token), so they get an envelope check only: an object with
 * a string `type`. The known ones are typed for subscribers; an unknown `type` passes through as a generic event
 * so a newer pi still works.
 */

export interface AgentEventBase {
  type: string;
  [key: string]: unknown;
}

export interface AssistantMessageEvent {
  type: string;
  contentIndex?: number;
  delta?: string;
  content?: string;
  [key: string]: unknown;
}

export interface KnownAgentEvents {
  agent_start: AgentEventBase & { type: "agent_start" };
  /** `willRetry` (pi 1.x): pi will retry the run on its own (overflow recovery). */
  agent_end: AgentEventBase & { type: "agent_end"; messages?: unknown[]; willRetry?: boolean };
  /** pi 1.x: no automatic work remains (retries, compaction recovery, queued messages). */
  agent_settled: AgentEventBase & { type: "agent_settled"; aborted?: boolean };
  turn_start: AgentEventBase & { type: "turn_start" };
  turn_end: AgentEventBase & { type: "turn_end"; message?: unknown; toolResults?: unknown[] };
  message_start: AgentEventBase & { type: "message_start"; message: unknown };
  /** pi 1.x sends the delta (`assistantMessageEvent`) and `usage`, no longer the whole `message`. */
  message_update: AgentEventBase & {
    type: "message_update";
    message?: unknown;
    assistantMessageEvent: AssistantMessageEvent;
    usage?: unknown;
  };
  message_end: AgentEventBase & { type: "message_end"; message: unknown };
  tool_execution_start: AgentEventBase & {
    type: "tool_execution_start";
    toolCallId: string;
    toolName: string;
    args?: unknown;
  };
  tool_execution_update: AgentEventBase & {
    type: "tool_execution_update";
    toolCallId: string;
    toolName: string;
    partialResult?: unknown;
  };
  tool_execution_end: AgentEventBase & {
    type: "tool_execution_end";
    toolCallId: string;
    toolName: string;
    result?: unknown;
    isError?: boolean;
    /** pi 1.x: how long the tool ran, in ms; absent when it did not run. */
    durationMs?: number;
  };
  queue_update: AgentEventBase & { type: "queue_update"; steering?: string[]; followUp?: string[] };
  compaction_start: AgentEventBase & { type: "compaction_start"; reason?: string };
  compaction_end: AgentEventBase & {
    type: "compaction_end";
    reason?: string;
    aborted?: boolean;
    result?: unknown;
    /** pi 1.x: why the compaction failed (`result` is then absent and `aborted` false). */
    errorMessage?: string;
    willRetry?: boolean;
  };
  auto_retry_start: AgentEventBase & {
    type: "auto_retry_start";
    attempt?: number;
    maxAttempts?: number;
    delayMs?: number;
    errorMessage?: string;
  };
  auto_retry_end: AgentEventBase & { type: "auto_retry_end"; success?: boolean };
  extension_error: AgentEventBase & {
    type: "extension_error";
    extensionPath?: string;
    event?: string;
    error?: string;
  };
  /** pi 1.x: an extension appended a custom session entry (`pi.appendEntry()`). */
  entry_appended: AgentEventBase & { type: "entry_appended"; entry: unknown };
  /** pi 1.x: one output chunk of a `bash` command; `id` is the command's. */
  bash_execution_update: AgentEventBase & { type: "bash_execution_update"; id?: string; delta: string };
  /** pi 1.x: a failed summarization (compaction, branch summary) will be retried. */
  summarization_retry_scheduled: AgentEventBase & {
    type: "summarization_retry_scheduled";
    attempt?: number;
    maxAttempts?: number;
    delayMs?: number;
    errorMessage?: string;
  };
  summarization_retry_attempt_start: AgentEventBase & {
    type: "summarization_retry_attempt_start";
    source?: string;
    reason?: string;
  };
  summarization_retry_finished: AgentEventBase & { type: "summarization_retry_finished" };
  /** The active thinking level changed. */
  thinking_level_changed: AgentEventBase & { type: "thinking_level_changed"; level?: string };
  /** The session's display name changed; no `name` means it was cleared. */
  session_info_changed: AgentEventBase & { type: "session_info_changed"; name?: string };
}

export type KnownAgentEventType = keyof KnownAgentEvents;
export type AgentEvent = KnownAgentEvents[KnownAgentEventType] | AgentEventBase;

/** The cheap envelope check used for events. */
export function isAgentEventEnvelope(value: unknown): value is AgentEventBase {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}
