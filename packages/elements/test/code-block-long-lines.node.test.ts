/**
 * longLineRuns (issue #33): the runs pi-code-block draws a chunk of code as, its lines past LONG_LINE_CHARS in pieces.
 * What a person sees depends on two things: the runs are the chunk (nothing lost, nothing moved), and only a line
 * that long is cut (every other line, and every line feed, is drawn as it was).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type LineRun, LONG_LINE_CHARS, longLineRuns } from "../src/elements/code-block/long-lines.js";
import { PIECE_CHARS } from "../src/elements/markdown/long-text.js";

const joined = (runs: readonly LineRun[]) => runs.map((run) => (typeof run === "string" ? run : run.join(""))).join("");

describe("longLineRuns", () => {
  it("leaves a chunk without a line past the limit as it is", () => {
    assert.equal(longLineRuns("const a = 1;\n".repeat(100)), undefined);
    assert.equal(longLineRuns(`${"x".repeat(LONG_LINE_CHARS)}\n${"y".repeat(LONG_LINE_CHARS)}`), undefined);
  });

  it("cuts a line of 100,000 dashes into pieces, the lines around it as they are", () => {
    const long = "-".repeat(100_000);
    const runs = longLineRuns(`[a]\nkey = 1\n${long}\nend\n`)!;
    assert.equal(runs.length, 3);
    assert.equal(runs[0], "[a]\nkey = 1\n");
    assert.ok(Array.isArray(runs[1]));
    const pieces = runs[1] as readonly string[];
    assert.equal(pieces.join(""), long);
    assert.ok(pieces.length >= 100_000 / PIECE_CHARS - 1, `${pieces.length} pieces`);
    for (const piece of pieces) assert.ok(piece.length <= LONG_LINE_CHARS, `a piece of ${piece.length}`);
    assert.equal(runs[2], "\nend\n");
  });

  it("cuts a long last line without a line feed, and two long lines apart", () => {
    const a = "a".repeat(LONG_LINE_CHARS + 1);
    const b = "b ".repeat(LONG_LINE_CHARS);
    const runs = longLineRuns(`${a}\n${b}`)!;
    assert.equal(runs.length, 3);
    assert.deepEqual([Array.isArray(runs[0]), runs[1], Array.isArray(runs[2])], [true, "\n", true]);
    assert.equal(joined(runs), `${a}\n${b}`);
  });

  it("gives the chunk back whole, and cuts exactly the lines past the limit (generated chunks)", () => {
    const line = fc.oneof(
      fc.string({ maxLength: 80 }).map((text) => text.replace(/\n/g, " ")),
      fc.integer({ min: LONG_LINE_CHARS - 2, max: LONG_LINE_CHARS * 3 }).map((n) => "=".repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.boolean(), (lines, lineFeedAtEnd) => {
        const chunk = lines.join("\n") + (lineFeedAtEnd ? "\n" : "");
        const runs = longLineRuns(chunk);
        const long = lines.filter((text) => text.length > LONG_LINE_CHARS);
        if (long.length === 0) return runs === undefined;
        assert.ok(runs);
        assert.equal(joined(runs), chunk);
        const cut = runs.filter((run) => typeof run !== "string").map((pieces) => (pieces as string[]).join(""));
        assert.deepEqual(cut, long);
        for (const run of runs) {
          if (typeof run === "string") for (const kept of run.split("\n")) assert.ok(kept.length <= LONG_LINE_CHARS);
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });
});
