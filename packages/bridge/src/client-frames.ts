/**
 * What a client may send, and the close code for anything else. A frame is one JSON record, or several
 * LF-terminated records (JSONL). A frame is all-or-nothing: one bad record and nothing from that frame reaches
 * the agent, and the client is disconnected.
 */
import { AnyCommand, BridgeRestart, ExtensionUiResponse } from "@pi-elements/core";
import { DEFAULT_MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.js";

/** WebSocket close codes the bridge uses (RFC 6455 §7.4.1). */
export const CloseCode = {
  /** The bridge is shutting down. */
  goingAway: 1001,
  /** A binary frame: the protocol is text only. */
  unsupportedData: 1003,
  /** A record that is not JSON, or not valid UTF-8. */
  invalidPayload: 1007,
  /** JSON that is not a message a client may send. */
  policyViolation: 1008,
  /** A frame over the size limit (sent by `ws` itself). */
  messageTooBig: 1009,
  /** The client reads too slowly: too much output waits for it. It can reconnect and gets the state replayed. */
  tryAgainLater: 1013,
} as const;

export type ClientMessage =
  /**
   * A pi command, any well-formed one: a string `type` that is not one of the non-command types, an optional string
   * `id`, any other JSON fields, forwarded whole (a newer pi's commands and fields work through an older bridge).
   * `command` and `id` are its type and id.
   */
  | { kind: "command"; record: string; command: string; id: string | undefined }
  | { kind: "answer"; response: ExtensionUiResponse }
  | { kind: "restart" };

export type FrameResult = { ok: true; messages: ClientMessage[] } | { ok: false; code: number; reason: string };

/**
 * Parses one text frame. `reason` is short: a WebSocket close reason is at most 123 bytes. A record nested deeper
 * than `maxDepth` is refused before it is parsed (see `nestsDeeperThan`).
 */
export function parseClientFrame(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): FrameResult {
  const messages: ClientMessage[] = [];
  if (nestsDeeperThan(text, maxDepth)) {
    return { ok: false, code: CloseCode.policyViolation, reason: `JSON nested deeper than ${maxDepth} levels` };
  }
  for (const rawLine of text.split("\n")) {
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, code: CloseCode.invalidPayload, reason: "not JSON" };
    }
    const message = classify(value);
    if (typeof message === "string") return { ok: false, code: CloseCode.policyViolation, reason: message };
    messages.push(message);
  }
  if (messages.length === 0) return { ok: false, code: CloseCode.policyViolation, reason: "empty frame" };
  return { ok: true, messages };
}

const ANSWER_FIELDS = ["value", "confirmed", "cancelled"] as const;
/** What a client may not send as a command: pi's own messages (the bridge's are refused by their prefix). */
const NOT_COMMANDS = new Set(["response", "extension_ui_request"]);

/** A message, or the reason it is refused. */
function classify(value: unknown): ClientMessage | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") return "no type";
  if (type === "extension_ui_response") {
    // The schema would keep one of several answer fields; an answer that gives more than one is refused instead.
    const given = ANSWER_FIELDS.filter((field) => field in value).length;
    if (given !== 1) return "an answer has exactly one of value, confirmed, cancelled";
    const parsed = ExtensionUiResponse.safeParse(value);
    return parsed.success ? { kind: "answer", response: parsed.data } : "invalid extension_ui_response";
  }
  if (type === "pi-elements/restart") {
    return BridgeRestart.safeParse(value).success ? { kind: "restart" } : "invalid pi-elements/restart";
  }
  if (NOT_COMMANDS.has(type) || type.startsWith("pi-elements/")) return "type not allowed";
  const parsed = AnyCommand.safeParse(value);
  if (!parsed.success) return "a command's id must be a string";
  return { kind: "command", record: JSON.stringify(value), command: type, id: parsed.data.id };
}
