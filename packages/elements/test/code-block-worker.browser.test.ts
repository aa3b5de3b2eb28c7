/**
 * pi-code-block's highlighter runs in a worker (highlighter.ts): a highlight that runs on (100 KB of dashes as `ini`
 * took over a minute on the main thread) is stopped after HIGHLIGHT_TIMEOUT_MS, its code stays plain and whole, the
 * same code growing is not tried again, and the next code block is highlighted by a new worker. Workers are what
 * engines differ on: all three engines.
 */
import { expect, fixture, html } from "@open-wc/testing";
import type { PiCodeBlock } from "../src/elements/code-block/code-block.js";
import "../src/elements/code-block/define.js";
import { HIGHLIGHT_TIMEOUT_MS } from "../src/elements/code-block/highlighter.js";

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
    expect(codeOf(el).querySelector("span")).to.equal(null);

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
});
