/**
 * pi-transcript on real recordings of pi 0.73.1 and 1.6.0: what a reader sees (articles, their names and order,
 * thinking, tool cards, notices, errors), what a screen reader hears (one announcement per finished message,
 * aria-busy while streaming), and that a committed message is not rendered again while another streams.
 */
import { ContextProvider } from "@lit/context";
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { ConversationState } from "@pi-elements/core/conversation";
import { sessionContext } from "../src/context.js";
import "../src/transcript.js";
import type { PiTranscript } from "../src/elements/transcript/transcript.js";
import { FakeAgent } from "./session-fake-agent.js";
import { fakeClipboard } from "./support/clipboard.js";
import { FakeClock } from "./support/fake-clock.js";
import { loadRecords, recorded, replay, VERSIONS, type Version } from "./support/transcript.js";

const root = (el: PiTranscript) => el.shadowRoot!;
const articles = (el: PiTranscript) => [...root(el).querySelectorAll<HTMLElement>('[part~="feed"] > article')];
/** An article's accessible name: its labelling heading, else its aria-label. */
function nameOf(article: HTMLElement): string {
  const by = article.getAttribute("aria-labelledby");
  if (by)
    return article.getRootNode() instanceof ShadowRoot
      ? ((article.getRootNode() as ShadowRoot).getElementById(by)?.textContent ?? "").trim()
      : "";
  return article.getAttribute("aria-label") ?? "";
}
const names = (el: PiTranscript) => articles(el).map(nameOf);
const markdownIn = (article: Element) =>
  [...article.querySelectorAll("pi-markdown")].map((m) => (m as HTMLElement & { text: string }).text);

async function show(store: ConversationState, height = "24rem"): Promise<PiTranscript> {
  const wrapper = await fixture<HTMLElement>(html`<div style="block-size: ${height}; inline-size: 40rem">
    <pi-transcript .store=${store}></pi-transcript>
  </div>`);
  const el = wrapper.querySelector("pi-transcript")!;
  await el.updateComplete;
  return el;
}

/** Replays a recording into a shown transcript, letting it render after every event. */
async function replayShown(version: Version, scenario: string, onStep?: (el: PiTranscript) => void) {
  const state = new ConversationState();
  const el = await show(state);
  await replay(state, await loadRecords(version, scenario), async () => {
    await Promise.resolve();
    await el.updateComplete;
    onStep?.(el);
  });
  await Promise.resolve();
  await el.updateComplete;
  return { el, state };
}

for (const version of VERSIONS) {
  describe(`pi-transcript on pi ${version} recordings`, () => {
    it("text: the user's message and pi's answer, each one article named by its author, in order", async () => {
      const el = await show(await recorded(version, "text"));
      expect(names(el)).to.deep.equal(["You", "pi"]);
      const [user, answer] = articles(el);
      expect(user!.querySelector(".plain")?.textContent?.length).to.be.greaterThan(0);
      expect(markdownIn(answer!).join("")).to.include("scripted");
      expect(root(el).querySelector('[part~="feed"]')?.getAttribute("role")).to.equal("feed");
      expect(root(el).querySelector('[part~="feed"]')?.getAttribute("aria-label")).to.equal("Conversation");
    });

    it("markdown: the answer's text goes to pi-markdown whole, not streaming once committed", async () => {
      const el = await show(await recorded(version, "markdown"));
      const answer = articles(el)[1]!;
      const md = answer.querySelector("pi-markdown") as HTMLElement & { text: string; streaming: boolean };
      expect(md.text).to.include("```ts");
      expect(md.streaming).to.equal(false);
    });

    it("thinking: open while it streams, collapsed after, saying how long pi thought", async () => {
      const openWhileStreaming: boolean[] = [];
      const { el } = await replayShown(version, "thinking", (el) => {
        const details = root(el).querySelector<HTMLDetailsElement>('[part~="streaming"] [part~="thinking"]');
        if (details) openWhileStreaming.push(details.open);
      });
      expect(openWhileStreaming.length).to.be.greaterThan(0);
      expect(openWhileStreaming.every(Boolean)).to.equal(true);
      const details = articles(el)[1]!.querySelector<HTMLDetailsElement>('[part~="thinking"]')!;
      expect(details.open).to.equal(false);
      expect(details.querySelector("summary")?.textContent).to.match(/^Thought for \d+ s$/);
      expect(details.querySelector(".plain")?.textContent?.length).to.be.greaterThan(0);
    });

    it("thinking from a history (no time seen) says only that pi thought", async () => {
      const records = await loadRecords(version, "thinking");
      const history = records.find((r) => r.type === "response" && r.command === "get_messages")!;
      const state = new ConversationState();
      state.setHistory((history.data as { messages: unknown[] }).messages, 0);
      const el = await show(state);
      const summary = articles(el)[1]!.querySelector('[part~="thinking"] summary');
      expect(summary?.textContent?.trim()).to.equal("Thought");
    });

    it("how long pi thought is the store's measure, on its clock: every view of the message says the same", async () => {
      // Each streamed update 1 s after the one before, on the store's clock.
      const clock = new FakeClock();
      const state = new ConversationState({ clock });
      await replay(state, await loadRecords(version, "thinking"), () => clock.advance(1000));
      const entry = state.getSnapshot().entries.find((e) => e.kind === "message" && e.message.role === "assistant");
      const ms = entry?.kind === "message" ? entry.thinkingMs?.get(0) : undefined;
      expect(ms).to.be.a("number");
      expect(ms! % 1000).to.equal(0);
      const views = await Promise.all([show(state), show(state)]);
      const said = views.map((el) => articles(el)[1]!.querySelector('[part~="thinking"] summary')?.textContent);
      expect(said).to.deep.equal([
        `Thought for ${Math.round(ms! / 1000)} s`,
        `Thought for ${Math.round(ms! / 1000)} s`,
      ]);
    });

    it("tools: every call is a tool card inside pi's message, with its run; results are not articles of their own", async () => {
      const state = await recorded(version, "tools");
      const el = await show(state);
      const roles = articles(el).map((a) => a.dataset.role);
      expect(roles).to.not.include("toolResult");
      expect(roles[0]).to.equal("user");
      const cards = [...root(el).querySelectorAll("pi-tool-card")] as (HTMLElement & {
        call: { id: string; name: string };
        execution: { status: string } | undefined;
      })[];
      expect(cards.map((c) => c.call.name)).to.deep.equal(["bash", "read", "write", "edit", "read"]);
      for (const card of cards) {
        expect(card.closest("article")?.dataset.role).to.equal("assistant");
        expect(card.execution).to.equal(state.getSnapshot().tools.get(card.call.id));
      }
      expect(cards.at(-1)!.execution?.status).to.equal("error");
    });

    it("error: the failed turn shows pi's error text", async () => {
      const state = await recorded(version, "error");
      const el = await show(state);
      const failed = articles(el).find((a) => a.querySelector('[part~="error"]'))!;
      expect(nameOf(failed)).to.equal("pi");
      const entry = state.getSnapshot().entries.find((e) => e.kind === "message" && e.message.role === "assistant");
      const errorMessage = (entry as { message: { errorMessage: string } }).message.errorMessage;
      expect(errorMessage).to.match(/^400/);
      expect(failed.querySelector('[part~="error"]')?.textContent?.replace(/\s+/g, " ").trim()).to.equal(
        `Failed: ${errorMessage}`.replace(/\s+/g, " "),
      );
    });

    it("abort: the aborted turn keeps its text and says it was aborted", async () => {
      const el = await show(await recorded(version, "abort"));
      const aborted = articles(el).find((a) => a.querySelector('[part~="error"]'))!;
      expect(aborted.querySelector('[part~="error"]')?.textContent).to.include("Aborted");
      expect(aborted.querySelector('[part~="error"]')?.textContent).to.include("Request was aborted");
      expect(markdownIn(aborted).join("").length).to.be.greaterThan(0);
    });

    it("retry: the retry notice stands at its place, after the user's message, before the answer", async () => {
      const el = await show(await recorded(version, "retry"));
      const order = names(el);
      expect(order).to.deep.equal(["You", "Retry", "pi"]);
      const notice = articles(el)[1]!;
      expect(notice.dataset.notice).to.equal("retry");
      expect(notice.textContent).to.include("Retry succeeded");
    });

    it("compaction: the notice and the summary of the earlier conversation", async () => {
      const el = await show(await recorded(version, "compaction"));
      const order = names(el);
      expect(order[0]).to.equal("Summary of earlier conversation");
      expect(order).to.include("Compaction");
      const notice = articles(el).find((a) => a.dataset.notice === "compaction")!;
      expect(notice.textContent).to.include("Conversation compacted");
      const summary = articles(el)[0]!;
      expect(markdownIn(summary)[0]?.length).to.be.greaterThan(0);
    });

    it("bash: the user's own shell command, its output and exit code", async () => {
      const el = await show(await recorded(version, "bash"));
      const shell = articles(el).find((a) => nameOf(a) === "Shell command")!;
      const code = [...shell.querySelectorAll("pi-code-block")].map((c) => (c as HTMLElement & { code: string }).code);
      expect(code[0]).to.match(/^\$ /);
      expect(shell.querySelector(".caption")?.textContent).to.include("Exit code 0");
    });

    it("custom: a shown custom message is an article named by its type; the hidden one is not shown", async () => {
      const el = await show(await recorded(version, "custom"));
      const custom = articles(el).filter((a) => a.dataset.role === "custom");
      expect(custom.length).to.equal(1);
      expect(nameOf(custom[0]!)).to.match(/^Extension message: /);
    });

    it("steer: every turn's user message and answer, in the order pi took them", async () => {
      const el = await show(await recorded(version, "steer"));
      expect(names(el)).to.deep.equal(["You", "pi", "You", "pi", "You", "pi"]);
    });

    it("streaming: the message being streamed is last and aria-busy; earlier articles keep their nodes untouched", async () => {
      const seenBusy: boolean[] = [];
      let earlier: HTMLElement[] | undefined;
      let mutated = 0;
      const observer = new MutationObserver((records) => (mutated += records.length));
      const { el } = await replayShown(version, "steer", (el) => {
        const streaming = root(el).querySelector<HTMLElement>('[part~="streaming"]');
        if (!streaming) return;
        seenBusy.push(streaming.getAttribute("aria-busy") === "true" && articles(el).at(-1) === streaming);
        const committed = articles(el).filter((a) => a !== streaming);
        if (!earlier && committed.length >= 2) {
          earlier = committed.slice(0, 2);
          for (const a of earlier)
            observer.observe(a, { subtree: true, childList: true, attributes: true, characterData: true });
        }
        if (earlier) expect(committed.slice(0, 2)).to.deep.equal(earlier);
      });
      observer.disconnect();
      expect(seenBusy.length).to.be.greaterThan(3);
      expect(seenBusy.every(Boolean)).to.equal(true);
      expect(earlier, "two committed articles while a later message streamed").to.not.equal(undefined);
      expect(articles(el).slice(0, 2)).to.deep.equal(earlier);
      expect(mutated, "mutations inside the earlier articles").to.equal(0);
      expect(root(el).querySelector("[aria-busy]")).to.equal(null);
    });

    it("announces each finished assistant message once, never per token", async () => {
      let changes = 0;
      let observer: MutationObserver | undefined;
      const texts: string[] = [];
      const { el, state } = await replayShown(version, "tools", (el) => {
        if (observer) return;
        const region = root(el).querySelector('[role="status"]')!;
        observer = new MutationObserver(() => {
          changes++;
          texts.push(region.textContent!.trim());
        });
        observer.observe(region, { childList: true, subtree: true, characterData: true });
      });
      await el.updateComplete;
      observer!.disconnect();
      const finished = state
        .getSnapshot()
        .entries.filter((e) => e.kind === "message" && e.message.role === "assistant").length;
      expect(finished).to.equal(6);
      expect(texts.length, texts.join(" | ")).to.equal(finished);
      expect(changes).to.equal(finished);
      // Each says what pi wrote, or, for a message of tool calls alone, which tools it used.
      const messages = state
        .getSnapshot()
        .entries.flatMap((e) => (e.kind === "message" && e.message.role === "assistant" ? [e.message] : []));
      for (const [i, m] of messages.entries()) {
        const text = m.content
          .flatMap((b) => (b.type === "text" ? [b.text] : []))
          .join(" ")
          .replace(/\s+/g, " ")
          .trim();
        const tools = m.content.flatMap((b) => (b.type === "toolCall" ? [b.name] : []));
        expect(texts[i]).to.equal(text ? `pi: ${text.slice(0, 200)}` : `pi used ${tools.join(", ")}`);
      }
    });

    it("announces a failed turn with its error", async () => {
      const { el } = await replayShown(version, "error");
      expect(root(el).querySelector('[role="status"]')?.textContent?.trim()).to.match(/^pi's answer failed: 400/);
    });
  });
}

describe("pi-transcript entries", () => {
  const message = (m: Record<string, unknown>) => m;

  it("an article keeps its node while its entry stays, also when an earlier entry goes (keyed by the entry's key)", async () => {
    const a = { role: "user", content: "first" };
    const b = {
      role: "assistant",
      content: [{ type: "text", text: "dropped" }],
      stopReason: "error",
      errorMessage: "x",
    };
    const c = { role: "user", content: "second" };
    const state = new ConversationState();
    state.setHistory([a, b, c], 0);
    const el = await show(state);
    const [first, , second] = articles(el);
    state.setHistory([structuredClone(a), structuredClone(c)], state.mark());
    await Promise.resolve();
    await el.updateComplete;
    expect(articles(el)).to.deep.equal([first, second]);
    expect(second!.textContent).to.include("second");
  });

  it("shows user images as data: URLs of png/jpeg/gif/webp only; other types and bad data get a placeholder", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const state = new ConversationState();
    state.setHistory(
      [
        message({
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image", data: png, mimeType: "image/png" },
            { type: "image", data: "PHN2Zy8+", mimeType: "image/svg+xml" },
            { type: "image", data: 'x" onerror="alert(1)', mimeType: "image/gif" },
          ],
        }),
      ],
      0,
    );
    const el = await show(state);
    const imgs = [...root(el).querySelectorAll("img")];
    expect(imgs.length).to.equal(1);
    expect(imgs[0]!.getAttribute("src")).to.equal(`data:image/png;base64,${png}`);
    expect(imgs[0]!.alt).to.equal("Image (You)");
    const captions = [...root(el).querySelectorAll(".caption")].map((c) => c.textContent);
    expect(captions).to.deep.equal(["Image not shown (image/svg+xml)", "Image not shown (image/gif)"]);
  });

  it("a history shown at once announces nothing; a block of a type this client does not know shows as JSON", async () => {
    const state = new ConversationState();
    state.setHistory(
      [
        message({ role: "user", content: "hi" }),
        message({
          role: "assistant",
          content: [
            { type: "text", text: "a" },
            { type: "hologram", beam: 3 },
          ],
        }),
      ],
      0,
    );
    const el = await show(state);
    expect(root(el).querySelector('[role="status"]')?.textContent?.trim()).to.equal("");
    const json = articles(el)[1]!.querySelector(".json")!;
    expect(JSON.parse(json.textContent!)).to.deep.equal({ type: "hologram", beam: 3 });
  });

  it("user text is plain text with its line breaks, never HTML", async () => {
    const state = new ConversationState();
    state.setHistory([message({ role: "user", content: "line one\n<b>two</b>" })], 0);
    const el = await show(state);
    const text = root(el).querySelector(".plain")!;
    expect(text.textContent).to.equal("line one\n<b>two</b>");
    expect(text.querySelector("b")).to.equal(null);
    expect(getComputedStyle(text).whiteSpace).to.equal("pre-wrap");
  });

  it("a message of an unknown role is a generic article with its role and JSON", async () => {
    const state = new ConversationState();
    state.setHistory([message({ role: "futureThing", note: "hi" })], 0);
    const el = await show(state);
    expect(names(el)).to.deep.equal(["Message (futureThing)"]);
    expect(JSON.parse(root(el).querySelector(".json")!.textContent!)).to.deep.equal({
      role: "futureThing",
      note: "hi",
    });
  });

  it("an extension error notice at its place, with the extension and its error", async () => {
    const state = new ConversationState();
    state.setHistory([message({ role: "user", content: "hi" })], 0);
    state.apply({ type: "extension_error", extensionPath: "/ext/a.ts", event: "tool_call", error: "Boom" });
    state.setHistory(
      [
        message({ role: "user", content: "hi" }),
        message({ role: "assistant", content: [{ type: "text", text: "yo" }] }),
      ],
      state.mark(),
    );
    const el = await show(state);
    expect(names(el)).to.deep.equal(["You", "Extension error", "pi"]);
    const notice = articles(el)[1]!;
    expect(notice.querySelector('[part~="error"]')?.textContent).to.equal("Boom");
    expect(notice.textContent).to.include("/ext/a.ts, during tool_call");
  });

  it("passes markdownLimits to every message's pi-markdown, and renders each message again when they change", async () => {
    const el = await show(await recorded("1.6.0", "markdown"));
    const answer = () => articles(el)[1]!.querySelector("pi-markdown") as HTMLElement & { shadowRoot: ShadowRoot };
    const notes = () => answer().shadowRoot.querySelectorAll('[part~="limit-note"]').length;
    await (answer() as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    expect(notes(), "the defaults format the recorded answer").to.equal(0);
    // A limit of two delimiters a run: the answer's runs with more show as written, with the note.
    el.markdownLimits = { inlineDelimiters: 2 };
    await el.updateComplete;
    await (answer() as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    expect(notes()).to.be.greaterThan(0);
    el.markdownLimits = undefined;
    await el.updateComplete;
    await (answer() as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    expect(notes()).to.equal(0);
  });

  it("passes toolLimits to every tool card, and markdownLimits' code keys to the messages' code blocks", async () => {
    const el = await show(await recorded("0.73.1", "tools"));
    const cards = () => [...root(el).querySelectorAll("pi-tool-card")] as (HTMLElement & { limits: unknown })[];
    expect(cards().length).to.be.greaterThan(0);
    const limits = { wordDiffEdit: 2 };
    el.toolLimits = limits;
    await el.updateComplete;
    expect(cards().map((card) => card.limits)).to.deep.equal(cards().map(() => limits));
    el.toolLimits = undefined;
    await el.updateComplete;
    expect(cards().map((card) => card.limits)).to.deep.equal(cards().map(() => undefined));

    const markdown = await show(await recorded("1.6.0", "markdown"));
    markdown.markdownLimits = { highlightChars: 3, inlineDelimiters: 500 };
    await markdown.updateComplete;
    const answer = articles(markdown)[1]!.querySelector("pi-markdown")!;
    await answer.updateComplete;
    const blocks = [...answer.shadowRoot!.querySelectorAll("pi-code-block")];
    expect(blocks.length).to.be.greaterThan(0);
    for (const block of blocks) {
      await block.updateComplete;
      expect(block.limits).to.deep.equal({ highlightChars: 3 });
      expect(block.highlighted, "longer than 3 characters: plain").to.equal(false);
    }
  });

  it("copy buttons give each message's Markdown (pi-copy)", async () => {
    const el = await show(await recorded("1.6.0", "markdown"));
    const copied: string[] = [];
    el.addEventListener("pi-copy", (e) => copied.push(e.detail.text));
    const buttons = [...root(el).querySelectorAll<HTMLButtonElement>('[part~="copy"]')];
    expect(buttons.map((b) => b.getAttribute("aria-label"))).to.deep.equal(["Copy message", "Copy message"]);
    for (const b of buttons) b.click();
    const snapshot = el.snapshot!;
    const texts = snapshot.entries.map((e) => {
      const content = (e as { message: { content: string | { type: string; text?: string }[] } }).message.content;
      return typeof content === "string"
        ? content
        : content
            .filter((b) => b.type === "text")
            .map((b) => b.text)
            .join("\n\n");
    });
    expect(copied).to.deep.equal(texts);
    expect(copied[1]).to.include("```ts");
  });

  it('a copy button says "Copied" in words for a moment after it copied', async () => {
    const clipboard = fakeClipboard();
    try {
      const el = await show(await recorded("1.6.0", "markdown"));
      const button = root(el).querySelector<HTMLButtonElement>('[part~="copy-button"]')!;
      const before = button.getBoundingClientRect().width;
      button.click();
      await waitUntil(() => button.hasAttribute("data-copied"), "the copy to be done");
      expect(clipboard.written).to.have.length(1);
      expect(button.getAttribute("aria-label")).to.equal("Copied");
      // The word is drawn beside the icon (each engine reports the ::after's content differently: its width says it).
      expect(button.getBoundingClientRect().width - before, "the button grew by the word").to.be.greaterThan(20);
    } finally {
      clipboard.restore();
    }
  });

  it("Ctrl+O and the toolbar button expand and collapse every tool card", async () => {
    const el = await show(await recorded("0.73.1", "tools"));
    const cards = () => [...root(el).querySelectorAll<HTMLElement & { expanded: boolean }>("pi-tool-card")];
    expect(cards().every((c) => !c.expanded)).to.equal(true);
    const toggle = root(el).querySelector<HTMLButtonElement>('[part~="toggle-tools"]')!;
    // Its words say what it will do (APG: a button whose label changes is not also a toggle with aria-pressed).
    expect([toggle.textContent?.trim(), toggle.hasAttribute("aria-pressed")]).to.deep.equal([
      "Expand all tool output",
      false,
    ]);
    articles(el)[1]!.focus();
    articles(el)[1]!.dispatchEvent(
      new KeyboardEvent("keydown", { key: "o", ctrlKey: true, bubbles: true, composed: true }),
    );
    await el.updateComplete;
    expect(cards().every((c) => c.expanded)).to.equal(true);
    expect(toggle.textContent?.trim()).to.equal("Collapse all tool output");
    toggle.click();
    await el.updateComplete;
    expect(cards().every((c) => !c.expanded)).to.equal(true);
    expect(toggle.textContent?.trim()).to.equal("Expand all tool output");
  });

  it("takes its session's conversation from an ancestor pi-session's context, or from its session property", async () => {
    const a = new FakeAgent();
    const b = new FakeAgent();
    a.results.set("get_messages", { messages: [{ role: "user", content: "from context" }] });
    b.results.set("get_messages", { messages: [{ role: "user", content: "own" }] });
    const wrapper = await fixture<HTMLElement>(html`<div style="block-size: 10rem"></div>`);
    new ContextProvider(wrapper, { context: sessionContext, initialValue: a.session });
    const el = document.createElement("pi-transcript");
    wrapper.append(el);
    const userText = () => root(el).querySelector(".plain")?.textContent;
    await waitUntil(() => userText() === "from context", "the context session's history shows");
    el.session = b.session;
    await waitUntil(() => userText() === "own", "the own session's history shows");
    const store = new ConversationState();
    store.setHistory([{ role: "user", content: "store" }], 0);
    el.store = store;
    await waitUntil(() => userText() === "store", "the store property wins");
    a.session.close();
    b.session.close();
  });
});
