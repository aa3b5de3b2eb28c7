/**
 * pi-code-block's highlighter runs in a worker (highlighter.ts): a highlight that runs on (100 KB of dashes as `ini`
 * took over a minute on the main thread) is stopped after HIGHLIGHT_TIMEOUT_MS, its code stays plain and whole, the
 * same code growing is not tried again, and the next code block is highlighted by a new worker. Workers are what
 * engines differ on: all three engines. The limits a page sets (a time, a size) are taken, also through pi-markdown.
 */
import { expect, fixture, html } from "@open-wc/testing";
import type { PiCodeBlock } from "../src/elements/code-block/code-block.js";
import "../src/elements/code-block/define.js";
import "../src/elements/markdown/define.js";
import { HIGHLIGHT_TIMEOUT_MS } from "../src/elements/code-block/highlighter.js";
import type { PiMarkdown } from "../src/elements/markdown/markdown.js";

const codeOf = (el: PiCodeBlock) => el.shadowRoot!.querySelector("code")!;

describe("pi-code-block's highlighter worker", () => {
  it("stops a highlight that runs on, keeps the code plain and whole, and highlights the next block", async function (this: Mocha.Context) {
    // A bound against a hang: the stop comes after HIGHLIGHT_TIMEOUT_MS.
    this.timeout(HIGHLIGHT_TIMEOUT_MS + 30_000);
    const dashes = `${"-".repeat(99_999)}\n`;
    // fixture() waits for updateComplete, which waits for the highlight in flight: here, until it is stopped.
    const el = await fixture<PiCodeBlock>(html`<pi-code-block language="ini" .code=${dashes}></pi-code-block>`);
    expect(el.highlighted).to.equal(false);
    expect(codeOf(el).textContent).to.equal(dashes);
    // No colour (its one long line is drawn in pieces, long-lines.ts, which are spans of no class but "piece").
    expect(codeOf(el).querySelectorAll("span:not(.piece)").length).to.equal(0);

    // The same code growing (a stream) is not tried again: no second minute for it.
    el.code = `${dashes}-\n`;
    await el.updateComplete;
    expect(el.highlighted).to.equal(false);

    const next = await fixture<PiCodeBlock>(
      html`<pi-code-block language="ts" .code=${"const a = 1;"}></pi-code-block>`,
    );
    await next.updateComplete;
    expect(next.highlighted).to.equal(true);
    expect(codeOf(next).querySelector(".hljs-keyword")?.textContent).to.equal("const");
  });

  it("takes a page's limits: a shorter time, a smaller size, and highlights what new limits allow", async function (this: Mocha.Context) {
    this.timeout(30_000);
    const dashes = `${"-".repeat(99_999)}\n`;
    // 100 ms instead of two seconds: what runs on is stopped sooner.
    const slow = await fixture<PiCodeBlock>(
      html`<pi-code-block language="ini" .code=${dashes} .limits=${{ highlightMs: 100 }}></pi-code-block>`,
    );
    expect(slow.highlighted).to.equal(false);
    expect(codeOf(slow).textContent).to.equal(dashes);

    const code = "const a = 1;";
    const small = await fixture<PiCodeBlock>(
      html`<pi-code-block language="ts" .code=${code} .limits=${{ highlightChars: code.length - 1 }}></pi-code-block>`,
    );
    expect(small.highlighted, "longer than highlightChars: plain").to.equal(false);
    small.limits = { highlightChars: code.length };
    await small.updateComplete;
    expect(small.highlighted).to.equal(true);
    expect(codeOf(small).querySelector(".hljs-keyword")?.textContent).to.equal("const");
    // Lowered while its highlight is in flight (the worker's answer is a task; the update and this line are
    // microtasks before it): the answer that comes is not shown.
    const racing = document.createElement("pi-code-block");
    racing.language = "ts";
    racing.code = "let b = 2;";
    document.body.append(racing);
    try {
      while (!racing.hasUpdated) await Promise.resolve();
      racing.limits = { highlightChars: 3 };
      await racing.updateComplete;
      expect(racing.highlighted, "the answer for the old limits not shown").to.equal(false);
      expect(codeOf(racing).querySelector("span")).to.equal(null);
    } finally {
      racing.remove();
    }
    // Lowered again below its length: plain again.
    small.limits = { highlightChars: 3 };
    await small.updateComplete;
    expect(small.highlighted).to.equal(false);
    expect(codeOf(small).querySelector("span")).to.equal(null);
    expect(codeOf(small).textContent).to.equal(code);
  });

  it("pi-markdown gives its code blocks the code limits of its own, one object from render to render", async () => {
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown .text=${"```ts\nconst a = 1;\n```\n"} .limits=${{ highlightChars: 5, tableRows: 3 }}></pi-markdown>`,
    );
    const block = el.shadowRoot!.querySelector("pi-code-block")!;
    await block.updateComplete;
    expect(block.highlighted).to.equal(false);
    expect(block.limits).to.deep.equal({ highlightChars: 5 });
    const given = block.limits;
    el.text = "```ts\nconst a = 1;\n```\n\nMore.";
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector("pi-code-block")!.limits).to.equal(given);
    el.limits = undefined;
    await el.updateComplete;
    const again = el.shadowRoot!.querySelector("pi-code-block")!;
    await again.updateComplete;
    expect(again.limits).to.equal(undefined);
    expect(again.highlighted).to.equal(true);
  });
});
