/**
 * A code's lines that are too long to lay out at once, drawn in pieces.
 *
 * One line of 100,000 characters (a minified file, a generated table, a line of dashes) took WebKit 112–126 ms to lay
 * out as one text, whatever its colours, since a line that does not wrap is shaped whole (`pnpm bench hostile`: 178 ms
 * between two frames). In pieces of about 4,096 characters, each an inline box laid out and painted only near the
 * view (`content-visibility: auto`, code-block.styles.ts), the same line took 1 ms and a scroll to its middle 15 ms.
 * The pieces sit side by side on the line; the text, its selection and its copy are the same.
 */
import { PIECE_CHARS, textPieces } from "../markdown/long-text.js";

/** A line longer than this many characters is drawn in pieces (textPieces cuts a text past it). */
export const LONG_LINE_CHARS = PIECE_CHARS * 2;

/** A text as it is, or a long line as its pieces. */
export type LineRun = string | readonly string[];

/**
 * `chunk` as runs, in order (joined, the chunk again): the text between long lines as it is, each line longer than
 * LONG_LINE_CHARS (without its line feed) as its pieces. Undefined when no line is that long.
 */
export function longLineRuns(chunk: string): LineRun[] | undefined {
  if (chunk.length <= LONG_LINE_CHARS) return undefined;
  const runs: LineRun[] = [];
  let plainFrom = 0;
  for (let start = 0; start < chunk.length; ) {
    const lineFeed = chunk.indexOf("\n", start);
    const end = lineFeed === -1 ? chunk.length : lineFeed;
    if (end - start > LONG_LINE_CHARS) {
      if (start > plainFrom) runs.push(chunk.slice(plainFrom, start));
      runs.push(textPieces(chunk.slice(start, end)));
      plainFrom = end;
    }
    start = end + 1;
  }
  if (runs.length === 0) return undefined;
  if (plainFrom < chunk.length) runs.push(chunk.slice(plainFrom));
  return runs;
}
