import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { chunkRuns } from "../src/ansi/chunk-runs.js";
import { parseAnsi } from "../src/ansi/parse-ansi.js";

const E = "\u001b";
const lines = (from: number, count: number) => Array.from({ length: count }, (_, i) => `line ${from + i}`);
const texts = (chunks: ReturnType<typeof chunkRuns>) =>
  chunks.map((chunk) => chunk.runs.map((run) => run.text).join(""));

describe("chunkRuns: a long output in chunks of whole lines", () => {
  it("cuts after every n-th line, each chunk ending with its line break but the last", () => {
    const text = lines(0, 250).join("\n");
    const chunks = chunkRuns(parseAnsi(text), 100);
    assert.deepEqual(
      chunks.map((chunk) => chunk.index),
      [0, 1, 2],
    );
    assert.deepEqual(texts(chunks), [
      `${lines(0, 100).join("\n")}\n`,
      `${lines(100, 100).join("\n")}\n`,
      lines(200, 50).join("\n"),
    ]);
  });

  it("numbers chunks by their lines' place in the whole output: a window from line 150 starts with half a chunk", () => {
    const text = lines(150, 200).join("\n");
    const chunks = chunkRuns(parseAnsi(text), 100, 150);
    assert.deepEqual(
      chunks.map((chunk) => chunk.index),
      [1, 2, 3],
    );
    assert.deepEqual(texts(chunks), [
      `${lines(150, 50).join("\n")}\n`,
      `${lines(200, 100).join("\n")}\n`,
      lines(300, 50).join("\n"),
    ]);
    // The window one line further on: the whole chunk in its middle is the same text, under the same number.
    const next = chunkRuns(parseAnsi(lines(151, 200).join("\n")), 100, 151);
    assert.equal(next[1]?.index, 2);
    assert.equal(texts(next)[1], texts(chunks)[1]);
  });

  it("carries a run's style and link across a cut: the colour goes on in the next chunk", () => {
    const text = `${E}[31m${lines(0, 3).join("\n")}${E}[0m plain`;
    const chunks = chunkRuns(parseAnsi(text), 2);
    assert.deepEqual(
      chunks.map((chunk) => chunk.runs),
      [
        [{ text: "line 0\nline 1\n", style: { fg: "var(--_ansi-1)" } }],
        [
          { text: "line 2", style: { fg: "var(--_ansi-1)" } },
          { text: " plain", style: {} },
        ],
      ],
    );
  });

  it("gives nothing for nothing, and one chunk for a text without a line break", () => {
    assert.deepEqual(chunkRuns([], 100), []);
    assert.deepEqual(texts(chunkRuns(parseAnsi("one line"), 1)), ["one line"]);
    // A text that ends at a cut has no empty chunk after it.
    assert.deepEqual(texts(chunkRuns(parseAnsi("a\nb\n"), 2)), ["a\nb\n"]);
  });

  it("keeps the text and its styles whole, whatever the text, size and first line (fast-check)", () => {
    const piece = fc.oneof(
      fc.constantFrom("\n", "\n\n", `${E}[1m`, `${E}[32m`, `${E}[0m`, `${E}]8;;https://a.example/${E}\\`, "x"),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 1, max: 5 }), fc.nat(20), (parts, n, first) => {
        const runs = parseAnsi(parts.join(""));
        const chunks = chunkRuns(runs, n, first);
        // Joined, the chunks are the runs: the same text, each character with the same style and link.
        const styleAt = (list: readonly { text: string; style: object; href?: string }[]) =>
          list.flatMap((run) => [...run.text].map((ch) => `${ch}|${JSON.stringify(run.style)}|${run.href ?? ""}`));
        assert.deepEqual(styleAt(chunks.flatMap((chunk) => chunk.runs)), styleAt(runs));
        // No chunk is empty; numbers rise by one from the first line's; every chunk but the last ends a line at a cut.
        let line = first;
        chunks.forEach((chunk, k) => {
          const text = chunk.runs.map((run) => run.text).join("");
          assert.ok(text.length > 0);
          assert.equal(chunk.index, Math.floor(line / n));
          line += text.split("\n").length - 1;
          if (k < chunks.length - 1) {
            assert.ok(text.endsWith("\n"));
            assert.equal(line % n, 0);
          }
        });
      }),
    );
  });
});
