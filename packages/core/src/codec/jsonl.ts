/**
 * Strict JSONL framing as pi speaks it: LF is the only record separator, one trailing CR is stripped, and
 * U+2028 / U+2029 are ordinary characters inside a record (Node's readline would split on them; this must not).
 */
import { type Diagnostic, excerpt } from "../diagnostics.js";

export const DEFAULT_MAX_LINE_LENGTH = 8 * 1024 * 1024;
/** How much of a dropped line is kept to build its diagnostic's excerpt. */
const EXCERPT_SOURCE = 200;
const STREAM: TextDecodeOptions = { stream: true };

export interface JsonlDecoderOptions {
  /**
   * Longest record, in UTF-16 code units and not counting its LF or CRLF, before it is dropped with a diagnostic.
   * Default 8 MiB.
   */
  maxLineLength?: number;
  onRecord: (line: string) => void;
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/**
 * A streaming decoder. `push` takes text or bytes in any chunking (UTF-8 sequences split across chunks are joined
 * by TextDecoder's stream mode); every complete line is handed to `onRecord`. Empty lines are skipped.
 */
export class JsonlDecoder {
  readonly #maxLineLength: number;
  readonly #onRecord: (line: string) => void;
  readonly #onDiagnostic: (diagnostic: Diagnostic) => void;
  /** UTF-8, replacing malformed bytes with U+FFFD (the defaults). */
  readonly #utf8 = new TextDecoder();
  #pending: string[] = [];
  #pendingLength = 0;
  /** True while dropping an oversized line until its LF. */
  #skipping = false;

  constructor(options: JsonlDecoderOptions) {
    this.#maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
    this.#onRecord = options.onRecord;
    this.#onDiagnostic = options.onDiagnostic ?? (() => {});
  }

  push(chunk: string | Uint8Array): void {
    const text = typeof chunk === "string" ? chunk : this.#utf8.decode(chunk, STREAM);
    let start = 0;
    for (;;) {
      const lf = text.indexOf("\n", start);
      if (lf === -1) {
        this.#append(text, start, text.length);
        return;
      }
      if (this.#pendingLength === 0 && !this.#skipping) {
        // The common case, a whole line inside one chunk: no buffering, one slice.
        this.#complete(text.slice(start, lf));
      } else {
        this.#append(text, start, lf);
        this.#emit();
      }
      start = lf + 1;
    }
  }

  /** Ends the stream: a final line without LF is still a record (pi always ends with LF; others may not). */
  end(): void {
    const rest = this.#utf8.decode();
    if (rest) this.#append(rest, 0, rest.length);
    this.#emit();
  }

  #append(text: string, from: number, to: number): void {
    if (from === to || this.#skipping) return;
    this.#pendingLength += to - from;
    // One more than the limit may still be a record of exactly the limit followed by CR (of a CRLF); #emit decides.
    if (this.#pendingLength > this.#maxLineLength + 1) {
      this.#dropLine(text.slice(from, Math.min(to, from + EXCERPT_SOURCE)));
      this.#skipping = true;
      return;
    }
    this.#pending.push(from === 0 && to === text.length ? text : text.slice(from, to));
  }

  #emit(): void {
    if (this.#skipping) {
      this.#skipping = false;
      return;
    }
    const line = this.#pending.length === 1 ? (this.#pending[0] as string) : this.#pending.join("");
    this.#pending.length = 0;
    this.#pendingLength = 0;
    this.#complete(line);
  }

  /** A whole line, without its LF: strips one CR, drops it if too long, skips it if empty. */
  #complete(text: string): void {
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (line.length > this.#maxLineLength) {
      this.#dropLine(line.slice(0, EXCERPT_SOURCE));
      return;
    }
    if (line.length > 0) this.#onRecord(line);
  }

  /** Reports the line being dropped; its excerpt comes from its start (never from a joined multi-MiB buffer). */
  #dropLine(tail: string): void {
    let head = "";
    for (const piece of this.#pending) {
      if (head.length >= EXCERPT_SOURCE) break;
      head += piece.slice(0, EXCERPT_SOURCE);
    }
    this.#pending.length = 0;
    this.#pendingLength = 0;
    this.#onDiagnostic({
      code: "line-too-long",
      message: `Dropped a line longer than ${this.#maxLineLength} characters; decoding resumes after its line feed.`,
      excerpt: excerpt(head + tail),
    });
  }
}

/** One record as a line: JSON.stringify never emits a raw LF, so the result is always a single line. */
export function encodeJsonl(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

export type ParseResult = { ok: true; value: unknown } | { ok: false; diagnostic: Diagnostic };

/** Parses one record's text. A failure is a diagnostic, never an exception. */
export function parseRecord(line: string): ParseResult {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch (error) {
    return {
      ok: false,
      diagnostic: {
        code: "invalid-json",
        message: `Not JSON: ${(error as Error).message}`,
        excerpt: excerpt(line),
      },
    };
  }
}
