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
 * understand (`findRecords`, `sortAgentFrame`).
 */
import { isUtf8 } from "node:buffer";
import { isBridgeType } from "@pi-elements/core";

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

/**
 * The bridge decides what a record is on the value `JSON.parse` gives, as every client's parser does: with duplicate
 * `"type"` keys the last one counts, and escapes (`\u0070`, `\/`) spell what they spell. So it may trust no bytes at
 * a fixed place; instead, each kind of record it looks for is one that must contain one of a few byte strings (its
 * needles) somewhere, and only records that do are decoded and parsed (false hits are dropped by the caller's check).
 * Why the needles are complete: a record's type is one JSON string token. The only escapes that can spell a letter, a
 * digit, `-` or `_` are `\u` ones (the others spell `"`, `\`, `/`, backspace, form feed, LF, CR or tab). So a token
 * without `\u` holds those characters of its value literally. Needles start at a byte that is rare in pi's output
 * (`q`, `-`), since a search stops at every occurrence of its first byte.
 */
const UNICODE_ESCAPE = Buffer.from("\\u");

/**
 * `extension_ui_request`: without `\u`, its token is literally `"extension_ui_request"` (no other escape spells any
 * of its characters), so it holds `quest"`.
 */
export const UI_REQUEST_NEEDLES: readonly Buffer[] = [Buffer.from('quest"'), UNICODE_ESCAPE];

/**
 * A type that starts with `pi-elements/`: without `\u`, its token starts with `"pi-elements` literally (the slash may be
 * `\/`, so the needle stops before it), so it holds `-eleme` (six bytes: Node searches a needle of seven or more
 * another way, which measured three times slower here).
 */
export const BRIDGE_TYPE_NEEDLES: readonly Buffer[] = [Buffer.from("-eleme"), UNICODE_ESCAPE];

/**
 * The records of a frame (given as its parts, see `JsonlFramer`) that contain one of `needles`, decoded (a trailing
 * CR removed). Long message_update lines are never decoded, and a frame costs one native search per needle over its
 * bytes (and one more per hit), not a search per record.
 */
export function findRecords(parts: readonly Buffer[], needles: readonly Buffer[]): string[] {
  const records: string[] = [];
  const last = parts.at(-1);
  if (last === undefined) return records;
  let body = last;
  if (parts.length > 1) {
    // The first record spans the held pieces and the start of the last part. Each piece is searched where it lies
    // (and each seam between two of them, from a copy of a few bytes); only a record with a hit is joined. Joining
    // every such record (one per read, often several KB) cost more in garbage collection than all the rest.
    const firstEnd = last.indexOf(LF) + 1;
    const pieces = [...parts.slice(0, -1), last.subarray(0, firstEnd)];
    if (piecesInclude(pieces, needles)) scan(Buffer.concat(pieces), needles, records);
    body = last.subarray(firstEnd);
  }
  scan(body, needles, records);
  return records;
}

/** Whether the concatenation of `pieces` contains one of `needles`, without making it. */
function piecesInclude(pieces: readonly Buffer[], needles: readonly Buffer[]): boolean {
  for (const piece of pieces) for (const needle of needles) if (piece.includes(needle)) return true;
  // A needle cut at a seam: compared in place where both sides are long enough (the usual case), else from a copy.
  for (let i = 1; i < pieces.length; i++) {
    const before = pieces[i - 1] as Buffer;
    const after = pieces[i] as Buffer;
    for (const needle of needles) {
      if (before.length < needle.length || after.length < needle.length) {
        if (Buffer.concat(pieces).includes(needle)) return true;
        continue;
      }
      for (let cut = 1; cut < needle.length; cut++) {
        if (seamMatches(before, after, needle, cut)) return true;
      }
    }
  }
  return false;
}

/** Whether `before` ends with `needle`'s first `cut` bytes and `after` starts with the rest. */
function seamMatches(before: Buffer, after: Buffer, needle: Buffer, cut: number): boolean {
  const offset = before.length - cut;
  for (let j = 0; j < cut; j++) if (before[offset + j] !== needle[j]) return false;
  for (let j = cut; j < needle.length; j++) if (after[j - cut] !== needle[j]) return false;
  return true;
}

/** Pushes every record (LF-separated line, a trailing CR removed) of `buffer` that contains one of `needles`. */
function scan(buffer: Buffer, needles: readonly Buffer[], records: string[]): void {
  const next = needles.map((needle) => buffer.indexOf(needle));
  let from = 0;
  for (;;) {
    let hit = -1;
    for (let i = 0; i < needles.length; i++) {
      let at = next[i] as number;
      if (at !== -1 && at < from) {
        at = buffer.indexOf(needles[i] as Buffer, from);
        next[i] = at;
      }
      if (at !== -1 && (hit === -1 || at < hit)) hit = at;
    }
    if (hit === -1) return;
    // No needle holds an LF, so the byte at `hit` is not one: the record starts after the LF before it.
    const start = buffer.lastIndexOf(LF, hit) + 1;
    let end = buffer.indexOf(LF, hit);
    if (end === -1) end = buffer.length;
    const record = buffer.toString("utf8", start, end);
    records.push(record.endsWith("\r") ? record.slice(0, -1) : record);
    from = end + 1;
  }
}

const AGENT_FRAME_NEEDLES = [...new Set([...BRIDGE_TYPE_NEEDLES, ...UI_REQUEST_NEEDLES])];

export interface SortedAgentFrame {
  /** The frame without the records in the bridge's own namespace: the same parts when there were none. */
  parts: Buffer[];
  /** How many records were taken out. */
  dropped: number;
  /** The records that may be UI requests, decoded, in order (the mirror parses them and keeps the real ones). */
  uiRequests: string[];
}

/**
 * One pass over a frame of agent output: the records whose parsed `type` is in the bridge's own `pi-elements/`
 * namespace, which only the bridge may write, are taken out (an agent that wrote them could make a client drop or
 * close what the bridge still holds, or show a fake exit), and the records that may be UI requests are handed over
 * for the mirror, which must see every request a client sees. Decided on the parsed value, so no escape
 * (`pi-elements\/…`, `\u0070i-…`) and no second `"type"` key hides a record from either. Only a candidate with a
 * `-eleme` or `\u` hit is parsed here (a UI request found by its `quest"` alone cannot be in the namespace); when
 * something is dropped, the frame is joined and rebuilt from its other records (rare: pi writes none).
 */
export function sortAgentFrame(parts: Buffer[]): SortedAgentFrame {
  const uiRequests: string[] = [];
  let dropped = 0;
  for (const text of findRecords(parts, AGENT_FRAME_NEEDLES)) {
    if (!mayBeBridgeRecord(text)) {
      uiRequests.push(text);
      continue;
    }
    const type = parsedType(text);
    if (isBridgeType(type)) dropped++;
    else if (type === "extension_ui_request") uiRequests.push(text);
  }
  if (dropped === 0) return { parts, dropped, uiRequests };
  const frame = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  const kept: Buffer[] = [];
  let start = 0;
  while (start < frame.length) {
    let end = frame.indexOf(LF, start) + 1;
    if (end === 0) end = frame.length;
    const line = frame.subarray(start, end);
    const bridgeRecord =
      BRIDGE_TYPE_NEEDLES.some((needle) => line.includes(needle)) && isBridgeType(parsedType(line.toString("utf8")));
    if (!bridgeRecord) kept.push(line);
    start = end;
  }
  return { parts: kept.length === 0 ? [] : [Buffer.concat(kept)], dropped, uiRequests };
}

function mayBeBridgeRecord(text: string): boolean {
  return text.includes("-eleme") || text.includes("\\u");
}

/** The `type` a client's `JSON.parse` sees (undefined for what is not a JSON object). */
function parsedType(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
  } catch {
    return undefined;
  }
}
