import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DiffRow, parseEditDiff } from "../src/elements/tool-card/edit-diff.js";

/** pi's diff rows of one modified line, with their word marks (jsdiff loaded on first use, as on the page). */
async function marked(before: string, after: string): Promise<[string, boolean][][]> {
  const diff = `-1 ${before}\n+1 ${after}`;
  // Bounds no pair here reaches: the marks themselves are under test, not the limits (tool-card-diff-limits).
  const limits = { wordDiffChars: 100_000, wordDiffEdit: 100_000, wordDiffMs: 60_000 };
  const parse = (onLoaded: () => void) => parseEditDiff(diff, onLoaded, Number.POSITIVE_INFINITY, 60_000, limits);
  let rows: DiffRow[] = parse(() => {});
  if (!rows[0]?.pieces) {
    await new Promise<void>((resolve) => parse(resolve));
    rows = parse(() => {});
  }
  return rows.map((row) => (row.pieces ?? []).map((piece) => [piece.text, piece.changed]));
}

describe("parseEditDiff: the word marks of a modified line", () => {
  it("marks a run of changed words once, the spaces between them with it, as pi does", async () => {
    assert.deepEqual(await marked("let total = a + b;", "let sum = left + right;"), [
      [
        ["let ", false],
        ["total", true],
        [" = ", false],
        ["a", true],
        [" + ", false],
        ["b", true],
        [";", false],
      ],
      [
        ["let ", false],
        ["sum", true],
        [" = ", false],
        ["left", true],
        [" + ", false],
        ["right", true],
        [";", false],
      ],
    ]);
    assert.deepEqual(await marked("  old words here", "  new text there"), [
      [
        ["  ", false],
        ["old words here", true],
      ],
      [
        ["  ", false],
        ["new text there", true],
      ],
    ]);
  });

  it("gives two unrelated lines few marks, none with only white space between it and the next", async () => {
    const words = (seed: number) =>
      Array.from({ length: 300 }, (_, i) => `w${(i * 7_919 + seed * 104_729) % 9_973}`).join(" ");
    const [removed, added] = await marked(words(1), words(2));
    // The few words the two lines share stay unmarked; between them, each run of changes is one mark.
    for (const [pieces, text] of [
      [removed!, words(1)],
      [added!, words(2)],
    ] as const) {
      assert.equal(pieces.map(([piece]) => piece).join(""), text);
      const marks = pieces.filter(([, changed]) => changed);
      // Before, one mark a word: 300.
      assert.ok(marks.length < 20, `${marks.length} marks`);
      // No two marks with only white space between them.
      for (let i = 2; i < pieces.length; i++) {
        const [[, a], [between, b], [, c]] = [pieces[i - 2]!, pieces[i - 1]!, pieces[i]!];
        assert.ok(!(a && !b && c && /^\s+$/.test(between)), `an unmarked space between two marks at ${i}`);
      }
    }
  });
});
