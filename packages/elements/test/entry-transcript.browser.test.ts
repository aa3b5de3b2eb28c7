/**
 * An element's own module registers what it draws inside (issue #34 item 13): this page imports nothing but
 * pi-transcript's, and a message's text, code and tool calls still render as elements, not as unknown tags.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { ConversationState } from "@pi-elements/core/conversation";
import { assistant } from "../../core/test/conversation-wire.js";
import "../src/elements/transcript/define.js";
import type { PiTranscript } from "../src/elements/transcript/transcript.js";

describe("registering pi-transcript alone", () => {
  it("registers pi-markdown, pi-code-block and pi-tool-card with it, so a message renders whole", async () => {
    expect(
      ["pi-transcript", "pi-markdown", "pi-code-block", "pi-tool-card"].map((tag) => !!customElements.get(tag)),
    ).to.deep.equal([true, true, true, true]);
    const state = new ConversationState();
    state.setHistory(
      [
        { role: "user", content: "hi", timestamp: 1 },
        assistant([
          { type: "text", text: "**Done.**\n\n```js\nlet a = 1;\n```" },
          { type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } },
        ]),
      ],
      0,
    );
    const el = await fixture<PiTranscript>(
      html`<pi-transcript style="block-size: 20rem" .store=${state}></pi-transcript>`,
    );
    const markdown = el.shadowRoot!.querySelector("pi-markdown")!;
    await (markdown as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(markdown.shadowRoot!.querySelector("strong")?.textContent).to.equal("Done.");
    expect(markdown.shadowRoot!.querySelector("pi-code-block")?.shadowRoot).to.not.equal(null);
    expect(el.shadowRoot!.querySelector("pi-tool-card")?.shadowRoot).to.not.equal(null);
  });
});
