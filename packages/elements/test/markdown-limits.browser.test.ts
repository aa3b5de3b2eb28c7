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
