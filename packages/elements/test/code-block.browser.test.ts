import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import type { PiCodeBlock } from "../src/elements/code-block/code-block.js";
import "../src/elements/code-block/define.js";
import { fakeClipboard } from "./support/clipboard.js";

const part = <T extends Element = HTMLElement>(el: PiCodeBlock, name: string) =>
  el.shadowRoot!.querySelector<T>(`[part~="${name}"]`)!;

describe("pi-code-block", () => {
  it("shows the language and the code, highlighted, in a focusable, named, left-to-right group (not a landmark)", async () => {
    const el = await fixture<PiCodeBlock>(
      html`<pi-code-block .code=${"const a = 'x';"} language="ts"></pi-code-block>`,
    );
    expect(part(el, "language").textContent).to.equal("ts");
    const code = part(el, "code");
    expect([code.tabIndex, code.getAttribute("role"), code.getAttribute("aria-label"), code.dir]).to.deep.equal([
      0,
      "group",
      "Code (ts)",
      "ltr",
    ]);
    expect(el.highlighted).to.equal(true);
    expect(code.querySelector(".hljs-keyword")?.textContent).to.equal("const");
    expect(code.querySelector(".hljs-string")?.textContent).to.equal("'x'");
    expect(code.textContent).to.equal("const a = 'x';");
  });

  it("is no landmark: a message with two code blocks in one language passes axe (landmark-unique)", async () => {
    // A transcript holds many code blocks, often in one language, so "Code (js)" is not a unique name: each block is
    // a named, focusable group that scrolls, not a region landmark.
    const el = await fixture<HTMLElement>(
      html`<div><pi-code-block .code=${"a();"} language="js"></pi-code-block>
        <pi-code-block .code=${"b();"} language="js"></pi-code-block></div>`,
    );
    const codes = [...el.querySelectorAll("pi-code-block")].map((block) => part(block as PiCodeBlock, "code"));
    expect(codes.map((code) => code.getAttribute("role"))).to.deep.equal(["group", "group"]);
    await expect(el).to.be.accessible();
  });

  it("shows code without a language, or in one the highlighter does not know, as plain text", async () => {
    const el = await fixture<PiCodeBlock>(html`<pi-code-block .code=${"<b>not html</b>"}></pi-code-block>`);
    expect(part(el, "code").querySelector("b, span")).to.equal(null);
    expect(part(el, "code").textContent).to.equal("<b>not html</b>");
    el.language = "no-such-language";
    await el.updateComplete;
    expect(part(el, "code").textContent).to.equal("<b>not html</b>");
    expect(el.highlighted).to.equal(false);
  });

  it("never shows plain text again once highlighted, while the code grows", async () => {
    const el = await fixture<PiCodeBlock>(
      html`<pi-code-block .code=${"function"} language="js" streaming></pi-code-block>`,
    );
    const seenPlain: string[] = [];
    const observer = new MutationObserver(() => {
      const code = part(el, "code").querySelector("code")!;
      if (code.textContent && !code.querySelector("span")) seenPlain.push(code.textContent);
    });
    observer.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true });
    const full = "function greet(name) {\n  return 'hello ' + name; // a comment\n}\n";
    for (let end = "function".length + 1; end <= full.length; end += 3) {
      el.code = full.slice(0, end);
      await el.updateComplete;
      expect(el.highlighted, `highlighted at ${end}`).to.equal(true);
    }
    observer.disconnect();
    expect(seenPlain).to.deep.equal([]);
    expect(part(el, "code").getAttribute("aria-busy")).to.equal("true");
  });

  it("copies the code from the keyboard, says Copied and announces it politely", async () => {
    const clipboard = fakeClipboard();
    try {
      const el = await fixture<PiCodeBlock>(html`<pi-code-block .code=${"npm test\n"} language="sh"></pi-code-block>`);
      const button = part<HTMLButtonElement>(el, "copy");
      expect([button.textContent?.trim(), button.getAttribute("aria-label")]).to.deep.equal(["Copy", "Copy code"]);
      button.focus();
      await sendKeys({ press: "Enter" });
      await waitUntil(() => clipboard.written.length === 1, "the code is written to the clipboard");
      expect(clipboard.written).to.deep.equal(["npm test\n"]);
      await el.updateComplete;
      expect([button.textContent?.trim(), button.dataset.state]).to.deep.equal(["Copied", "copied"]);
      const status = el.shadowRoot!.querySelector('[role="status"]')!;
      expect(status.textContent).to.equal("Copied");
      expect(el.shadowRoot!.activeElement).to.equal(button);
      await sendKeys({ press: " " });
      await waitUntil(() => clipboard.written.length === 2, "a second copy with Space");
    } finally {
      clipboard.restore();
    }
  });

  it("says Copy failed when the clipboard refuses", async () => {
    const clipboard = fakeClipboard(false);
    try {
      const el = await fixture<PiCodeBlock>(html`<pi-code-block .code=${"x"}></pi-code-block>`);
      part<HTMLButtonElement>(el, "copy").click();
      await waitUntil(() => part(el, "copy").dataset.state === "failed", "the failed state");
      expect(part(el, "copy").textContent?.trim()).to.equal("Copy failed");
    } finally {
      clipboard.restore();
    }
  });

  it("speaks Japanese and Chinese", async () => {
    const ja = await fixture<PiCodeBlock>(html`<pi-code-block lang="ja" .code=${"x"}></pi-code-block>`);
    expect(part(ja, "copy").textContent?.trim()).to.equal("コピー");
    const zh = await fixture<PiCodeBlock>(html`<pi-code-block lang="zh-CN" .code=${"x"}></pi-code-block>`);
    expect(part(zh, "copy").textContent?.trim()).to.equal("复制");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme, and takes a screenshot`, async () => {
      const code = `// Every colour of the theme
import { readFile } from "node:fs/promises";
export class Greeter<T extends string> {
  #count = 0;
  constructor(private readonly name: T) {}
  async greet(times: number = 3): Promise<string> {
    const text = await readFile("greeting.txt", "utf8");
    return \`\${text}, \${this.name}!\`.repeat(times) + /x+/g.source + true;
  }
}`;
      const el = await fixture<PiCodeBlock>(
        html`<pi-code-block id="shot" theme=${theme} style="inline-size: 36rem" .code=${code} language="ts"></pi-code-block>`,
      );
      expect(el.highlighted).to.equal(true);
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `code-block-${theme}`, selector: "#shot" });
    });
  }
});
