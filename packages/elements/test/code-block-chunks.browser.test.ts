/**
 * pi-code-block's long code in chunks of 100 lines, each laid out only near the view (`content-visibility: auto`):
 * what engines differ on is layout and paint, so all three engines. The code reads as one: every line at its
 * line's height (no gap where a chunk ends), a long line scrolls sideways unclipped, every character there, colours
 * across the cuts, and a growing block leaves its earlier chunks' nodes as they were.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { CHUNK_LINES } from "../src/elements/code-block/chunks.js";
import type { PiCodeBlock } from "../src/elements/code-block/code-block.js";
import "../src/elements/code-block/define.js";

const codeOf = (el: PiCodeBlock) => el.shadowRoot!.querySelector("code")!;
const preOf = (el: PiCodeBlock) => el.shadowRoot!.querySelector("pre")!;
const chunksOf = (el: PiCodeBlock) => [...codeOf(el).querySelectorAll<HTMLElement>(":scope > .chunk")];
const lines = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `const value${from + i}: number = ${from + i}; // line ${from + i}\n`).join(
    "",
  );

/** The height of one line of the code block's code: how much taller a block of two lines is than one of one. */
async function lineHeight(): Promise<number> {
  const height = async (code: string) => {
    const el = await fixture<PiCodeBlock>(html`<pi-code-block .code=${code}></pi-code-block>`);
    const pre = preOf(el).getBoundingClientRect().height;
    el.remove();
    return pre;
  };
  return (await height("x\ny")) - (await height("x"));
}

describe("pi-code-block in chunks", () => {
  it("shows a short code as it always has: no chunk", async () => {
    const el = await fixture<PiCodeBlock>(html`<pi-code-block .code=${lines(CHUNK_LINES)}></pi-code-block>`);
    expect(chunksOf(el)).to.have.length(0);
    expect(codeOf(el).textContent).to.equal(lines(CHUNK_LINES));
  });

  it("gives each chunk its lines' height, no more: the code is as tall as its lines", async () => {
    const height = await lineHeight();
    const code = lines(250);
    const el = await fixture<PiCodeBlock>(html`<pi-code-block .code=${code}></pi-code-block>`);
    const chunks = chunksOf(el);
    expect(chunks).to.have.length(3);
    expect(codeOf(el).textContent).to.equal(code);
    // Each chunk laid out in turn (brought into view), as a reader scrolling through it has them.
    const heights: number[] = [];
    for (const chunk of chunks) {
      chunk.scrollIntoView({ block: "nearest" });
      await new Promise(requestAnimationFrame);
      await new Promise(requestAnimationFrame);
      heights.push(chunk.getBoundingClientRect().height);
    }
    for (const [i, expected] of [100, 100, 50].entries()) {
      expect(
        Math.abs(heights[i]! - expected * height),
        `chunk ${i}: ${heights[i]} px for ${expected} lines`,
      ).to.be.below(1);
    }
    expect(Math.abs(codeOf(el).getBoundingClientRect().height - 250 * height)).to.be.below(2);
  });

  it("scrolls a long line sideways with its chunk as wide as it, so nothing of it is clipped", async () => {
    const long = `${"word ".repeat(1_000)}end`;
    const code = `${lines(120)}${long}\n${lines(10, 120)}`;
    const el = await fixture<PiCodeBlock>(
      html`<pi-code-block style="inline-size: 400px" .code=${code}></pi-code-block>`,
    );
    const pre = preOf(el);
    const chunk = chunksOf(el)[1]!;
    chunk.scrollIntoView({ block: "nearest" });
    await new Promise(requestAnimationFrame);
    await new Promise(requestAnimationFrame);
    const range = document.createRange();
    const walker = document.createTreeWalker(chunk, NodeFilter.SHOW_TEXT);
    let text: Text | undefined;
    while (walker.nextNode()) if ((walker.currentNode as Text).data.includes(long)) text = walker.currentNode as Text;
    if (!text) throw new Error("the long line is not in the second chunk's text");
    const at = text.data.indexOf(long);
    range.setStart(text, at);
    range.setEnd(text, at + long.length);
    const line = range.getBoundingClientRect();
    expect(pre.scrollWidth).to.be.above(pre.clientWidth * 5);
    expect(chunk.getBoundingClientRect().right).to.be.at.least(line.right - 1);
  });

  it("draws a line of 100,000 characters in pieces on one line: all of it there, its end reached by scrolling sideways", async () => {
    const height = await lineHeight();
    const long = "-".repeat(100_000);
    const code = `${lines(3)}${long}\nend\n`;
    // ini: a highlighted language, whose tree the long line's chunk does not use.
    const el = await fixture<PiCodeBlock>(
      html`<pi-code-block style="inline-size: 600px" language="ini" .code=${code}></pi-code-block>`,
    );
    await el.updateComplete;
    expect(codeOf(el).textContent).to.equal(code);
    const pieces = [...codeOf(el).querySelectorAll<HTMLElement>(".piece")];
    expect(pieces.length, "pieces").to.be.above(20);
    expect(pieces.map((piece) => piece.textContent).join("")).to.equal(long);
    // One line: every piece at its top, the code five lines tall.
    const top = pieces[0]!.getBoundingClientRect().top;
    for (const piece of pieces) expect(Math.abs(piece.getBoundingClientRect().top - top)).to.be.below(1);
    expect(Math.abs(codeOf(el).getBoundingClientRect().height - 5 * height)).to.be.below(2);
    const pre = preOf(el);
    expect(pre.scrollWidth).to.be.above(pre.clientWidth * 100);
    // Scrolled to the end as a reader drags the bar there: the pieces come into view at their own widths (the last
    // one up to twice the estimate), so the end moves on until the line is laid out where it ends.
    let width = 0;
    for (let tries = 0; tries < 10 && pre.scrollWidth !== width; tries++) {
      width = pre.scrollWidth;
      pre.scrollLeft = width;
      await new Promise(requestAnimationFrame);
      await new Promise(requestAnimationFrame);
    }
    const box = pre.getBoundingClientRect();
    const last = pieces.at(-1)!.getBoundingClientRect();
    expect(last.right, "the last piece's end, scrolled to").to.be.within(box.left, box.right + 1);
    expect(last.width).to.be.above(0);
  });

  it("colours a long code across the cuts, every character there", async () => {
    const code = `/*\n${" * a comment\n".repeat(150)} */\n${lines(200)}`;
    const el = await fixture<PiCodeBlock>(html`<pi-code-block language="ts" .code=${code}></pi-code-block>`);
    await el.updateComplete;
    expect(el.highlighted).to.equal(true);
    expect(codeOf(el).textContent).to.equal(code);
    const chunks = chunksOf(el);
    expect(chunks).to.have.length(4);
    // The comment opened in the first chunk is a comment in the second too, whose first line is inside it.
    expect(chunks[1]!.firstElementChild?.className).to.equal("hljs-comment");
    expect(chunks[1]!.firstElementChild!.textContent!.startsWith(" * a comment")).to.equal(true);
    expect(chunks.every((chunk) => chunk.querySelector("[class^='hljs-']"))).to.equal(true);
  });

  it("renders only the end again when a block grows: its earlier chunks keep their nodes, and a selection in them", async () => {
    const code = lines(250);
    const el = await fixture<PiCodeBlock>(html`<pi-code-block language="ts" streaming .code=${code}></pi-code-block>`);
    await el.updateComplete;
    expect(el.highlighted).to.equal(true);
    const first = chunksOf(el)[0]!.querySelector("span")!;
    const second = chunksOf(el)[1]!.querySelector("span")!;
    const selection = document.getSelection()!;
    selection.selectAllChildren(first);
    el.code = code + lines(60, 250);
    el.streaming = false;
    await el.updateComplete;
    expect(el.highlighted).to.equal(true);
    expect(codeOf(el).textContent).to.equal(code + lines(60, 250));
    expect(chunksOf(el)).to.have.length(4);
    expect(chunksOf(el)[0]!.querySelector("span")).to.equal(first);
    expect(chunksOf(el)[1]!.querySelector("span")).to.equal(second);
    expect(first.isConnected).to.equal(true);
    expect(selection.toString()).to.equal(first.textContent);
  });
});
