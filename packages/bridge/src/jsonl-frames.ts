/**
 * Strict JSONL framing of the agent's stdout at the byte level: LF (0x0A) is the only record separator, so
 * U+2028 / U+2029 (E2 80 A8 / E2 80 A9) can never split a record, and a cut at an LF never cuts a UTF-8 sequence
 * (0x0A occurs in no multi-byte sequence).
 *
 * Each read becomes one frame of whole records, handed over as `parts` whose concatenation is the frame: the
 * pieces of the record that earlier reads left incomplete, then the new bytes up to their last LF. Nothing is
 * copied, decoded, split, joined or re-encoded on the way (the bridge sends the parts as the fragments of one
 * WebSocket message, in one write), which keeps the bridge close to the speed of a plain pipe: joining the parts
 * (a copy of every read) measured half again as much CPU. The bridge decodes only the few records it must
 * understand (`recordFinder`).
 */
import { isUtf8 } from "node:buffer";
import { BRIDGE_PREFIX, isBridgeType } from "@pi-elements/core";

export const DEFAULT_MAX_RECORD_BYTES = 8 * 1024 * 1024;

export interface JsonlFramerOptions {
  /** Longest record in bytes; a longer one is dropped up to its LF, with `onOversized`. Default 8 MiB. */
  maxRecordBytes?: number;
  onOversized?: (bytes: number) => void;
}

const LF = 0x0a;

export class JsonlFramer {
  readonly #maxRecordBytes: number;
  readonly #onOversized: (bytes: number) => void;
  /** The pieces of an incomplete record (views of earlier chunks, which the stream never reuses). */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** While > 0: dropping an oversized record, this many bytes so far, until its LF. */
  #skipped = 0;

  constructor(options: JsonlFramerOptions = {}) {
    this.#maxRecordBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    this.#onOversized = options.onOversized ?? (() => {});
  }

  /**
   * The frame of whole records (LF-terminated, valid UTF-8) that this chunk completes, as parts whose
   * concatenation is the frame; empty when it completes none.
   */
  push(chunk: Buffer): Buffer[] {
    let data = chunk;
    if (this.#skipped > 0) {
      const lf = data.indexOf(LF);
      if (lf === -1) {
        this.#skipped += data.length;
        return [];
      }
      this.#onOversized(this.#skipped + lf);
      this.#skipped = 0;
      data = data.subarray(lf + 1);
    }
    const last = data.lastIndexOf(LF);
    if (last === -1) {
      this.#hold(data);
      return [];
    }
    let parts = [data.subarray(0, last + 1)];
    if (this.#partialBytes > 0) {
      const firstEnd = data.indexOf(LF) + 1;
      const recordBytes = this.#partialBytes + firstEnd - 1;
      if (recordBytes > this.#maxRecordBytes) {
        this.#onOversized(recordBytes);
        parts = [data.subarray(firstEnd, last + 1)];
      } else {
        parts = [...this.#partial, ...parts];
      }
      this.#partial = [];
      this.#partialBytes = 0;
    }
    this.#hold(data.subarray(last + 1));
    return this.#checked(parts);
  }

  /** Ends the stream: a final record without LF is still a record. */
  end(): Buffer[] {
    if (this.#skipped > 0) {
      this.#onOversized(this.#skipped);
      this.#skipped = 0;
    }
    if (this.#partialBytes === 0) return [];
    const parts = [...this.#partial, Buffer.from([LF])];
    this.#partial = [];
    this.#partialBytes = 0;
    return this.#checked(parts);
  }

  #hold(rest: Buffer): void {
    if (rest.length === 0) return;
    if (this.#partialBytes + rest.length > this.#maxRecordBytes) {
      this.#skipped = this.#partialBytes + rest.length;
      this.#partial = [];
      this.#partialBytes = 0;
      return;
    }
    this.#partial.push(rest);
    this.#partialBytes += rest.length;
  }

  /**
   * The two checks that need a look at every record, done on the rare frames that need them: a record longer
   * than the limit inside one chunk (only a frame longer than the limit can hold one), and bytes that are not
   * UTF-8 (WebSocket text must be; they become U+FFFD, as a decoder would make them). A part may end inside a
   * UTF-8 sequence that the next part completes, so a part that fails the cheap per-part check is judged on the
   * joined frame.
   */
  #checked(parts: Buffer[]): Buffer[] {
    let length = 0;
    let valid = true;
    for (const part of parts) {
      length += part.length;
      if (valid && !isUtf8(part)) valid = false;
    }
    if (length === 0) return [];
    if (valid && length <= this.#maxRecordBytes) return parts;
    let frame = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, length);
    if (length > this.#maxRecordBytes) frame = this.#dropOversized(frame);
    if (!isUtf8(frame)) frame = Buffer.from(frame.toString("utf8"), "utf8");
    return frame.length === 0 ? [] : [frame];
  }

  #dropOversized(frame: Buffer): Buffer {
    const kept: Buffer[] = [];
    let start = 0;
    while (start < frame.length) {
      const end = frame.indexOf(LF, start) + 1;
      if (end - start - 1 > this.#maxRecordBytes) this.#onOversized(end - start - 1);
      else kept.push(frame.subarray(start, end));
      start = end;
    }
    return Buffer.concat(kept);
  }
}

/** pi writes every record as `{"type":"…",…}`: the type can be read at a fixed place, without a search. */
const TYPE_PREFIX = Buffer.from('{"type":');
const QUOTE = 0x22;

/**
 * Makes a finder for the records of a frame (given as its parts) whose `type` is `type` (or, with `prefix`, starts
 * with it), returning them decoded.
 * A record that starts with a `"type"` key (all of pi's do) is judged by the bytes that follow it; any other record
 * is decoded if it contains the JSON string `"<type>"` anywhere (inside another string its quotes would be
 * escaped), and the caller's validation drops false positives. So long message_update lines are never decoded,
 * and scanning a frame costs one LF search per record.
 */
export function recordFinder(type: string, { prefix = false } = {}): (parts: readonly Buffer[]) => string[] {
  // With `prefix`, the needle lacks its closing quote: it matches every type that starts with `type`.
  const quoted = JSON.stringify(type);
  const needle = Buffer.from(prefix ? quoted.slice(0, -1) : quoted);
  return (parts) => {
    const records: string[] = [];
    const last = parts.at(-1);
    if (last === undefined) return records;
    let body = last;
    if (parts.length > 1) {
      // The first record spans the held pieces and the start of the last part. Its head (a copy of a few dozen
      // bytes) says whether it can be one; only then is the whole record joined. Joining every such record (one
      // per read, often several KB) cost more in garbage collection than all the rest of the search.
      const firstEnd = last.indexOf(LF) + 1;
      const pieces = [...parts.slice(0, -1), last.subarray(0, firstEnd)];
      let length = 0;
      for (const piece of pieces) length += piece.length;
      const head = Buffer.concat(pieces, Math.min(length, TYPE_PREFIX.length + needle.length));
      if (!isCompactHead(head, 0, head.length) || startsWith(head, TYPE_PREFIX.length, head.length, needle)) {
        scan(Buffer.concat(pieces, length), needle, records);
      }
      body = last.subarray(firstEnd);
    }
    scan(body, needle, records);
    return records;
  };
}

function scan(buffer: Buffer, needle: Buffer, records: string[]): void {
  let start = 0;
  while (start < buffer.length) {
    let end = buffer.indexOf(LF, start);
    if (end === -1) end = buffer.length;
    // `{"type":"…` compact, as pi writes it; anything else (spaces, type not first) gets the full search.
    const match = isCompactHead(buffer, start, end)
      ? startsWith(buffer, start + TYPE_PREFIX.length, end, needle)
      : buffer.subarray(start, end).includes(needle);
    if (match) {
      const record = buffer.toString("utf8", start, end);
      records.push(record.endsWith("\r") ? record.slice(0, -1) : record);
    }
    start = end + 1;
  }
}

/** Whether the record at `buffer[from, end)` starts with `{"type":"`, so its type is read at a fixed place. */
function isCompactHead(buffer: Buffer, from: number, end: number): boolean {
  return startsWith(buffer, from, end, TYPE_PREFIX) && buffer[from + TYPE_PREFIX.length] === QUOTE;
}

/** Whether `buffer[from, end)` starts with `prefix`, compared byte by byte (cheaper than a native call here). */
function startsWith(buffer: Buffer, from: number, end: number, prefix: Buffer): boolean {
  if (end - from < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buffer[from + i] !== prefix[i]) return false;
  return true;
}

const findBridgeTypes = recordFinder(BRIDGE_PREFIX, { prefix: true });

/**
 * The frame without the records whose `type` is in the bridge's own `pi-elements/` namespace, which only the bridge
 * may write: an agent that wrote them could make a client drop or close what the bridge still holds. The same parts
 * when there are none (the usual case: one search per record, as `recordFinder`); otherwise the frame is joined and
 * rebuilt from its other records. `dropped` counts what was taken out.
 */
export function withoutBridgeRecords(parts: Buffer[]): { parts: Buffer[]; dropped: number } {
  const candidates = findBridgeTypes(parts);
  if (candidates.length === 0 || !candidates.some(isBridgeRecord)) return { parts, dropped: 0 };
  const frame = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  const kept: Buffer[] = [];
  let dropped = 0;
  let start = 0;
  while (start < frame.length) {
    let end = frame.indexOf(LF, start) + 1;
    if (end === 0) end = frame.length;
    const line = frame.subarray(start, end);
    if (line.includes(BRIDGE_NEEDLE) && isBridgeRecord(line.toString("utf8"))) dropped++;
    else kept.push(line);
    start = end;
  }
  return { parts: kept.length === 0 ? [] : [Buffer.concat(kept)], dropped };
}

const BRIDGE_NEEDLE = Buffer.from(JSON.stringify(BRIDGE_PREFIX).slice(0, -1));

function isBridgeRecord(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && isBridgeType((value as { type?: unknown }).type);
  } catch {
    return false;
  }
}
