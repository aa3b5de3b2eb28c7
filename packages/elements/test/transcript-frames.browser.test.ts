/**
 * pi-transcript while a message streams faster than frames are painted: a store change renders at once when the
 * transcript has not rendered since the last frame, and the changes after it wait for the next frame and render
 * there together; `updateComplete` waits for them too.
 */
import { expect, fixture, html } from "@open-wc/testing";
import type { AgentEventBase } from "@pi-elements/core";
import { ConversationState } from "@pi-elements/core/conversation";
import { assistant, streamAssistant, userTurn } from "../../core/test/conversation-wire.js";
import "../src/transcript.js";

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
type Markdown = HTMLElement & { text: string; updateComplete: Promise<boolean> };

describe("pi-transcript renders a fast stream once a frame", () => {
  it("ten updates within one task render twice (one at once, the rest in the next frame), showing the last", async () => {
    const wrapper = await fixture<HTMLElement>(html`<div style="block-size: 10rem; inline-size: 30rem"></div>`);
    const el = document.createElement("pi-transcript");
    wrapper.append(el);
    const state = new ConversationState();
    el.store = state;
    const text = "a streamed line of the answer\n\n".repeat(30);
    const events = streamAssistant("1.6.0", assistant([{ type: "text", text }]), 30);
    for (const event of [{ type: "agent_start" }, ...userTurn("a question"), ...events.slice(0, 4)]) {
      state.apply(event as AgentEventBase);
    }
    await el.updateComplete;
    await nextFrame();
    const markdown = el.shadowRoot!.querySelector<Markdown>('[part~="streaming"] pi-markdown')!;
    await markdown.updateComplete;
    let renders = 0;
    const observer = new MutationObserver(() => renders++);
    observer.observe(markdown.shadowRoot!, { subtree: true, childList: true, characterData: true });
    // Ten updates in one task, each heard by the transcript (the store notifies in a microtask): no frame between.
    for (const event of events.slice(4, 14)) {
      state.apply(event as AgentEventBase);
      await Promise.resolve();
      await Promise.resolve();
    }
    await el.updateComplete;
    await markdown.updateComplete;
    await new Promise((resolve) => setTimeout(resolve));
    observer.disconnect();
    expect(renders, "renders for ten updates").to.be.within(1, 2);
    const shown = state.getSnapshot().streaming!.blocks[0] as { text: string };
    expect(markdown.text, "updateComplete waited for the last update").to.equal(shown.text);
  });
});
