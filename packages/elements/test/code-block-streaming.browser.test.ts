/**
 * pi-code-block growing while a message streams: a long block is not highlighted again on every change. The part
 * highlighted last stays coloured (never plain again), what arrived since shows plain after it, and the whole is
 * coloured again soon after, and at once when the stream ends.
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { CODE_BLOCK_LIMITS, type PiCodeBlock } from "../src/elements/code-block/code-block.js";
import "../src/elements/code-block/define.js";

const codeOf = (el: PiCodeBlock) => el.shadowRoot!.querySelector("code")!;
const line = (n: number) => `export const value${n} = compute(${n}, "text ${n}"); // line ${n}\n`;

describe("pi-code-block while streaming", () => {
  it("a short block is highlighted on every change", async () => {
    const el = await fixture<PiCodeBlock>(
      html`<pi-code-block language="ts" streaming .code=${line(1)}></pi-code-block>`,
    );
    el.code += line(2);
    await el.updateComplete;
    expect(el.highlighted).to.equal(true);
    expect(codeOf(el).textContent).to.equal(line(1) + line(2));
  });

  it("a long block keeps its colours, shows the new text plain after them, and is coloured whole soon after", async () => {
    let code = "";
    for (let n = 0; code.length <= CODE_BLOCK_LIMITS.streamingHighlightChars; n++) code += line(n);
    const el = await fixture<PiCodeBlock>(html`<pi-code-block language="ts" streaming .code=${code}></pi-code-block>`);
    await waitUntil(() => el.highlighted, "highlighted");
    const spans = codeOf(el).querySelectorAll("span").length;
    for (let n = 1000; n < 1005; n++) {
      code += line(n);
      el.code = code;
      await el.updateComplete;
      // Every character shows, the part highlighted before still coloured, the new lines plain for now.
      expect(codeOf(el).textContent).to.equal(code);
      expect(codeOf(el).querySelectorAll("span").length).to.equal(spans);
    }
    expect(el.highlighted, "not highlighted again on every change").to.equal(false);
    await waitUntil(() => el.highlighted, "highlighted whole again soon after", { timeout: 5000 });
    await el.updateComplete;
    expect(codeOf(el).querySelectorAll("span").length).to.be.greaterThan(spans);
    expect(codeOf(el).textContent).to.equal(code);
  });

  it("the end of the stream highlights the whole block at once", async () => {
    let code = "";
    for (let n = 0; code.length <= CODE_BLOCK_LIMITS.streamingHighlightChars; n++) code += line(n);
    const el = await fixture<PiCodeBlock>(html`<pi-code-block language="ts" streaming .code=${code}></pi-code-block>`);
    await waitUntil(() => el.highlighted, "highlighted");
    el.code = code + line(2000);
    await el.updateComplete;
    el.streaming = false;
    await el.updateComplete;
    expect(el.highlighted).to.equal(true);
    expect(codeOf(el).textContent).to.equal(code + line(2000));
  });

  it("keeps its colours when the later highlight of a streaming block comes after the code grew past highlightChars", async () => {
    const row = (n: number) => `const value${n}: number = ${n};\n`;
    let code = "";
    for (let n = 0; code.length <= 2_500; n++) code += row(n);
    const el = await fixture<PiCodeBlock>(
      html`<pi-code-block language="ts" streaming .limits=${{ highlightChars: 3_000, streamingHighlightChars: 100 }}
        .code=${code}></pi-code-block>`,
    );
    expect(el.highlighted, "the first highlight at once").to.equal(true);
    // Grown within the length: its highlight is put off (a timer); grown past it before that timer fires.
    el.code = `${code}${row(9_000)}`;
    await el.updateComplete;
    let past = el.code;
    while (past.length <= 3_000) past += row(past.length);
    el.code = past;
    await el.updateComplete;
    // The put-off highlight fires at most a second later; whatever it does then is done by the next updateComplete.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll(".hljs-keyword").length, "the colours it had, kept").to.be.greaterThan(0);
  });
});
