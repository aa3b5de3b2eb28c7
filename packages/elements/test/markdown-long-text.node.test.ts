/**
 * textPieces (issue #33): a long text pi-markdown draws as several text nodes, so that a growing one lays out only its
 * end. What a person sees depends on three things: the pieces are the text, a complete piece never changes as the
 * text grows (or its node would be replaced and laid out again), and no piece starts inside a character a person
 * sees as one (an accent, an emoji sequence, a surrogate pair), which a browser may draw apart across two nodes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { PIECE_CHARS, textPieces } from "../src/elements/markdown/long-text.js";

const asList = (pieces: string | readonly string[]) => (typeof pieces === "string" ? [pieces] : pieces);
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** Whether `text` has a regional indicator (half of a flag) at UTF-16 index `i`. */
const regionalIndicatorAt = (text: string, i: number) => /^[\u{1f1e6}-\u{1f1ff}]/u.test(text.slice(i, i + 2));

/**
 * Whether a grapheme of `text` starts at `offset`, read from 2,048 characters before it (more than any grapheme here)
 * or, in a run of flags, from where the run starts (their halves pair up from there).
 */
function startsGrapheme(text: string, offset: number): boolean {
  if (offset === 0 || offset === text.length) return true;
  let from = Math.max(0, offset - 2_048);
  while (from > 0 && (regionalIndicatorAt(text, from) || regionalIndicatorAt(text, from - 1))) from -= 1;
  return [...graphemes.segment(text.slice(from, offset + 16))].some(({ index }) => from + index === offset);
}

/** Texts of a few thousand to tens of thousands of characters out of parts that stress the cuts. */
const longText = fc
  .array(
    fc.constantFrom(
      "word ",
      "_a",
      "snake_case",
      "e\u0301",
      "👩‍👩‍👧",
      "🇯🇵",
      "🇯",
      "\u0301",
      "\u200d",
      "日本語の文",
      "עברית ",
      "\n",
      "\t",
      "x".repeat(500),
      "y ".repeat(300),
    ),
    // Most of them long enough to be cut (about 90 characters a part), some not.
    { minLength: 0, maxLength: 1_500, size: "max" },
  )
  .map((parts) => parts.join(""));

describe("textPieces", () => {
  it("leaves a text of up to twice a piece as it is", () => {
    assert.equal(textPieces(""), "");
    const text = "a ".repeat(PIECE_CHARS);
    assert.equal(textPieces(text), text);
  });

  it("cuts a long text of words after white space, each piece from half a piece to two long", () => {
    const text = "lorem ipsum dolor sit amet, ".repeat(10_000);
    const pieces = asList(textPieces(text));
    assert.ok(pieces.length > 10, `${pieces.length} pieces`);
    assert.equal(pieces.join(""), text);
    for (const piece of pieces.slice(0, -1)) {
      assert.match(piece, /\s$/);
      assert.ok(piece.length > PIECE_CHARS / 2 && piece.length <= PIECE_CHARS, `${piece.length}`);
    }
    assert.ok(pieces.at(-1)!.length <= PIECE_CHARS * 2);
  });

  it("cuts a run without white space between graphemes", () => {
    for (const unit of ["_a", "e\u0301", "👩‍👩‍👧", "🇯🇵", "a\u0308\u0323", "日本語", "😀"]) {
      // Flags after one letter too: their halves pair up from an odd place.
      for (const text of [unit, `a${unit}`].map(
        (lead) => lead + unit.repeat(Math.ceil((PIECE_CHARS * 3.5) / unit.length)),
      )) {
        const pieces = asList(textPieces(text));
        assert.ok(pieces.length >= 2, `${JSON.stringify(unit)}: ${pieces.length} pieces`);
        assert.equal(pieces.join(""), text);
        let offset = 0;
        for (const piece of pieces) {
          assert.ok(
            startsGrapheme(text, offset),
            `${JSON.stringify(text.slice(0, 8))}: a piece starts inside a grapheme at ${offset}`,
          );
          offset += piece.length;
        }
      }
    }
  });

  it("gives pieces that join to the text, start at graphemes, and stay the same as the text grows", () => {
    fc.assert(
      fc.property(longText, fc.double({ min: 0, max: 1, noNaN: true }), (text, at) => {
        const pieces = asList(textPieces(text));
        assert.equal(pieces.join(""), text);
        let offset = 0;
        for (const piece of pieces) {
          if (text === "") break;
          assert.ok(piece.length > 0);
          assert.ok(startsGrapheme(text, offset), `a piece starts inside a grapheme at ${offset}`);
          offset += piece.length;
        }
        // The text as it was earlier in its stream: its complete pieces (all but its last) are the text's first ones.
        const earlier = asList(textPieces(text.slice(0, Math.floor(text.length * at))));
        assert.deepEqual(earlier.slice(0, -1), pieces.slice(0, earlier.length - 1));
      }),
      { numRuns: 30 },
    );
  });
});
