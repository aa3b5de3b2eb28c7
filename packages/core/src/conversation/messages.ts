/**
 * pi's messages (`AgentMessage` of pi 0.73.1 and 1.6.0: `docs/message-types.md`, pi-ai's `types.d.ts`) as zod/mini
 * schemas. They check a message where it is final (`message_end`, `get_messages`, `agent_end`), never per token.
 * Every object is loose: a field a newer pi adds goes through untouched. A content block of a type this client does
 * not know passes too (`UnknownBlock`), so a newer block type does not make the whole message invalid; the message
 * types name only the known blocks, so that `block.type === "toolCall"` narrows, and a renderer's `default` case
 * is where a newer block lands.
 */
import * as z from "zod/mini";

/**
 * The schemas, defined once and built twice: with `z.looseObject` for the exports (a caller that parses with them gets
 * every field back), and with `z.object` for `checkMessage`. Both accept exactly the same values (an extra field is
 * allowed by either); `checkMessage` reads only whether the value passed and keeps pi's own object, so the copy that
 * a loose object's parse makes of every field it does not name (a 1.6 assistant message's `durationMs`, `usage.cost`,
 * a `system` message's tools) is work for nothing on every final message.
 */
function defineSchemas(object: typeof z.looseObject) {
  const TextContent = object({ type: z.literal("text"), text: z.string() });
  const ImageContent = object({ type: z.literal("image"), data: z.string(), mimeType: z.string() });
  const ThinkingContent = object({
    type: z.literal("thinking"),
    thinking: z.string(),
    redacted: z.optional(z.boolean()),
  });
  const ToolCallContent = object({
    type: z.literal("toolCall"),
    id: z.string(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
  });
  /** A block of a type this client does not know (a newer pi's). */
  const UnknownBlock = object({ type: z.string() }).check(
    z.refine((block) => !KNOWN_BLOCKS.has(block.type), "a known block type with the wrong fields"),
  );
  // A known block is checked against its own type's schema only (picked by `type`), not tried against each in turn.
  const UserBlock = z.union([z.discriminatedUnion("type", [TextContent, ImageContent]), UnknownBlock]);
  const AssistantBlock = z.union([
    z.discriminatedUnion("type", [TextContent, ThinkingContent, ToolCallContent]),
    UnknownBlock,
  ]);

  const num = z.number();
  const Usage = object({
    input: num,
    output: num,
    cacheRead: num,
    cacheWrite: num,
    totalTokens: z.optional(num),
    cost: z.optional(object({ input: num, output: num, cacheRead: num, cacheWrite: num, total: num })),
  });

  const timestamp = z.optional(z.number());
  const UserMessage = object({
    role: z.literal("user"),
    content: z.union([z.string(), z.array(UserBlock)]),
    timestamp,
  });
  const AssistantMessage = object({
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
  const ToolResultMessage = object({
    role: z.literal("toolResult"),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.array(UserBlock),
    details: z.optional(z.unknown()),
    isError: z.boolean(),
    timestamp,
  });
  const BashExecutionMessage = object({
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
  const CustomMessage = object({
    role: z.literal("custom"),
    customType: z.string(),
    content: z.union([z.string(), z.array(UserBlock)]),
    display: z.boolean(),
    details: z.optional(z.unknown()),
    timestamp,
  });
  const CompactionSummaryMessage = object({
    role: z.literal("compactionSummary"),
    summary: z.string(),
    tokensBefore: z.optional(z.number()),
    timestamp,
  });
  const BranchSummaryMessage = object({
    role: z.literal("branchSummary"),
    summary: z.string(),
    fromId: z.optional(z.nullable(z.string())),
    timestamp,
  });
  /** pi 1.6: the system prompt and tools. Never shown. */
  const SystemMessage = object({
    role: z.literal("system"),
    content: z.union([z.string(), z.array(UserBlock)]),
    timestamp,
  });
  return {
    TextContent,
    ImageContent,
    ThinkingContent,
    ToolCallContent,
    UnknownBlock,
    Usage,
    UserMessage,
    AssistantMessage,
    ToolResultMessage,
    BashExecutionMessage,
    CustomMessage,
    CompactionSummaryMessage,
    BranchSummaryMessage,
    SystemMessage,
    /** The roles this client knows, each with its schema. */
    MESSAGE_SCHEMAS: {
      user: UserMessage,
      assistant: AssistantMessage,
      toolResult: ToolResultMessage,
      bashExecution: BashExecutionMessage,
      custom: CustomMessage,
      compactionSummary: CompactionSummaryMessage,
      branchSummary: BranchSummaryMessage,
      system: SystemMessage,
    },
  };
}

const KNOWN_BLOCKS = new Set(["text", "image", "thinking", "toolCall"]);

export const {
  TextContent,
  ImageContent,
  ThinkingContent,
  ToolCallContent,
  UnknownBlock,
  Usage,
  UserMessage,
  AssistantMessage,
  ToolResultMessage,
  BashExecutionMessage,
  CustomMessage,
  CompactionSummaryMessage,
  BranchSummaryMessage,
  SystemMessage,
  MESSAGE_SCHEMAS,
} = defineSchemas(z.looseObject);
/**
 * `checkMessage`'s schemas: the same, with `z.object` (typed as the loose ones: only `safeParse(...).success` and
 * its issues are read, never its data).
 */
const CHECKS = defineSchemas(z.object as unknown as typeof z.looseObject).MESSAGE_SCHEMAS;

export type TextContent = z.infer<typeof TextContent>;
export type ImageContent = z.infer<typeof ImageContent>;
export type ThinkingContent = z.infer<typeof ThinkingContent>;
export type ToolCallContent = z.infer<typeof ToolCallContent>;
export type UnknownBlock = z.infer<typeof UnknownBlock>;
/** The blocks an assistant message's type names (an unknown one passes at run time: see the top of this file). */
export type AssistantBlock = TextContent | ThinkingContent | ToolCallContent;
/** The blocks a user, tool-result, custom or system message's type names. */
export type UserBlock = TextContent | ImageContent;
export type Usage = z.infer<typeof Usage>;
export type BashExecutionMessage = z.infer<typeof BashExecutionMessage>;
export type CompactionSummaryMessage = z.infer<typeof CompactionSummaryMessage>;
export type BranchSummaryMessage = z.infer<typeof BranchSummaryMessage>;

/** Fields a newer pi adds are kept, untyped. */
interface Loose {
  readonly [key: string]: unknown;
}

export interface UserMessage extends Loose {
  role: "user";
  content: string | UserBlock[];
  timestamp?: number;
}
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
export interface ToolResultMessage extends Loose {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: UserBlock[];
  details?: unknown;
  isError: boolean;
  timestamp?: number;
}
export interface CustomMessage extends Loose {
  role: "custom";
  customType: string;
  content: string | UserBlock[];
  display: boolean;
  details?: unknown;
  timestamp?: number;
}
/** pi 1.6: the system prompt and tools. Never shown. */
export interface SystemMessage extends Loose {
  role: "system";
  content: string | UserBlock[];
  timestamp?: number;
}

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
  const schema = Object.hasOwn(CHECKS, role) ? CHECKS[role as KnownRole] : undefined;
  if (!schema) return { ok: true, message: value as UnknownMessage, known: false };
  const checked = schema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue?.path.length ? `${issue.path.map(String).join(".")}: ` : "";
    return { ok: false, problem: `invalid ${role} message: ${where}${issue?.message ?? "invalid"}` };
  }
  // The checked value is pi's own object (CHECKS' data, a copy of the named fields only, is not used).
  return { ok: true, message: value as KnownMessage, known: true };
}

/** Whether a message is shown: a 1.6 `system` message never is, a `custom` one only with `display: true`. */
export function isShown(message: { role: string; display?: unknown }): boolean {
  if (message.role === "system") return false;
  if (message.role === "custom") return message.display === true;
  return true;
}
