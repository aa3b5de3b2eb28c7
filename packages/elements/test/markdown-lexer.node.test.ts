/**
 * The incremental lexer of pi-markdown: at every point of a stream it gives exactly the tokens marked gives for the
 * whole text, while lexing only the tail from the last block that can still change.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Lexer, type Token } from "marked";
import {
  BlockLexer,
  type Blocks,
  MARKDOWN_LIMITS,
  type MarkdownLimits,
  NO_LIMITS,
} from "../src/elements/markdown/block-lexer.js";

const full = (text: string) => JSON.parse(JSON.stringify(new Lexer({ gfm: true }).lex(text))) as unknown[];
const all = (blocks: Blocks) => [...blocks.final, ...blocks.rest];
const incremental = (lexer: BlockLexer, text: string, streaming = false) =>
  JSON.parse(JSON.stringify(all(lexer.update(text, streaming)).map((block) => block.token))) as unknown[];

const sample = [
  "# Title\n\nSome *emphasis*, **strong** and `code`, a [link](https://example.com) and ~~gone~~.\n",
  "- one\n- two\n  - nested\n\n- loose item\n\n  continued\n\n1. first\n2. second\n",
  "> quoted\n> more\nlazy\n\n> again\n\n",
  "```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n    indented\n\n    code\n\nafter\n",
  "| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\nSetext\n===\n\npara\n---\n",
  "- [x] done\n- [ ] open\n\n<div>\n\nhtml</div>\n\n<script>\nx\n\ny\n</script>\n\n***\n\nend *of* text",
].join("\n");

describe("BlockLexer", () => {
  it("gives marked's tokens at every prefix of a text streamed one character at a time", () => {
    const lexer = new BlockLexer(NO_LIMITS);
    for (let end = 0; end <= sample.length; end++) {
      const text = sample.slice(0, end);
      assert.deepEqual(incremental(lexer, text), full(text), JSON.stringify(text));
    }
  });

  it("gives marked's tokens for any Markdown-ish text streamed in any chunks", () => {
    const pieces = [
      "\n",
      "\n\n",
      "- ",
      "  - ",
      "1. ",
      "> ",
      "```",
      "~~~",
      "    ",
      "# ",
      "| a |",
      "|---|",
      "*",
      "**",
      "_",
      "`",
      "[a]",
      "(https://x.y)",
      "word ",
      "<div>",
      "</div>",
      "===",
      "---",
      "\t",
      " ",
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }),
        (parts, steps) => {
          const text = parts.join("");
          const lexer = new BlockLexer(NO_LIMITS);
          let end = 0;
          let i = 0;
          while (end < text.length) {
            end = Math.min(text.length, end + steps[i++ % steps.length]!);
            const prefix = text.slice(0, end);
            assert.deepEqual(incremental(lexer, prefix), full(prefix), JSON.stringify(prefix));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("lexes only the last block while a long message streams", () => {
    const lexer = new BlockLexer(NO_LIMITS);
    const paragraph = "A sentence of some words, and then more words to make a paragraph. ".repeat(5);
    let text = "";
    for (let i = 0; i < 200; i++) {
      text += `${paragraph}\n\n`;
      lexer.update(text, true);
    }
    assert.ok(text.length > 50_000);
    // The paragraph appended, and the one before it (the last block of the update before).
    assert.ok(lexer.lexedLength <= 2 * (paragraph.length + 2), `lexed ${lexer.lexedLength} of ${text.length}`);
  });

  it("keeps the token objects of final blocks from one update to the next", () => {
    const lexer = new BlockLexer(NO_LIMITS);
    const first = all(lexer.update("para one\n\npara two\nline two", true));
    const second = all(lexer.update("para one\n\npara two\nline two grows", true));
    assert.equal(second[0], first[0]);
  });

  it("lexes the whole text again after an edit, and with a reference definition", () => {
    const lexer = new BlockLexer(NO_LIMITS);
    lexer.update("one\n\ntwo\n\nthree", false);
    assert.deepEqual(incremental(lexer, "ONE\n\ntwo"), full("ONE\n\ntwo"));
    const withDefinition = "see [the docs][d]\n\n[d]: https://example.com\n\nmore";
    assert.deepEqual(incremental(lexer, withDefinition), full(withDefinition));
  });

  it("repairs the open block while streaming (an unterminated bold), and not once the text is final", () => {
    const lexer = new BlockLexer(NO_LIMITS);
    const inlineTypes = (blocks: Blocks) =>
      (all(blocks)[0]!.token as { tokens: { type: string }[] }).tokens.map((t) => t.type);
    const streaming = lexer.update("some **bold", true);
    assert.equal(all(streaming)[0]!.open, true);
    assert.deepEqual(inlineTypes(streaming), ["text", "strong"]);
    assert.deepEqual(inlineTypes(lexer.update("some **bold", false)), ["text"]);
    const link = lexer.update("see [the docs](https://exa", true);
    assert.deepEqual(inlineTypes(link), ["text"]);
  });

  it("shows text nested too deeply for the lexer as written", () => {
    const deep = `${">".repeat(20_000)} x`;
    const blocks = all(new BlockLexer(NO_LIMITS).update(deep, false));
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0]?.token.raw, deep);
  });
});

/** The text of every block, in order: what the person can read, formatted or as written. */
const rawOf = (blocks: Blocks) =>
  all(blocks)
    .map((block) => block.token.raw)
    .join("");
/** The types of the inline tokens of a block's top-level token (a paragraph's). */
const inlineTypesOf = (block: { token: unknown }) =>
  ((block.token as { tokens?: { type: string }[] }).tokens ?? []).map((t) => t.type);

describe("BlockLexer's limits", () => {
  const hostile: Record<string, string> = {
    "300,000 characters of _a": "_a".repeat(150_000),
    "100,000 brackets": `${"[".repeat(50_000)}${"]".repeat(50_000)}`,
    "globs *a*b": "*a*b".repeat(25_000),
    "snake_case without spaces": "a_b".repeat(30_000),
    "500 nested list items": Array.from({ length: 500 }, (_, i) => `${" ".repeat(i * 2)}- item`).join("\n"),
    "2,000 nested quotes": `${"> ".repeat(2_000)}deep`,
  };
  for (const [name, text] of Object.entries(hostile)) {
    it(`shows ${name} as written, all of it, and says it is limited`, () => {
      for (const streaming of [false, true]) {
        const blocks = new BlockLexer().update(text, streaming);
        const raw = rawOf(blocks);
        // While streaming, the open block is the repaired text (an unterminated `_` closed): the text and then more.
        const there = streaming ? raw.startsWith(text) : raw === text;
        assert.ok(there, `every character is there (${raw.length} of ${text.length}, streaming: ${streaming})`);
        assert.ok(
          all(blocks).some((block) => block.limited),
          "a block is marked as shown as written because of a limit",
        );
      }
    });
  }

  it("formats a normal answer in full under the default limits", () => {
    const lexer = new BlockLexer(MARKDOWN_LIMITS);
    const text = `${sample}\n\nSome *emphasis*, snake_case_names and a [link](https://example.com).\n`;
    let blocks = lexer.update(text, false);
    // What one update had no time for (a slow machine) follows in slices.
    while (lexer.pending) blocks = lexer.resume() ?? blocks;
    assert.ok(!all(blocks).some((block) => block.limited));
    assert.deepEqual(JSON.parse(JSON.stringify(all(blocks).map((block) => block.token))), full(text));
  });

  it("keeps an inline run within the limits: long or delimiter-heavy runs as written, the others formatted", () => {
    const limits: MarkdownLimits = { ...NO_LIMITS, inlineChars: 40, inlineDelimiters: 6 };
    const blocks = all(new BlockLexer(limits).update(`short *em*\n\n*a* *b* *c* *d*\n\n${"word ".repeat(10)}`, false));
    const paragraphs = blocks.filter((block) => block.token.type === "paragraph");
    assert.deepEqual(paragraphs.map(inlineTypesOf), [["text", "em"], ["as-written"], ["as-written"]]);
    assert.deepEqual(
      paragraphs.map((block) => block.limited === true),
      [false, true, true],
    );
  });

  it("formats inline runs over several slices when one update has no time for them, then gives marked's tokens", () => {
    const lexer = new BlockLexer({ ...NO_LIMITS, sliceMs: 0 });
    const text = Array.from({ length: 20 }, (_, i) => `Paragraph ${i} with **strong** and \`code\`.`).join("\n\n");
    const first = lexer.update(text, false);
    assert.equal(lexer.pending, true);
    assert.ok(all(first).every((block) => block.token.type !== "paragraph" || block.pending));
    assert.equal(rawOf(first), text, "shown as written meanwhile");
    let blocks: Blocks = first;
    let slices = 0;
    while (lexer.pending) {
      const next = lexer.resume();
      assert.ok(next, "a slice formats something");
      blocks = next;
      slices++;
    }
    // One run per slice here (no time at all): every paragraph took a slice of its own.
    assert.equal(slices, 20);
    assert.notEqual(blocks.final, first.final, "the final blocks that changed are new objects in a new array");
    assert.ok(all(blocks).every((block) => !block.pending));
    const tokens = JSON.parse(JSON.stringify(all(blocks).map((block) => block.token)));
    assert.deepEqual(tokens, full(text));
  });

  it("while streaming, formats the open block in every update and keeps the runs formatted at the last one", () => {
    // No time at all for formatting (a busy machine): only the open block and the runs seen before are formatted.
    const lexer = new BlockLexer({ ...NO_LIMITS, sliceMs: 0 });
    const first = lexer.update("The note is **wr", true);
    assert.deepEqual(all(first).map(inlineTypesOf), [["text", "strong"]]);
    assert.equal(lexer.pending, false);
    // A list without blank lines stays in the rest, lexed again at every update: what was formatted stays formatted,
    // and what arrives is formatted at once, also an item completed and another begun in one update.
    let blocks = lexer.update("- *a* and `b`\n- *c", true);
    while (lexer.pending) blocks = lexer.resume() ?? blocks;
    for (const text of ["- *a* and `b`\n- *c*\n- **d", "- *a* and `b`\n- *c*\n- **d** e\n- f ~~g"]) {
      blocks = lexer.update(text, true);
      assert.equal(lexer.pending, false, text);
      assert.ok(!JSON.stringify(blocks.rest.map((block) => block.token)).includes('"as-written"'), text);
    }
  });

  it("cuts a table past tableRows after its last row kept, the rest as written, also in a quote or a list", () => {
    const rows = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `| ${from + i} | *${from + i}* |\n`).join("");
    const table = `| n | em |\n|---|---|\n${rows(0, 5)}`;
    const limits: MarkdownLimits = { ...NO_LIMITS, tableRows: 3 };
    for (const streaming of [false, true]) {
      const blocks = all(new BlockLexer(limits).update(`Before\n\n${table}\nAfter\n`, streaming));
      const types = blocks.map((block) => block.token.type);
      assert.deepEqual(types.slice(0, 4), ["paragraph", "space", "table", "as-written"], String(streaming));
      const cut = blocks[2]!.token as unknown as { rows: unknown[]; raw: string };
      assert.equal(cut.rows.length, 3);
      assert.equal(cut.raw, `| n | em |\n|---|---|\n${rows(0, 3)}`);
      assert.equal(cut.raw + blocks[3]!.token.raw, table.trimEnd(), "the two parts are the table as written");
      // The note goes after the rest as written; the rows kept are formatted as marked formats them.
      assert.deepEqual(
        blocks.map((block) => block.limited === true),
        blocks.map((_, i) => i === 3),
      );
      assert.deepEqual(
        JSON.parse(JSON.stringify(cut.rows)),
        JSON.parse(JSON.stringify((full(table)[0] as { rows: unknown[] }).rows.slice(0, 3))),
      );
    }
    // A table of exactly tableRows rows is whole; one in a quote or a list item is cut there, the rest after it.
    assert.ok(
      !all(new BlockLexer(limits).update(`| a |\n|---|\n${"| 1 |\n".repeat(3)}`, false)).some((b) => b.limited),
    );
    for (const text of [`> ${table.split("\n").join("\n> ")}`, `- item\n\n  ${table.split("\n").join("\n  ")}`]) {
      const [block] = all(new BlockLexer(limits).update(text, false));
      assert.equal(block?.limited, true, text);
      // The container's blocks: the table of three rows, then the rows cut, as written.
      const token = block?.token as unknown as { tokens?: Token[]; items?: { tokens: Token[] }[] };
      const inside = token.tokens ?? token.items?.[0]?.tokens ?? [];
      const at = inside.findIndex((t) => t.type === "table");
      assert.equal((inside[at] as unknown as { rows: unknown[] }).rows.length, 3, text);
      assert.equal(inside[at + 1]?.type, "as-written", text);
      assert.match(inside[at + 1]?.raw ?? "", /^\| 3 \| \*3\* \|\n\| 4 \| \*4\* \|/, text);
    }
    // Under the defaults a table of 2,000 rows keeps 200 of them formatted.
    const text = `| a |\n|---|\n${"| 1 |\n".repeat(2_000)}`;
    const big = all(new BlockLexer().update(text, false));
    assert.equal((big[0]!.token as unknown as { rows: unknown[] }).rows.length, MARKDOWN_LIMITS.tableRows);
    assert.equal(big[0]!.token.raw + big[1]!.token.raw, text);
    assert.equal(big[1]!.token.raw.split("| 1 |").length - 1, 1_800);
  });

  it("keeps every character of any text, whatever the limits cut (generated)", () => {
    const pieces = ["_a", "*", "[", "]", "`", "<", "~", "- ", "  ", "> ", "\n", "\n\n", "```\n", "word ", "\t"];
    pieces.push("| a | b |\n|---|---|\n", "| 1 | 2 |\n");
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 200 }),
        fc.record({
          inlineChars: fc.integer({ min: 1, max: 100 }),
          inlineDelimiters: fc.integer({ min: 0, max: 20 }),
          nestingColumns: fc.integer({ min: 1, max: 16 }),
          tableRows: fc.integer({ min: 0, max: 4 }),
          sliceMs: fc.constantFrom(0, Number.POSITIVE_INFINITY),
        }),
        fc.boolean(),
        (parts, limits, streaming) => {
          const text = parts.join("");
          const lexer = new BlockLexer(limits);
          const blocks = lexer.update(text, streaming);
          // Every character there, in order. Only white space may differ: marked's own raws do (`- ` is `-\n`), and a
          // part shown as written keeps the text exactly.
          const visible = (value: string) => value.replace(/\s+/g, "");
          const raw = rawOf(blocks);
          if (!streaming)
            assert.ok(visible(raw) === visible(text), `${JSON.stringify(raw)} has ${JSON.stringify(text)}`);
          while (lexer.pending) assert.ok(lexer.resume());
        },
      ),
      { numRuns: 500 },
    );
  });
});
