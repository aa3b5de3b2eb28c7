/**
 * pi-transcript's jobs, each a controller of its own (packages/elements/src/elements/transcript/*-controller.ts),
 * tested on a small host of its own here (pi-transcript's files test them together): frames, the history fill, the
 * near-view window, scroll following and the feed's keys. Layout, scrolling, observers, frames and keys are what
 * engines differ on: all three engines.
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { ConversationEntry } from "@pi-elements/core/conversation";
import { sendKeys } from "@web/test-runner-commands";
import { LitElement, type PropertyValues } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { pressCombo } from "../../../test/support/engine.js";
import { FeedKeysController } from "../src/elements/transcript/feed-keys-controller.js";
import { FrameBatchController } from "../src/elements/transcript/frame-batch-controller.js";
import { HistoryFillController } from "../src/elements/transcript/history-fill-controller.js";
import { NearViewController } from "../src/elements/transcript/near-view-controller.js";
import { ScrollFollowController } from "../src/elements/transcript/scroll-follow-controller.js";

/** Resolves after the frame that follows now has painted (a task queued from its animation-frame callback). */
const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** `count` message entries keyed e0, e1, ... (only `key` and `kind` are read by the controllers). */
const entriesOf = (count: number, from = 0): ConversationEntry[] =>
  Array.from({ length: count }, (_, i) => ({ key: `e${from + i}`, kind: "message" }) as unknown as ConversationEntry);

/** A host with a burst of changes: how often it rendered, and what `afterFrame` saw. */
class FramesHost extends LitElement {
  value = 0;
  renders: number[] = [];
  afterFrames: number[] = [];
  readonly frames = new FrameBatchController(this, () => this.afterFrames.push(this.renders.length));
  /** A store change: the new value, rendered at once or in the next frame. */
  set(value: number): void {
    this.frames.changed(() => {
      this.value = value;
      this.requestUpdate();
    });
    this.value = value;
  }
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    while (this.frames.pending) {
      await this.frames.nextFrame();
      complete = await super.getUpdateComplete();
    }
    return complete;
  }
  protected override render() {
    this.renders.push(this.value);
    return html`${this.value}`;
  }
}
customElements.define("frames-host", FramesHost);

/** A host rendering `entries.slice(unrendered)` as it fills in. */
class FillHost extends LitElement {
  store: object = {};
  entries: readonly ConversationEntry[] = [];
  steps = 0;
  readonly fill = new HistoryFillController(this, { first: 10, budgetMs: 12, stepRendered: () => this.steps++ });
  protected override update(changed: PropertyValues): void {
    this.fill.window(this.store, this.entries);
    super.update(changed);
  }
  protected override render() {
    return html`${repeat(
      this.entries.slice(this.fill.unrendered),
      (entry) => entry.key,
      (entry) => html`<p>${entry.key}</p>`,
    )}`;
  }
}
customElements.define("fill-host", FillHost);

/** A scrolling feed of 100 px articles; the near-view window decides which render "full". */
class FeedHost extends LitElement {
  static override styles = [];
  entries: readonly ConversationEntry[] = entriesOf(40);
  toggles = 0;
  readonly near = new NearViewController(this, {
    tail: 3,
    max: 5,
    root: () => this.#part("base"),
    articles: () => this.articles(),
    entries: () => this.entries,
  });
  readonly follower = new ScrollFollowController(this, {
    base: () => this.#part("base"),
    feed: () => this.#part("feed"),
    jump: () => this.#part("jump"),
    articles: () => this.articles(),
    scrolled: (top) => this.near.bringViewNear(top),
  });
  readonly keys = new FeedKeysController(this, () => this.toggles++);
  articles(): HTMLElement[] {
    return [...this.renderRoot.querySelectorAll<HTMLElement>('[part~="feed"] > article')];
  }
  base(): HTMLElement {
    return this.#part("base")!;
  }
  #part(name: string): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>(`[part~="${name}"]`);
  }
  protected override firstUpdated(): void {
    this.follower.observeSizes();
    this.near.watch();
  }
  protected override updated(): void {
    this.follower.follow();
    this.near.watchArticles(0);
  }
  protected override render() {
    const count = this.entries.length;
    return html`
      <div part="base" style="block-size: 300px; overflow: auto" @scroll=${this.follower.onScroll}>
        <div part="feed" role="feed" aria-label="feed" @keydown=${this.keys.onFeedKeyDown} @focusin=${this.near.onFocusIn}>
          ${repeat(
            this.entries,
            (entry) => entry.key,
            (entry, index) =>
              html`<article tabindex="0" data-key=${entry.key} style="block-size: 100px; margin: 0">
                ${this.near.fullAt(entry.key, index, count) ? html`<b>${entry.key}</b>` : html`<span data-light>${entry.key}</span>`}
              </article>`,
          )}
        </div>
      </div>
      <button part="jump" hidden>Jump</button>
    `;
  }
}
customElements.define("feed-host", FeedHost);

const fullKeys = (host: FeedHost) =>
  host
    .articles()
    .filter((article) => !article.querySelector("[data-light]"))
    .map((article) => article.dataset.key);

describe("FrameBatchController", () => {
  it("renders the first change at once and the rest of a burst together in the next frame, then calls afterFrame", async () => {
    const host = await fixture<FramesHost>(html`<frames-host></frames-host>`);
    await painted();
    host.renders = [];
    host.afterFrames = [];
    for (let value = 1; value <= 10; value++) {
      host.set(value);
      await Promise.resolve();
    }
    expect(host.frames.pending, "changes after the first wait for the frame").to.equal(true);
    await host.updateComplete;
    expect(host.renders, "one render at once, one in the frame with the last value").to.deep.equal([1, 10]);
    expect(host.frames.pending).to.equal(false);
    await painted();
    expect(host.afterFrames, "the frame's second callback came after its render").to.include(2);
  });

  it("a host disconnected mid-burst releases whoever waits for the frame and renders the latest value when back", async () => {
    const host = await fixture<FramesHost>(html`<frames-host></frames-host>`);
    await painted();
    host.set(1);
    await Promise.resolve();
    host.set(2);
    const waited = host.frames.nextFrame();
    const parent = host.parentElement!;
    host.remove();
    await waited;
    expect(host.frames.pending).to.equal(false);
    host.afterFrames = [];
    await painted();
    expect(host.afterFrames, "no frame callback after the disconnect").to.deep.equal([]);
    parent.append(host);
    host.set(3);
    await host.updateComplete;
    expect(host.renders.at(-1)).to.equal(3);
  });
});

describe("HistoryFillController", () => {
  it("renders a long history's last entries first, then fills in the earlier ones a step at a time", async () => {
    const host = await fixture<FillHost>(html`<fill-host></fill-host>`);
    host.entries = entriesOf(500);
    host.requestUpdate();
    await host.updateComplete;
    expect(host.fill.unrendered).to.equal(490);
    expect(host.renderRoot.querySelectorAll("p").length, "the first paint").to.equal(10);
    expect(host.renderRoot.querySelector("p")?.textContent).to.equal("e490");
    await waitUntil(() => host.fill.unrendered === 0, "the history filled in", { timeout: 30_000 });
    await host.updateComplete;
    expect(host.renderRoot.querySelectorAll("p").length).to.equal(500);
    expect(host.steps, "each step was reported").to.be.above(0);
  });

  it("renders entries appended later at once, and fills a new store's history from its end again", async () => {
    const host = await fixture<FillHost>(html`<fill-host></fill-host>`);
    host.entries = entriesOf(5);
    host.requestUpdate();
    await host.updateComplete;
    host.entries = [...host.entries, ...entriesOf(8, 5)];
    host.requestUpdate();
    await host.updateComplete;
    expect(host.fill.unrendered, "8 appended: fewer than the first paint's 10").to.equal(0);
    expect(host.fill.window(host.store, host.entries), "the same store").to.equal(false);
    const other = {};
    expect(host.fill.window(other, entriesOf(50)), "another store").to.equal(true);
    expect(host.fill.unrendered).to.equal(40);
  });

  it("stops filling in while its host is disconnected", async () => {
    const host = await fixture<FillHost>(html`<fill-host></fill-host>`);
    host.entries = entriesOf(300);
    host.requestUpdate();
    await host.updateComplete;
    host.remove();
    const left = host.fill.unrendered;
    await painted();
    await painted();
    expect(host.fill.unrendered).to.equal(left);
  });
});

describe("NearViewController", () => {
  it("renders the tail in full, and the articles that come near the view as the reader scrolls up", async () => {
    const host = await fixture<FeedHost>(html`<feed-host></feed-host>`);
    await waitUntil(() => fullKeys(host).includes("e37"), "the tail in full");
    await painted();
    // The view is at the end (300 px of 4,000): the tail and the articles within a view's height of it.
    const atEnd = fullKeys(host);
    expect(atEnd).to.include.members(["e37", "e38", "e39"]);
    expect(atEnd).to.not.include("e0");
    host.base().scrollTop = 0;
    await waitUntil(() => fullKeys(host).includes("e0"), `e0 in full; full: ${fullKeys(host).join(" ")}`);
    // Outside the tail: at most `max` (5), more only while in the observed area (a view's height above and below
    // it: e0 to e5, e6 at its edge); the ones near the end before went light.
    await painted();
    const full = fullKeys(host).filter((key) => !["e37", "e38", "e39"].includes(key!));
    expect(full.length, full.join(" ")).to.be.at.most(7);
    expect(full).to.include.members(["e0", "e1", "e2"]);
    expect(
      full.every((key) => Number(key!.slice(1)) <= 6),
      full.join(" "),
    ).to.equal(true);
  });

  it("renders an article in full when it takes focus, and forgets what came near on clear()", async () => {
    const host = await fixture<FeedHost>(html`<feed-host></feed-host>`);
    await painted();
    // A key press gives the page the focus (focus events wait for it in Chromium and Firefox), as a reader's would.
    await sendKeys({ press: "Shift" });
    const article = host.articles()[20]!;
    article.focus({ preventScroll: true });
    await waitUntil(() => fullKeys(host).includes("e20"), "the focused article in full").catch(() => {
      const focused = host.shadowRoot!.activeElement?.getAttribute("data-key");
      throw new Error(`e20 not in full; focused: ${focused}, full: ${fullKeys(host).join(" ")}`);
    });
    host.near.clear();
    host.requestUpdate();
    await host.updateComplete;
    // In view (the observer says so) it stays full; e20 is far from the end, so it goes light.
    expect(fullKeys(host)).to.not.include("e20");
  });
});

describe("ScrollFollowController", () => {
  it("follows the newest content while at the end, and keeps the reader's place once they scroll up", async () => {
    const host = await fixture<FeedHost>(html`<feed-host></feed-host>`);
    await painted();
    const base = host.base();
    const jump = host.renderRoot.querySelector<HTMLElement>('[part~="jump"]')!;
    expect(base.scrollTop + base.clientHeight, "at the end").to.be.closeTo(base.scrollHeight, 1);
    host.entries = [...host.entries, ...entriesOf(2, 40)];
    host.requestUpdate();
    await host.updateComplete;
    expect(base.scrollTop + base.clientHeight, "followed the new articles").to.be.closeTo(base.scrollHeight, 1);
    expect(jump.hidden).to.equal(true);

    base.scrollTop = 1000;
    await waitUntil(() => !host.follower.pinned, "the reader's scroll read");
    expect(jump.hidden, "Jump to latest shows").to.equal(false);
    const top = host.articles().find((a) => a.getBoundingClientRect().bottom > base.getBoundingClientRect().top)!;
    const offset = top.getBoundingClientRect().top - base.getBoundingClientRect().top;
    // Articles go in above the reader's view: their top article stays where it was.
    host.entries = [...entriesOf(5, 100), ...host.entries];
    host.requestUpdate();
    await host.updateComplete;
    host.follower.keepPlace();
    expect(top.getBoundingClientRect().top - base.getBoundingClientRect().top).to.be.closeTo(offset, 1);
    // New articles at the end do not move the reader.
    const before = base.scrollTop;
    host.entries = [...host.entries, ...entriesOf(2, 200)];
    host.requestUpdate();
    await host.updateComplete;
    expect(base.scrollTop).to.be.closeTo(before, 1);

    host.follower.scrollToLatest();
    expect(host.follower.pinned).to.equal(true);
    expect(base.scrollTop + base.clientHeight).to.be.closeTo(base.scrollHeight, 1);
  });

  it("follows when the box is resized (a size change moves the end)", async () => {
    const host = await fixture<FeedHost>(html`<feed-host></feed-host>`);
    await painted();
    const base = host.base();
    base.style.blockSize = "150px";
    await waitUntil(() => Math.abs(base.scrollTop + base.clientHeight - base.scrollHeight) <= 1).catch(() => {
      throw new Error(
        `not at the end after the resize: ${base.scrollTop} + ${base.clientHeight} of ${base.scrollHeight}`,
      );
    });
  });
});

describe("FeedKeysController", () => {
  it("moves focus between articles with Page Down and Page Up, and calls its toggle on Ctrl+O", async () => {
    const host = await fixture<FeedHost>(html`<feed-host></feed-host>`);
    await painted();
    const articles = host.articles();
    articles[10]!.focus();
    await sendKeys({ press: "PageDown" });
    expect(host.shadowRoot!.activeElement).to.equal(articles[11]);
    await sendKeys({ press: "PageUp" });
    await sendKeys({ press: "PageUp" });
    expect(host.shadowRoot!.activeElement).to.equal(articles[9]);
    await pressCombo("Shift+PageDown");
    expect(host.shadowRoot!.activeElement, "a modified key is not the feed's").to.equal(articles[9]);
    await pressCombo("Control+o");
    expect(host.toggles).to.equal(1);
    const parent = host.parentElement!;
    host.remove();
    parent.append(host);
    host.articles()[3]!.focus();
    await pressCombo("Control+o");
    expect(host.toggles, "listening again once connected again, once").to.equal(2);
  });
});
