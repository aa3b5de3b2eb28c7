/**
 * pi-transcript with a long session: 2,000 messages (500 turns of a question, a tool call, its result and an answer).
 * Every article stays in the DOM (find-in-page and screen readers reach all of it) and is laid out only near the
 * view (`content-visibility: auto`); only the newest 60 entries and at most 120 that came near the view render in
 * full (Markdown, tool cards), the others as light articles (author and text, about 15 nodes), so the rich DOM is
 * bounded whatever the session's length; a token streamed at the end does not render the 2,000 earlier articles
 * again. The figures behind choosing content-visibility over
 * virtualisation are printed (`historyRebuildMs`, `historyDomNodes`, the render per streamed update); the bench
 * measures them for the record, this test only what a reader would notice.
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { AgentEventBase } from "@pi-elements/core";
import { ConversationState } from "@pi-elements/core/conversation";
import { assistant, streamAssistant } from "../../core/test/conversation-wire.js";
import "../src/transcript.js";
import type { PiTranscript } from "../src/elements/transcript/transcript.js";
import { longHistory } from "./support/transcript.js";

/**
 * A bound against a hang, not a timed assertion: with the real pi-markdown and pi-tool-card, filling in 1,500
 * articles took 16.6 s in Firefox and 2.2 s in Chromium on two cores shared with other runs (up to 27 s in Chromium at
 * a load average of 23); the figure is printed below.
 */
const FILL_BOUND_MS = 90000;

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
/** Resolves after the frame that follows now has painted (a task queued from its animation-frame callback). */
const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

const articles = (el: PiTranscript) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="feed"] > article')];
/** Articles rendered in full (not the light form far from the view). */
const fullArticles = (el: PiTranscript) => articles(el).filter((a) => !a.querySelector("[data-light]"));
const isFull = (article: HTMLElement) => !article.querySelector("[data-light]");

/** Every node under `root`, through open shadow roots. */
function countNodes(root: Node): number {
  let count = 0;
  const walk = (node: Node) => {
    count++;
    if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child);
  };
  walk(root);
  return count;
}

/** Shows `state` in a new transcript: the time to its first paint, and how many articles that paint held. */
async function rebuild(state: ConversationState, css = ""): Promise<{ el: PiTranscript; ms: number; first: number }> {
  const wrapper = await fixture<HTMLElement>(html`<div style="block-size: 40rem; inline-size: 48rem"></div>`);
  const style = document.createElement("style");
  style.textContent = css;
  wrapper.append(style);
  const el = document.createElement("pi-transcript");
  await nextFrame();
  const start = performance.now();
  el.store = state;
  wrapper.append(el);
  await el.updateComplete;
  const first = articles(el).length;
  await painted();
  return { el, ms: performance.now() - start, first };
}

describe("pi-transcript with 2,000 messages", () => {
  const messages = longHistory(500);
  const state = new ConversationState();
  const setHistoryStart = performance.now();
  state.setHistory(messages, 0);
  const setHistoryMs = performance.now() - setHistoryStart;

  it("every message's text is in the DOM, each article laid out only near the view, the DOM a fixed size per message", async function (this: Mocha.Context) {
    this.timeout(FILL_BOUND_MS + 30000);
    expect(messages.length).to.equal(2000);
    const { el, ms, first } = await rebuild(state);
    // The first paint shows the newest entries; the earlier ones fill in, a chunk per task, the feed busy meanwhile.
    const feed = el.shadowRoot!.querySelector('[part~="feed"]')!;
    expect(first).to.be.at.most(60);
    const fillStart = performance.now();
    expect(feed.getAttribute("aria-busy")).to.equal("true");
    await waitUntil(() => articles(el).length === 1500, "every entry rendered", { timeout: FILL_BOUND_MS });
    const fillMs = performance.now() - fillStart;
    expect(feed.hasAttribute("aria-busy")).to.equal(false);
    const all = articles(el);
    // The tool results show in their calls' cards: 1,500 articles for 2,000 messages.
    expect(all.length).to.equal(1500);
    expect(getComputedStyle(all[0]!).contentVisibility).to.equal("auto");
    // Find-in-page and screen readers: the first question's text is in the DOM, though far from the view.
    expect(all[0]!.textContent).to.include("Question 0: what is in file-0.txt?");
    const nodes = countNodes(el.shadowRoot!);
    console.log(
      `historyRebuildMs=${ms.toFixed(1)} (first paint, ${first} articles; all ${all.length} after ${fillMs.toFixed(0)} ms more) setHistoryMs=${setHistoryMs.toFixed(1)} ` +
        `historyDomNodes=${nodes} (${(nodes / messages.length).toFixed(1)} per message, with the real pi-markdown and pi-tool-card)`,
    );
    // Bounded: the newest 60 entries and those near the view in full, every other one light (about 15 nodes a message
    // here, the full ones' shadow trees included; 54 a message when every article rendered in full).
    expect(nodes / messages.length).to.be.lessThan(20);
    expect(fullArticles(el).length, "articles in full").to.be.at.most(60 + 120);
    expect(all[0]!.querySelector("[data-light]")?.textContent).to.equal("Question 0: what is in file-0.txt?");
    // A light article is still an article named by its author.
    expect(all[0]!.getAttribute("aria-labelledby")).to.equal(all[0]!.querySelector('[part~="author"]')!.id);
    // The view starts at the newest text.
    const base = el.shadowRoot!.querySelector<HTMLElement>('[part~="base"]')!;
    expect(base.scrollHeight - base.scrollTop - base.clientHeight).to.be.lessThan(2);
  });

  it("articles render in full as they come near the view, at most 180 at a time, scrolled through from end to start", async function (this: Mocha.Context) {
    this.timeout(FILL_BOUND_MS + 60000);
    const { el } = await rebuild(state);
    await waitUntil(() => articles(el).length === 1500, "every entry rendered", { timeout: FILL_BOUND_MS });
    const base = el.shadowRoot!.querySelector<HTMLElement>('[part~="base"]')!;
    const inView = () => {
      const box = base.getBoundingClientRect();
      return articles(el).filter((a) => {
        const r = a.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      });
    };
    let most = 0;
    // A reader paging up through the whole session: what they see is rendered in full after a frame or two.
    for (let steps = 0; base.scrollTop > 0 && steps < 3000; steps++) {
      base.scrollTop = Math.max(0, base.scrollTop - base.clientHeight);
      await waitUntil(() => inView().every(isFull), `in full at ${base.scrollTop}`, { timeout: 5000, interval: 10 });
      most = Math.max(most, fullArticles(el).length);
    }
    expect(base.scrollTop).to.equal(0);
    expect(isFull(articles(el)[0]!)).to.equal(true);
    // The first question's answer renders as Markdown, its tool call as a card.
    expect(articles(el)[1]!.querySelector("pi-markdown, pi-tool-card")).to.not.equal(null);
    expect(most, "articles in full at once").to.be.at.most(60 + 120 + inView().length);
  });

  it("an article far from the view renders in full when it takes focus, and Page Down moves on from it", async function (this: Mocha.Context) {
    this.timeout(FILL_BOUND_MS + 30000);
    const { el } = await rebuild(state);
    await waitUntil(() => articles(el).length === 1500, "every entry rendered", { timeout: FILL_BOUND_MS });
    const far = articles(el)[700]!;
    expect(isFull(far)).to.equal(false);
    far.focus();
    await waitUntil(() => isFull(far), "the focused article in full");
    expect(el.shadowRoot!.activeElement).to.equal(far);
    far.dispatchEvent(new KeyboardEvent("keydown", { key: "PageDown", bubbles: true, composed: true }));
    const next = articles(el)[701]!;
    expect(el.shadowRoot!.activeElement).to.equal(next);
    await waitUntil(() => isFull(next), "the next article in full");
  });

  it("a reader who scrolls up while the history fills in keeps their place", async function (this: Mocha.Context) {
    this.timeout(FILL_BOUND_MS + 30000);
    const { el } = await rebuild(state);
    const base = el.shadowRoot!.querySelector<HTMLElement>('[part~="base"]')!;
    base.scrollTop = 0;
    const jump = el.shadowRoot!.querySelector<HTMLElement>('[part~="jump"]')!;
    await waitUntil(() => !jump.hidden, "scrolled up: Jump to latest shows");
    await nextFrame();
    // The article at the top of the reader's view, and where it is in the view.
    const viewTop = () => base.getBoundingClientRect().top;
    const top = articles(el).find((a) => a.getBoundingClientRect().bottom > viewTop())!;
    const before = top.getBoundingClientRect().top - viewTop();
    await waitUntil(() => articles(el).length === 1500, "every entry rendered", { timeout: FILL_BOUND_MS });
    expect(articles(el)[0]).to.not.equal(top);
    // Articles above it filled in, and those near the view rendered in full: it is where the reader left it.
    for (let i = 0; i < 5; i++) await nextFrame();
    const after = top.getBoundingClientRect().top - viewTop();
    expect(Math.abs(after - before), `${before} → ${after}`).to.be.lessThan(2);
    expect(jump.hidden).to.equal(false);
  });

  it("a token streamed after 2,000 messages renders only the streaming article", async function (this: Mocha.Context) {
    this.timeout(FILL_BOUND_MS + 30000);
    const live = new ConversationState();
    live.setHistory(messages, 0);
    const { el } = await rebuild(live);
    await waitUntil(() => articles(el).length === 1500, "every entry rendered", { timeout: FILL_BOUND_MS });
    const first = articles(el)[0]!;
    let mutations = 0;
    const observer = new MutationObserver((records) => {
      mutations += records.filter((r) => !(r.target as Element).closest?.('[part~="streaming"]')).length;
    });
    observer.observe(el.shadowRoot!.querySelector('[part~="feed"]')!, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    const events = streamAssistant("1.6.0", assistant([{ type: "text", text: "a streamed answer ".repeat(20) }]), 8);
    const times: number[] = [];
    for (const event of events.slice(0, -1)) {
      // One update a frame: the transcript renders a change at once when it has not rendered since the last frame
      // (later ones wait for the next frame), so this times the render alone.
      await nextFrame();
      live.apply(event as AgentEventBase);
      await Promise.resolve();
      const start = performance.now();
      await el.updateComplete;
      times.push(performance.now() - start);
    }
    observer.disconnect();
    // Only the streaming article was added (one childList record on the feed); nothing in the 1,500 before it changed.
    expect(mutations).to.be.at.most(1);
    expect(articles(el)[0]).to.equal(first);
    times.sort((a, b) => a - b);
    console.log(
      `render per streamed update with 2,000 messages: median ${times[times.length >> 1]!.toFixed(2)} ms, ` +
        `max ${times.at(-1)!.toFixed(2)} ms over ${times.length} updates`,
    );
  });
});
