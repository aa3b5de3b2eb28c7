/**
 * The assistant message being streamed, as working state that grows in place, from either wire form:
 * - pi 1.6.0 sends deltas (`text_delta`, `thinking_delta`, `toolcall_delta` with `contentIndex`; `toolcall_start`
 *   with `id` and `toolName`) and the cumulative `usage`;
 * - pi 0.73.1 sends the same deltas plus the whole partial message (twice). Only the one block the delta names is
 *   read from the partial (`partial.content[contentIndex]`, for a tool call's id and name), and its `usage` by
 *   reference: the partial is never walked. Its tool arguments are not taken from it: 0.73.1 serializes a partial
 *   that pi-ai has already moved on (the arguments run a delta or two ahead of the delta sent with them), so both
 *   versions parse the deltas alike and pass through the same states. Only a block adopted from a partial (this
 *   client joined mid-message, and has no raw text before that) keeps taking pi's arguments by reference.
 * So one update costs the same however long the message already is: a string append and a few field writes. The
 * immutable view a snapshot shows is made when the snapshot is read (once per batch): only the blocks that changed
 * get a new object, and a 1.6 tool call's raw argument text is parsed (partially) there, not per token.
 *
 * Two ways to begin mid-message:
 * - from a `message_start` whose message already has content (the bridge's replay to a client that connects while a
 *   message streams, `toMessage()` below): that content is what the deltas so far add up to, so the next deltas
 *   append to it; an unfinished tool call carries its raw argument text as `partialArgs` (pi-ai's own name for it);
 * - from a 0.73.1 partial (`joined`: a client that connected mid-message with no replay): the partial runs a delta or
 *   two ahead of the deltas sent with it, so the blocks it had keep following the partials instead of appending.
 */
import { jsonrepair } from "jsonrepair";
import type { AssistantMessageEvent } from "../protocol/events.js";
import { isObject, str } from "../values.js";
import type { Usage } from "./messages.js";
import type { StreamingBlock, StreamingMessage } from "./snapshot.js";

interface WorkBlock {
  type: StreamingBlock["type"];
  /** Text or thinking so far; for a tool call, its raw argument JSON so far (1.6). */
  text: string;
  id: string;
  name: string;
  /** A tool call's arguments when pi gave them whole (`toolcall_end`, an adopted block); else parsed from `text`. */
  args: Record<string, unknown> | undefined;
  /**
   * Adopted from a 0.73.1 partial when joining mid-message: it follows the partials (its text before the join is
   * pi's, ahead of the deltas), and its raw argument text is unknown.
   */
  adopted: boolean;
  complete: boolean;
  view: StreamingBlock | undefined;
}

const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({});

export class StreamingAssistant {
  readonly key: string;
  readonly #blocks: WorkBlock[] = [];
  #usage: Usage | undefined;
  #provider: string | undefined;
  #model: string | undefined;
  #view: StreamingMessage | undefined;

  /**
   * `start` is the message of `message_start`, or 0.73.1's partial when this client `joined` mid-message (see the
   * module's comment).
   */
  constructor(key: string, start: unknown, joined = false) {
    this.key = key;
    if (isObject(start)) {
      this.#provider = typeof start.provider === "string" ? start.provider : undefined;
      this.#model = typeof start.model === "string" ? start.model : undefined;
      this.#usage = isObject(start.usage) ? (start.usage as Usage) : undefined;
      // Only when beginning mid-message (or a provider that starts with content): a walk once, not per token.
      if (Array.isArray(start.content)) {
        for (const [index, block] of start.content.entries()) this.#adopt(index, block, joined);
      }
    }
  }

  /** Applies one `message_update`. Returns false when the update is not one this store understands. */
  update(event: AssistantMessageEvent, partial: unknown, usage: unknown): boolean {
    if (isObject(usage)) this.#usage = usage as Usage;
    else if (isObject(partial) && isObject(partial.usage)) this.#usage = partial.usage as Usage;
    this.#view = undefined;
    const index = event.contentIndex;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0) return event.type === "start";
    const fromPartial = isObject(partial) && Array.isArray(partial.content) ? partial.content[index] : undefined;
    switch (event.type) {
      case "text_start":
        this.#set(index, "text");
        return true;
      case "thinking_start":
        this.#set(index, "thinking");
        return true;
      case "text_delta":
      case "thinking_delta": {
        if (typeof event.delta !== "string") return false;
        const block = this.#block(index, event.type === "text_delta" ? "text" : "thinking");
        const followed = block.adopted && isObject(fromPartial) ? fromPartial[block.type] : undefined;
        if (typeof followed === "string") block.text = followed;
        else block.text += event.delta;
        block.view = undefined;
        return true;
      }
      case "text_end":
      case "thinking_end": {
        const block = this.#block(index, event.type === "text_end" ? "text" : "thinking");
        if (typeof event.content === "string") block.text = event.content;
        block.view = undefined;
        return true;
      }
      case "toolcall_start": {
        const block = this.#set(index, "toolCall");
        const given = isObject(fromPartial) ? fromPartial : {};
        block.id = str(event.id) ?? str(given.id) ?? "";
        block.name = str(event.toolName) ?? str(given.name) ?? "";
        return true;
      }
      case "toolcall_delta": {
        if (typeof event.delta !== "string") return false;
        const block = this.#block(index, "toolCall");
        block.text += event.delta;
        if (block.adopted) {
          if (isObject(fromPartial) && isObject(fromPartial.arguments)) block.args = fromPartial.arguments;
        } else block.args = undefined;
        block.view = undefined;
        return true;
      }
      case "toolcall_end": {
        const block = this.#block(index, "toolCall");
        const call = event.toolCall;
        if (isObject(call)) {
          block.id = str(call.id) ?? block.id;
          block.name = str(call.name) ?? block.name;
          if (isObject(call.arguments)) block.args = call.arguments;
        }
        block.complete = true;
        block.view = undefined;
        return true;
      }
      default:
        // start, done, error, and a newer pi's kinds: message_end brings the final message.
        return true;
    }
  }

  /** The immutable view: the same object until an update; unchanged blocks keep theirs. */
  view(): StreamingMessage {
    if (this.#view) return this.#view;
    const blocks = this.#blocks.map(blockView);
    this.#view = {
      key: this.key,
      role: "assistant",
      blocks,
      usage: this.#usage,
      provider: this.#provider,
      model: this.#model,
    };
    return this.#view;
  }

  /**
   * The message so far as pi writes an assistant message, for a `message_start` that begins a client mid-message
   * (the bridge's replay): the fields of `base` (the message of the real `message_start`) with the content so far and
   * the latest usage; an unfinished tool call has its raw argument text as `partialArgs`.
   */
  toMessage(base: Record<string, unknown>): Record<string, unknown> {
    const content: Record<string, unknown>[] = [];
    for (const block of this.#blocks) {
      if (!block) continue;
      if (block.type === "text") content.push({ type: "text", text: block.text });
      else if (block.type === "thinking") content.push({ type: "thinking", thinking: block.text });
      else {
        content.push({
          type: "toolCall",
          id: block.id,
          name: block.name,
          arguments: block.args ?? parseArguments(block.text),
          ...(block.complete || block.adopted ? {} : { partialArgs: block.text }),
        });
      }
    }
    return { ...base, content, ...(this.#usage === undefined ? {} : { usage: this.#usage }) };
  }

  #adopt(index: number, block: unknown, joined: boolean): void {
    if (!isObject(block)) return;
    let work: WorkBlock | undefined;
    if (block.type === "text" && typeof block.text === "string") {
      work = this.#set(index, "text");
      work.text = block.text;
    } else if (block.type === "thinking" && typeof block.thinking === "string") {
      work = this.#set(index, "thinking");
      work.text = block.thinking;
    } else if (block.type === "toolCall") {
      work = this.#set(index, "toolCall");
      work.id = str(block.id) ?? "";
      work.name = str(block.name) ?? "";
      if (!joined && typeof block.partialArgs === "string") work.text = block.partialArgs;
      else {
        work.args = isObject(block.arguments) ? block.arguments : undefined;
        // Whole arguments without raw text: finished (pi-ai drops `partialArgs` at toolcall_end).
        work.complete = !joined;
      }
    }
    if (work && joined) work.adopted = true;
  }

  /** A fresh block at `index` (a `*_start`). */
  #set(index: number, type: WorkBlock["type"]): WorkBlock {
    const block: WorkBlock = {
      type,
      text: "",
      id: "",
      name: "",
      args: undefined,
      adopted: false,
      complete: false,
      view: undefined,
    };
    this.#blocks[index] = block;
    return block;
  }

  /** The block at `index`, made if its `*_start` was missed, or replaced if it was of another type. */
  #block(index: number, type: WorkBlock["type"]): WorkBlock {
    const block = this.#blocks[index];
    return block?.type === type ? block : this.#set(index, type);
  }
}

function blockView(block: WorkBlock): StreamingBlock {
  if (block.view) return block.view;
  let view: StreamingBlock;
  if (block.type === "text") view = { type: "text", text: block.text };
  else if (block.type === "thinking") view = { type: "thinking", thinking: block.text };
  else {
    view = {
      type: "toolCall",
      id: block.id,
      name: block.name,
      arguments: block.args ?? parseArguments(block.text),
      complete: block.complete,
    };
  }
  block.view = view;
  return view;
}

/**
 * A tool call's arguments from their JSON text so far, as far as it parses (`{}` before anything does): `jsonrepair`
 * closes what the text leaves open (a string half written, as a `write`'s content while it streams, an object, an
 * array), then `JSON.parse`.
 */
export function parseArguments(text: string): Readonly<Record<string, unknown>> {
  if (text.trim() === "") return EMPTY_ARGS;
  try {
    const value: unknown = JSON.parse(jsonrepair(text));
    return isObject(value) ? value : EMPTY_ARGS;
  } catch {
    return EMPTY_ARGS;
  }
}
