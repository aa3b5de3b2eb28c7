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

/** The baseline: a streaming TextDecoder, split on LF, JSON.parse of each line. */
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

/** The core: decoder + session, with one store subscriber that reads the snapshot as a UI would. */
class Core {
  readonly transport = new ChunkTransport();
  readonly session = new PiSession(this.transport);
  notifications = 0;

  constructor() {
    this.session.ui.subscribe(() => {
      this.notifications++;
      this.session.ui.getSnapshot();
    });
  }

  push(chunk: Uint8Array): void {
    this.transport.push(chunk);
  }
}

/** How many chunks each side takes before the other has its turn (about 2.5 MB, some 20 ms of work). */
const BLOCK = 256;

/**
 * One round: the baseline and the core take the stream in turns, block by block, alternating which goes first,
 * each timed only while it works. Both thus run under the same load from the rest of the machine (a shared CI
 * host swings by 3x within seconds), which timing two whole passes one after the other does not give.
 */
async function runRound(chunks: Uint8Array[], round: number) {
  const baseline = new Baseline();
  const core = new Core();
  let baselineMs = 0;
  let coreMs = 0;
  for (let from = 0, block = 0; from < chunks.length; from += BLOCK, block++) {
    const to = Math.min(chunks.length, from + BLOCK);
    for (const side of (block + round) % 2 ? [core, baseline] : [baseline, core]) {
      const t0 = performance.now();
      for (let i = from; i < to; i++) {
        side.push(chunks[i]!);
        await null; // Each chunk is its own job, as chunks read from a stream are; the store flushes in between.
      }
      const ms = performance.now() - t0;
      if (side === core) coreMs += ms;
      else baselineMs += ms;
    }
  }
  await null;
  return { baselineMs, coreMs, baseline, core };
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

function check(core: Core, baseline: Baseline, stream: GeneratedStream): void {
  const snapshot = core.session.ui.getSnapshot();
  const problems: string[] = [];
  if (baseline.records !== stream.messages) problems.push(`baseline saw ${baseline.records} records`);
  if (core.session.diagnosticCount !== 0) problems.push(`${core.session.diagnosticCount} diagnostics`);
  if (snapshot.statuses.length !== stream.expected.statusKeys) problems.push(`${snapshot.statuses.length} statuses`);
  if (snapshot.notificationCount !== stream.expected.notifications)
    problems.push(`${snapshot.notificationCount} notes`);
  if (snapshot.dialogs.length !== stream.expected.dialogs) problems.push(`${snapshot.dialogs.length} dialogs`);
  if (problems.length > 0) throw new Error(`The stream was not processed as expected: ${problems.join(", ")}`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

declare const gc: (() => void) | undefined;

export async function benchCore(options: StreamOptions & { rounds: number }) {
  if (options.rounds % 2 === 0) throw new Error("Use an odd number of rounds: the median round reports the figures.");
  const stream = generateStream(options);
  const chunks = chunksOf(stream);
  // One untimed round first, so both sides are measured with warm (optimized) code.
  (await runRound(chunks, 0)).core.session.close();
  const baselineRates: number[] = [];
  const sessionRates: number[] = [];
  const ratios: number[] = [];
  const storeNotifications: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    if (typeof gc === "function") gc();
    await nextTask();
    const { baselineMs, coreMs, baseline, core } = await runRound(chunks, round);
    check(core, baseline, stream);
    core.session.close();
    sessionRates.push(stream.messages / (coreMs / 1000));
    baselineRates.push(stream.messages / (baselineMs / 1000));
    ratios.push(baselineMs / coreMs);
    storeNotifications.push(core.notifications);
  }
  const share = (kind: (k: string) => boolean) =>
    Object.entries(stream.mix).reduce((sum, [k, n]) => sum + (kind(k) ? n : 0), 0) / stream.messages;
  // The round with the median ratio gives all three figures, so throughputRatio is exactly
  // messagesPerSecond / baselineMessagesPerSecond, both measured in the same interleaved pass.
  const medianRound = ratios.indexOf(median(ratios));
  return {
    throughputRatio: ratios[medianRound]!,
    messagesPerSecond: sessionRates[medianRound]!,
    baselineMessagesPerSecond: baselineRates[medianRound]!,
    burstNotifications: await measureBurst(stream, chunks),
    bestWholePasses: await bestWholePasses(chunks, 5),
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

/** For profiling (bench/README.md): the core or the baseline alone, `times` over, on one generated stream. */
let profiled: Uint8Array[] | undefined;
export async function profileCore(options: StreamOptions & { times: number; baseline?: boolean }) {
  profiled ??= chunksOf(generateStream(options));
  for (let i = 0; i < options.times; i++) {
    const side = options.baseline ? new Baseline() : new Core();
    for (const chunk of profiled) {
      side.push(chunk);
      await null;
    }
    if (side instanceof Core) side.session.close();
  }
}

/**
 * A cross-check of the interleaved figure: whole passes one after the other, the best of `times` for each side
 * (the least disturbed run; load from elsewhere only ever adds time). Interleaving could in principle charge one
 * side's garbage collection to the other; this way cannot.
 */
async function bestWholePasses(chunks: Uint8Array[], times: number) {
  const best = { baseline: Infinity, core: Infinity };
  for (let i = 0; i < times; i++) {
    for (const name of ["baseline", "core"] as const) {
      if (typeof gc === "function") gc();
      await nextTask();
      const side = name === "baseline" ? new Baseline() : new Core();
      const t0 = performance.now();
      for (const chunk of chunks) {
        side.push(chunk);
        await null;
      }
      best[name] = Math.min(best[name], performance.now() - t0);
      if (side instanceof Core) side.session.close();
    }
  }
  return { ratio: best.baseline / best.core, baselineMs: best.baseline, coreMs: best.core, passes: times };
}

(globalThis as { benchCore?: typeof benchCore }).benchCore = benchCore;
(globalThis as { profileCore?: typeof profileCore }).profileCore = profileCore;
