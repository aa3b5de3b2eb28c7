/**
 * A seeded, realistic pi stdout stream for the core benchmark. Shapes follow pi 0.73.1's RPC output: every
 * `message_update` carries the whole partial assistant message twice (`message` and `assistantMessageEvent.partial`),
 * which is what makes real lines long; tool runs stream `tool_execution_update`s; extensions set statuses, widgets
 * and notifications with ANSI styling; one extension loops 2,000 `setStatus` calls, which pi writes as one chunk.
 */

export interface StreamOptions {
  seed: number;
  /** About how many records to generate (the burst included). */
  messages: number;
  burstSize: number;
}

export interface GeneratedStream {
  bytes: Uint8Array;
  /** Where each chunk ends, as pi's stdout pipe might cut it: random sizes, and the burst as exactly one chunk. */
  chunkEnds: number[];
  /** Index in the chunk list of the burst's chunk. */
  burstChunk: number;
  messages: number;
  /** Records per kind (`type`, or `ui:<method>` for extension-UI requests). */
  mix: Record<string, number>;
  expected: { statusKeys: number; notifications: number; dialogs: number };
}

/** mulberry32: small, fast, good enough to make the same stream on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "the",
  "function",
  "returns",
  "a",
  "value",
  "when",
  "called",
  "with",
  "`options`",
  "and",
  "then",
  "we",
  "check",
  "whether",
  "file",
  "src/index.ts",
  "exists.",
  "Let",
  "me",
  "look",
  "at",
  "this",
  "test",
  "fails",
  "because",
  "日本語",
  "の",
  "テキスト",
  "中文",
  "🎉",
  "✅",
  "\n\n",
  "\n- ",
  "```ts\n",
  "\n```\n",
  "é",
  "→",
];
const STYLES = ["\u001b[38;2;138;190;183m", "\u001b[38;5;226m", "\u001b[1m", "\u001b[3m", "\u001b[2m"];

export function generateStream(options: StreamOptions): GeneratedStream {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const styled = (text: string) => `${pick(STYLES)}${text}\u001b[39m\u001b[22m\u001b[23m`;

  const before: string[] = [];
  const burst: string[] = [];
  const after: string[] = [];
  let lines = before;
  const mix: Record<string, number> = {};
  const statusKeys = new Set<string>();
  let notifications = 0;
  let dialogs = 0;
  let uuid = 0;
  const nextId = () => `6f1c${(uuid++).toString(16).padStart(8, "0")}-8b2a-4c3d-9e4f-0a1b2c3d4e5f`;
  let total = 0;
  const emit = (record: Record<string, unknown>, target: string[] = lines) => {
    const kind = record.type === "extension_ui_request" ? `ui:${record.method as string}` : (record.type as string);
    mix[kind] = (mix[kind] ?? 0) + 1;
    if (record.method === "setStatus") statusKeys.add(record.statusKey as string);
    if (record.method === "notify") notifications++;
    if (["select", "confirm", "input", "editor"].includes(record.method as string)) dialogs++;
    target.push(JSON.stringify(record));
    total++;
  };
  const ui = (method: string, fields: Record<string, unknown>, target?: string[]) =>
    emit({ type: "extension_ui_request", id: nextId(), method, ...fields }, target);

  let turn = 0;
  let clock = 1_764_460_800_000;
  while (total < options.messages) {
    if (lines === before && total >= (options.messages - options.burstSize) / 2) {
      // An extension's loop: 2,000 setStatus calls over 200 keys, written by pi in one go.
      for (let i = 0; i < options.burstSize; i++) {
        ui(
          "setStatus",
          { statusKey: `job-${String(i % 200).padStart(3, "0")}`, statusText: styled(`step ${i}`) },
          burst,
        );
      }
      lines = after;
    }
    turn++;
    clock += 1000;
    emit({ type: "agent_start" });
    emit({ type: "turn_start" });
    const message = {
      role: "assistant",
      content: [{ type: "text", text: "" }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: {
        input: 1843,
        output: 0,
        cacheRead: 11520,
        cacheWrite: 0,
        totalTokens: 13363,
        cost: { input: 0.0055, output: 0, cacheRead: 0.0035, cacheWrite: 0, total: 0.009 },
      },
      stopReason: "stop",
      timestamp: clock,
    };
    emit({ type: "message_start", message });
    emit({
      type: "message_update",
      message,
      assistantMessageEvent: { type: "text_start", contentIndex: 0, partial: message },
    });
    const deltas = between(80, 240);
    for (let i = 0; i < deltas; i++) {
      const delta = `${pick(WORDS)} `;
      message.content[0]!.text += delta;
      message.usage.output++;
      emit({
        type: "message_update",
        message,
        assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta, partial: message },
      });
    }
    emit({
      type: "message_update",
      message,
      assistantMessageEvent: { type: "text_end", contentIndex: 0, content: message.content[0]!.text, partial: message },
    });
    emit({ type: "message_end", message });
    if (random() < 0.6) {
      const toolCallId = `toolu_${turn.toString(36).padStart(6, "0")}`;
      const args = { command: "pnpm test --filter core" };
      emit({ type: "tool_execution_start", toolCallId, toolName: "bash", args });
      let output = "";
      for (let i = between(0, 3); i > 0; i--) {
        output += `✓ packages/core/test/case-${i}.test.ts (${between(1, 40)} tests)\n`;
        emit({
          type: "tool_execution_update",
          toolCallId,
          toolName: "bash",
          args,
          partialResult: {
            content: [{ type: "text", text: output }],
            details: { truncation: null, fullOutputPath: null },
          },
        });
      }
      emit({
        type: "tool_execution_end",
        toolCallId,
        toolName: "bash",
        result: { content: [{ type: "text", text: output || "ok" }], details: {} },
        isError: false,
      });
    }
    if (random() < 0.25)
      ui("notify", { message: styled(`Turn ${turn}: tests passed`), notifyType: pick(["info", "warning", "error"]) });
    if (random() < 0.1) {
      ui("setWidget", {
        widgetKey: pick(["todo", "plan"]),
        widgetLines: [styled("Plan"), `- step ${turn}`, "<img src=x onerror=alert(1)>"],
        ...(random() < 0.5 ? { widgetPlacement: "belowEditor" } : {}),
      });
    }
    if (random() < 0.02) ui("setTitle", { title: `pi — turn ${turn}` });
    if (random() < 0.02) ui("confirm", { title: "Run the tests again?", message: "They passed.", timeout: 60_000 });
    ui("setStatus", { statusKey: "rpc-demo", statusText: `Turn ${turn} done` });
    emit({ type: "turn_end", message, toolResults: [] });
    emit({ type: "agent_end", messages: [] });
  }

  const encoder = new TextEncoder();
  const parts = [before, burst, after].map((part) => encoder.encode(part.map((line) => `${line}\n`).join("")));
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  bytes.set(parts[0]!, 0);
  bytes.set(parts[1]!, parts[0]!.length);
  bytes.set(parts[2]!, parts[0]!.length + parts[1]!.length);

  // Chunk sizes spread log-uniformly from 16 B to 64 KiB (a pipe's buffer), cut anywhere, UTF-8 sequences included.
  const chunkEnds: number[] = [];
  const cutRange = (from: number, to: number) => {
    let at = from;
    while (at < to) {
      at = Math.min(to, at + Math.round(16 * 4096 ** random()));
      chunkEnds.push(at);
    }
  };
  cutRange(0, parts[0]!.length);
  chunkEnds.push(parts[0]!.length + parts[1]!.length);
  const burstChunk = chunkEnds.length - 1;
  cutRange(parts[0]!.length + parts[1]!.length, bytes.length);

  return {
    bytes,
    chunkEnds,
    burstChunk,
    messages: total,
    mix,
    expected: { statusKeys: statusKeys.size, notifications, dialogs },
  };
}
