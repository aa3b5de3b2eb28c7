/**
 * Commands the client sends to pi (`RpcCommand` of pi 0.73.1) and the data each successful response carries.
 * Schemas validate what a caller builds before it goes on the wire; the `CommandResults` map types the promise
 * that `PiSession.send` returns. Deep agent-side shapes (models, messages, stats) are typed loosely: the client
 * passes them through rather than interpreting them.
 */
import * as z from "zod/mini";

const ImageContent = z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string() });
const images = z.optional(z.array(ImageContent));
const QueueMode = z.enum(["all", "one-at-a-time"]);
export const ThinkingLevel = z.enum(["off", "minimal", "low", "medium", "high", "xhigh"]);

const cmd = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) =>
  z.object({ id: z.optional(z.string()), type: z.literal(type), ...shape });

export const RpcCommand = z.discriminatedUnion("type", [
  cmd("prompt", {
    message: z.string(),
    images,
    streamingBehavior: z.optional(z.enum(["steer", "followUp"])),
  }),
  cmd("steer", { message: z.string(), images }),
  cmd("follow_up", { message: z.string(), images }),
  cmd("abort", {}),
  cmd("new_session", { parentSession: z.optional(z.string()) }),
  cmd("get_state", {}),
  cmd("set_model", { provider: z.string(), modelId: z.string() }),
  cmd("cycle_model", {}),
  cmd("get_available_models", {}),
  cmd("set_thinking_level", { level: ThinkingLevel }),
  cmd("cycle_thinking_level", {}),
  cmd("set_steering_mode", { mode: QueueMode }),
  cmd("set_follow_up_mode", { mode: QueueMode }),
  cmd("compact", { customInstructions: z.optional(z.string()) }),
  cmd("set_auto_compaction", { enabled: z.boolean() }),
  cmd("set_auto_retry", { enabled: z.boolean() }),
  cmd("abort_retry", {}),
  cmd("bash", { command: z.string() }),
  cmd("abort_bash", {}),
  cmd("get_session_stats", {}),
  cmd("export_html", { outputPath: z.optional(z.string()) }),
  cmd("switch_session", { sessionPath: z.string() }),
  cmd("fork", { entryId: z.string() }),
  cmd("clone", {}),
  cmd("get_fork_messages", {}),
  cmd("get_last_assistant_text", {}),
  cmd("set_session_name", { name: z.string() }),
  cmd("get_messages", {}),
  cmd("get_commands", {}),
]);
export type RpcCommand = z.infer<typeof RpcCommand>;
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
export interface SlashCommand {
  name: string;
  description?: string;
  source: "extension" | "prompt" | "skill";
  sourceInfo?: unknown;
}

/** What `data` a successful response to each command carries (`undefined` where pi sends none). */
export interface CommandResults {
  prompt: undefined;
  steer: undefined;
  follow_up: undefined;
  abort: undefined;
  new_session: { cancelled: boolean };
  get_state: SessionState;
  set_model: ModelInfo;
  cycle_model: { model: ModelInfo; thinkingLevel: ThinkingLevel; isScoped: boolean } | null;
  get_available_models: { models: ModelInfo[] };
  set_thinking_level: undefined;
  cycle_thinking_level: { level: ThinkingLevel } | null;
  set_steering_mode: undefined;
  set_follow_up_mode: undefined;
  compact: Record<string, unknown>;
  set_auto_compaction: undefined;
  set_auto_retry: undefined;
  abort_retry: undefined;
  bash: { output: string; exitCode?: number; cancelled?: boolean; truncated?: boolean; [key: string]: unknown };
  abort_bash: undefined;
  get_session_stats: Record<string, unknown>;
  export_html: { path: string };
  switch_session: { cancelled: boolean };
  fork: { text: string; cancelled: boolean };
  clone: { cancelled: boolean };
  get_fork_messages: { messages: Array<{ entryId: string; text: string }> };
  get_last_assistant_text: { text: string | null };
  set_session_name: undefined;
  get_messages: { messages: unknown[] };
  get_commands: { commands: SlashCommand[] };
}
