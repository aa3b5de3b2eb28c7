/**
 * Hand-made event streams in both of pi's wire forms, after the examples in pi's docs/rpc.md (0.73.1) and
 * docs/json.md (1.6.0): one final assistant message becomes message_start, its content-block updates and
 * message_end. 0.73.1 puts the whole partial message (with a parse of the tool arguments so far) on every
 * update, twice; 1.6.0 sends only the delta, `toolcall_start` with `id` and `toolName`, and the cumulative usage.
 */
import { parseArguments } from "../src/conversation/streaming.js";

export type WireVersion = "0.73.1" | "1.6.0";
export const VERSIONS: readonly WireVersion[] = ["0.73.1", "1.6.0"];

type Block =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

export interface FinalAssistant {
  role: "assistant";
  content: Block[];
  provider: string;
  model: string;
  usage: Record<string, unknown>;
  stopReason: string;
  timestamp: number;
  [key: string]: unknown;
}

export const usage = (output: number) => ({
  input: 10,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 10 + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

export function assistant(content: Block[], fields: Partial<FinalAssistant> = {}): FinalAssistant {
  return {
    role: "assistant",
    content,
    api: "openai-completions",
    provider: "scripted",
    model: "scripted-model",
    usage: usage(5),
    stopReason: content.some((block) => block.type === "toolCall") ? "toolUse" : "stop",
    timestamp: 1_700_000_000_000,
    ...fields,
  };
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** message_start, the updates and message_end of `final` in `version`'s wire form, `size` characters per delta. */
export function streamAssistant(version: WireVersion, final: FinalAssistant, size = 4): object[] {
  const partial: { content: Record<string, unknown>[]; [key: string]: unknown } = {
    ...structuredClone(final),
    content: [],
    usage: usage(0),
    stopReason: version === "1.6.0" ? "pending" : "stop",
  };
  const events: object[] = [{ type: "message_start", message: structuredClone(partial) }];
  let output = 0;
  const update = (event: Record<string, unknown>) => {
    output += 1;
    partial.usage = usage(output);
    if (version === "1.6.0") {
      events.push({ type: "message_update", usage: usage(output), assistantMessageEvent: event });
    } else {
      const snapshot = structuredClone(partial);
      events.push({
        type: "message_update",
        message: snapshot,
        assistantMessageEvent: { ...event, partial: snapshot },
      });
    }
  };
  final.content.forEach((block, contentIndex) => {
    if (block.type === "text" || block.type === "thinking") {
      const field = block.type === "text" ? "text" : "thinking";
      const whole = block.type === "text" ? block.text : block.thinking;
      const current: Record<string, unknown> = { type: block.type, [field]: "" };
      partial.content[contentIndex] = current;
      update({ type: `${block.type}_start`, contentIndex });
      for (const delta of chunks(whole, size)) {
        current[field] = (current[field] as string) + delta;
        update({ type: `${block.type}_delta`, contentIndex, delta });
      }
      update({ type: `${block.type}_end`, contentIndex, content: whole });
    } else {
      const current: Record<string, unknown> = { type: "toolCall", id: block.id, name: block.name, arguments: {} };
      partial.content[contentIndex] = current;
      update(
        version === "1.6.0"
          ? { type: "toolcall_start", contentIndex, id: block.id, toolName: block.name }
          : { type: "toolcall_start", contentIndex },
      );
      let json = "";
      for (const delta of chunks(JSON.stringify(block.arguments), size)) {
        json += delta;
        current.arguments = parseArguments(json);
        update({ type: "toolcall_delta", contentIndex, delta });
      }
      current.arguments = block.arguments;
      update({ type: "toolcall_end", contentIndex, toolCall: structuredClone(block) });
    }
  });
  events.push({ type: "message_end", message: structuredClone(final) });
  return events;
}

export const user = (text: string, timestamp = 1_700_000_000_000) => ({
  role: "user",
  content: [{ type: "text", text }],
  timestamp,
});

export const userTurn = (text: string, timestamp?: number) => [
  { type: "message_start", message: user(text, timestamp) },
  { type: "message_end", message: user(text, timestamp) },
];
