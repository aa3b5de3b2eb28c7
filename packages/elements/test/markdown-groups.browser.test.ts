/**
 * pi-markdown's long messages: the blocks are drawn in groups of 32, and a group of final blocks is contained so
 * that a streaming update does not lay out the whole message again. What a reader sees must not change at the edges
 * of the groups: the gaps between blocks there are the gaps anywhere else.
 */
import { expect, fixture, html } from "@open-wc/testing";
import "../src/elements/markdown/define.js";
import type { PiMarkdown } from "../src/elements/markdown/markdown.js";

/** Sections of a heading, a paragraph, a list and a code block: many groups of 32 blocks (blank lines count). */
function sections(count: number): string {
  let text = "";
  for (let i = 0; i < count; i++) {
    text += `## Section ${i}\n\nThe text of section ${i}.\n\n- one\n- two\n\n\`\`\`\ncode ${i}\n\`\`\`\n\n---\n\n`;
  }
  return text;
}

/** The gap above each top-level block, by the block's tag and the tag of the block before it. */
function gaps(el: PiMarkdown): Map<string, Set<number>> {
  const blocks = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="base"] > .group > *')];
  const byPair = new Map<string, Set<number>>();
  for (let i = 1; i < blocks.length; i++) {
    const key = `${blocks[i - 1]!.localName} → ${blocks[i]!.localName}`;
    const gap = Math.round(blocks[i]!.getBoundingClientRect().top - blocks[i - 1]!.getBoundingClientRect().bottom);
    if (!byPair.has(key)) byPair.set(key, new Set());
    byPair.get(key)!.add(gap);
  }
  return byPair;
}

describe("pi-markdown: a long message in groups", () => {
  for (const streaming of [false, true]) {
    it(`the gap between two kinds of block is the same at a group's edge as inside one (${streaming ? "streaming" : "final"})`, async () => {
      const el = await fixture<PiMarkdown>(
        html`<pi-markdown style="inline-size: 30rem" ?streaming=${streaming} .text=${sections(30)}></pi-markdown>`,
      );
      await el.updateComplete;
      const groups = el.shadowRoot!.querySelectorAll(".group");
      expect(groups.length, "several groups").to.be.greaterThan(4);
      expect(el.shadowRoot!.querySelectorAll(".final").length, "contained final groups").to.be.greaterThan(3);
      for (const [pair, seen] of gaps(el)) expect([...seen], pair).to.have.length(1);
      // The first and last blocks keep no outer margin.
      const base = el.shadowRoot!.querySelector<HTMLElement>('[part~="base"]')!;
      const first = base.querySelector<HTMLElement>(".group > *")!;
      expect(Math.round(first.getBoundingClientRect().top - base.getBoundingClientRect().top)).to.equal(0);
    });
  }
});
