/**
 * pi-markdown's limits (block-lexer.ts `MarkdownLimits`): a run too costly to format shows as written with a note and
 * a "Format it" button the person may press; what one update has no time for is formatted in later tasks, and
 * `updateComplete` waits for it. Keys, focus and the note's looks are what engines differ on: all three engines.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import "../src/elements/markdown/define.js";
import type { PiMarkdown } from "../src/elements/markdown/markdown.js";

const $$ = (el: PiMarkdown, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];

describe("pi-markdown's limits", () => {
  it("shows a run past a limit as written, says so, and formats it when the person presses Format it", async () => {
    const text = "Before.\n\n*a* *b* *c* _d_ `e`\n\nAfter *this*.";
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown .text=${text} .limits=${{ inlineDelimiters: 6 }}></pi-markdown>`,
    );
    const note = el.shadowRoot!.querySelector<HTMLElement>('[part~="limit-note"]')!;
    expect(note, "a note beside the block").to.exist;
    expect(note.textContent).to.contain("Shown as written");
    // The limited paragraph reads as written; the others are formatted.
    expect(el.shadowRoot!.textContent).to.contain("*a* *b* *c* _d_ `e`");
    expect($$(el, "em").map((em) => em.textContent)).to.deep.equal(["this"]);
    await expect(el).shadowDom.to.be.accessible();

    // By keyboard: the button focused, Enter.
    const button = el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="format-anyway"]')!;
    button.focus();
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect($$(el, '[part~="limit-note"]')).to.have.length(0);
    expect($$(el, "em").map((em) => em.textContent)).to.deep.equal(["a", "b", "c", "d", "this"]);
    expect($$(el, "code").map((code) => code.textContent)).to.deep.equal(["e"]);
    // The button went with the note; the focus stayed in the message, not on the page's body.
    expect(el.shadowRoot!.activeElement?.getAttribute("part")).to.equal("base");
  });

  it("formats in later tasks what one update had no time for; updateComplete waits for all of it", async () => {
    const text = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} with **strong** text.`).join("\n\n");
    const el = await fixture<PiMarkdown>(html`<pi-markdown .text=${text} .limits=${{ sliceMs: 0 }}></pi-markdown>`);
    expect($$(el, "strong")).to.have.length(12);
    expect($$(el, '[part~="limit-note"]'), "waiting is not a limit: no note").to.have.length(0);
    expect(el.shadowRoot!.textContent).to.not.contain("**");
  });

  it("shows 300,000 characters of _a as written, all of them, and formats the answer after it", async () => {
    const hostile = "_a".repeat(150_000);
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown .text=${`${hostile}\n\nThen *normal* text.`}></pi-markdown>`,
    );
    const paragraphs = $$(el, "p:not([part])");
    expect(paragraphs[0]!.textContent).to.equal(hostile);
    expect($$(el, "em").map((em) => em.textContent)).to.deep.equal(["normal"]);
    expect($$(el, '[part~="limit-note"]')).to.have.length(1);
  });

  it("shows a long paragraph as written in full, wherever it is scrolled to, and keeps a selection in it while it streams", async () => {
    // Drawn in pieces of a few thousand characters (long-text.ts), each laid out on its own and only near the view:
    // all of the text is there and reads as it was written, and what the person selected stays selected as more
    // arrives.
    const words = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ".repeat(400);
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown style="inline-size: 37em" .text=${words} streaming></pi-markdown>`,
    );
    for (const text of [words, "_a".repeat(16_000), "日本語の長い文章です".repeat(2_100)]) {
      el.text = text;
      await el.updateComplete;
      const paragraph = $$(el, "p:not([part])")[0]!;
      expect(paragraph.textContent).to.equal(text);
      // Scrolled to, the middle of the text and its end are drawn.
      for (const at of [0.5, 1]) {
        const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
        const nodes: Text[] = [];
        while (walker.nextNode()) nodes.push(walker.currentNode as Text);
        const node = nodes[Math.min(nodes.length - 1, Math.floor(nodes.length * at))]!;
        const range = document.createRange();
        range.setStart(node, 0);
        range.setEnd(node, Math.min(8, node.length));
        // A piece that comes into view is laid out for a frame after, and the pieces near it too, which moves it
        // where a browser does not anchor scrolling (WebKit): scrolled to again then, as a person would (bounded: a
        // piece never drawn in view is reported).
        const inView = (box: DOMRect) => box.height > 0 && box.bottom > 0 && box.top < innerHeight;
        let box = range.getBoundingClientRect();
        for (let i = 0; i < 20 && !inView(box); i++) {
          node.parentElement!.scrollIntoView();
          await new Promise(requestAnimationFrame);
          box = range.getBoundingClientRect();
        }
        expect(box.height, `${text.slice(0, 8)} at ${at}: the text's box`).to.be.above(0);
        expect(box.bottom > 0 && box.top < innerHeight, `${text.slice(0, 8)} at ${at}: in view`).to.equal(true);
      }
    }

    el.text = words;
    await el.updateComplete;
    const paragraph = $$(el, "p:not([part])")[0]!;
    paragraph.scrollIntoView();
    // The person selects "ipsum dolor" in the first line.
    const range = document.createRange();
    const start = words.indexOf("ipsum");
    const node = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT).nextNode()!;
    range.setStart(node, start);
    range.setEnd(node, start + "ipsum dolor".length);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(range);
    for (let i = 0; i < 5; i++) {
      el.text += "More words arrive, one update after another. ".repeat(40);
      await el.updateComplete;
    }
    expect(range.toString(), "the selection after five updates").to.equal("ipsum dolor");
    expect($$(el, "p:not([part])")[0]!.textContent).to.equal(el.text);
    document.getSelection()!.removeAllRanges();
  });

  it("draws a table's first 200 rows as a table, the rest as written, and all of it when the person asks", async () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => `| ${i} | *row ${i}* |`).join("\n");
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown .text=${`| n | what |\n|---|---|\n${rows}\n\nAfter.`}></pi-markdown>`,
    );
    expect($$(el, "tbody tr")).to.have.length(200);
    expect($$(el, "tbody tr")[199]!.textContent).to.contain("row 199");
    const raw = $$(el, '[part~="raw"]');
    expect(raw).to.have.length(1);
    expect(raw[0]!.textContent!.startsWith("| 200 | *row 200* |"), "the rows cut follow as written").to.equal(true);
    expect(raw[0]!.textContent!.endsWith("| 1999 | *row 1999* |")).to.equal(true);
    expect($$(el, '[part~="limit-note"]')).to.have.length(1);
    expect($$(el, "p:not([part])").at(-1)!.textContent).to.equal("After.");
    $$(el, '[part~="format-anyway"]')[0]!.click();
    await el.updateComplete;
    expect($$(el, "tbody tr")).to.have.length(2_000);
    expect($$(el, '[part~="raw"], [part~="limit-note"]')).to.have.length(0);
  });
});
