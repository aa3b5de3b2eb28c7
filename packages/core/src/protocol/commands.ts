/**
 * Commands the client sends to pi and the data each successful response carries: every command of pi 0.73.1 and of
 * 1.6.0 (`clear_queue`, `get_available_thinking_levels`, `get_entries`, `get_tree`, bash's `excludeFromContext`,
 * thinking level "max"). Schemas validate what a caller builds before it goes on the wire (fields they do not name
 * go through untouched); the `CommandResults` map types the promise that `PiSession.send` returns. A command this
 * list does not know is still sent as long as it is a well-formed command object (`AnyCommand`), so a newer pi's
 * commands work before they are typed here. Deep agent-side shapes (models, messages, stats) are typed loosely: the
 * client passes them through rather than interpreting them.
 */
import * as z from "zod/mini";

const ImageContent = z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string() });
const images = z.optional(z.array(ImageContent));
const QueueMode = z.enum(["all", "one-at-a-time"]);
export const ThinkingLevel = z.enum(["off", "minimal", "low", "medium", "high", "xhigh", "max"]);

/**
 * A known command: the fields it names are checked. A field it does not name is not refused, and the session sends
 * the caller's object as it is, so a newer pi's field still reaches pi.
 */
const cmd = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) =>
  z.object({ id: z.optional(z.string()), type: z.literal(type), ...shape });

/** Any command object: a string `type`, an optional string `id`, whatever else it carries. */
export const AnyCommand = z.looseObject({ type: z.string(), id: z.optional(z.string()) });
export type AnyCommand = z.infer<typeof AnyCommand>;

export const RpcCommand = z.discriminatedUnion("type", [
  cmd("prompt", {
    message: z.string(),
    images,
    streamingBehavior: z.optional(z.enum(["steer", "followUp"])),
  }),
  cmd("steer", { message: z.string(), images }),
  cmd("follow_up", { message: z.string(), images }),
  cmd("abort", {}),
  cmd("clear_queue", {}),
  cmd("new_session", { parentSession: z.optional(z.string()) }),
  cmd("get_state", {}),
  cmd("set_model", { provider: z.string(), modelId: z.string() }),
  cmd("cycle_model", {}),
  cmd("get_available_models", {}),
  cmd("set_thinking_level", { level: ThinkingLevel }),
  cmd("cycle_thinking_level", {}),
  cmd("get_available_thinking_levels", {}),
  cmd("set_steering_mode", { mode: QueueMode }),
  cmd("set_follow_up_mode", { mode: QueueMode }),
  cmd("compact", { customInstructions: z.optional(z.string()) }),
  cmd("set_auto_compaction", { enabled: z.boolean() }),
  cmd("set_auto_retry", { enabled: z.boolean() }),
  cmd("abort_retry", {}),
  cmd("bash", { command: z.string(), excludeFromContext: z.optional(z.boolean()) }),
  cmd("abort_bash", {}),
  cmd("get_session_stats", {}),
  cmd("export_html", { outputPath: z.optional(z.string()) }),
  cmd("switch_session", { sessionPath: z.string() }),
  cmd("fork", { entryId: z.string() }),
  cmd("clone", {}),
  cmd("get_fork_messages", {}),
  cmd("get_entries", { since: z.optional(z.string()) }),
  cmd("get_tree", {}),
  cmd("get_last_assistant_text", {}),
  cmd("set_session_name", { name: z.string() }),
  cmd("get_messages", {}),
  cmd("get_commands", {}),
]);
export type RpcCommand = z.infer<typeof RpcCommand>;
/** The command types the schemas above know, read from their `type` literals. */
export const COMMAND_TYPES: ReadonlySet<string> = new Set(
  RpcCommand.def.options.flatMap((option) => option.def.shape.type.def.values),
);
export type CommandType = RpcCommand["type"];
/** The fields of a command other than `type` and `id`. */
export type CommandParams<T extends CommandType> = Omit<Extract<RpcCommand, { type: T }>, "type" | "id">;

export type ThinkingLevel = z.infer<typeof ThinkingLevel>;
/** A model as pi describes it; only the fields a UI shows are named. */
export interface ModelInfo {
  provider: string;
  id: string;
  name?: string;
  [key: string]: unknown;
}
export interface SessionState {
  model?: ModelInfo;
  thinkingLevel: ThinkingLevel;
  isStreaming: boolean;
  isCompacting: boolean;
  steeringMode: "all" | "one-at-a-time";
  followUpMode: "all" | "one-at-a-time";
  sessionFile?: string;
  sessionId: string;
  sessionName?: string;
  autoCompactionEnabled: boolean;
  messageCount: number;
  pendingMessageCount: number;
}
/** `get_session_stats`, typed. */
export interface SessionStats {
  readonly sessionId?: string;
  readonly sessionFile?: string;
  readonly userMessages?: number;
  readonly assistantMessages?: number;
  readonly toolCalls?: number;
  readonly toolResults?: number;
  readonly totalMessages?: number;
  readonly tokens: {
    readonly input: number;
    readonly output: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
    readonly total: number;
  };
  readonly cost: number;
  /** Absent without a model; `tokens` and `percent` are null right after a compaction. */
  readonly contextUsage?: {
    readonly tokens: number | null;
    readonly contextWindow: number;
    readonly percent: number | null;
  };
}

export interface SlashCommand {
  name: string;
  description?: string;
  source: "extension" | "prompt" | "skill";
  sourceInfo?: unknown;
}

/** What `data` a successful response to each command carries (`undefined` where pi sends none). */
/** pi 1.x says what became of a message: a run `started`, it was `queued`, or it was `handled` (no run). */
export type MessageDisposition = "started" | "queued" | "handled";

export interface CommandResults {
  /** pi 0.73 sends no data; 1.x sends the disposition. */
  prompt: { disposition: MessageDisposition } | undefined;
  steer: { disposition: MessageDisposition } | undefined;
  follow_up: { disposition: MessageDisposition } | undefined;
  abort: undefined;
  clear_queue: { steering: string[]; followUp: string[] };
  new_session: { cancelled: boolean };
  get_state: SessionState;
  set_model: ModelInfo;
  cycle_model: { model: ModelInfo; thinkingLevel: ThinkingLevel; isScoped: boolean } | null;
  get_available_models: { models: ModelInfo[] };
  set_thinking_level: undefined;
  cycle_thinking_level: { level: ThinkingLevel } | null;
  get_available_thinking_levels: { levels: ThinkingLevel[] };
  set_steering_mode: undefined;
  set_follow_up_mode: undefined;
  compact: Record<string, unknown>;
  set_auto_compaction: undefined;
  set_auto_retry: undefined;
  abort_retry: undefined;
  bash: { output: string; exitCode?: number; cancelled?: boolean; truncated?: boolean; [key: string]: unknown };
  abort_bash: undefined;
  get_session_stats: SessionStats;
  export_html: { path: string };
  switch_session: { cancelled: boolean };
  fork: { text: string; cancelled: boolean };
  clone: { cancelled: boolean };
  get_fork_messages: { messages: Array<{ entryId: string; text: string }> };
  get_entries: { entries: unknown[]; leafId: string | null };
  get_tree: { tree: unknown[]; leafId: string | null };
  get_last_assistant_text: { text: string | null };
  set_session_name: undefined;
  get_messages: { messages: unknown[] };
  get_commands: { commands: SlashCommand[] };
}
