/**
 * Property checks of the JSONL codec, shared by the Node test and the Chromium test (the browser has its own
 * TextDecoder, so the byte path is worth running there too). Each check throws fast-check's report on failure.
 */
import fc from "fast-check";
import { encodeJsonl, JsonlDecoder } from "../src/codec/jsonl.js";

/** Characters that break naive framings: line separators, CR, LF, quotes, NUL, astral emoji, CJK, a lone surrogate. */
const trickyUnit = fc.oneof(
  fc.constantFrom("\u2028", "\u2029", "\r", "\n", "\r\n", '"', "\\", "\u0000", "🎉", "👩‍💻", "世", "界", "é", "\ud800"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.constantFrom("a", "b", " ", "{", "}"),
);

export const jsonValues = fc.array(fc.jsonValue({ maxDepth: 3, stringUnit: trickyUnit }), { maxLength: 12 });

/** Cut points into a sequence of the given length: any number of chunks, including empty ones. */
export function cut<T extends string | Uint8Array>(whole: T, points: number[]): T[] {
  const offsets = points.map((p) => p % (whole.length + 1)).sort((a, b) => a - b);
  const chunks: T[] = [];
  let start = 0;
  for (const offset of [...offsets, whole.length]) {
    chunks.push(whole.slice(start, offset) as T);
    start = offset;
  }
  return chunks;
}

export function decodeAll(chunks: Array<string | Uint8Array>, maxLineLength?: number): string[] {
  const lines: string[] = [];
  const decoder = new JsonlDecoder({
    onRecord: (line) => lines.push(line),
    ...(maxLineLength === undefined ? {} : { maxLineLength }),
  });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return lines;
}

/** Structural equality of JSON values in which -0 equals 0 (JSON has no negative zero). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every(
    (key) =>
      Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

function lineEndings() {
  // Per record: LF or CRLF, and sometimes blank lines before it. The last record may lack its LF (end() flushes).
  return fc.record({
    crlf: fc.array(fc.boolean(), { maxLength: 12 }),
    blanks: fc.array(fc.constantFrom("", "\n", "\r\n", "\n\n"), { maxLength: 12 }),
    unterminatedLast: fc.boolean(),
  });
}

function frame(values: unknown[], ends: { crlf: boolean[]; blanks: string[]; unterminatedLast: boolean }): string {
  let text = "";
  values.forEach((value, i) => {
    const last = i === values.length - 1;
    text += (ends.blanks[i] ?? "") + JSON.stringify(value);
    if (!(last && ends.unterminatedLast)) text += ends.crlf[i] ? "\r\n" : "\n";
  });
  return text;
}

function expectSameRecords(values: unknown[], lines: string[]): boolean {
  if (lines.length !== values.length) return false;
  // Exact text first (framing must not touch a record), then the values themselves.
  return values.every((value, i) => lines[i] === JSON.stringify(value) && sameJson(JSON.parse(lines[i]!), value));
}

/** Any chunking of the text of any sequence of JSON values decodes to those values. */
export function checkTextChunking(numRuns = 300): void {
  fc.assert(
    fc.property(jsonValues, lineEndings(), fc.array(fc.nat(), { maxLength: 40 }), (values, ends, points) =>
      expectSameRecords(values, decodeAll(cut(frame(values, ends), points))),
    ),
    { numRuns },
  );
}

/** Any chunking of the UTF-8 bytes (so also inside multi-byte sequences) decodes to the same values. */
export function checkByteChunking(numRuns = 300): void {
  fc.assert(
    fc.property(jsonValues, lineEndings(), fc.array(fc.nat(), { maxLength: 40 }), (values, ends, points) => {
      const bytes = new TextEncoder().encode(frame(values, ends));
      return expectSameRecords(values, decodeAll(cut(bytes, points)));
    }),
    { numRuns },
  );
}

/** The encoder's output, concatenated and chunked any way, always decodes back to the values. */
export function checkEncoderRoundTrip(numRuns = 300): void {
  fc.assert(
    fc.property(jsonValues, fc.array(fc.nat(), { maxLength: 20 }), (values, points) => {
      const text = values.map(encodeJsonl).join("");
      const lines = decodeAll(cut(text, points));
      return lines.length === values.length && values.every((value, i) => sameJson(JSON.parse(lines[i]!), value));
    }),
    { numRuns },
  );
}
