import { type PiSession, realClock } from "@pi-elements/core";
import type {
  AssistantBlock,
  AssistantMessage,
  ConversationEntry,
  ConversationSnapshot,
  ConversationStore,
  ImageContent,
  Notice,
  StreamingBlock,
  StreamingMessage,
  ToolExecution,
  UserBlock,
} from "@pi-elements/core/conversation";
import { html, nothing, type PropertyValues, svg, type TemplateResult } from "lit";
import { guard } from "lit/directives/guard.js";
import { repeat } from "lit/directives/repeat.js";
import { literal, html as staticHtml } from "lit/static-html.js";
import { PiElement } from "../../base/pi-element.js";
import { ConversationStoreController } from "../../controllers/conversation-store-controller.js";
import { localizeIn, nearestLang } from "../../i18n/localize.js";
import type { StringTable } from "../../i18n/strings.js";
import { emit } from "../../internal/events.js";
import { type TranscriptStringKey, type TranscriptStrings, transcriptStrings } from "./strings.js";
import { styles } from "./transcript.styles.js";

/** Detail of `pi-copy`: what a copy button put (or tried to put) on the clipboard. */
export interface TranscriptCopyDetail {
  /** The message's Markdown (its text blocks). */
  text: string;
  /** The entry's key. */
  key: string;
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-copy": CustomEvent<TranscriptCopyDetail>;
  }
}

/** Image types shown inline, as data: URLs (nothing is fetched); any other type shows a placeholder. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** How far (px) from the end still counts as "at the newest text". */
const PIN_SLACK = 24;
/**
 * A long history renders from its end: this many entries at once, for the first paint, then the earlier ones in
 * chunks, one task each, sized to take about FILL_BUDGET_MS to render (see the README's long-session figures).
 */
const FILL_FIRST = 60;
const FILL_BUDGET_MS = 12;
/**
 * Long sessions keep the DOM bounded: the newest FULL_TAIL entries, and at most NEAR_MAX others that came near the
 * view (within a viewport's height of it) or took focus, render in full (Markdown, tool cards, copy buttons); every
 * other message renders as a light article: its author and its text as written (tool calls as their name and
 * arguments), a handful of nodes, so find-in-page and screen readers still reach every word.
 */
const FULL_TAIL = 60;
const NEAR_MAX = 120;
/** How much of a tool call's arguments a light article shows. */
const LIGHT_ARGS_CHARS = 300;
/** How much of a finished message's text is announced. */
const ANNOUNCE_CHARS = 200;

type AnyBlock = AssistantBlock | StreamingBlock | { readonly type: string; readonly [key: string]: unknown };

/** The heading elements an article's author can be, by `heading-level`. */
const HEADINGS = [literal`h1`, literal`h2`, literal`h3`, literal`h4`, literal`h5`, literal`h6`];
const DEFAULT_HEADING_LEVEL = 3;

const COPY_ICON = svg`<rect x="5.5" y="5.5" width="8" height="9" rx="1.5" /><path d="M3.5 10.5h-1v-8a1 1 0 0 1 1-1h7v1" />`;

/**
 * The conversation with pi, as pi's TUI shows it: user messages (text and images), assistant messages (text as
 * Markdown through `<pi-markdown>`, thinking blocks, tool calls as `<pi-tool-card>`s with their runs), the user's
 * own shell commands, extensions' custom messages, compaction summaries, and compaction, retry and extension-error
 * notices at their places; a failed or aborted turn shows pi's error text.
 *
 * The conversation comes from the `store` property (any `ConversationStore`), else from `conversationOf()` of the
 * `session` property, else of an ancestor `<pi-session>`'s session.
 *
 * Reading while it streams: the view stays at the newest text unless the reader scrolled up; then a "Jump to
 * latest" button appears. A new user message brings its turn into view. Every user and assistant message has a copy
 * button (its Markdown; `pi-copy` fires too). Ctrl+O, or the toolbar's button, expands or collapses every tool card.
 *
 * A call a tool made (pi 1.6's nested calls, e.g. from a subagent or codemode: `parentToolCallId`) shows as a card
 * inside its caller's card, below its output, as deep as they nest.
 *
 * Rendering: a store change renders at once when the transcript has not rendered since the last frame; the changes
 * after it render together in the next frame (a stream can come faster than frames are painted; `updateComplete`
 * waits for them), and the view follows the newest text in that frame.
 *
 * Accessibility: the messages are a feed (APG feed pattern) of articles, each named by its author ("You", "pi", or
 * what the entry is); Page Down / Page Up move focus to the next / previous article, Tab moves into an article's
 * tool cards and buttons (nested cards' too). The message being streamed is `aria-busy`; one polite announcement is made per finished
 * assistant message, never per token.
 *
 * Long sessions: each committed entry renders once (keyed by its `key`, and guarded, so an entry is not rendered
 * again while another streams) and is laid out only near the viewport (`content-visibility: auto`). The DOM stays
 * bounded: the newest 60 entries, and the 120 that came near the view (within a viewport's height) or took focus
 * most recently, render in full; every other message is a light article, its author and its text as written (a tool
 * call as its name and arguments), about 15 nodes, so find-in-page and screen readers still reach every word, and it
 * renders in full as it nears the view. A long history arriving at once paints its newest 60 entries first and fills
 * in the earlier ones a chunk per frame (the feed is `aria-busy` meanwhile). A reader who scrolled up keeps their
 * place: the article at the top of their view stays where it was as articles above it fill in or change form.
 *
 * @event pi-copy - A copy button was pressed; `detail: { text, key }`.
 * @csspart base - The scrolling area.
 * @csspart feed - The feed of articles.
 * @csspart entry - One article; carries `data-key` (the entry's key) and `data-role`.
 * @csspart streaming - The article being streamed.
 * @csspart author - An article's heading (its author).
 * @csspart thinking - A thinking block (a `<details>`).
 * @csspart error - A failed or aborted turn's error text, a notice's error.
 * @csspart retried-error - The error a successful retry got past (muted).
 * @csspart notice - A compaction, retry or extension-error article.
 * @csspart copy - A message's copy button.
 * @csspart toolbar - The bar above the feed.
 * @csspart toggle-tools - The expand / collapse-all button.
 * @csspart jump - The "Jump to latest" button.
 * @csspart announcer - The visually hidden polite live region (one announcement per finished assistant message).
 * @cssprop --pi-color-bg - Background.
 * @cssprop --pi-color-surface - Background of user messages and notices.
 * @cssprop --pi-color-text - Text colour.
 * @cssprop --pi-color-muted - Authors, thinking, captions.
 * @cssprop --pi-color-error - Error text.
 * @cssprop --pi-color-warning - Retry notices.
 * @cssprop --pi-color-focus - Focus ring.
 */
export class PiTranscript extends PiElement {
  static override styles = styles;

  static override properties = {
    session: { attribute: false },
    store: { attribute: false },
    toolsExpanded: { type: Boolean, attribute: "tools-expanded", reflect: true },
    headingLevel: { type: Number, attribute: "heading-level" },
  };

  /**
   * The session whose conversation to show; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /**
   * A conversation store to show instead of a session's (standalone use, tests).
   * @default undefined
   */
  declare store: ConversationStore | undefined;
  /** Whether every tool card is expanded (Ctrl+O toggles it). */
  declare toolsExpanded: boolean;
  /**
   * The level of each article's heading (its author), 1 to 6, to fit the page's outline: 3 under a page's h1 and a
   * section's h2. Any other value is 3.
   */
  declare headingLevel: number;
  /**
   * Per-element string overrides: the transcript's own keys (`TranscriptStrings`).
   * @default undefined
   */
  declare strings: (StringTable & TranscriptStrings) | undefined;

  /** Every new snapshot renders (the render itself compares its parts by identity). */
  readonly #conversation = new ConversationStoreController(this, (snapshot) => snapshot, {
    equals: (a, b) => a === b,
    changed: (update) => this.#changed(update),
  });
  /** How many entries at the start are not rendered yet (a long history fills in from its end). */
  #unrendered = 0;
  /** The store the rendered window belongs to. */
  #windowOf: ConversationStore | undefined;
  /** The frame, then the task, of the next fill step (one of them pends at a time). */
  #fillFrame: number | undefined;
  #fillTask: ReturnType<typeof setTimeout> | undefined;
  #fillChunk = 100;
  /** When the fill step being rendered began. */
  #fillStep: { began: number } | undefined;
  /**
   * While the reader is up: the article at the top of their view, and its distance from the view's top, as they left
   * it. Kept when articles above it fill in, render in full or go light, in every engine (WebKit has no scroll
   * anchoring, and Chromium's does not always pick an article).
   */
  #anchor: { article: HTMLElement; offset: number } | undefined;
  /** The snapshot the last render showed. */
  #shown: ConversationSnapshot | undefined;
  /** Whether the view follows the newest text. */
  #pinned = true;
  #lastScrollTop = 0;
  #followFrame: number | undefined;
  /** Whether the transcript rendered since the last frame began, and whether a store change waits for the next. */
  #renderedSinceFrame = false;
  #changePending = false;
  /** From the frame's first callback to its second: a render then is followed by the second. */
  #inFrame = false;
  /** The next frame's two callbacks (see #scheduleFrame), and what waits for the first (updateComplete). */
  #frame: number | undefined;
  #frameFollow: number | undefined;
  #frameWaiters: (() => void)[] = [];
  #resizeObserver: ResizeObserver | undefined;
  /** The polite announcement and how many were made (each one is a new node, so the same text twice is heard). */
  #announcement = "";
  #announcements = 0;
  /** Entries outside the newest FULL_TAIL rendered in full (they came near the view), oldest first; and in view. */
  readonly #near = new Set<string>();
  readonly #inView = new Set<string>();
  #nearObserver: IntersectionObserver | undefined;
  #watched = new WeakSet<Element>();
  /** The entries and window whose articles the observer watches. */
  #watchedEntries: readonly ConversationEntry[] | undefined;
  #watchedUnrendered = -1;

  constructor() {
    super();
    this.toolsExpanded = false;
    this.headingLevel = DEFAULT_HEADING_LEVEL;
  }

  /** The conversation on display; undefined without a store or session. */
  get snapshot(): ConversationSnapshot | undefined {
    return this.#conversation.now();
  }

  /** Scrolls to the newest text and follows it again. */
  scrollToLatest(): void {
    this.#pinned = true;
    this.#follow();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Followed in the next frame, not in the observer's callback: scrolling there lays out articles that come into
    // view (content-visibility), which would resize the feed again within the same delivery (a ResizeObserver loop).
    this.#resizeObserver ??= new ResizeObserver(() => {
      this.#followFrame ??= requestAnimationFrame(() => {
        this.#followFrame = undefined;
        this.#follow();
      });
    });
    this.addEventListener("keydown", this.#onHostKeyDown);
    if (this.hasUpdated) {
      this.#observeSizes();
      this.#watchNear();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.#fillFrame !== undefined) cancelAnimationFrame(this.#fillFrame);
    if (this.#followFrame !== undefined) cancelAnimationFrame(this.#followFrame);
    this.#followFrame = undefined;
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    if (this.#frameFollow !== undefined) cancelAnimationFrame(this.#frameFollow);
    this.#frame = this.#frameFollow = undefined;
    // Connected again, the controller renders the store's snapshot as it is then.
    this.#changePending = this.#renderedSinceFrame = false;
    this.#releaseFrameWaiters();
    clearTimeout(this.#fillTask);
    this.#fillFrame = this.#fillTask = undefined;
    this.#resizeObserver?.disconnect();
    this.#nearObserver?.disconnect();
    this.#nearObserver = undefined;
    this.removeEventListener("keydown", this.#onHostKeyDown);
  }

  /**
   * A store change: the first since the last frame renders at once; the ones after it before the next frame wait for
   * it and render together there. A stream's updates come faster than frames (100 a second and more), and a render
   * that no frame paints is wasted; a store that notifies once a frame itself (`conversationOf`'s default) renders at
   * once every time.
   */
  #changed(update: () => void): void {
    if (!this.#renderedSinceFrame) {
      update();
      return;
    }
    this.#changePending = true;
    this.#scheduleFrame();
  }

  /**
   * The next frame's two callbacks: the first renders a change that waited for it; the second, which runs after the
   * first one's microtasks (the renders of the transcript, its pi-markdown and code blocks), keeps the newest text in
   * view. Reading the layout there costs nothing more: it is the layout that frame does anyway, once, where scrolling
   * after every render forced one per render.
   */
  #scheduleFrame(): void {
    if (this.#frame !== undefined) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = undefined;
      this.#inFrame = true;
      this.#renderedSinceFrame = false;
      if (this.#changePending) {
        this.#changePending = false;
        this.requestUpdate();
      }
      this.#releaseFrameWaiters();
    });
    this.#frameFollow = requestAnimationFrame(() => {
      this.#frameFollow = undefined;
      this.#inFrame = false;
      this.#follow();
    });
  }

  #releaseFrameWaiters(): void {
    const waiters = this.#frameWaiters;
    this.#frameWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Done once a store change that waits for the next frame has rendered too. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    while (this.#changePending) {
      await new Promise<void>((resolve) => this.#frameWaiters.push(resolve));
      complete = await super.getUpdateComplete();
    }
    return complete;
  }

  #t(key: TranscriptStringKey, values?: Record<string, string | number>): string {
    return localizeIn(transcriptStrings, this, key, values, this.strings);
  }

  /** After the controllers (a new `store` or `session` is taken by then), before render. */
  protected override update(changed: PropertyValues<this>): void {
    const next = this.snapshot;
    if (next && next !== this.#shown) {
      // A snapshot of another store is not the one before: nothing finished, nothing was added.
      const prev = this.#conversation.store === this.#windowOf ? this.#shown : undefined;
      this.#window(next);
      this.#observe(prev, next);
    }
    this.#shown = next;
    super.update(changed);
  }

  /**
   * Which entries render: all, except while a long history fills in from its end. A history arriving at once (a new
   * store, `get_messages` answered) renders its last FILL_FIRST entries first; entries appended later render at once.
   */
  #window(next: ConversationSnapshot): void {
    const store = this.#conversation.store;
    const count = next.entries.length;
    const fresh = store !== this.#windowOf || !this.#shown;
    if (store !== this.#windowOf) this.#near.clear();
    this.#windowOf = store;
    const added = fresh ? count : appended(this.#shown!.entries, next.entries).length;
    if (added > FILL_FIRST) this.#unrendered = Math.max(this.#unrendered, count - FILL_FIRST);
    this.#unrendered = Math.min(this.#unrendered, count);
  }

  /**
   * Renders the next chunk of earlier entries in a task of its own after the next frame, so each chunk comes after a
   * paint; keeps the reader's place if they scrolled up.
   */
  #scheduleFill(): void {
    if (this.#unrendered === 0 || this.#fillFrame !== undefined || this.#fillTask !== undefined) return;
    this.#fillFrame = requestAnimationFrame(() => {
      this.#fillFrame = undefined;
      this.#fillTask = setTimeout(() => {
        this.#fillTask = undefined;
        if (!this.isConnected || this.#unrendered === 0) return;
        this.#fillStep = { began: performance.now() };
        this.#unrendered = Math.max(0, this.#unrendered - this.#fillChunk);
        this.requestUpdate();
      }, 0);
    });
  }

  /**
   * What changed between two snapshots that is not just drawn: the announcement of a finished assistant message, and
   * a new user message that brings its turn into view. (How long thinking took is the store's: `thinkingMs`.)
   */
  #observe(prev: ConversationSnapshot | undefined, next: ConversationSnapshot): void {
    const streaming = next.streaming;
    if (!prev) return;
    const added = appended(prev.entries, next.entries);
    if (added.some((entry) => entry.kind === "message" && entry.message.role === "user")) this.#pinned = true;
    const ended = prev.streaming && prev.streaming.key !== streaming?.key;
    if (!ended) return;
    let finished: { message: AssistantMessage } | undefined;
    for (const entry of added) {
      if (entry.kind === "message" && entry.message.role === "assistant") finished = { message: entry.message };
    }
    if (!finished) return;
    this.#announce(finished.message);
  }

  #announce(message: AssistantMessage): void {
    let text: string;
    if (message.stopReason === "aborted") text = this.#t("announceAborted");
    else if (message.stopReason === "error") text = this.#t("announceFailed", { error: message.errorMessage ?? "" });
    else {
      const said = textOf(message.content).replace(/\s+/g, " ").trim();
      const tools = message.content.filter((b) => b.type === "toolCall").map((b) => (b as { name: string }).name);
      if (said) text = this.#t("announceMessage", { text: shorten(said, ANNOUNCE_CHARS) });
      else if (tools.length > 0) text = this.#t("announceTools", { tools: tools.join(", ") });
      else return;
    }
    this.#announcement = text;
    this.#announcements++;
  }

  protected override render() {
    const snapshot = this.snapshot;
    const all = snapshot?.entries ?? [];
    const entries = this.#unrendered > 0 ? all.slice(this.#unrendered) : all;
    const tools = snapshot?.tools ?? new Map<string, ToolExecution>();
    const lang = nearestLang(this);
    const expanded = this.toolsExpanded;
    const heading = this.#heading();
    // A feed holds articles: an empty one has no role until its first.
    const empty = entries.length === 0 && !snapshot?.streaming;
    const hasTools = tools.size > 0 || (snapshot?.streaming?.blocks.some((b) => b?.type === "toolCall") ?? false);
    return html`
      <div part="toolbar" ?hidden=${!hasTools}>
        <button part="toggle-tools" type="button" aria-pressed=${expanded ? "true" : "false"} @click=${this.#toggleTools}>
          ${this.#t("expandTools")}
        </button>
      </div>
      <div part="base" @scroll=${this.#onScroll}>
        <div
          part="feed"
          role=${empty ? nothing : "feed"}
          aria-label=${empty ? nothing : this.#t("conversation")}
          aria-busy=${this.#unrendered > 0 ? "true" : nothing}
          @keydown=${this.#onFeedKeyDown}
        >
          ${repeat(
            entries,
            (entry) => entry.key,
            (entry, index) => {
              const full =
                index >= entries.length - FULL_TAIL || this.#near.has(entry.key) || this.#inView.has(entry.key);
              return guard([entry, full, expanded, lang, this.strings, heading, ...toolRunsOf(entry, tools)], () =>
                full ? this.#renderEntry(entry, tools) : this.#renderLight(entry, tools),
              );
            },
          )}
          ${snapshot?.streaming ? this.#renderStreaming(snapshot.streaming, tools) : nothing}
        </div>
      </div>
      <button part="jump" type="button" hidden @click=${this.#onJump}>
        <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M8 3v10M3.5 8.5 8 13l4.5-4.5" /></svg>
        ${this.#t("jumpToLatest")}
      </button>
      <div class="visually-hidden" role="status" part="announcer">
        ${repeat(
          this.#announcements > 0 ? [this.#announcements] : [],
          (n) => n,
          () => html`<p>${this.#announcement}</p>`,
        )}
      </div>
    `;
  }

  /**
   * A message far from the view in a long session: its author and its text as written, in the same article (so it
   * keeps its place, name and keyboard stop); it renders in full once it comes near the view or takes focus.
   */
  #renderLight(entry: ConversationEntry, tools: ReadonlyMap<string, ToolExecution>): TemplateResult | typeof nothing {
    if (entry.kind !== "message") return this.#renderEntry(entry, tools);
    const message = entry.message;
    let author: string;
    let text: string;
    switch (message.role) {
      case "user":
        author = this.#t("you");
        text = typeof message.content === "string" ? message.content : textOf(message.content);
        break;
      case "assistant":
        author = this.#t("assistant");
        text = message.content
          .map((block) =>
            block.type === "text"
              ? block.text
              : block.type === "toolCall"
                ? `${block.name} ${shorten(safeJson(block.arguments ?? {}).replace(/\s+/g, " "), LIGHT_ARGS_CHARS)}`
                : "",
          )
          .filter(Boolean)
          .join("\n\n");
        if (message.errorMessage) text += `\n\n${message.errorMessage}`;
        break;
      case "bashExecution":
        author = this.#t("shellCommand");
        text = `$ ${message.command}\n${message.output ?? ""}`;
        break;
      default:
        return this.#renderEntry(entry, tools);
    }
    return this.#article(entry.key, message.role, author, html`<div class="plain" data-light dir="auto">${text}</div>`);
  }

  #renderEntry(entry: ConversationEntry, tools: ReadonlyMap<string, ToolExecution>): TemplateResult | typeof nothing {
    if (entry.kind === "notice") return this.#renderNotice(entry.key, entry.notice);
    if (entry.kind === "other") {
      return this.#article(
        entry.key,
        "other",
        this.#t("otherMessage", { role: entry.message.role }),
        html`
        <pre class="json" dir="ltr">${safeJson(entry.message)}</pre>`,
      );
    }
    const message = entry.message;
    switch (message.role) {
      case "user": {
        const blocks =
          typeof message.content === "string" ? [{ type: "text", text: message.content } as const] : message.content;
        return this.#article(
          entry.key,
          "user",
          this.#t("you"),
          this.#renderUserBlocks(blocks, this.#t("you")),
          textOf(blocks),
        );
      }
      case "assistant":
        return this.#article(
          entry.key,
          "assistant",
          this.#t("assistant"),
          html`${this.#renderAssistantBlocks(message.content, tools, false, entry.thinkingMs)}
          ${this.#renderStop(message)}`,
          textOf(message.content),
        );
      case "toolResult":
        // Its run shows in the tool call's card; only a result whose call is not in view has an article of its own.
        if (tools.get(message.toolCallId)?.status !== "running" && tools.has(message.toolCallId)) return nothing;
        return this.#article(
          entry.key,
          "toolResult",
          message.toolName,
          this.#renderUserBlocks(message.content, message.toolName),
        );
      case "bashExecution":
        return this.#article(
          entry.key,
          "bashExecution",
          this.#t("shellCommand"),
          html`<pi-code-block .code=${`$ ${message.command}`} language="sh"></pi-code-block>
            ${message.output ? html`<pi-code-block .code=${message.output}></pi-code-block>` : nothing}
            <p class="caption">
              ${[
                message.cancelled ? this.#t("cancelled") : undefined,
                typeof message.exitCode === "number" ? this.#t("exitCode", { code: message.exitCode }) : undefined,
                message.truncated ? this.#t("truncated") : undefined,
              ]
                .filter(Boolean)
                .join(" · ")}
            </p>`,
        );
      case "custom": {
        const name = this.#t("customMessage", { type: message.customType });
        const body =
          typeof message.content === "string"
            ? html`<pi-markdown .text=${message.content}></pi-markdown>`
            : this.#renderUserBlocks(message.content, name);
        return this.#article(entry.key, "custom", name, body);
      }
      case "compactionSummary":
      case "branchSummary": {
        const name = this.#t(message.role);
        return this.#article(
          entry.key,
          message.role,
          name,
          html`<details>
            <summary>${name}</summary>
            <pi-markdown .text=${message.summary}></pi-markdown>
          </details>`,
        );
      }
      default:
        // The store leaves hidden messages (1.6's `system`) out; a shown role not handled above gets the generic view.
        return this.#article(
          entry.key,
          "other",
          this.#t("otherMessage", { role: message.role }),
          html`
          <pre class="json" dir="ltr">${safeJson(message)}</pre>`,
        );
    }
  }

  /** One article: named by its author (aria-labelledby its heading), with a copy button when it has `copy` text. */
  #article(key: string, role: string, author: string, body: unknown, copy?: string, busy = false, notice?: string) {
    const id = `a-${key}`;
    const heading = this.#heading();
    return staticHtml`<article
      part=${busy ? "entry streaming" : notice ? "entry notice" : "entry"}
      data-key=${key}
      data-role=${role}
      data-notice=${notice ?? nothing}
      tabindex="0"
      aria-labelledby=${id}
      aria-busy=${busy ? "true" : nothing}
    >
      <header>
        <${heading} part="author" id=${id}>${author}</${heading}>
        ${
          copy
            ? html`<button part="copy" type="button" aria-label=${this.#t("copyMessage")} title=${this.#t("copyMessage")}
                @click=${(event: Event) => this.#copy(event, key, copy)}>
                <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">${COPY_ICON}</svg>
              </button>`
            : nothing
        }
      </header>
      ${body}
    </article>`;
  }

  #heading() {
    const level = this.headingLevel;
    return HEADINGS[Number.isInteger(level) && level >= 1 && level <= 6 ? level - 1 : DEFAULT_HEADING_LEVEL - 1]!;
  }

  #renderStreaming(message: StreamingMessage, tools: ReadonlyMap<string, ToolExecution>) {
    return this.#article(
      message.key,
      "assistant",
      this.#t("assistant"),
      this.#renderAssistantBlocks(message.blocks, tools, true, undefined),
      undefined,
      true,
    );
  }

  #renderUserBlocks(blocks: readonly (UserBlock | { type: string })[], author: string) {
    return blocks.map((block) => {
      if (block.type === "text") return html`<div class="plain" dir="auto">${(block as { text: string }).text}</div>`;
      if (block.type === "image") return this.#renderImage(block as ImageContent, author);
      return html`<pre class="json" dir="ltr">${safeJson(block)}</pre>`;
    });
  }

  #renderImage(image: ImageContent, author: string) {
    const type = String(image.mimeType).toLowerCase();
    if (!IMAGE_TYPES.has(type) || typeof image.data !== "string" || !BASE64.test(image.data)) {
      return html`<p class="caption">${this.#t("unsupportedImage", { type: String(image.mimeType) })}</p>`;
    }
    return html`<img class="image" alt=${`${this.#t("image")} (${author})`} src=${`data:${type};base64,${image.data}`} />`;
  }

  #renderAssistantBlocks(
    blocks: readonly (AnyBlock | undefined)[],
    tools: ReadonlyMap<string, ToolExecution>,
    streaming: boolean,
    thoughtMs: ReadonlyMap<number, number> | undefined,
  ) {
    return blocks.map((block, index) => {
      if (!block) return nothing;
      switch (block.type) {
        case "text":
          return html`<pi-markdown .text=${(block as { text: string }).text} .streaming=${streaming}></pi-markdown>`;
        case "thinking": {
          const b = block as { thinking: string; redacted?: boolean };
          const ms = thoughtMs?.get(index);
          const label = streaming
            ? this.#t("thinking")
            : b.redacted
              ? this.#t("redactedThinking")
              : ms !== undefined
                ? this.#t("thoughtFor", { seconds: Math.max(1, Math.round(ms / 1000)) })
                : this.#t("thought");
          return html`<details part="thinking" ?open=${streaming}>
            <summary>${label}</summary>
            <div class="plain" dir="auto">${b.thinking}</div>
          </details>`;
        }
        case "toolCall": {
          const id = (block as { id: string }).id;
          return html`<pi-tool-card
            .call=${block}
            .execution=${tools.get(id)}
            .clock=${this.#conversation.store?.clock ?? realClock}
            .expanded=${this.toolsExpanded}
            >${this.#renderNested(id, tools, new Set([id]))}</pi-tool-card
          >`;
        }
        default:
          return html`<pre class="json" dir="ltr">${safeJson(block)}</pre>`;
      }
    });
  }

  /** The cards of the calls `parentId` made (pi 1.6's nested calls), inside its card, each with its own below it. */
  #renderNested(
    parentId: string,
    tools: ReadonlyMap<string, ToolExecution>,
    seen: ReadonlySet<string>,
  ): TemplateResult[] | typeof nothing {
    const children = nestedRuns(tools).get(parentId);
    if (!children) return nothing;
    return children.map((run) =>
      seen.has(run.toolCallId)
        ? html``
        : html`<pi-tool-card
            .execution=${run}
            .clock=${this.#conversation.store?.clock ?? realClock}
            .expanded=${this.toolsExpanded}
            >${this.#renderNested(run.toolCallId, tools, new Set([...seen, run.toolCallId]))}</pi-tool-card
          >`,
    );
  }

  #renderStop(message: AssistantMessage) {
    if (message.stopReason !== "error" && message.stopReason !== "aborted") return nothing;
    const label = this.#t(message.stopReason === "error" ? "failed" : "aborted");
    return html`<p part="error" data-stop=${message.stopReason} dir="auto">
      <strong>${label}</strong>${message.errorMessage ? html`: <span>${message.errorMessage}</span>` : nothing}
    </p>`;
  }

  #renderNotice(key: string, notice: Notice) {
    let name: string;
    let body: unknown = nothing;
    switch (notice.type) {
      case "compaction":
        name = this.#t("compaction");
        body = html`<p>
          ${this.#t(
            notice.status === "running"
              ? "compacting"
              : notice.status === "done"
                ? "compacted"
                : notice.status === "aborted"
                  ? "compactionAborted"
                  : "compactionFailed",
          )}
        </p>
        ${notice.errorMessage ? html`<p part="error" dir="auto">${notice.errorMessage}</p>` : nothing}`;
        break;
      case "retry": {
        name = this.#t("retry");
        const status =
          notice.status === "waiting"
            ? this.#t("retryWaiting", { attempt: notice.attempt, max: notice.maxAttempts ?? "?" })
            : notice.status === "succeeded"
              ? this.#t("retrySucceeded", { attempt: notice.attempt })
              : this.#t("retryFailed");
        const error = notice.status === "failed" ? (notice.finalError ?? notice.errorMessage) : notice.errorMessage;
        // The error a successful retry got past is history: muted, not in the error colour.
        body = html`<p>${status}</p>${
          error
            ? html`<p part=${notice.status === "succeeded" ? "retried-error" : "error"} class="caption" dir="auto">${error}</p>`
            : nothing
        }`;
        break;
      }
      case "extension_error":
        name = this.#t("extensionError");
        body = html`${
          notice.extensionPath
            ? html`<p class="caption" dir="auto">
                ${this.#t("extensionErrorWhere", { extension: notice.extensionPath, event: notice.event ?? "?" })}
              </p>`
            : nothing
        }
          <p part="error" dir="auto">${notice.error}</p>`;
        break;
      default:
        name = this.#t("otherMessage", { role: (notice as { type: string }).type });
        body = html`<pre class="json" dir="ltr">${safeJson(notice)}</pre>`;
    }
    return this.#article(key, "notice", name, body, undefined, false, notice.type);
  }

  protected override firstUpdated(): void {
    const feed = this.renderRoot.querySelector('[part~="feed"]');
    this.#observeSizes();
    feed?.addEventListener("focusin", this.#onFeedFocusIn);
    this.#watchNear();
  }

  /** The feed's size (it grows as text streams in) and the scrolling box's (the page resizes it): both move the end. */
  #observeSizes(): void {
    for (const part of ["feed", "base"]) {
      const element = this.renderRoot.querySelector(`[part~="${part}"]`);
      if (element) this.#resizeObserver?.observe(element);
    }
  }

  /** A new observer of which articles are near the view (rendered again, or connected again). */
  #watchNear(): void {
    this.#nearObserver?.disconnect();
    this.#watched = new WeakSet();
    this.#watchedEntries = undefined;
    this.#inView.clear();
    this.#nearObserver = new IntersectionObserver(this.#onNear, { root: this.#base(), rootMargin: "100% 0px" });
    this.#watchArticles();
  }

  /**
   * Articles coming near the view render in full and stay so while they are among the NEAR_MAX that came near most
   * recently; older ones go light again.
   */
  #onNear = (records: IntersectionObserverEntry[]) => {
    let changed = false;
    for (const record of records) {
      const key = (record.target as HTMLElement).dataset.key;
      if (key === undefined) continue;
      if (record.isIntersecting) {
        this.#inView.add(key);
        changed = this.#bringNear(key) || changed;
      } else this.#inView.delete(key);
    }
    if (changed) this.requestUpdate();
  };

  /** Marks `key` as the latest near the view; whether that, or making room for it, changes what renders in full. */
  #bringNear(key: string): boolean {
    const had = this.#near.delete(key);
    this.#near.add(key);
    let changed = !had && !this.#inTail(key);
    for (const old of this.#near) {
      if (this.#near.size <= NEAR_MAX) break;
      if (this.#inView.has(old)) continue;
      this.#near.delete(old);
      changed ||= !this.#inTail(old);
    }
    return changed;
  }

  #inTail(key: string): boolean {
    const entries = this.snapshot?.entries ?? [];
    const last = Math.max(0, entries.length - FULL_TAIL);
    for (let i = entries.length - 1; i >= last; i--) if (entries[i]!.key === key) return true;
    return false;
  }

  /** An article that takes focus (Page Up / Down, a click, a screen reader's focus) renders in full. */
  #onFeedFocusIn = (event: Event) => {
    const article = event.target instanceof HTMLElement ? event.target.closest("article") : null;
    const key = article?.dataset.key;
    if (key !== undefined && this.#bringNear(key)) this.requestUpdate();
  };

  /** Watches the articles a render added (a new history, a fill step, a committed message). */
  #watchArticles(): void {
    const entries = this.snapshot?.entries;
    if (!this.#nearObserver || (entries === this.#watchedEntries && this.#unrendered === this.#watchedUnrendered))
      return;
    this.#watchedEntries = entries;
    this.#watchedUnrendered = this.#unrendered;
    for (const article of this.#articles()) {
      if (this.#watched.has(article)) continue;
      this.#watched.add(article);
      this.#nearObserver.observe(article);
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const step = this.#fillStep;
    if (step) {
      this.#fillStep = undefined;
      const base = this.#base();
      // Articles went in above the view: a reader who scrolled up keeps their place.
      if (base && !this.#pinned) this.#keepAnchor(base);
      const ms = Math.max(1, performance.now() - step.began);
      this.#fillChunk = Math.min(1000, Math.max(20, Math.round((this.#fillChunk * FILL_BUDGET_MS) / ms)));
    }
    // A render in the frame's first callback is followed by its second (see #scheduleFrame), without a layout of
    // its own; one between frames (at most one store change a frame) at once, as before. The frame also ends this
    // frame's turn to render at once.
    if (!this.#inFrame) this.#follow();
    this.#watchArticles();
    this.#renderedSinceFrame = true;
    this.#scheduleFrame();
    this.#scheduleFill();
  }

  /**
   * While pinned, keeps the newest text in view. Called in the frame after each render and whenever the feed or the
   * scrolling box changes size (an article laid out as it nears the view, a child element rendering, the page
   * resizing the box): the reader's own scroll is read first, since its scroll event may come after the resize.
   */
  #follow(): void {
    const base = this.#base();
    if (!base) return;
    this.#readScroll(base);
    if (!this.#pinned) {
      this.#keepAnchor(base);
      return;
    }
    base.scrollTop = base.scrollHeight;
    this.#lastScrollTop = base.scrollTop;
  }

  /** The first article whose end is below the view's top, and how far its top is from the view's (binary search). */
  #topArticle(base: HTMLElement): { article: HTMLElement; offset: number } | undefined {
    const articles = this.#articles();
    const top = base.getBoundingClientRect().top;
    let low = 0;
    let high = articles.length - 1;
    if (high < 0) return undefined;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (articles[mid]!.getBoundingClientRect().bottom > top) high = mid;
      else low = mid + 1;
    }
    const article = articles[low]!;
    return { article, offset: article.getBoundingClientRect().top - top };
  }

  #base(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('[part~="base"]');
  }

  /**
   * Whether the reader has left the newest text. Content growing below moves nothing, and content shrinking clamps
   * the view to the end; so a view off the end that moved up is the reader's doing, and a view at the end pins.
   */
  #readScroll(base: HTMLElement): void {
    const atEnd = base.scrollHeight - base.scrollTop - base.clientHeight <= PIN_SLACK;
    if (atEnd) this.#pinned = true;
    else if (base.scrollTop < this.#lastScrollTop - 1) this.#pinned = false;
    this.#lastScrollTop = base.scrollTop;
    // Shown and hidden here, not through a render: this runs after each render, and a render it asked for would
    // render everything again for one button.
    const jump = this.renderRoot.querySelector<HTMLElement>('[part~="jump"]');
    if (jump) jump.hidden = this.#pinned;
  }

  #onScroll = () => {
    const base = this.#base();
    if (!base) return;
    this.#readScroll(base);
    this.#anchor = this.#pinned ? undefined : this.#topArticle(base);
    if (this.#anchor) this.#bringViewNear(base, this.#anchor.article);
  };

  /**
   * The articles in the view, from `top` down, render in full even if the near-view observer missed the scroll: Firefox
   * (ESR 153) now and then reports no intersection change after a programmatic scroll of a box in a shadow root until
   * the next scroll, which left a reader who jumped far up looking at light articles.
   */
  #bringViewNear(base: HTMLElement, top: HTMLElement): void {
    const bottom = base.getBoundingClientRect().bottom;
    let changed = false;
    for (let article: Element | null = top; article; article = article.nextElementSibling) {
      if (!(article instanceof HTMLElement) || article.localName !== "article") continue;
      if (article.getBoundingClientRect().top >= bottom) break;
      const key = article.dataset.key;
      if (key !== undefined && article.querySelector("[data-light]")) changed = this.#bringNear(key) || changed;
    }
    if (changed) this.requestUpdate();
  }

  /** Puts the reader's top article back where they left it, if something above it changed size. */
  #keepAnchor(base: HTMLElement): void {
    const anchor = this.#anchor;
    if (!anchor?.article.isConnected) return;
    const moved = anchor.article.getBoundingClientRect().top - base.getBoundingClientRect().top - anchor.offset;
    if (Math.abs(moved) < 0.5) return;
    base.scrollTop += moved;
    this.#lastScrollTop = base.scrollTop;
  }

  #onJump = () => {
    this.scrollToLatest();
    const articles = this.#articles();
    articles.at(-1)?.focus({ preventScroll: true });
  };

  #toggleTools = () => {
    this.toolsExpanded = !this.toolsExpanded;
  };

  #articles(): HTMLElement[] {
    return [...this.renderRoot.querySelectorAll<HTMLElement>('[part~="feed"] > article')];
  }

  /** APG feed: Page Down / Page Up move focus to the next / previous article. */
  #onFeedKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "PageDown" && event.key !== "PageUp") return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const article = event
      .composedPath()
      .find(
        (node): node is HTMLElement =>
          node instanceof HTMLElement &&
          node.localName === "article" &&
          node.parentElement?.getAttribute("role") === "feed",
      );
    if (!article) return;
    const sibling = event.key === "PageDown" ? nextArticle(article, "next") : nextArticle(article, "previous");
    event.preventDefault();
    sibling?.focus();
  };

  /** pi's Ctrl+O: expand or collapse every tool card, from anywhere inside the transcript. */
  #onHostKeyDown = (event: KeyboardEvent) => {
    if (event.key.toLowerCase() !== "o" || !event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    this.#toggleTools();
  };

  #copy(event: Event, key: string, text: string): void {
    const button = event.currentTarget as HTMLElement;
    emit(this, "pi-copy", { text, key });
    navigator.clipboard?.writeText(text).then(
      () => {
        const label = this.#t("copied");
        button.setAttribute("aria-label", label);
        button.setAttribute("title", label);
        button.dataset.copied = "";
        setTimeout(() => {
          button.setAttribute("aria-label", this.#t("copyMessage"));
          button.setAttribute("title", this.#t("copyMessage"));
          delete button.dataset.copied;
        }, 2000);
      },
      () => {},
    );
  }
}

function nextArticle(from: HTMLElement, direction: "next" | "previous"): HTMLElement | null {
  let node = direction === "next" ? from.nextElementSibling : from.previousElementSibling;
  while (node && node.localName !== "article")
    node = direction === "next" ? node.nextElementSibling : node.previousElementSibling;
  return node as HTMLElement | null;
}

/** The entries of `next` that `prev` lacks: normally the ones appended at the end. */
function appended(
  prev: readonly ConversationEntry[],
  next: readonly ConversationEntry[],
): readonly ConversationEntry[] {
  if (prev === next) return [];
  const n = prev.length;
  if (n <= next.length && (n === 0 || next[n - 1] === prev[n - 1])) return next.slice(n);
  const known = new Set(prev.map((entry) => entry.key));
  return next.filter((entry) => !known.has(entry.key));
}

const nestedIndex = new WeakMap<ReadonlyMap<string, ToolExecution>, ReadonlyMap<string, readonly ToolExecution[]>>();

/** The runs made by another run (pi 1.6's `parentToolCallId`), by their parent's id, in the order they started. */
function nestedRuns(tools: ReadonlyMap<string, ToolExecution>): ReadonlyMap<string, readonly ToolExecution[]> {
  let index = nestedIndex.get(tools);
  if (!index) {
    const byParent = new Map<string, ToolExecution[]>();
    for (const run of tools.values()) {
      const parent = run.parentToolCallId;
      if (parent === undefined || parent === run.toolCallId) continue;
      const list = byParent.get(parent);
      if (list) list.push(run);
      else byParent.set(parent, [run]);
    }
    index = byParent;
    nestedIndex.set(tools, index);
  }
  return index;
}

/** The tool runs an assistant entry shows, with the calls nested in them: part of its render's inputs. */
function toolRunsOf(entry: ConversationEntry, tools: ReadonlyMap<string, ToolExecution>): unknown[] {
  if (entry.kind !== "message") return [];
  if (entry.message.role === "toolResult") return [tools.get(entry.message.toolCallId)];
  if (entry.message.role !== "assistant") return [];
  const runs: unknown[] = [];
  const nested = nestedRuns(tools);
  const seen = new Set<string>();
  const add = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    runs.push(tools.get(id));
    for (const child of nested.get(id) ?? []) add(child.toolCallId);
  };
  for (const block of entry.message.content) if (block.type === "toolCall") add(block.id);
  return runs;
}

/** A message's Markdown: its text blocks. */
function textOf(blocks: readonly { type: string }[]): string {
  return blocks
    .filter((block): block is { type: "text"; text: string } => block.type === "text")
    .map((block) => block.text)
    .join("\n\n");
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
