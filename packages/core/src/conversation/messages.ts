/**
 * pi's messages (`AgentMessage` of pi 0.73.1 and 1.6.0: `docs/message-types.md`, pi-ai's `types.d.ts`) as zod/mini
 * schemas. They check a message where it is final (`message_end`, `get_messages`, `agent_end`), never per token.
 * Every object is loose: a field a newer pi adds goes through untouched. A content block of a type this client does
 * not know passes too (`UnknownBlock`), so a newer block type does not make the whole message invalid; the message
 * types name only the known blocks, so that `block.type === "toolCall"` narrows, and a renderer's `default` case
 * is where a newer block lands.
 */
import * as z from "zod/mini";

export const TextContent = z.looseObject({ type: z.literal("text"), text: z.string() });
export type TextContent = z.infer<typeof TextContent>;
export const ImageContent = z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string() });
export type ImageContent = z.infer<typeof ImageContent>;
export const ThinkingContent = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  redacted: z.optional(z.boolean()),
});
export type ThinkingContent = z.infer<typeof ThinkingContent>;
export const ToolCallContent = z.looseObject({
  type: z.literal("toolCall"),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});
export type ToolCallContent = z.infer<typeof ToolCallContent>;

const KNOWN_BLOCKS = new Set(["text", "image", "thinking", "toolCall"]);
/** A block of a type this client does not know (a newer pi's). */
export const UnknownBlock = z
  .looseObject({ type: z.string() })
  .check(z.refine((block) => !KNOWN_BLOCKS.has(block.type), "a known block type with the wrong fields"));
export type UnknownBlock = z.infer<typeof UnknownBlock>;

const UserBlock = z.union([TextContent, ImageContent, UnknownBlock]);
const AssistantBlock = z.union([TextContent, ThinkingContent, ToolCallContent, UnknownBlock]);
/** The blocks an assistant message's type names (an unknown one passes at run time: see the top of this file). */
export type AssistantBlock = TextContent | ThinkingContent | ToolCallContent;
/** The blocks a user, tool-result, custom or system message's type names. */
export type UserBlock = TextContent | ImageContent;

/** Fields a newer pi adds are kept, untyped. */
interface Loose {
  readonly [key: string]: unknown;
}

const num = z.number();
export const Usage = z.looseObject({
  input: num,
  output: num,
  cacheRead: num,
  cacheWrite: num,
  totalTokens: z.optional(num),
  cost: z.optional(z.looseObject({ input: num, output: num, cacheRead: num, cacheWrite: num, total: num })),
});
export type Usage = z.infer<typeof Usage>;

const timestamp = z.optional(z.number());

export const UserMessage = z.looseObject({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(UserBlock)]),
  timestamp,
});
export interface UserMessage extends Loose {
  role: "user";
  content: string | UserBlock[];
  timestamp?: number;
}

export const AssistantMessage = z.looseObject({
  role: z.literal("assistant"),
  content: z.array(AssistantBlock),
  provider: z.optional(z.string()),
  model: z.optional(z.string()),
  usage: z.optional(Usage),
  /** "stop" "length" "toolUse" "error" "aborted"; 1.6 also "pending" (streaming) and "deferred". */
  stopReason: z.optional(z.string()),
  errorMessage: z.optional(z.string()),
  timestamp,
});
export interface AssistantMessage extends Loose {
  role: "assistant";
  content: AssistantBlock[];
  provider?: string;
  model?: string;
  usage?: Usage;
  stopReason?: string;
  errorMessage?: string;
  timestamp?: number;
}

export const ToolResultMessage = z.looseObject({
  role: z.literal("toolResult"),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.array(UserBlock),
  details: z.optional(z.unknown()),
  isError: z.boolean(),
  timestamp,
});
export interface ToolResultMessage extends Loose {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: UserBlock[];
  details?: unknown;
  isError: boolean;
  timestamp?: number;
}

export const BashExecutionMessage = z.looseObject({
  role: z.literal("bashExecution"),
  command: z.string(),
  output: z.string(),
  exitCode: z.optional(z.nullable(z.number())),
  cancelled: z.boolean(),
  truncated: z.boolean(),
  fullOutputPath: z.optional(z.nullable(z.string())),
  excludeFromContext: z.optional(z.boolean()),
  timestamp,
});
export type BashExecutionMessage = z.infer<typeof BashExecutionMessage>;

export const CustomMessage = z.looseObject({
  role: z.literal("custom"),
  customType: z.string(),
  content: z.union([z.string(), z.array(UserBlock)]),
  display: z.boolean(),
  details: z.optional(z.unknown()),
  timestamp,
});
export interface CustomMessage extends Loose {
  role: "custom";
  customType: string;
  content: string | UserBlock[];
  display: boolean;
  details?: unknown;
  timestamp?: number;
}

export const CompactionSummaryMessage = z.looseObject({
  role: z.literal("compactionSummary"),
  summary: z.string(),
  tokensBefore: z.optional(z.number()),
  timestamp,
});
export type CompactionSummaryMessage = z.infer<typeof CompactionSummaryMessage>;

export const BranchSummaryMessage = z.looseObject({
  role: z.literal("branchSummary"),
  summary: z.string(),
  fromId: z.optional(z.nullable(z.string())),
  timestamp,
});
export type BranchSummaryMessage = z.infer<typeof BranchSummaryMessage>;

/** pi 1.6: the system prompt and tools. Never shown. */
export const SystemMessage = z.looseObject({
  role: z.literal("system"),
  content: z.union([z.string(), z.array(UserBlock)]),
  timestamp,
});
export interface SystemMessage extends Loose {
  role: "system";
  content: string | UserBlock[];
  timestamp?: number;
}

/** The roles this client knows, each with its schema. */
export const MESSAGE_SCHEMAS = {
  user: UserMessage,
  assistant: AssistantMessage,
  toolResult: ToolResultMessage,
  bashExecution: BashExecutionMessage,
  custom: CustomMessage,
  compactionSummary: CompactionSummaryMessage,
  branchSummary: BranchSummaryMessage,
  system: SystemMessage,
} as const;

export type KnownRole = keyof typeof MESSAGE_SCHEMAS;
export type KnownMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | CompactionSummaryMessage
  | BranchSummaryMessage
  | SystemMessage;

/** A message of a role this client does not know (a newer pi's, an extension's), kept as it came. */
export interface UnknownMessage {
  readonly role: string;
  readonly [key: string]: unknown;
}

export type CheckedMessage =
  | { readonly ok: true; readonly message: KnownMessage; readonly known: true }
  | { readonly ok: true; readonly message: UnknownMessage; readonly known: false }
  | { readonly ok: false; readonly problem: string };

/**
 * Checks one final message: a known role against its schema, an unknown role only for being an object with a
 * string `role` (it is kept as it came). The value is not copied: the checked message is pi's object.
 */
export function checkMessage(value: unknown): CheckedMessage {
  if (typeof value !== "object" || value === null || typeof (value as { role?: unknown }).role !== "string") {
    return { ok: false, problem: "not a message: expected an object with a string `role`" };
  }
  const role = (value as { role: string }).role;
  const schema = Object.hasOwn(MESSAGE_SCHEMAS, role) ? MESSAGE_SCHEMAS[role as KnownRole] : undefined;
  if (!schema) return { ok: true, message: value as UnknownMessage, known: false };
  const checked = schema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue?.path.length ? `${issue.path.map(String).join(".")}: ` : "";
    return { ok: false, problem: `invalid ${role} message: ${where}${issue?.message ?? "invalid"}` };
  }
  // zod returns a copy of a loose object; the store keeps pi's own object so nothing is copied twice.
  return { ok: true, message: value as KnownMessage, known: true };
}

/** Whether a message is shown: a 1.6 `system` message never is, a `custom` one only with `display: true`. */
export function isShown(message: { role: string; display?: unknown }): boolean {
  if (message.role === "system") return false;
  if (message.role === "custom") return message.display === true;
  return true;
}
