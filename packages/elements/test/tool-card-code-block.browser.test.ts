/**
 * pi-tool-card with a `<pi-code-block>` on the page: read and write give it the file's content and language instead
 * of a plain `<pre>`, also when the code block is defined after the card rendered. A stand-in element records what
 * it is given (this file's page has no other pi-code-block).
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { PiToolCard } from "../src/elements/tool-card/define.js";
import "../src/elements/tool-card/define.js";

class StubCodeBlock extends HTMLElement {
  code = "";
  get language() {
    return this.getAttribute("language");
  }
}

describe("pi-tool-card with pi-code-block", () => {
  it("renders file content through pi-code-block once it is defined", async () => {
    const el = await fixture<PiToolCard>(html`<pi-tool-card
      .call=${{ name: "write", arguments: { path: "src/greet.ts", content: "export const a = 1;\n<b>x</b>\n" } }}
    ></pi-tool-card>`);
    // Not defined yet: a plain pre with the text.
    expect(el.shadowRoot!.querySelector("pre[part~=code]")?.textContent).to.equal("export const a = 1;\n<b>x</b>");
    customElements.define("pi-code-block", StubCodeBlock);
    await waitUntil(() => el.shadowRoot!.querySelector("pi-code-block"), "the card re-renders with pi-code-block");
    const block = el.shadowRoot!.querySelector("pi-code-block") as StubCodeBlock;
    expect(block.code).to.equal("export const a = 1;\n<b>x</b>");
    expect(block.language).to.equal("typescript");
    expect(el.shadowRoot!.querySelector("b")).to.equal(null);
  });
});
