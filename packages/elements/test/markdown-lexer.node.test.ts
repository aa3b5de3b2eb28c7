/**
 * The incremental lexer of pi-markdown: at every point of a stream it gives exactly the tokens marked gives for the
 * whole text, while lexing only the tail from the last block that can still change.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Lexer } from "marked";
import { BlockLexer, type Blocks } from "../src/elements/markdown/block-lexer.js";

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
    const lexer = new BlockLexer();
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
          const lexer = new BlockLexer();
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
    const lexer = new BlockLexer();
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
    const lexer = new BlockLexer();
    const first = all(lexer.update("para one\n\npara two\nline two", true));
    const second = all(lexer.update("para one\n\npara two\nline two grows", true));
    assert.equal(second[0], first[0]);
  });

  it("lexes the whole text again after an edit, and with a reference definition", () => {
    const lexer = new BlockLexer();
    lexer.update("one\n\ntwo\n\nthree", false);
    assert.deepEqual(incremental(lexer, "ONE\n\ntwo"), full("ONE\n\ntwo"));
    const withDefinition = "see [the docs][d]\n\n[d]: https://example.com\n\nmore";
    assert.deepEqual(incremental(lexer, withDefinition), full(withDefinition));
  });

  it("repairs the open block while streaming (an unterminated bold), and not once the text is final", () => {
    const lexer = new BlockLexer();
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
    const blocks = all(new BlockLexer().update(deep, false));
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0]?.token.raw, deep);
  });
});
