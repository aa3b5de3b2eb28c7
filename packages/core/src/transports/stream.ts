/**
 * JSONL over a pair of WHATWG streams: a child process's stdio in Node (`Readable.toWeb(child.stdout)`,
 * `Writable.toWeb(child.stdin)`), or a fetch response body and request stream in a browser. pi speaks exactly
 * this on stdio, so the framing is the core's strict `JsonlDecoder` (LF only; U+2028 stays inside a record;
 * UTF-8 split across chunks is joined) and writes are one LF-terminated line per record.
 *
 * Writes respect the writer's backpressure: a record is handed to the stream only once `writer.ready` resolves,
 * so a slow reader leaves records in this transport's bounded queue (`queued`), not in an unbounded stream queue.
 *
 * State: "open" from the start (the streams already exist); "closed" when the readable ends or fails, when a
 * write fails (the other side went away), or on `close()`. There is no reconnecting: a stream cannot be reopened.
 */
import { JsonlDecoder } from "../codec/jsonl.js";
import { errorMessage } from "../diagnostics.js";
import { BaseTransport } from "./base.js";
import { RecordQueue } from "./record-queue.js";
import type { TransportState } from "./transport.js";

export interface StreamTransportOptions {
  /** Incoming JSONL, as bytes (UTF-8) or text, in any chunking. */
  readable: ReadableStream<Uint8Array | string>;
  /** Where outgoing lines go. Omit for a receive-only transport (sending then gives a diagnostic). */
  writable?: WritableStream<Uint8Array> | WritableStream<string>;
  /** Write UTF-8 bytes (default; what Node's stdin and fetch bodies take) or strings (for a TextEncoderStream). */
  writeAs?: "bytes" | "text";
  /** Longest incoming line before it is dropped with a diagnostic. Default: the decoder's 8 MiB. */
  maxLineLength?: number;
  /** Records held while the writer applies backpressure; beyond this the oldest is dropped. Default 1000. */
  maxQueue?: number;
}

export class StreamTransport extends BaseTransport {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array | string>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array | string> | undefined;
  readonly #writeAs: "bytes" | "text";
  readonly #queue: RecordQueue;
  readonly #encoder = new TextEncoder();
  #pumping = false;

  constructor(options: StreamTransportOptions) {
    super("open");
    this.#writeAs = options.writeAs ?? "bytes";
    this.#queue = new RecordQueue(options.maxQueue);
    this.#reader = options.readable.getReader();
    this.#writer = (options.writable as WritableStream<Uint8Array | string> | undefined)?.getWriter();
    const decoder = new JsonlDecoder({
      ...(options.maxLineLength === undefined ? {} : { maxLineLength: options.maxLineLength }),
      onRecord: (line) => {
        if (this.state !== "closed") this.emitRecord(line);
      },
      onDiagnostic: (diagnostic) => this.emitDiagnostic(diagnostic),
    });
    void this.#read(decoder);
  }

  /** Records waiting for the writer to accept more (backpressure), oldest first. */
  get queued(): number {
    return this.#queue.size;
  }

  send(record: string): void {
    if (this.state === "closed" || this.#writer === undefined) {
      this.diagnose(
        this.#writer ? "Record dropped: the stream transport is closed." : "Record dropped: no writable stream.",
        record,
      );
      return;
    }
    if (record.includes("\n")) {
      this.diagnose("Record dropped: it contains a line feed, which would split it in two lines.", record);
      return;
    }
    const dropped = this.#queue.push(record);
    if (dropped !== undefined) this.diagnose("Send queue full: dropped the oldest queued record.", dropped);
    void this.#pump();
  }

  /**
   * Stops reading and closes the writable after handing it every record still queued (closing a child's stdin
   * is how it learns to exit). Idempotent.
   */
  close(): void {
    if (this.state === "closed") return;
    this.setState("closed");
    this.#reader.cancel().catch(() => {});
    const writer = this.#writer;
    if (!writer) return;
    // Without waiting for `ready`: the writer queues these and `close()` resolves once they are written.
    for (const record of this.#queue.drain()) writer.write(this.#line(record)).catch(() => {});
    writer.close().catch(() => {});
  }

  async #read(decoder: JsonlDecoder): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await this.#reader.read();
        if (done) break;
        decoder.push(value);
      }
      decoder.end();
    } catch (error) {
      if (this.state !== "closed") this.diagnose(`The readable stream failed: ${errorMessage(error)}`);
    }
    this.close();
  }

  /** One writer loop at a time: wait for room, hand over the oldest record, repeat. */
  async #pump(): Promise<void> {
    const writer = this.#writer;
    if (this.#pumping || !writer) return;
    this.#pumping = true;
    try {
      while (this.#queue.size > 0 && this.state !== "closed") {
        await writer.ready;
        const record = this.#queue.shift();
        // Widened: TypeScript would keep the loop condition's narrowing across the `await`.
        if (record === undefined || (this.state as TransportState) === "closed") break;
        writer.write(this.#line(record)).catch((error) => this.#writeFailed(error, record));
      }
    } catch (error) {
      this.#writeFailed(error);
    } finally {
      this.#pumping = false;
    }
  }

  #writeFailed(error: unknown, record?: string): void {
    if (this.state === "closed") return;
    this.diagnose(`The writable stream failed: ${errorMessage(error)}`, record);
    this.close();
  }

  #line(record: string): Uint8Array | string {
    const line = `${record}\n`;
    return this.#writeAs === "text" ? line : this.#encoder.encode(line);
  }
}
