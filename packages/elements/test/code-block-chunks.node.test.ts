/**
 * pi-code-block's chunks of lines (chunks.ts): the plain text and the highlighted tree (lowlight's, as the worker
 * makes it) are cut at the same places, every character keeps the classes it had, and a growing code reuses its
 * earlier chunks without changing where the cuts fall.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { CHUNK_LINES, chunkLines, chunkTree, nodeCount } from "../src/elements/code-block/chunks.js";
import { highlight, type Root } from "../src/elements/code-block/highlight.js";

type Node = Root["children"][number];

/** Each character of a tree with the classes of the elements around it, outermost first. */
function classed(nodes: readonly Node[], around = ""): string[] {
  return nodes.flatMap((node) => {
    if (node.type === "text") return [...node.value].map((char) => `${around}|${char}`);
    if (node.type !== "element") return [];
    const className = node.properties?.className;
    return classed(node.children, `${around}/${Array.isArray(className) ? className.join(" ") : ""}`);
  });
}
const textOf = (nodes: readonly Node[]): string =>
  classed(nodes)
    .map((entry) => entry.at(-1))
    .join("");

const lines = (count: number, line: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => `${line(i)}\n`).join("");

describe("chunkLines", () => {
  it("cuts after every hundredth line break and keeps the rest, with no empty chunk", () => {
    assert.deepEqual(chunkLines(""), []);
    assert.deepEqual(chunkLines("one line"), ["one line"]);
    const code = lines(250, (i) => `line ${i}`);
    const chunks = chunkLines(code);
    assert.equal(chunks.length, 3);
    assert.equal(chunks.join(""), code);
    assert.deepEqual(
      chunks.map((chunk) => chunk.split("\n").length - 1),
      [CHUNK_LINES, CHUNK_LINES, 50],
    );
    assert.equal(chunkLines(lines(200, String)).length, 2, "a code ending on a cut has no empty last chunk");
  });

  it("cuts a code as it would from nothing, whatever earlier chunks it is given", () => {
    const piece = fc.constantFrom("a", "\n", "\n".repeat(40), "xyz", "\r\n", "é", "😀");
    const code = fc.array(piece, { maxLength: 600 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(code, code, fc.nat(), (earlier, later, at) => {
        // A code that grew from a prefix of itself (a stream) and one that is unrelated.
        const prefix = later.slice(0, at % (later.length + 1));
        assert.deepEqual(chunkLines(later, chunkLines(prefix)), chunkLines(later));
        assert.deepEqual(chunkLines(later, chunkLines(earlier)), chunkLines(later));
      }),
    );
  });

  it("reuses the chunks before the last, the same strings, when the code grows", () => {
    const before = chunkLines(lines(250, (i) => `line ${i}`));
    const after = chunkLines(`${lines(250, (i) => `line ${i}`)}more\n`, before);
    assert.equal(after[0], before[0]);
    assert.equal(after[1], before[1]);
    assert.equal(after[2], `${before[2]}more\n`);
  });
});

describe("chunkTree", () => {
  const cases: [string, string, string][] = [
    ["230 lines of", "typescript", lines(230, (i) => `const v${i}: number = ${i}; // a comment ${i}`)],
    // A comment and a template string over many lines, across two cuts: each chunk opens them again.
    [
      "a comment and a template string over many lines in",
      "typescript",
      `/*\n${lines(250, (i) => ` * ${i}`)} */\nconst s = \`\n${lines(120, String)}\`;\n`,
    ],
    [
      "a docstring over two cuts in",
      "python",
      `def f():\n    """\n${lines(150, (i) => `    doc ${i}`)}    """\n    return 1\n`,
    ],
    ["101 lines of", "bash", lines(101, (i) => `echo "$HOME/${i}" # ${i}`)],
  ];

  for (const [what, language, code] of cases) {
    it(`cuts ${what} ${language} where chunkLines cuts its text, each character keeping its classes`, () => {
      const tree = highlight(code, language)!;
      const chunks = chunkTree(tree);
      assert.deepEqual(
        chunks.map((chunk) => textOf(chunk.children)),
        chunkLines(code),
      );
      assert.deepEqual(
        chunks.flatMap((chunk) => classed(chunk.children)),
        classed(tree.children),
      );
    });
  }

  it("gives the text of any code in any language back chunk for chunk", () => {
    const piece = fc.constantFrom(
      "x",
      "\n",
      "\n".repeat(30),
      " ",
      '"',
      "'",
      "`",
      "/*",
      "*/",
      "//",
      "#",
      "{",
      "}",
      "<a>",
      "\\",
      "é",
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 400 }).map((parts) => parts.join("")),
        fc.constantFrom("typescript", "python", "bash", "html", "css", "json", "ini", "markdown"),
        (code, language) => {
          const tree = highlight(code, language)!;
          assert.deepEqual(
            chunkTree(tree).map((chunk) => textOf(chunk.children)),
            chunkLines(code),
          );
        },
      ),
    );
  });

  it("counts a tree's nodes", () => {
    assert.equal(nodeCount([{ type: "text", value: "a" }]), 1);
    assert.equal(
      nodeCount([{ type: "element", tagName: "span", properties: {}, children: [{ type: "text", value: "a" }] }]),
      2,
    );
  });
});
