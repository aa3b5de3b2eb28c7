/**
 * The conversation store (`conversationOf(session)`), in Node, on both pi versions' stream shapes (the recordings in
 * test/fixtures/conversation/<version>/):
 * - `throughputRatio`: the recorded events of every scenario, repeated to some 4 MB and cut into 64 KiB chunks,
 *   through JsonlDecoder + PiSession with the conversation store read by a subscriber after every chunk, against
 *   split-on-LF + JSON.parse of the same chunks (baseline time ÷ core time; median of 11 rounds; the lower of the
 *   two versions). `throughputRatioWithoutStore` is the session alone (the store never read) in the same rounds:
 *   the three take turns per block of chunks, in a rotating order, as bench/core.ts does for two. In Node, whose
 *   EventTarget is slower than a browser's, the session alone is already further from the baseline than
 *   bench/core.ts measures in Chromium. The core is bundled first and run as it ships (see `loadCore`).
 * - `updateCostGrowth100kVs1k`: the store's cost of one text delta (events already parsed: JSON.parse of 0.73.1's
 *   lines grows with the message by pi's design and is the baseline's part above) when the message already holds
 *   100,000 characters, over the same with 1,000; a snapshot is read every 16 updates, as a frame would. The higher
 *   of the two versions.
 * - `historyRebuildMs`: `setHistory` of a 2,000-message `get_messages` answer (the tools recording's messages,
 *   repeated with distinct timestamps) into an empty store, and `historyRemergeMs` into a store that holds them (a
 *   reconnect: every entry object kept), each the median of 9; `historyRebuildHeapBytes` what the rebuilt store
 *   holds afterwards (after a full GC).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { build } from "esbuild";
import type * as Jsonl from "../packages/core/src/codec/jsonl.js";
import type * as Of from "../packages/core/src/conversation/conversation-of.js";
import type * as State from "../packages/core/src/conversation/conversation-state.js";
import type { AgentEventBase } from "../packages/core/src/protocol/events.js";
import type * as Session from "../packages/core/src/session/pi-session.js";
import type * as Base from "../packages/core/src/transports/base.js";

export const goals = {
  throughputRatio: { min: 0.8 },
  updateCostGrowth100kVs1k: { max: 1.3 },
};

/**
 * The core as it ships: bundled by esbuild (ESM, zod/mini and jsonrepair in it), not run through tsx, whose transform
 * (esbuild's `keepNames`: a `__name` call per closure made) and loader add cost the compiled core never pays (as in
 * bridge.ts). `BENCH_CORE_SRC` names another copy of packages/core/src, to compare two versions of it by the same
 * harness.
 */
async function loadCore() {
  const src = resolve(process.env.BENCH_CORE_SRC ?? fileURLToPath(new URL("../packages/core/src/", import.meta.url)));
  const dir = mkdtempSync(join(tmpdir(), "pi-conversation-bench-"));
  try {
    const entry = join(dir, "entry.ts");
    writeFileSync(
      entry,
      [
        `export { JsonlDecoder } from ${JSON.stringify(join(src, "codec/jsonl.ts"))};`,
        `export { conversationOf } from ${JSON.stringify(join(src, "conversation/conversation-of.ts"))};`,
        `export { ConversationState } from ${JSON.stringify(join(src, "conversation/conversation-state.ts"))};`,
        `export { PiSession } from ${JSON.stringify(join(src, "session/pi-session.ts"))};`,
        `export { BaseTransport } from ${JSON.stringify(join(src, "transports/base.ts"))};`,
      ].join("\n"),
    );
    const outfile = join(dir, "core.mjs");
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "warning",
      // Where packages/core's own dependencies (zod, jsonrepair) resolve from, for a copy of its src elsewhere too.
      nodePaths: [fileURLToPath(new URL("../packages/core/node_modules/", import.meta.url))],
    });
    return (await import(pathToFileURL(outfile).href)) as typeof Jsonl &
      typeof Of &
      typeof State &
      typeof Session &
      typeof Base;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { JsonlDecoder, conversationOf, ConversationState, PiSession, BaseTransport } = await loadCore();

const VERSIONS = ["0.73.1", "1.6.0"] as const;
const fixtures = new URL("../test/fixtures/conversation/", import.meta.url);

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

class ChunkTransport extends BaseTransport {
  readonly #decoder = new JsonlDecoder({
    onRecord: (record) => this.emitRecord(record),
    onDiagnostic: (diagnostic) => this.emitDiagnostic(diagnostic),
  });

  constructor() {
    super("open");
  }

  push(chunk: Uint8Array): void {
    this.#decoder.push(chunk);
  }

  send(): void {}

  close(): void {
    this.setState("closed");
  }
}

class Baseline {
  readonly #utf8 = new TextDecoder();
  #rest = "";
  records = 0;

  push(chunk: Uint8Array): void {
    const lines = (this.#rest + this.#utf8.decode(chunk, { stream: true })).split("\n");
    this.#rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line !== "" && JSON.parse(line) !== undefined) this.records++;
    }
  }
}

/** The recorded events (no responses: their ids belong to the recorder) of every scenario of `version`. */
function eventLines(version: string): string[] {
  const dir = new URL(`${version}/`, fixtures);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .flatMap((name) => readFileSync(new URL(name, dir), "utf8").split("\n"))
    .filter((line) => line !== "" && !line.startsWith('{"id"') && !line.includes('"type":"response"'));
}

function chunked(lines: string[], targetBytes: number, chunkSize: number): Uint8Array[] {
  const once = `${lines.join("\n")}\n`;
  const bytes = new TextEncoder().encode(once.repeat(Math.max(1, Math.round(targetBytes / once.length))));
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  return chunks;
}

const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One consumer of the chunks: a session with or without the conversation store read, or the baseline. */
interface Consumer {
  push(chunk: Uint8Array): void;
  ms: number;
}

function sessionConsumer(withStore: boolean) {
  const transport = new ChunkTransport();
  const session = new PiSession(transport);
  let diagnostics = 0;
  session.addEventListener("diagnostic", () => diagnostics++);
  const store = withStore ? conversationOf(session) : session.ui;
  let reads = 0;
  store.subscribe(() => {
    if (store.getSnapshot()) reads++;
  });
  return {
    consumer: { push: (chunk: Uint8Array) => transport.push(chunk), ms: 0 } as Consumer,
    check(version: string) {
      const entries = withStore ? conversationOf(session).getSnapshot().entries.length : 1;
      if (diagnostics > 0 || entries === 0 || reads === 0) {
        throw new Error(
          `${version}: the session did not reduce the stream (${diagnostics} diagnostics, ${entries} entries)`,
        );
      }
      session.close();
    },
  };
}

/**
 * Three consumers take the same chunks in turns, block by block, in an order that rotates: the session with the
 * conversation store, the session without it (as bench/core.ts measures it) and the baseline.
 */
async function throughput(version: string) {
  const chunks = chunked(eventLines(version), 4 * 1024 * 1024, 64 * 1024);
  const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const ratios: number[] = [];
  const withoutStore: number[] = [];
  const block = 4;
  for (let round = 0; round < 12; round++) {
    gc();
    const withStore = sessionConsumer(true);
    const sessionOnly = sessionConsumer(false);
    const base = new Baseline();
    const baseline: Consumer = { push: (chunk) => base.push(chunk), ms: 0 };
    const consumers = [withStore.consumer, sessionOnly.consumer, baseline];
    for (let start = 0, turn = round; start < chunks.length; start += block, turn++) {
      const slice = chunks.slice(start, start + block);
      for (let k = 0; k < consumers.length; k++) {
        const consumer = consumers[(turn + k) % consumers.length]!;
        const t = performance.now();
        for (const chunk of slice) {
          consumer.push(chunk);
          await nextTask();
        }
        consumer.ms += performance.now() - t;
      }
    }
    withStore.check(version);
    sessionOnly.check(version);
    if (base.records === 0) throw new Error("the baseline parsed nothing");
    if (round > 0) {
      ratios.push(baseline.ms / withStore.consumer.ms);
      withoutStore.push(baseline.ms / sessionOnly.consumer.ms);
    }
  }
  return {
    bytes: totalBytes,
    chunks: chunks.length,
    ratios,
    throughputRatio: median(ratios),
    /** The same figure for the session without the conversation store: what the store costs is the difference. */
    throughputRatioWithoutStore: median(withoutStore),
  };
}

/** ns per text delta when the streaming message already holds `length` characters. */
function updateCost(version: string, length: number, updates: number): number {
  const state = new ConversationState();
  const start = { role: "assistant", content: [], provider: "p", model: "m", stopReason: "stop", timestamp: 1 };
  state.apply({ type: "message_start", message: start });
  const partial = { ...start, content: [{ type: "text", text: "x".repeat(length) }] };
  const wrap = (event: Record<string, unknown>): AgentEventBase =>
    version === "1.6.0"
      ? { type: "message_update", usage: { input: 1, output: 1 }, assistantMessageEvent: event }
      : { type: "message_update", message: partial, assistantMessageEvent: { ...event, partial } };
  state.apply(wrap({ type: "text_start", contentIndex: 0 }));
  state.apply(wrap({ type: "text_delta", contentIndex: 0, delta: "x".repeat(length) }));
  const events = Array.from({ length: updates }, () => wrap({ type: "text_delta", contentIndex: 0, delta: "abcd" }));
  state.getSnapshot();
  const t = performance.now();
  for (let i = 0; i < events.length; i++) {
    state.apply(events[i]!);
    if ((i & 15) === 15) state.getSnapshot();
  }
  const ms = performance.now() - t;
  const snapshot = state.getSnapshot().streaming?.blocks[0];
  if (snapshot?.type !== "text" || snapshot.text.length !== length + updates * 4) {
    throw new Error(`${version}: the streaming text did not grow as sent`);
  }
  return (ms * 1e6) / updates;
}

function growth(version: string) {
  const ratios: number[] = [];
  const small: number[] = [];
  const large: number[] = [];
  updateCost(version, 1000, 20_000); // warm-up
  for (let round = 0; round < 9; round++) {
    gc();
    const a = round % 2 === 0 ? updateCost(version, 1000, 50_000) : updateCost(version, 100_000, 50_000);
    gc();
    const b = round % 2 === 0 ? updateCost(version, 100_000, 50_000) : updateCost(version, 1000, 50_000);
    const [ns1k, ns100k] = round % 2 === 0 ? [a, b] : [b, a];
    small.push(ns1k);
    large.push(ns100k);
    ratios.push(ns100k / ns1k);
  }
  return { nsPerUpdate1k: median(small), nsPerUpdate100k: median(large), updateCostGrowth100kVs1k: median(ratios) };
}

function history() {
  const tools = readFileSync(new URL("1.6.0/tools.jsonl", fixtures), "utf8")
    .split("\n")
    .filter((line) => line.includes('"command":"get_messages"'))
    .map((line) => JSON.parse(line) as { data: { messages: Record<string, unknown>[] } })
    .at(-1)!.data.messages;
  const messages: unknown[] = [];
  while (messages.length < 2000) {
    for (const message of tools) {
      if (messages.length < 2000)
        messages.push({ ...structuredClone(message), timestamp: 1_700_000_000_000 + messages.length });
    }
  }
  const rebuild: number[] = [];
  const remerge: number[] = [];
  let heap = 0;
  for (let round = 0; round < 9; round++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    const state = new ConversationState();
    let t = performance.now();
    state.setHistory(messages, 0);
    state.getSnapshot();
    rebuild.push(performance.now() - t);
    gc();
    heap = process.memoryUsage().heapUsed - before;
    const kept = state.getSnapshot().entries;
    const again = structuredClone(messages);
    t = performance.now();
    state.setHistory(again, state.mark());
    const after = state.getSnapshot().entries;
    remerge.push(performance.now() - t);
    if (after.length !== kept.length || after.some((entry, i) => entry !== kept[i])) {
      throw new Error("a reconnect's history did not keep the entry objects");
    }
    if (state.getSnapshot().entries.length === 0) throw new Error("no entries");
  }
  return {
    messages: messages.length,
    historyRebuildMs: median(rebuild),
    historyRemergeMs: median(remerge),
    historyRebuildHeapBytes: heap,
  };
}

export async function run(): Promise<object> {
  const [loadBefore = 0] = loadavg();
  const versions: Record<string, object> = {};
  let throughputRatio = Number.POSITIVE_INFINITY;
  let updateCostGrowth100kVs1k = 0;
  for (const version of VERSIONS) {
    const t = await throughput(version);
    const g = growth(version);
    versions[version] = { ...t, ...g };
    throughputRatio = Math.min(throughputRatio, t.throughputRatio);
    updateCostGrowth100kVs1k = Math.max(updateCostGrowth100kVs1k, g.updateCostGrowth100kVs1k);
  }
  const h = history();
  // The host's 1-minute load average before and after: the figures above are only comparable at similar loads.
  const [loadAfter = 0] = loadavg();
  const loadAverage = [loadBefore, loadAfter].map((load) => Number(load.toFixed(2)));
  return { throughputRatio, updateCostGrowth100kVs1k, ...h, loadAverage, versions };
}
