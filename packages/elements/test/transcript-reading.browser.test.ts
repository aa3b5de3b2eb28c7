/**
 * Reading pi-transcript while it streams, with keyboard and screen reader: the view pinned to the newest text unless
 * the reader scrolled up, "Jump to latest" by mouse and keyboard, a new prompt brought into view, Page Up / Page
 * Down between articles, axe in both themes, right-to-left, Japanese and Chinese strings, and screenshots.
 */

import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { AgentEventBase } from "@pi-elements/core";
import { ConversationState } from "@pi-elements/core/conversation";
import { executeServerCommand, sendKeys, sendMouse } from "@web/test-runner-commands";
import type { LitElement } from "lit";
import { assistant, streamAssistant, userTurn } from "../../core/test/conversation-wire.js";
import "../src/transcript.js";
import type { PiTranscript } from "../src/elements/transcript/transcript.js";
import { loadRecords, recorded, replay } from "./support/transcript.js";

const root = (el: PiTranscript) => el.shadowRoot!;
const articles = (el: PiTranscript) => [...root(el).querySelectorAll<HTMLElement>('[part~="feed"] > article')];
const base = (el: PiTranscript) => root(el).querySelector<HTMLElement>('[part~="base"]')!;
const jump = (el: PiTranscript) => root(el).querySelector<HTMLButtonElement>('[part~="jump"]')!;
const atEnd = (el: PiTranscript) => {
  const b = base(el);
  return b.scrollHeight - b.scrollTop - b.clientHeight <= 2;
};
/** The element focused, through shadow roots. */
function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** A history of `turns` user/assistant pairs, long enough to scroll. */
function history(turns: number): unknown[] {
  const messages: unknown[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "user", content: `Question ${i}`, timestamp: i });
    messages.push(
      assistant([{ type: "text", text: `Answer ${i}.\n\nA second paragraph for answer ${i}.` }], { timestamp: i }),
    );
  }
  return messages;
}

async function show(store: ConversationState, attrs = ""): Promise<PiTranscript> {
  const wrapper = await fixture<HTMLElement>(html`<div style="block-size: 16rem; inline-size: 32rem"></div>`);
  wrapper.innerHTML = `<pi-transcript ${attrs}></pi-transcript>`;
  const el = wrapper.querySelector("pi-transcript")!;
  el.store = store;
  await el.updateComplete;
  return el;
}

async function feed(el: PiTranscript, state: ConversationState, events: readonly object[]): Promise<void> {
  for (const event of events) {
    state.apply(event as AgentEventBase);
    await Promise.resolve();
    await el.updateComplete;
  }
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

describe("pi-transcript reading while it streams", () => {
  it("follows the newest text; scrolled up it stays, Jump to latest appears and works by mouse", async () => {
    const state = new ConversationState();
    state.setHistory(history(12), 0);
    const el = await show(state);
    await waitUntil(() => atEnd(el), "starts at the newest text");
    expect(jump(el).hidden).to.equal(true);
    const events = streamAssistant("1.6.0", assistant([{ type: "text", text: "streamed line\n".repeat(30) }]), 6);
    await feed(el, state, events.slice(0, 20));
    await nextFrame();
    expect(atEnd(el), "pinned while it streams").to.equal(true);

    base(el).scrollTop = 0;
    await waitUntil(() => !jump(el).hidden, "Jump to latest appears once scrolled up");
    await feed(el, state, events.slice(20, -1));
    await nextFrame();
    expect(base(el).scrollTop, "stays where the reader is").to.equal(0);

    const box = jump(el).getBoundingClientRect();
    await sendMouse({
      type: "click",
      position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
    });
    await waitUntil(() => atEnd(el) && jump(el).hidden, "back at the newest text");
    expect(deepActive()).to.equal(articles(el).at(-1));
    await feed(el, state, events.slice(-1));
    await nextFrame();
    expect(atEnd(el)).to.equal(true);
  });

  it("stays at the newest text when its box shrinks or grows (a phone turned, a panel resized), with nothing streaming", async () => {
    const state = new ConversationState();
    state.setHistory(history(12), 0);
    const el = await show(state);
    await waitUntil(() => atEnd(el), "starts at the newest text");
    const wrapper = el.parentElement!;
    for (const size of ["10rem", "30rem", "6rem"]) {
      wrapper.style.blockSize = size;
      await waitUntil(() => atEnd(el), `at the newest text in a ${size} box`);
      // Still there a few frames later (nothing scrolls it back), and it still counts as following.
      for (let i = 0; i < 3; i++) await nextFrame();
      expect(atEnd(el), `still at the end in a ${size} box`).to.equal(true);
      expect(jump(el).hidden, "no Jump to latest: the reader did not scroll up").to.equal(true);
    }
    // Scrolled up, a resize leaves the reader where they are.
    base(el).scrollTop = 0;
    await waitUntil(() => !jump(el).hidden, "scrolled up");
    wrapper.style.blockSize = "12rem";
    for (let i = 0; i < 3; i++) await nextFrame();
    expect(base(el).scrollTop).to.equal(0);
  });

  it("Jump to latest works by keyboard", async () => {
    const state = new ConversationState();
    state.setHistory(history(12), 0);
    const el = await show(state);
    await waitUntil(() => atEnd(el), "starts at the newest text");
    base(el).scrollTop = 0;
    await waitUntil(() => !jump(el).hidden, "Jump to latest appears");
    jump(el).focus();
    await sendKeys({ press: "Enter" });
    await waitUntil(() => atEnd(el) && jump(el).hidden, "Enter jumps to the newest text");
    expect(deepActive()).to.equal(articles(el).at(-1));
  });

  it("a new prompt brings its turn into view even when the reader had scrolled up", async () => {
    const state = new ConversationState();
    state.setHistory(history(12), 0);
    const el = await show(state);
    await waitUntil(() => atEnd(el), "starts at the end");
    base(el).scrollTop = 0;
    await waitUntil(() => !jump(el).hidden, "scrolled up");
    await feed(el, state, [{ type: "agent_start" }, ...userTurn("a new question")]);
    await waitUntil(() => atEnd(el) && jump(el).hidden, "the new turn is in view");
    expect(articles(el).at(-1)?.textContent).to.include("a new question");
  });

  it("Page Down / Page Up move focus between articles (APG feed); Tab reaches the tool cards inside", async () => {
    const el = await show(await recorded("1.6.0", "tools"));
    const all = articles(el);
    all[0]!.focus();
    await sendKeys({ press: "PageDown" });
    expect(deepActive()).to.equal(all[1]);
    await sendKeys({ press: "PageDown" });
    expect(deepActive()).to.equal(all[2]);
    await sendKeys({ press: "PageUp" });
    expect(deepActive()).to.equal(all[1]);
    // Tab from an article goes to its copy button, then into a tool card of it that has controls (its code block's
    // copy button; a card whose output is short has none, and Tab passes it).
    const at = all.findIndex((a) =>
      [...a.querySelectorAll("pi-tool-card")].some((c) => c.shadowRoot!.querySelector("pi-code-block, button")),
    );
    expect(at).to.be.greaterThan(0);
    all[at]!.focus();
    const cardsOf = [...all[at]!.querySelectorAll("pi-tool-card")];
    let reached = false;
    for (let i = 0; i < 3 && !reached; i++) {
      await sendKeys({ press: "Tab" });
      let node: Node | null = deepActive();
      while (node && !cardsOf.includes(node as never))
        node = node.parentNode ?? (node instanceof ShadowRoot ? node.host : null);
      reached = node !== null;
    }
    expect(reached, `focus reaches a tool card of the article (${deepActive()?.localName})`).to.equal(true);
    // Page Down from inside a tool card moves to the next article.
    await sendKeys({ press: "PageDown" });
    expect(deepActive() === all[at + 1], "Page Down from inside a card: the next article").to.equal(true);
    all.at(-1)!.focus();
    await sendKeys({ press: "PageDown" });
    expect(deepActive(), "the last article keeps focus").to.equal(all.at(-1));
  });

  it("each article's name is its author; the streamed one is busy; the tool cards are named groups inside", async () => {
    const state = new ConversationState();
    const el = await show(state);
    const events = streamAssistant(
      "0.73.1",
      assistant([
        { type: "text", text: "Let me look." },
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.txt" } },
      ]),
    );
    await feed(el, state, [{ type: "agent_start" }, ...userTurn("hi"), ...events.slice(0, -1)]);
    const streaming = articles(el).at(-1)!;
    expect(streaming.getAttribute("aria-busy")).to.equal("true");
    const group = streaming.querySelector("pi-tool-card")!.shadowRoot!.querySelector('[role="group"]')!;
    expect(group.getAttribute("aria-label")).to.equal("read: a.txt");
    await expect(el).to.be.accessible();
  });

  it("an article's author is an h3 by default, and the heading level the page's outline asks for (heading-level)", async () => {
    const state = new ConversationState();
    state.setHistory(history(2), 0);
    const el = await show(state);
    const levels = () => articles(el).map((a) => a.querySelector('[part~="author"]')!.localName);
    const names = () => articles(el).map((a) => a.querySelector(`#${a.getAttribute("aria-labelledby")}`)?.textContent);
    expect(levels()).to.deep.equal(["h3", "h3", "h3", "h3"]);
    el.setAttribute("heading-level", "2");
    await el.updateComplete;
    // Committed articles render again with the new level, still named by their headings.
    expect(levels()).to.deep.equal(["h2", "h2", "h2", "h2"]);
    expect(names()).to.deep.equal(["You", "pi", "You", "pi"]);
    await feed(el, state, [{ type: "agent_start" }, ...userTurn("and now?")]);
    expect(levels().at(-1)).to.equal("h2");
    for (const wrong of ["7", "0", "2.5", "two"]) {
      el.setAttribute("heading-level", wrong);
      await el.updateComplete;
      expect(
        levels().every((tag) => tag === "h3"),
        `heading-level="${wrong}" is 3`,
      ).to.equal(true);
    }
  });
});

describe("pi-transcript: when each message was written", () => {
  it("shows pi's timestamp as a <time>: the time of day today, with the date before; nothing for a time that is none", async () => {
    const now = Date.now();
    const earlier = new Date(2026, 0, 15, 9, 30).getTime();
    const state = new ConversationState();
    state.setHistory(
      [
        { role: "user", content: "today", timestamp: now },
        assistant([{ type: "text", text: "Answer." }], { timestamp: now }),
        { role: "user", content: "in January", timestamp: earlier },
        { role: "user", content: "no time" },
        { role: "user", content: "not a time", timestamp: Number.NaN },
      ],
      0,
    );
    const el = await show(state, 'lang="en-GB"');
    const times = articles(el).map((a) => a.querySelector("time"));
    const short = new Intl.DateTimeFormat("en-GB", { timeStyle: "short" });
    const dated = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
    expect(times.map((t) => t?.textContent ?? null)).to.deep.equal([
      short.format(now),
      short.format(now),
      dated.format(earlier),
      null,
      null,
    ]);
    expect(times[2]!.getAttribute("datetime")).to.equal(new Date(earlier).toISOString());
    expect(times[2]!.getAttribute("title")).to.contain("2026");
    expect(times[0]!.getAttribute("part")).to.equal("time");
    // Beside the author, inside the article's header: the article is still named by its author alone.
    expect(articles(el)[0]!.querySelector("header")!.contains(times[0]!)).to.equal(true);
    expect(
      articles(el)[0]!.querySelector(`#${articles(el)[0]!.getAttribute("aria-labelledby")}`)?.textContent,
    ).to.equal("You");
    await expect(el).to.be.accessible();
  });
});

describe("pi-transcript: a message's time in a right-to-left page", () => {
  it('reads "9:30 AM" in its own order (its direction is its own text\'s)', async () => {
    const now = Date.now();
    const state = new ConversationState();
    state.setHistory([{ role: "user", content: "مرحبا", timestamp: now }], 0);
    const el = await show(state, 'lang="en-US" dir="rtl"');
    const time = articles(el)[0]!.querySelector("time")!;
    expect(time.textContent).to.equal(new Intl.DateTimeFormat("en-US", { timeStyle: "short" }).format(now));
    // Its direction comes from its own text (dir=auto): left to right, so "AM" stays after the time.
    expect(time.matches(":dir(ltr)")).to.equal(true);
    expect(articles(el)[0]!.matches(":dir(rtl)")).to.equal(true);
  });
});

describe("pi-transcript: a message's Markdown headings in the page's outline", () => {
  it("nests an answer's # and ## under its article's heading (one level down, capped at 6); axe's heading-order holds", async () => {
    const text = "# Plan\n\nFirst.\n\n## Step\n\nSecond.\n\n### Detail\n\n#### Deeper";
    const state = new ConversationState();
    state.setHistory([{ role: "user", content: "plan it", timestamp: 1 }, assistant([{ type: "text", text }])], 0);
    const page = await fixture<HTMLElement>(html`<main><h1>Page</h1><section><h2>Conversation</h2></section></main>`);
    const el = document.createElement("pi-transcript");
    el.store = state;
    el.style.blockSize = "24rem";
    page.querySelector("section")!.append(el);
    await el.updateComplete;
    const answer = () => articles(el).at(-1)!;
    const levels = async () => {
      const markdown = answer().querySelector("pi-markdown")! as LitElement;
      await markdown.updateComplete;
      return [
        answer().querySelector('[part~="author"]')!.localName,
        ...[...markdown.shadowRoot!.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => h.localName),
      ];
    };
    expect(await levels()).to.deep.equal(["h3", "h4", "h5", "h6", "h6"]);
    await expect(page).to.be.accessible();
    el.setAttribute("heading-level", "2");
    await el.updateComplete;
    expect(await levels()).to.deep.equal(["h2", "h3", "h4", "h5", "h6"]);
    await expect(page).to.be.accessible();
  });
});

describe("pi-transcript looks and languages", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme, empty, streaming and with every kind of entry; screenshot`, async () => {
      const empty = await show(new ConversationState(), `theme="${theme}"`);
      await expect(empty).to.be.accessible();
      const state = new ConversationState();
      const el = await show(state, `theme="${theme}" id="shot"`);
      el.parentElement!.style.blockSize = "56rem";
      // Several recordings one after the other in one store: notices, errors, tools, thinking.
      for (const scenario of ["bash", "retry", "error", "tools", "thinking"]) {
        await replay(state, await loadRecords("0.73.1", scenario));
      }
      state.apply({
        type: "extension_error",
        extensionPath: "ext/guard.ts",
        event: "tool_call",
        error: "TypeError: nope",
      });
      const events = streamAssistant(
        "1.6.0",
        assistant([
          { type: "thinking", thinking: "Hmm, let me think." },
          { type: "text", text: "Streaming now" },
        ]),
      );
      for (const event of events.slice(0, -2)) state.apply(event as AgentEventBase);
      await Promise.resolve();
      await el.updateComplete;
      el.toolsExpanded = true;
      await el.updateComplete;
      await nextFrame();
      expect(getComputedStyle(el).backgroundColor).to.equal(
        theme === "light" ? "rgb(255, 255, 255)" : "rgb(30, 30, 36)",
      );
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `transcript-${theme}`, selector: "#shot" });
      base(el).scrollTop = 0;
      await waitUntil(() => !jump(el).hidden, "jump shows");
      await nextFrame();
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `transcript-${theme}-top`, selector: "#shot" });
    });
  }

  for (const version of ["0.73.1", "1.6.0"] as const) {
    it(`pi ${version}: a tool call cut by Stop ends as pi's TUI ends it, "Operation aborted", never waiting`, async () => {
      const el = await show(await recorded(version, "abort-tool"));
      await el.updateComplete;
      const cards = [...root(el).querySelectorAll("pi-tool-card")];
      await Promise.all(cards.map((card) => (card as LitElement).updateComplete));
      const status = (card: Element) => card.shadowRoot!.querySelector('[part~="base"]')!.getAttribute("data-status");
      // A write shows its error as an error; bash its output.
      const output = (card: Element) =>
        card.shadowRoot!.querySelector('[part~="error"], [part~="output"]')?.textContent?.trim();
      expect(cards.map(status)).to.deep.equal(["error", "error"]);
      expect(cards.map(output)).to.deep.equal(["Operation aborted", "Command aborted"]);
    });
  }

  it("right to left: logical layout, text in its own direction", async () => {
    const state = await recorded("1.6.0", "tools");
    const wrapper = await fixture<HTMLElement>(html`<div dir="rtl" style="block-size: 20rem; inline-size: 30rem">
      <pi-transcript .store=${state}></pi-transcript>
    </div>`);
    const el = wrapper.querySelector("pi-transcript")!;
    await el.updateComplete;
    await nextFrame();
    await executeServerCommand("screenshot", { name: "transcript-rtl", selector: "div[dir=rtl]" });
    base(el).scrollTop = 0;
    await waitUntil(() => !jump(el).hidden, "jump shows");
    const elBox = el.getBoundingClientRect();
    const jumpBox = jump(el).getBoundingClientRect();
    // inset-inline-end: at the left edge in RTL.
    expect(jumpBox.left - elBox.left).to.be.lessThan(elBox.right - jumpBox.right);
    const user = root(el).querySelector(".plain")!;
    expect(user.getAttribute("dir")).to.equal("auto");
    await expect(el).to.be.accessible();
  });

  for (const [lang, you, feedName, jumpText] of [
    ["ja", "あなた", "会話", "最新へ移動"],
    ["zh-Hans", "你", "对话", "跳到最新"],
    ["zh-CN", "你", "对话", "跳到最新"],
  ] as const) {
    it(`speaks ${lang}`, async () => {
      const state = await recorded("0.73.1", "error");
      const wrapper = await fixture<HTMLElement>(html`<div lang=${lang} style="block-size: 20rem">
        <pi-transcript .store=${state}></pi-transcript>
      </div>`);
      const el = wrapper.querySelector("pi-transcript")!;
      await el.updateComplete;
      expect(root(el).querySelector('[part~="feed"]')?.getAttribute("aria-label")).to.equal(feedName);
      expect(root(el).querySelector('[part~="author"]')?.textContent).to.equal(you);
      expect(jump(el).textContent?.trim()).to.equal(jumpText);
      expect(root(el).querySelector('[part~="error"] strong')?.textContent).to.not.equal("Failed");
    });
  }

  it("per-element string overrides win", async () => {
    const state = await recorded("0.73.1", "text");
    const el = await show(state);
    el.strings = { you: "Me" };
    await el.updateComplete;
    // A committed article renders once: a new strings object renders it again.
    expect(root(el).querySelector('[part~="author"]')?.textContent).to.equal("Me");
  });
});
