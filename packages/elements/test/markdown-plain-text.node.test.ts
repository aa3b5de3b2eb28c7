/**
 * markdownWords: what the transcript's announcement says of a finished answer (issue #34 item 4): the words a person
 * reads on the page, never Markdown's syntax.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { markdownWords, PLAIN_TEXT_SOURCE_CHARS } from "../src/elements/markdown/plain-text.js";

test("emphasis, code spans, headings, links and images read as their words", () => {
  assert.equal(markdownWords("**`greet()`** says _hello_ to ~~everyone~~ you"), "greet() says hello to everyone you");
  assert.equal(
    markdownWords("# Plan\n\n## Step one\nRead [the docs](https://example.com/docs)."),
    "Plan Step one Read the docs.",
  );
  assert.equal(markdownWords("![a cat](https://example.com/cat.png) on a mat"), "a cat on a mat");
  assert.equal(markdownWords("snake_case_name and 2 * 3 stay"), "snake_case_name and 2 * 3 stay");
  assert.equal(markdownWords("a \\*literal\\* star"), "a *literal* star");
});

test("a fence reads as its code, without the fence or its language", () => {
  assert.equal(markdownWords("Run this:\n\n```bash\nnpm test\n```\n\nThen look."), "Run this: npm test Then look.");
});

test("a table reads as its cells, without pipes or the |---| row", () => {
  const table = "| name | age |\n|---|---:|\n| Ada | 36 |\n| Alan | 41 |";
  assert.equal(markdownWords(table), "name age Ada 36 Alan 41");
});

test("lists, quotes and rules keep their words apart", () => {
  assert.equal(markdownWords("- one\n- two\n  1. deeper\n\n> quoted\n\n---\nend"), "one two deeper quoted end");
});

test("markup written by the model stays text (the element escapes it where it is shown)", () => {
  assert.equal(markdownWords('<img src="x" onerror="alert(1)"> hi'), '<img src="x" onerror="alert(1)"> hi');
});

test("only the first PLAIN_TEXT_SOURCE_CHARS characters are read, so a pathological text costs a bounded lex", () => {
  const words = markdownWords(`${"word ".repeat(1_000)}TAIL`);
  assert.equal(words.includes("TAIL"), false);
  assert.ok(words.length <= PLAIN_TEXT_SOURCE_CHARS);
  // 50,000 "[" then 50,000 "]": marked's bracket rules are quadratic; the prefix keeps this immediate.
  assert.equal(markdownWords(`${"[".repeat(50_000)}${"]".repeat(50_000)}`), "[".repeat(PLAIN_TEXT_SOURCE_CHARS));
});
