/**
 * The highlighter is a worker of its own, started by the first code block with a language and not before: a page
 * with Markdown but no code does not load it. Its own file, so that no other test has loaded it first.
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import "../src/elements/markdown/define.js";
import type { PiCodeBlock } from "../src/elements/code-block/code-block.js";
import type { PiMarkdown } from "../src/elements/markdown/markdown.js";

/** Every resource the page requested, from an observer (the timeline's buffer holds only 250 entries). */
const requested: string[] = [];
const resources = new PerformanceObserver((list) => requested.push(...list.getEntries().map((entry) => entry.name)));
resources.observe({ type: "resource", buffered: true });
const highlighterRequests = () => {
  requested.push(...resources.takeRecords().map((entry) => entry.name));
  return requested.filter((name) => /\/code-block\/highlight(-worker)?\.(ts|js)|lowlight|highlight\.js/.test(name));
};

describe("pi-code-block's highlighter loads lazily", () => {
  it("is not requested for Markdown without code, then loads on the first code block, which shows plain code first", async () => {
    const md = await fixture<PiMarkdown>(
      html`<pi-markdown .text=${"# Title\n\nA paragraph with `inline code`."}></pi-markdown>`,
    );
    await md.updateComplete;
    expect(highlighterRequests()).to.deep.equal([]);

    md.text += "\n\n```ts\nconst answer = 42;\n```\n";
    await md.updateComplete;
    const block = md.shadowRoot!.querySelector<PiCodeBlock>("pi-code-block")!;
    // What the block shows until the worker answers (a task away at least, after the microtasks of this render):
    // the code as plain text, already readable.
    const shown: string[] = [];
    const record = () => {
      const code = block.shadowRoot?.querySelector("code");
      if (code?.textContent) shown.push(code.querySelector("span") ? "highlighted" : `plain: ${code.textContent}`);
    };
    record();
    const observer = new MutationObserver(record);
    observer.observe(block.shadowRoot!, { subtree: true, childList: true, characterData: true });
    const code = () => block.shadowRoot!.querySelector("code")!;
    await waitUntil(() => block.highlighted, "the code is highlighted", { timeout: 8000 });
    await block.updateComplete;
    observer.disconnect();
    expect(shown[0]).to.equal("plain: const answer = 42;");
    expect(shown.at(-1)).to.equal("highlighted");
    expect(code().querySelector(".hljs-keyword")?.textContent).to.equal("const");
    expect(code().textContent).to.equal("const answer = 42;");
    expect(highlighterRequests().length).to.be.greaterThan(0);
  });
});
