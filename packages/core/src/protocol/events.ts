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
  agent_end: AgentEventBase & { type: "agent_end"; messages?: unknown[] };
  turn_start: AgentEventBase & { type: "turn_start" };
  turn_end: AgentEventBase & { type: "turn_end"; message?: unknown; toolResults?: unknown[] };
  message_start: AgentEventBase & { type: "message_start"; message: unknown };
  message_update: AgentEventBase & {
    type: "message_update";
    message: unknown;
    assistantMessageEvent: AssistantMessageEvent;
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
  };
  queue_update: AgentEventBase & { type: "queue_update"; steering?: string[]; followUp?: string[] };
  compaction_start: AgentEventBase & { type: "compaction_start"; reason?: string };
  compaction_end: AgentEventBase & { type: "compaction_end"; reason?: string; aborted?: boolean };
  auto_retry_start: AgentEventBase & { type: "auto_retry_start"; attempt?: number; maxAttempts?: number };
  auto_retry_end: AgentEventBase & { type: "auto_retry_end"; success?: boolean };
  extension_error: AgentEventBase & { type: "extension_error"; extensionPath?: string; error?: string };
}

export type KnownAgentEventType = keyof KnownAgentEvents;
export type AgentEvent = KnownAgentEvents[KnownAgentEventType] | AgentEventBase;

/** The cheap envelope check used for events. */
export function isAgentEventEnvelope(value: unknown): value is AgentEventBase {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}
