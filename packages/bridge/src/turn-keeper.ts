/**
 * The turn in progress, kept by the bridge so that a client that connects mid-turn sees what a client connected all
 * along sees. pi cannot tell it: `get_messages` never holds the message still streaming, and pi 1.x sends only deltas,
 * so without this a page opened during a long answer would show nothing of it until `message_end`.
 *
 * What is kept, from the agent's own records, and replayed after the UI state (`Relay.replay`):
 * - the run's `agent_start` while the run lasts, so the client knows pi is working: whether it lasts is the core's
 *   `reduceRun` over the run's records (`agent_start`, `agent_end`, `agent_settled`), the one rule the session and
 *   every element read;
 * - the last `queue_update` while something is queued (the steering and follow-up texts, which nothing else gives);
 * - the assistant message being streamed. pi 1.x sends deltas: they are reduced by the core's `StreamingAssistant`
 *   and replayed as one `message_start` whose message holds the content they add up to (`toMessage`; an unfinished
 *   tool call with its raw argument text as `partialArgs`), so the next delta continues it. pi 0.73.1 sends the whole
 *   message so far in every update: its latest `message_update` is kept as it came, never parsed (parsing every one
 *   would cost the bridge as much as the clients' own parsing: the message twice per token), and replayed as it is;
 *   a client starts from its partial (the core follows 0.73.1's partials when it joins on one). Which of the two a
 *   message is, its first update says (parsed);
 * - each tool run still going: its `tool_execution_start` and latest `tool_execution_update` (pi's update carries the
 *   output so far: the latest replaces the one before).
 * Compaction and retry notices, and the turn's finished messages, are not kept: `get_state` says whether pi compacts,
 * and `get_messages` has every finished message.
 *
 * The cap: `maxChars` (default 2 Mi, 2,097,152) characters for the streaming message's text, thinking and argument
 * text together (on 0.73.1 the kept update's length) plus the kept tool records. A message that grows past it is dropped from the replay (a client that
 * connects later gets it whole at `message_end`, as without a bridge); a tool record that does not fit is not kept.
 *
 * Records are recognised by their start, `{"type":"<type>"`, as pi writes every record (JSON.stringify of an object
 * whose first key is `type`), then parsed and judged by the parsed type, except the two kinds that repeat a whole
 * message, which are taken by their first bytes alone: `message_end` (it ends the kept message) and 0.73.1's
 * updates after a message's first. Other records cost a look at their first bytes. What the keeper does not
 * recognise is relayed all the same, only not replayed.
 */
import { StreamingAssistant } from "@pi-elements/core/conversation";
import { IDLE_RUN, type RunState, reduceRun } from "@pi-elements/core/run";

export interface TurnKeeperOptions {
  /** See the module's comment. Default `DEFAULT_TURN_CHARS`. */
  maxChars?: number;
  /** Told once per message or tool run that went past `maxChars`. */
  onLimit?: (message: string) => void;
}

export const DEFAULT_TURN_CHARS = 2 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const PREFIX = Buffer.from('{"type":"');
const TYPES = [
  "message_update",
  "message_start",
  "message_end",
  "agent_start",
  "agent_end",
  "agent_settled",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "queue_update",
] as const;
type KeptType = (typeof TYPES)[number];
/** Each type's name and closing quote, by its first byte: a record is classified without decoding any of it. */
const BY_FIRST_BYTE = new Map<number, Array<[KeptType, Buffer]>>();
for (const type of TYPES) {
  const bytes = Buffer.from(`${type}"`);
  const list = BY_FIRST_BYTE.get(bytes[0] as number) ?? [];
  list.push([type, bytes]);
  BY_FIRST_BYTE.set(bytes[0] as number, list);
}
/** How pi goes on after a message_start's type: the role follows. */
const ROLE = Buffer.from(',"message":{"role":"');
const ASSISTANT = Buffer.from('assistant"');

interface KeptMessage {
  /** The message of the real `message_start`. */
  readonly base: Record<string, unknown>;
  /** How its updates come: not known before the first. */
  form: "deltas" | "partials" | undefined;
  /** 1.x: the deltas so far, reduced. */
  readonly stream: StreamingAssistant;
  /** 0.73.1: the latest update, as it came: `latest[latestStart, latestEnd)`, decoded only for a replay. */
  latest: Buffer | undefined;
  latestStart: number;
  latestEnd: number;
  chars: number;
}

interface KeptTool {
  readonly start: string;
  update: string | undefined;
  /** An update did not fit (told once per run). */
  overflowed: boolean;
}

export class TurnKeeper {
  readonly #maxChars: number;
  readonly #onLimit: (message: string) => void;
  #agentStart: string | undefined;
  /** Whether pi is in a run, by the core's rule (only its `working` is used here). */
  #run: RunState = IDLE_RUN;
  #queue: string | undefined;
  #message: KeptMessage | undefined;
  readonly #tools = new Map<string, KeptTool>();
  #toolChars = 0;

  constructor(options: TurnKeeperOptions = {}) {
    this.#maxChars = options.maxChars ?? DEFAULT_TURN_CHARS;
    this.#onLimit = options.onLimit ?? (() => {});
  }

  /** Reads one frame of agent output (whole LF-terminated records, in parts), as relayed to the clients. */
  observe(parts: readonly Buffer[]): void {
    let carry: Buffer[] = [];
    for (const part of parts) {
      let start = 0;
      for (;;) {
        const end = part.indexOf(LF, start);
        if (end === -1) break;
        if (carry.length > 0) {
          carry.push(part.subarray(start, end));
          this.#line(Buffer.concat(carry), 0, undefined);
          carry = [];
        } else this.#line(part, start, end);
        start = end + 1;
      }
      if (start < part.length) carry.push(part.subarray(start));
    }
    if (carry.length > 0) this.#line(Buffer.concat(carry), 0, undefined);
  }

  /** The records a client that connects now gets after the UI state (see the module's comment), in order. */
  replay(): string[] {
    const records: string[] = [];
    if (this.#run.working && this.#agentStart !== undefined) records.push(this.#agentStart);
    if (this.#queue !== undefined) records.push(this.#queue);
    const message = this.#message;
    if (message?.latest !== undefined) {
      records.push(message.latest.toString("utf8", message.latestStart, message.latestEnd));
    } else if (message !== undefined) {
      records.push(JSON.stringify({ type: "message_start", message: message.stream.toMessage(message.base) }));
    }
    for (const tool of this.#tools.values()) {
      records.push(tool.start);
      if (tool.update !== undefined) records.push(tool.update);
    }
    return records;
  }

  /** Forgets everything: a new agent process, or the agent is gone. */
  clear(): void {
    this.#agentStart = undefined;
    this.#run = IDLE_RUN;
    this.#queue = undefined;
    this.#message = undefined;
    this.#tools.clear();
    this.#toolChars = 0;
  }

  /**
   * One record: `buffer[start, end)` (end undefined: to the buffer's end), a trailing CR allowed. The usual record
   * (a 0.73.1 update, or a type the keeper does not keep) costs a few byte comparisons and no allocation.
   */
  #line(buffer: Buffer, start: number, end: number | undefined): void {
    const stop = end ?? buffer.length;
    if (!bytesAt(buffer, start, stop, PREFIX)) return;
    const at = start + PREFIX.length;
    let type: KeptType | undefined;
    for (const [name, bytes] of BY_FIRST_BYTE.get(buffer[at] as number) ?? []) {
      if (bytesAt(buffer, at, stop, bytes)) {
        type = name;
        break;
      }
    }
    if (type === undefined) return;
    const afterType = at + type.length + 1;
    // Taken by their first bytes: records that repeat a whole message the keeper does not need.
    if (
      type === "message_end" ||
      (type === "message_start" &&
        bytesAt(buffer, afterType, stop, ROLE) &&
        !bytesAt(buffer, afterType + ROLE.length, stop, ASSISTANT))
    ) {
      this.#message = undefined;
      return;
    }
    const message = this.#message;
    if (type === "message_update" && message?.form === "partials") {
      message.latest = buffer;
      message.latestStart = start;
      message.latestEnd = stop > start && buffer[stop - 1] === CR ? stop - 1 : stop;
      this.#checkCap(message, message.latestEnd - start);
      return;
    }
    const text = buffer.toString("utf8", start, stop).replace(/\r$/, "");
    let record: Record<string, unknown>;
    try {
      const value: unknown = JSON.parse(text);
      if (!isObject(value)) return;
      record = value;
    } catch {
      return;
    }
    this.#record(record, text);
  }

  #record(record: Record<string, unknown>, text: string): void {
    switch (record.type) {
      case "agent_start":
        this.#agentStart = text;
        this.#run = reduceRun(this.#run, record as { type: string });
        return;
      case "agent_end":
        this.#message = undefined;
        this.#forgetTools();
        this.#run = reduceRun(this.#run, record as { type: string });
        return;
      case "agent_settled":
        this.#run = reduceRun(this.#run, record as { type: string });
        return;
      case "message_start": {
        const message = record.message;
        this.#message =
          isObject(message) && message.role === "assistant"
            ? {
                base: message,
                form: undefined,
                stream: new StreamingAssistant("replay", message),
                latest: undefined,
                latestStart: 0,
                latestEnd: 0,
                chars: 0,
              }
            : undefined;
        return;
      }
      case "message_update":
        this.#update(record, text);
        return;
      case "message_end":
        this.#message = undefined;
        return;
      case "queue_update":
        this.#queue = hasItems(record.steering) || hasItems(record.followUp) ? text : undefined;
        return;
      case "tool_execution_start":
      case "tool_execution_update":
      case "tool_execution_end":
        this.#tool(record, text);
        return;
    }
  }

  /** An update of 1.x's form (or the first of a message, which tells the form). */
  #update(record: Record<string, unknown>, text: string): void {
    const kept = this.#message;
    const event = record.assistantMessageEvent;
    if (kept === undefined || !isObject(event) || typeof event.type !== "string") return;
    if (kept.form === undefined) kept.form = isObject(event.partial) ? "partials" : "deltas";
    if (kept.form === "partials") {
      const bytes = Buffer.from(text);
      kept.latest = bytes;
      kept.latestStart = 0;
      kept.latestEnd = bytes.length;
      this.#checkCap(kept, bytes.length);
      return;
    }
    kept.stream.update(event as Parameters<StreamingAssistant["update"]>[0], event.partial, record.usage);
    if (typeof event.delta === "string") this.#checkCap(kept, kept.chars + event.delta.length);
  }

  /** The kept message now holds `chars`: past the cap it is dropped, and that is told. */
  #checkCap(kept: KeptMessage, chars: number): void {
    kept.chars = chars;
    if (chars <= this.#maxChars) return;
    this.#message = undefined;
    this.#onLimit(
      `the message being streamed passed ${this.#maxChars} characters: a client that connects now gets it at its end`,
    );
  }

  #tool(record: Record<string, unknown>, text: string): void {
    const id = record.toolCallId;
    if (typeof id !== "string") return;
    const kept = this.#tools.get(id);
    if (record.type === "tool_execution_end") {
      if (kept) this.#dropTool(id, kept);
      return;
    }
    if (record.type === "tool_execution_start") {
      if (kept) this.#dropTool(id, kept);
      if (this.#fits(text.length, `the start of tool run ${id}`)) {
        this.#tools.set(id, { start: text, update: undefined, overflowed: false });
        this.#toolChars += text.length;
      }
      return;
    }
    if (!kept) return;
    const old = kept.update?.length ?? 0;
    this.#toolChars -= old;
    kept.update = undefined;
    if (this.#fits(text.length, kept.overflowed ? undefined : `an update of tool run ${id}`)) {
      kept.update = text;
      this.#toolChars += text.length;
    } else kept.overflowed = true;
  }

  /** Whether `chars` more fit under the cap; if not, `what` (when given) is told. */
  #fits(chars: number, what: string | undefined): boolean {
    if (this.#toolChars + chars + (this.#message?.chars ?? 0) <= this.#maxChars) return true;
    if (what !== undefined) {
      this.#onLimit(`${what} does not fit in ${this.#maxChars} characters: it is relayed but not replayed`);
    }
    return false;
  }

  #dropTool(id: string, kept: KeptTool): void {
    this.#toolChars -= kept.start.length + (kept.update?.length ?? 0);
    this.#tools.delete(id);
  }

  #forgetTools(): void {
    this.#tools.clear();
    this.#toolChars = 0;
  }
}

/** Whether `buffer[at, stop)` begins with `bytes`. */
function bytesAt(buffer: Buffer, at: number, stop: number, bytes: Buffer): boolean {
  if (stop - at < bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (buffer[at + i] !== bytes[i]) return false;
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasItems(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
