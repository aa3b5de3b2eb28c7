/**
 * The conversation a session keeps, as an immutable snapshot (`conversationOf(session).getSnapshot()`). Each change
 * makes a new snapshot object; every part that did not change keeps its identity, so a renderer compares by
 * reference: a committed message keeps its entry object for as long as it is unchanged, and while a message streams
 * only `streaming` (and within it only the block that grew) is new.
 */
import type { ModelInfo, SessionStats, ThinkingLevel } from "../protocol/commands.js";
import type { Clock } from "../session/clock.js";
import type { RunState } from "../session/run.js";
import type { KnownMessage, UnknownMessage, Usage } from "./messages.js";

/** A committed message pi sent (`message_end`, `get_messages`), checked against its role's schema. */
export interface MessageEntry {
  readonly kind: "message";
  /** Stable for the life of the entry: use it as the key of a rendered list. */
  readonly key: string;
  readonly message: KnownMessage;
  /**
   * How long each thinking block of an assistant message took, in ms by block index, as this store saw it streamed
   * (from its `thinking_start`, or from when the store joined the message, to its `thinking_end` or the next block),
   * on the store's clock. Absent for a message the store did not see streamed (a history).
   */
  readonly thinkingMs?: ReadonlyMap<number, number>;
}

/**
 * A message of a role this client does not know, or one that failed its schema (`problem` says why): kept as it
 * came so nothing pi said is lost.
 */
export interface OtherEntry {
  readonly kind: "other";
  readonly key: string;
  readonly message: UnknownMessage;
  readonly problem?: string;
}

/** A compaction, from `compaction_start` to `compaction_end`. */
export interface CompactionNotice {
  readonly type: "compaction";
  /** "manual", "threshold" or "overflow". */
  readonly reason: string | undefined;
  readonly status: "running" | "done" | "aborted" | "failed";
  /** The summary pi made (`compaction_end.result`), when it succeeded. */
  readonly result?: { readonly summary?: string; readonly tokensBefore?: number; readonly [key: string]: unknown };
  readonly errorMessage?: string;
  /** pi retries the prompt on its own after an overflow compaction. */
  readonly willRetry?: boolean;
}

/** An automatic retry after a transient error, from `auto_retry_start` to `auto_retry_end`. */
export interface RetryNotice {
  readonly type: "retry";
  readonly attempt: number;
  readonly maxAttempts: number | undefined;
  readonly delayMs: number | undefined;
  readonly errorMessage: string | undefined;
  readonly status: "waiting" | "succeeded" | "failed";
  readonly finalError?: string;
}

/** An extension threw (`extension_error`). */
export interface ExtensionErrorNotice {
  readonly type: "extension_error";
  readonly extensionPath: string | undefined;
  readonly event: string | undefined;
  readonly error: string;
}

export type Notice = CompactionNotice | RetryNotice | ExtensionErrorNotice;

/** Something that happened between messages, at its place in the conversation. */
export interface NoticeEntry {
  readonly kind: "notice";
  readonly key: string;
  readonly notice: Notice;
}

export type ConversationEntry = MessageEntry | OtherEntry | NoticeEntry;

export interface StreamingText {
  readonly type: "text";
  readonly text: string;
}
export interface StreamingThinking {
  readonly type: "thinking";
  readonly thinking: string;
}
export interface StreamingToolCall {
  readonly type: "toolCall";
  /** The tool call's id: `ConversationSnapshot.tools.get(id)` is its execution once it runs. */
  readonly id: string;
  readonly name: string;
  /**
   * The arguments so far: pi 0.73.1's own parse of them, or (1.6.0, which sends raw JSON text) this client's
   * partial-JSON parse, done when the snapshot is read, not per token. `{}` until anything parses.
   */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** True once `toolcall_end` gave the complete call. */
  readonly complete: boolean;
}
export type StreamingBlock = StreamingText | StreamingThinking | StreamingToolCall;

/** The assistant message being streamed: its blocks by `contentIndex`, each growing in place. */
export interface StreamingMessage {
  readonly key: string;
  readonly role: "assistant";
  /** Sparse only if pi skipped an index; normally dense. */
  readonly blocks: readonly StreamingBlock[];
  /** The latest cumulative usage (1.6.0 sends it with every update; 0.73.1 in its partial). */
  readonly usage: Usage | undefined;
  readonly provider: string | undefined;
  readonly model: string | undefined;
}

export type ToolStatus = "running" | "done" | "error";

/** One tool run, keyed by `toolCallId` (the id of the assistant's toolCall block that asked for it). */
export interface ToolExecution {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: unknown;
  readonly status: ToolStatus;
  /** The latest `tool_execution_update.partialResult`: it replaces the one before (bash sends the output so far). */
  readonly partialResult: unknown;
  /** `tool_execution_end.result`, or built from the `toolResult` message (`{content, details}`) after a reload. */
  readonly result: unknown;
  readonly isError: boolean;
  /** pi 1.6: how long the tool ran. */
  readonly durationMs: number | undefined;
  /**
   * When this store first saw the run going (its `tool_execution_start`, or the first record of a run it joined), on
   * the store's clock (`ConversationStore.clock`); undefined for a run known only from a history. Every view of the
   * run measures from it, so two views agree and a view made again does not start over.
   */
  readonly startedAt: number | undefined;
  /** When this store saw the run end (`tool_execution_end`), on the same clock; undefined while it runs. */
  readonly endedAt: number | undefined;
  /** pi 1.6: the call this one is nested in. */
  readonly parentToolCallId: string | undefined;
}

/**
 * The user's own shell command (pi's `bash` command, not the model's bash tool), while it runs. pi 1.6 streams its
 * output (`bash_execution_update {id, delta}`: each delta is appended, unlike a tool's `partialResult`, which
 * replaces); 0.73.1 streams nothing, so there it never shows. Its lasting record is the `bashExecution` message,
 * which has no event: it comes with the `get_messages` the store asks after the answer (the refresh rule).
 */
export interface ShellExecution {
  /** The `bash` command's id, which its updates repeat; undefined when pi sent none. */
  readonly id: string | undefined;
  /** The command line, when this store saw the `bash` command sent (another client's is not known here). */
  readonly command: string | undefined;
  /** Everything printed so far: all of it, where the answer's `output` may be truncated. */
  readonly output: string;
  /**
   * "running" until pi answers the `bash` command; then "done" with the answer's `exitCode` (null: killed by a
   * signal), `cancelled` and `truncated`, until the next history (which holds its `bashExecution` message) arrives.
   * A failed `bash` command (pi answered `success: false`) leaves at once.
   */
  readonly status: "running" | "done";
  readonly exitCode: number | null | undefined;
  readonly cancelled: boolean | undefined;
  readonly truncated: boolean | undefined;
}

export type { RetryWait, RunState, RunStatus } from "../session/run.js";

export interface Queues {
  /** Steering messages waiting (text only, as pi's `queue_update` gives them). */
  readonly steering: readonly string[];
  readonly followUp: readonly string[];
}

/** What pi says about the session (see `PiSession.conversation` for when each part is refreshed). */
export interface SessionInfo {
  readonly model: ModelInfo | undefined;
  /** `get_available_models`; undefined until answered. */
  readonly availableModels: readonly ModelInfo[] | undefined;
  readonly thinkingLevel: ThinkingLevel | undefined;
  /** `get_available_thinking_levels` (pi 1.6); undefined on 0.73.1, which lacks the command. */
  readonly availableThinkingLevels: readonly ThinkingLevel[] | undefined;
  /**
   * The protocol the pi behind this session speaks, learned once per pi process from its answer to
   * `get_available_thinking_levels`: "1.x" (it has the command, and `clear_queue`, and streams deltas), "0.73" (it
   * says "Unknown command"; the store then stops asking), undefined until that answer.
   */
  readonly protocol: "0.73" | "1.x" | undefined;
  readonly sessionId: string | undefined;
  readonly sessionName: string | undefined;
  readonly sessionFile: string | undefined;
  readonly isStreaming: boolean;
  readonly isCompacting: boolean;
  readonly stats: SessionStats | undefined;
}

export interface ConversationSnapshot {
  /** Committed messages and notices, in order. Hidden messages (1.6 `system`, `custom` without `display`) are left out. */
  readonly entries: readonly ConversationEntry[];
  /** The assistant message being streamed, shown after `entries`; undefined between messages. */
  readonly streaming: StreamingMessage | undefined;
  /** Tool runs by `toolCallId`. */
  readonly tools: ReadonlyMap<string, ToolExecution>;
  readonly run: RunState;
  readonly queue: Queues;
  readonly info: SessionInfo;
  /** True once `get_messages` has answered since the last connect or session change. */
  readonly historyLoaded: boolean;
  /**
   * The user's shell command running (pi 1.6), shown after `entries`; undefined when none runs, always on 0.73.1.
   * Dropped across a gap in the connection (its output in the gap is lost) and by a session change.
   */
  readonly shell: ShellExecution | undefined;
}

/** The store API, shaped for React's `useSyncExternalStore(store.subscribe, store.getSnapshot)`. */
export interface ConversationStore {
  getSnapshot(): ConversationSnapshot;
  /** The clock the snapshot's times are on (`ToolExecution.startedAt`, thinking times); real time when absent. */
  readonly clock?: Clock;
  /** `listener` runs once per batch of changes (per animation frame in a browser by default). Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}
