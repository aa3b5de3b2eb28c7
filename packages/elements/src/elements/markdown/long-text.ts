/**
 * A long text drawn as several blocks, so that a browser lays out again only the part that changed.
 *
 * A paragraph shown as written (past the inline limits, block-lexer.ts) can be 300,000 characters long and grow with
 * every streamed update. As one text node, WebKit laid the whole paragraph out again at every update: frames 465–577
 * ms apart while 300,000 characters streamed (`pnpm bench hostile`). As pieces that do not change once complete,
 * each a block of its own, an update lays out the last piece only. Blocks, not text nodes: in WebKit a paragraph of
 * 73 text nodes cost as much as one per update, or more (its inline layout takes the whole paragraph), while 73
 * blocks cost a piece. The price is a line that ends early where a piece was cut, which is at a white space where the
 * text has one.
 */

/** Characters per piece (the last may be up to twice as long before it is cut). */
export const PIECE_CHARS = 4_096;

/** How far before a cut a run without white space is read for its graphemes (far longer than one, but in contrived text). */
const GRAPHEME_WINDOW = 64;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** A combining mark or a joiner: the rest of the grapheme before it. */
const startsMarked = /^[\p{M}\u200d]/u;

/** Whether the UTF-16 pair at `i` is a regional indicator (U+1F1E6–U+1F1FF, half of a flag). */
function isRegionalIndicator(text: string, i: number): boolean {
  const low = text.charCodeAt(i + 1);
  return text.charCodeAt(i) === 0xd83c && low >= 0xdde6 && low <= 0xddff;
}

/**
 * Where the piece from `start` (where a grapheme starts) ends: after the last white space in the second half of its
 * PIECE_CHARS characters, or, in a run without one, at the last grapheme boundary at or before PIECE_CHARS (a
 * combining mark, an emoji's joiner, the second half of a surrogate pair or of a flag never starts a node). It
 * depends only on the text up to `start + PIECE_CHARS`, so a complete piece stays the same while the text grows.
 */
function pieceEnd(text: string, start: number): number {
  const limit = start + PIECE_CHARS;
  for (let i = limit - 1; i >= start + PIECE_CHARS / 2; i--) {
    const code = text.charCodeAt(i);
    // A space, a tab or a line feed, where a line may break anyway, unless a mark follows (one grapheme with it).
    if ((code === 32 || code === 9 || code === 10) && !startsMarked.test(text[i + 1]!)) return i + 1;
  }
  // The graphemes of the characters before the cut, read from a place where one starts: not the second half of a
  // surrogate pair, and in a run of flags (whose halves pair up from the run's start) an even count from its start.
  let from = limit - GRAPHEME_WINDOW;
  if (text.charCodeAt(from) >= 0xdc00 && text.charCodeAt(from) <= 0xdfff) from -= 1;
  let run = from;
  while (run - 2 >= start && isRegionalIndicator(text, run - 2)) run -= 2;
  if ((from - run) % 4 !== 0) from -= 2;
  // The last boundary at or before the cut (a segment's index is where it starts; none starts past `limit`).
  let end = from;
  for (const { index } of graphemes.segment(text.slice(from, limit + 1))) if (index > 0) end = from + index;
  return end;
}

/** The last text cut and its pieces: a streaming text is cut again only from its last complete piece on. */
let last: { text: string; pieces: readonly string[]; complete: number } = { text: "", pieces: [], complete: 0 };

/** `text` as it is, up to 2 × PIECE_CHARS characters; past that, its pieces (joined, the text again). */
export function textPieces(text: string): string | readonly string[] {
  if (text.length <= PIECE_CHARS * 2) return text;
  if (text === last.text) return last.pieces;
  // The text grew from the last one cut (a streaming message): its complete pieces, each cut by what that text held,
  // are this one's first ones.
  const reuse = last.complete > 0 && text.startsWith(last.text);
  const pieces = reuse ? last.pieces.slice(0, -1) : [];
  let start = reuse ? last.complete : 0;
  while (text.length - start > PIECE_CHARS * 2) {
    const end = pieceEnd(text, start);
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  last = { text, pieces, complete: start };
  return pieces;
}
