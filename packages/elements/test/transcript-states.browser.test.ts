/**
 * pi-transcript with the real pi-markdown, pi-code-block and pi-tool-card, showing every kind of entry in every state
 * (support/transcript.ts `everyState`): axe finds nothing in both themes, left to right and right to left, while an
 * answer streams (thinking open) and after (thinking closed), tool cards collapsed and expanded; at 375 px nothing
 * overflows sideways; nested tool calls show inside their caller's card; the keyboard reaches into the cards.
 * Screenshots: test-results/screenshots/<engine>/transcript-states-*.png.
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { ConversationState } from "@pi-elements/core/conversation";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import "../src/transcript.js";
import { pressCombo } from "../../../test/support/engine.js";
import type { PiToolCard } from "../src/elements/tool-card/tool-card.js";
import type { PiTranscript } from "../src/elements/transcript/transcript.js";
import { everyState, TOOL_NAMES } from "./support/transcript.js";

const root = (el: PiTranscript) => el.shadowRoot!;
const articles = (el: PiTranscript) => [...root(el).querySelectorAll<HTMLElement>('[part~="feed"] > article')];
const base = (el: PiTranscript) => root(el).querySelector<HTMLElement>('[part~="base"]')!;
/** Every tool card, nested ones too. */
const cards = (el: PiTranscript) => [...root(el).querySelectorAll<PiToolCard>("pi-tool-card")];
const group = (card: PiToolCard) => card.shadowRoot!.querySelector<HTMLElement>('[part~="base"]')!;
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
/** The element focused, through shadow roots. */
function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Whether `node` is `host` or inside it, through shadow roots. */
function inside(host: Node, node: Node | null): boolean {
  for (let n = node; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) if (n === host) return true;
  return false;
}

/** Every element below `node`, through open shadow roots. */
function* deep(node: ParentNode): Generator<Element> {
  for (const child of node.children) {
    yield child;
    if (child.shadowRoot) yield* deep(child.shadowRoot);
    yield* deep(child);
  }
}

/** Waits until the transcript and every element in it rendered (code blocks highlight lazily). */
async function settled(el: PiTranscript): Promise<void> {
  await el.updateComplete;
  for (let i = 0; i < 3; i++) {
    await Promise.all(
      [...deep(root(el))].map((e) => (e as Partial<PiToolCard>).updateComplete).filter((p) => p !== undefined),
    );
    await nextFrame();
  }
}

interface Options {
  theme?: "light" | "dark";
  dir?: "ltr" | "rtl";
  width?: string;
  height?: string;
  streaming?: boolean;
}

async function show({ theme = "light", dir = "ltr", width = "40rem", height = "40rem", streaming }: Options = {}) {
  const state = new ConversationState();
  everyState(state, { streaming });
  const wrapper = await fixture<HTMLElement>(
    html`<div id="shot" dir=${dir} style="inline-size: ${width}; block-size: ${height}">
      <pi-transcript theme=${theme} .store=${state}></pi-transcript>
    </div>`,
  );
  const el = wrapper.querySelector("pi-transcript")!;
  await settled(el);
  return { el, state, wrapper };
}

describe("pi-transcript with every kind of entry (real elements)", () => {
  it("holds every state it is meant to: each tool running, done and failed, nested calls, notices, turns", async () => {
    const { el } = await show({ streaming: true });
    const statuses = new Map<string, Set<string>>();
    for (const card of cards(el)) {
      const name = card.call?.name ?? card.execution?.toolName ?? "";
      if (!statuses.has(name)) statuses.set(name, new Set());
      statuses.get(name)!.add(card.status);
    }
    for (const tool of TOOL_NAMES) {
      expect([...(statuses.get(tool) ?? [])].sort(), tool).to.include.members(["done", "error", "running"]);
    }
    const roles = articles(el).map((a) => a.dataset.notice ?? a.dataset.role);
    for (const role of ["user", "assistant", "bashExecution", "custom", "compactionSummary"])
      expect(roles).to.include(role);
    for (const notice of ["compaction", "retry", "extension_error"]) expect(roles).to.include(notice);
    const retries = articles(el).filter((a) => a.dataset.notice === "retry");
    expect(retries.map((a) => a.querySelector("p")?.textContent)).to.have.length(3);
    const stops = [...root(el).querySelectorAll<HTMLElement>("[data-stop]")].map((p) => p.dataset.stop);
    expect(stops).to.deep.equal(["aborted", "error"]);
    expect(root(el).querySelectorAll("article img").length).to.equal(1);
    const streaming = root(el).querySelector('[part~="streaming"]')!;
    expect(streaming.querySelector<HTMLDetailsElement>('[part~="thinking"]')!.open).to.equal(true);
    expect(
      root(el).querySelector<HTMLDetailsElement>('article:not([part~="streaming"]) [part~="thinking"]')!.open,
    ).to.equal(false);
  });

  for (const theme of ["light", "dark"] as const) {
    for (const dir of ["ltr", "rtl"] as const) {
      it(`passes axe: ${theme} theme, ${dir}; streaming, then with every card expanded and every thinking open`, async () => {
        const { el } = await show({ theme, dir, streaming: true });
        await expect(el).to.be.accessible();
        el.toolsExpanded = true;
        for (const details of root(el).querySelectorAll("details")) details.open = true;
        await settled(el);
        await expect(el).to.be.accessible();
      });
    }
  }
});

describe("pi-transcript nested tool calls", () => {
  it("a call another tool made is a named group inside its caller's card, nested as deep as it goes", async () => {
    const { el } = await show();
    const subagent = cards(el).find((c) => c.call?.id === "running_subagent")!;
    const nested = [...subagent.children] as PiToolCard[];
    expect(nested.map((c) => c.localName)).to.deep.equal(["pi-tool-card", "pi-tool-card"]);
    expect(nested.map((c) => group(c).getAttribute("aria-label"))).to.deep.equal([
      "read: packages/elements/test/transcript-reading.browser.test.ts",
      "bash: npx wtr --files transcript-reading",
    ]);
    expect(nested.map((c) => c.status)).to.deep.equal(["done", "running"]);
    const deeper = [...nested[1]!.children] as PiToolCard[];
    expect(deeper.map((c) => group(c).getAttribute("aria-label"))).to.deep.equal(["ls: test-results"]);
    // Shown inside the caller's group (slotted into it), below its output.
    const slot = group(subagent).querySelector<HTMLSlotElement>('[part~="nested"] > slot')!;
    expect(slot.assignedElements().every((e, i) => e === nested[i]) && nested.length === 2).to.equal(true);
    expect(group(subagent).querySelector<HTMLElement>('[part~="nested"]')!.hidden).to.equal(false);
    const outer = group(subagent).getBoundingClientRect();
    const inner = group(nested[0]!).getBoundingClientRect();
    expect(inner.left).to.be.greaterThan(outer.left);
    expect(inner.right).to.be.lessThan(outer.right);
    expect(inner.top).to.be.greaterThan(
      group(subagent).querySelector('[part~="header"]')!.getBoundingClientRect().bottom,
    );
    // A card with no nested calls keeps no room for them.
    const plain = cards(el).find((c) => c.call?.id === "done_read")!;
    expect(group(plain).querySelector<HTMLElement>('[part~="nested"]')!.hidden).to.equal(true);
    // The nested calls are not cards of their own anywhere else.
    expect(cards(el).filter((c) => c.execution?.toolCallId === "running_subagent/1").length).to.equal(1);
  });

  it("a nested call's progress renders its caller's article again (it is part of it)", async () => {
    const { el, state } = await show();
    state.apply({
      type: "tool_execution_end",
      toolCallId: "running_subagent/2/1",
      toolName: "ls",
      result: { content: [{ type: "text", text: "a.png\nb.png" }] },
      isError: false,
      parentToolCallId: "running_subagent/2",
    });
    await settled(el);
    const ls = cards(el).find((c) => c.execution?.toolCallId === "running_subagent/2/1")!;
    expect(ls.status).to.equal("done");
    expect(ls.shadowRoot!.textContent).to.include("b.png");
  });

  it("Tab reaches a nested card's controls; Ctrl+O from inside it expands every card, nested ones too", async () => {
    const { el } = await show();
    const subagent = cards(el).find((c) => c.call?.id === "running_subagent")!;
    const read = subagent.children[0] as PiToolCard;
    const article = subagent.closest("article")!;
    article.focus();
    const reached: Element[] = [];
    for (let i = 0; i < 40 && !inside(read, deepActive()); i++) {
      await sendKeys({ press: "Tab" });
      reached.push(deepActive()!);
    }
    expect(inside(read, deepActive()), "Tab reaches into the nested card").to.equal(true);
    // Through its code block (copy, the code) to its own toggle.
    const toggle = read.shadowRoot!.querySelector('[part~="toggle-button"]');
    for (let i = 0; i < 4 && deepActive() !== toggle; i++) await sendKeys({ press: "Tab" });
    expect(deepActive() === toggle, "and to its toggle").to.equal(true);
    await pressCombo("Control+o");
    await settled(el);
    expect(cards(el).every((c) => c.expanded)).to.equal(true);
    await pressCombo("Control+o");
    await settled(el);
    expect(cards(el).some((c) => c.expanded)).to.equal(false);
  });
});

describe("pi-transcript keyboard into real tool cards", () => {
  it("Page Down / Up between articles, Tab into a card's toggle, Enter expands it, Page Down from inside a card", async () => {
    const { el } = await show();
    const all = articles(el);
    const done = all.find((a) => a.querySelector("pi-tool-card")?.call?.id === "done_bash")!;
    const index = all.indexOf(done);
    all[index - 1]!.focus();
    await sendKeys({ press: "PageDown" });
    expect(deepActive() === done).to.equal(true);
    // Tab: the article's copy button, then the first card's "earlier lines" toggle.
    await sendKeys({ press: "Tab" });
    expect(deepActive() === done.querySelector('[part~="copy"]')).to.equal(true);
    await sendKeys({ press: "Tab" });
    const bash = done.querySelector<PiToolCard>("pi-tool-card")!;
    const toggle = bash.shadowRoot!.querySelector<HTMLButtonElement>('[part~="toggle-button"]')!;
    expect(deepActive() === toggle).to.equal(true);
    expect(toggle.getAttribute("aria-expanded")).to.equal("false");
    await sendKeys({ press: "Enter" });
    await bash.updateComplete;
    expect(bash.expanded).to.equal(true);
    expect(toggle.getAttribute("aria-expanded")).to.equal("true");
    expect(deepActive() === toggle, "focus stays on the toggle").to.equal(true);
    // Every card's control is reached in order: the next Tab is the next card's toggle, inside the same article.
    await sendKeys({ press: "Tab" });
    const next = done.querySelectorAll<PiToolCard>("pi-tool-card")[1]!;
    expect(inside(next, deepActive()), `${deepActive()?.outerHTML.slice(0, 80)}`).to.equal(true);
    await sendKeys({ press: "PageDown" });
    expect(deepActive() === all[index + 1]).to.equal(true);
    await sendKeys({ press: "PageUp" });
    expect(deepActive() === done).to.equal(true);
  });
});

describe("pi-transcript at 375 px", () => {
  for (const theme of ["light", "dark"] as const) {
    for (const dir of ["ltr", "rtl"] as const) {
      it(`${theme}, ${dir}: nothing overflows sideways; code reads left to right; screenshots`, async function (this: Mocha.Context) {
        // A bound against a hang: a screenshot a viewport at a time takes a while in WebKit's driver.
        this.timeout(120000);
        const { el } = await show({ theme, dir, width: "375px", height: "640px", streaming: true });
        el.toolsExpanded = true;
        await settled(el);
        const b = base(el);
        // Every article laid out (content-visibility skips those out of view), then measured.
        for (const article of articles(el)) article.style.contentVisibility = "visible";
        await nextFrame();
        expect(b.scrollWidth, "the transcript does not scroll sideways").to.be.at.most(b.clientWidth);
        const box = b.getBoundingClientRect();
        const wide: string[] = [];
        for (const article of articles(el)) {
          const r = article.getBoundingClientRect();
          if (r.left < box.left - 0.5 || r.right > box.right + 0.5) wide.push(article.dataset.key ?? "");
        }
        expect(wide, "articles wider than the transcript").to.deep.equal([]);
        for (const card of cards(el)) {
          const r = group(card).getBoundingClientRect();
          if (r.left < box.left - 0.5 || r.right > box.right + 0.5)
            wide.push(card.call?.id ?? card.execution?.toolCallId ?? "");
        }
        expect(wide, "cards wider than the transcript").to.deep.equal([]);
        // Code and output read left to right inside a right-to-left page.
        for (const e of deep(root(el))) {
          if (e.localName === "pre" || e.localName === "code") {
            expect(getComputedStyle(e).direction, `${e.localName} ${e.getAttribute("part")}`).to.equal("ltr");
          }
        }
        // Code blocks are left to right as a whole (header too); a table takes its text's direction.
        for (const e of deep(root(el))) {
          if (e.localName === "pi-code-block") {
            const block = e.shadowRoot!.querySelector('[part~="base"]')!;
            expect(getComputedStyle(block).direction, "a code block").to.equal("ltr");
          }
        }
        const tables = [...deep(root(el))].filter((e) => e.getAttribute("part") === "table-region");
        expect(tables.map((t) => getComputedStyle(t).direction)).to.deep.equal(["ltr", "rtl"]);
        // A table's words stay whole (one line box each), however narrow the view.
        for (const cell of [...deep(root(el))].filter((e) => e.localName === "td" || e.localName === "th")) {
          const text = cell.textContent!.trim();
          if (/\s/.test(text)) continue;
          const range = document.createRange();
          range.selectNodeContents(cell);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          expect(lines.size, `"${text}" on one line`).to.equal(1);
        }
        // A long subject gets a line of its own in a card's header, not a narrow column beside the name and time.
        for (const card of cards(el)) {
          const subject = card.shadowRoot!.querySelector('[part~="subject"]');
          const header = card.shadowRoot!.querySelector('[part~="header"]')!;
          if (!subject || subject.textContent!.length < 30) continue;
          expect(subject.getBoundingClientRect().width, subject.textContent!).to.be.greaterThan(
            header.getBoundingClientRect().width * 0.6,
          );
        }
        for (const article of articles(el)) article.style.contentVisibility = "";
        // Screenshots down the whole transcript, a viewport at a time.
        const pages = Math.ceil(b.scrollHeight / b.clientHeight);
        for (let page = 0; page < pages; page++) {
          b.scrollTop = page * b.clientHeight;
          await nextFrame();
          await waitUntil(
            () => Math.abs(b.scrollTop - Math.min(page * b.clientHeight, b.scrollHeight - b.clientHeight)) < 2,
          );
          await nextFrame();
          await executeServerCommand("screenshot", {
            name: `transcript-states-375-${theme}-${dir}-${String(page).padStart(2, "0")}`,
            selector: "#shot",
          });
        }
      });
    }
  }
});
