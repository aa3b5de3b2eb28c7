/**
 * The core benchmark's page side (bundled by esbuild, run in Chromium). The same bytes, cut into the same chunks,
 * go through (a) the core: JsonlDecoder + PiSession over a transport that pushes chunks, with a store subscriber
 * that reads the snapshot as a UI would, and (b) the baseline: split on LF + JSON.parse. Each chunk is its own
 * turn of the event loop's microtask queue, as chunks arriving from a stream are.
 */
import { JsonlDecoder } from "../packages/core/src/codec/jsonl.js";
import { PiSession } from "../packages/core/src/session/pi-session.js";
import { BaseTransport } from "../packages/core/src/transports/base.js";
import { type GeneratedStream, generateStream, type StreamOptions } from "./core-stream.js";

/** A transport fed by hand: every chunk goes through the strict decoder, every record becomes a `record` event. */
class ChunkTransport extends BaseTransport {
  readonly #decoder = new JsonlDecoder({
    onRecord: (record) => this.emitRecord(record),
    onDiagnostic: (diagnostic) => this.emitDiagnostic(diagnostic),
  });
  sent = 0;

  constructor() {
    super("open");
  }

  push(chunk: Uint8Array): void {
    this.#decoder.push(chunk);
  }

  send(): void {
    this.sent++;
  }

  close(): void {
    this.setState("closed");
  }
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function chunksOf(stream: GeneratedStream): Uint8Array[] {
  let start = 0;
  return stream.chunkEnds.map((end) => {
    const chunk = stream.bytes.subarray(start, end);
    start = end;
    return chunk;
  });
}

async function runBaseline(chunks: Uint8Array[]): Promise<{ ms: number; records: number }> {
  const t0 = performance.now();
  const utf8 = new TextDecoder();
  let rest = "";
  let records = 0;
  for (const chunk of chunks) {
    const lines = (rest + utf8.decode(chunk, { stream: true })).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line !== "" && JSON.parse(line) !== undefined) records++;
    }
    await null;
  }
  return { ms: performance.now() - t0, records };
}

interface CoreRun {
  ms: number;
  session: PiSession;
  notifications: number;
}

async function runSession(chunks: Uint8Array[]): Promise<CoreRun> {
  const t0 = performance.now();
  const transport = new ChunkTransport();
  const session = new PiSession(transport);
  let notifications = 0;
  session.ui.subscribe(() => {
    notifications++;
    session.ui.getSnapshot();
  });
  for (const chunk of chunks) {
    transport.push(chunk);
    await null;
  }
  await null;
  return { ms: performance.now() - t0, session, notifications };
}

/** Subscriber calls caused by the burst's single chunk, everything before it already delivered and flushed. */
async function measureBurst(stream: GeneratedStream, chunks: Uint8Array[]): Promise<number> {
  const transport = new ChunkTransport();
  const session = new PiSession(transport);
  let notifications = 0;
  session.ui.subscribe(() => {
    notifications++;
  });
  for (const chunk of chunks.slice(0, stream.burstChunk)) transport.push(chunk);
  await nextTask();
  const before = notifications;
  const statusesBefore = session.ui.getSnapshot().statuses.length;
  transport.push(chunks[stream.burstChunk]!);
  await nextTask();
  await nextTask();
  const statuses = session.ui.getSnapshot().statuses.length;
  if (statuses - statusesBefore !== 200)
    throw new Error(`The burst left ${statuses} statuses (${statusesBefore} before)`);
  session.close();
  return notifications - before;
}

function check(run: CoreRun, stream: GeneratedStream): void {
  const snapshot = run.session.ui.getSnapshot();
  const problems: string[] = [];
  if (run.session.diagnosticCount !== 0) problems.push(`${run.session.diagnosticCount} diagnostics`);
  if (snapshot.statuses.length !== stream.expected.statusKeys) problems.push(`${snapshot.statuses.length} statuses`);
  if (snapshot.notificationCount !== stream.expected.notifications)
    problems.push(`${snapshot.notificationCount} notes`);
  if (snapshot.dialogs.length !== stream.expected.dialogs) problems.push(`${snapshot.dialogs.length} dialogs`);
  if (problems.length > 0)
    throw new Error(`The session did not process the stream as expected: ${problems.join(", ")}`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

declare const gc: (() => void) | undefined;

export async function benchCore(options: StreamOptions & { rounds: number }) {
  const stream = generateStream(options);
  const chunks = chunksOf(stream);
  const collect = () => {
    if (typeof gc === "function") gc();
  };
  // One untimed pass of each first, so both are measured with warm (optimized) code.
  await runBaseline(chunks);
  (await runSession(chunks)).session.close();
  const baselineRates: number[] = [];
  const sessionRates: number[] = [];
  const storeNotifications: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    // Alternate which goes first so neither always runs in the other's garbage.
    for (const which of round % 2 ? ["session", "baseline"] : ["baseline", "session"]) {
      collect();
      await nextTask();
      if (which === "baseline") {
        const { ms, records } = await runBaseline(chunks);
        if (records !== stream.messages) throw new Error(`Baseline saw ${records} of ${stream.messages} records`);
        baselineRates.push(stream.messages / (ms / 1000));
      } else {
        const run = await runSession(chunks);
        check(run, stream);
        run.session.close();
        sessionRates.push(stream.messages / (run.ms / 1000));
        storeNotifications.push(run.notifications);
      }
    }
    ratios.push(sessionRates[round]! / baselineRates[round]!);
  }
  const messagesPerSecond = median(sessionRates);
  const baselineMessagesPerSecond = median(baselineRates);
  const share = (kind: (k: string) => boolean) =>
    Object.entries(stream.mix).reduce((sum, [k, n]) => sum + (kind(k) ? n : 0), 0) / stream.messages;
  return {
    // The median of per-round ratios: each round times both back to back, so load from other processes on a
    // shared machine hits both alike; a ratio of two medians taken at different moments is noisier.
    throughputRatio: median(ratios),
    messagesPerSecond,
    baselineMessagesPerSecond,
    burstNotifications: await measureBurst(stream, chunks),
    stream: {
      seed: options.seed,
      messages: stream.messages,
      bytes: stream.bytes.length,
      chunks: chunks.length,
      messageUpdateShare: share((k) => k === "message_update"),
      extensionUiShare: share((k) => k.startsWith("ui:")),
      mix: stream.mix,
    },
    rounds: options.rounds,
    ratios,
    sessionRates,
    baselineRates,
    storeNotificationsPerRun: median(storeNotifications),
  };
}

/** For profiling (bench/README.md): the core path or the baseline alone, `times` over, on one generated stream. */
let profiled: Uint8Array[] | undefined;
export async function profileCore(options: StreamOptions & { times: number; baseline?: boolean }) {
  profiled ??= chunksOf(generateStream(options));
  for (let i = 0; i < options.times; i++) {
    if (options.baseline) await runBaseline(profiled);
    else (await runSession(profiled)).session.close();
  }
}

(globalThis as { benchCore?: typeof benchCore }).benchCore = benchCore;
(globalThis as { profileCore?: typeof profileCore }).profileCore = profileCore;
