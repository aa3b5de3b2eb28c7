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
import type { CodeBlockLimits } from "../code-block/code-block.js";
import type { MarkdownLimits } from "../markdown/block-lexer.js";
import type { ToolCardLimits } from "../tool-card/registry.js";
import { Announcer } from "./announcer.js";
import { appended, shorten, textOf } from "./entries.js";
import { FeedKeysController } from "./feed-keys-controller.js";
import { FrameBatchController } from "./frame-batch-controller.js";
import { HistoryFillController } from "./history-fill-controller.js";
import { NearViewController } from "./near-view-controller.js";
import { ScrollFollowController } from "./scroll-follow-controller.js";
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
 * @csspart time - When the message was written (a `<time>`: the time of day, with the date when not today).
 * @csspart thinking - A thinking block (a `<details>`).
 * @csspart error - A failed or aborted turn's error text, a notice's error.
 * @csspart retried-error - The error a successful retry got past (muted).
 * @csspart notice - A compaction, retry or extension-error article.
 * @csspart button - Each button; also `copy-button`, `toggle-tools-button`, `jump-button`.
 * @csspart copy-button - A message's copy button.
 * @csspart copy - The same as `copy-button`: its earlier name, kept as an alias.
 * @csspart toolbar - The bar above the feed.
 * @csspart toggle-tools-button - The expand / collapse-all button.
 * @csspart toggle-tools - The same as `toggle-tools-button`: its earlier name, kept as an alias.
 * @csspart jump-button - The "Jump to latest" button.
 * @csspart jump - The same as `jump-button`: its earlier name, kept as an alias.
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
    markdownLimits: { attribute: false },
    toolLimits: { attribute: false },
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
   * section's h2. Any other value is 3. A message's own Markdown headings nest below it: its shallowest heading one level
   * down (pi-markdown's `heading-level`), capped at 6.
   */
  declare headingLevel: number;
  /**
   * The limits on what each message's Markdown formats (pi-markdown's `limits`: `inlineChars`, `inlineDelimiters`,
   * `nestingColumns`, `tableRows`, `sliceMs`, and its code blocks' `highlightChars`, `highlightMs`,
   * `streamingHighlightChars`; each left out keeps its default); a change renders every message again.
   * @default undefined
   */
  declare markdownLimits: Partial<MarkdownLimits & CodeBlockLimits> | undefined;
  /**
   * The bounds on each tool card's edit word marks (pi-tool-card's `limits`: `wordDiffChars`, `wordDiffEdit`,
   * `wordDiffMs`; each left out keeps its default).
   * @default undefined
   */
  declare toolLimits: Partial<ToolCardLimits> | undefined;
  /**
   * Per-element string overrides: the transcript's own keys (`TranscriptStrings`).
   * @default undefined
   */
  declare strings: (StringTable & TranscriptStrings) | undefined;

  /** Each job of the transcript is a controller of its own; the element renders entries and wires them. */
  readonly #frames = new FrameBatchController(this, () => this.#scroll.follow());
  /** Every new snapshot renders (the render itself compares its parts by identity), at most once a frame. */
  readonly #conversation = new ConversationStoreController(this, (snapshot) => snapshot, {
    equals: (a, b) => a === b,
    changed: (update) => this.#frames.changed(update),
  });
  readonly #fill = new HistoryFillController(this, {
    first: FILL_FIRST,
    budgetMs: FILL_BUDGET_MS,
    stepRendered: () => this.#scroll.keepPlace(),
  });
  readonly #scroll = new ScrollFollowController(this, {
    base: () => this.#part("base"),
    feed: () => this.#part("feed"),
    jump: () => this.#part("jump"),
    articles: () => this.#articles(),
    scrolled: (top) => this.#near.bringViewNear(top),
  });
  readonly #near = new NearViewController(this, {
    tail: FULL_TAIL,
    max: NEAR_MAX,
    root: () => this.#part("base"),
    articles: () => this.#articles(),
    entries: () => this.snapshot?.entries ?? [],
  });
  readonly #keys = new FeedKeysController(this, () => this.#toggleTools());
  readonly #announcer = new Announcer((key, values) => this.#t(key, values));
  /** The snapshot the last render showed. */
  #shown: ConversationSnapshot | undefined;

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
    this.#scroll.scrollToLatest();
  }

  /** Done once a store change that waits for the next frame has rendered too. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    while (this.#frames.pending) {
      await this.#frames.nextFrame();
      complete = await super.getUpdateComplete();
    }
    return complete;
  }

  #t(key: TranscriptStringKey, values?: Record<string, string | number>): string {
    return localizeIn(transcriptStrings, this, key, values, this.strings);
  }

  /**
   * After the controllers (a new `store` or `session` is taken by then), before render: what a new snapshot changes
   * besides what is drawn (the window of a long history, an announcement, a new user message bringing its turn into
   * view).
   */
  protected override update(changed: PropertyValues<this>): void {
    const next = this.snapshot;
    if (next !== this.#shown) {
      const store = this.#conversation.store;
      const prev = this.#shown;
      const another = this.#fill.window(store, next?.entries);
      if (another) this.#near.clear();
      if (next && prev && !another) {
        const added = appended(prev.entries, next.entries);
        if (added.some((entry) => entry.kind === "message" && entry.message.role === "user")) this.#scroll.pin();
        this.#announcer.observe(prev, next, added);
      }
    }
    this.#shown = next;
    super.update(changed);
  }

  protected override render() {
    const snapshot = this.snapshot;
    const all = snapshot?.entries ?? [];
    const unrendered = this.#fill.unrendered;
    const entries = unrendered > 0 ? all.slice(unrendered) : all;
    const tools = snapshot?.tools ?? new Map<string, ToolExecution>();
    const lang = nearestLang(this);
    const expanded = this.toolsExpanded;
    const heading = this.#heading();
    // A feed holds articles: an empty one has no role until its first.
    const empty = entries.length === 0 && !snapshot?.streaming;
    const hasTools = tools.size > 0 || (snapshot?.streaming?.blocks.some((b) => b?.type === "toolCall") ?? false);
    return html`
      <div part="toolbar" ?hidden=${!hasTools}>
        <button part="button toggle-tools-button toggle-tools" type="button" @click=${this.#toggleTools}>
          ${this.#t(expanded ? "collapseTools" : "expandTools")}
        </button>
      </div>
      <div part="base" @scroll=${this.#scroll.onScroll}>
        <div
          part="feed"
          role=${empty ? nothing : "feed"}
          aria-label=${empty ? nothing : this.#t("conversation")}
          aria-busy=${unrendered > 0 ? "true" : nothing}
          @keydown=${this.#keys.onFeedKeyDown}
          @focusin=${this.#near.onFocusIn}
        >
          ${repeat(
            entries,
            (entry) => entry.key,
            (entry, index) => {
              const full = this.#near.fullAt(entry.key, index, entries.length);
              return guard(
                [
                  entry,
                  full,
                  expanded,
                  lang,
                  this.strings,
                  heading,
                  this.markdownLimits,
                  this.toolLimits,
                  ...toolRunsOf(entry, tools),
                ],
                () => (full ? this.#renderEntry(entry, tools) : this.#renderLight(entry, tools)),
              );
            },
          )}
          ${snapshot?.streaming ? this.#renderStreaming(snapshot.streaming, tools) : nothing}
        </div>
      </div>
      <button part="button jump-button jump" type="button" hidden @click=${this.#onJump}>
        <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M8 3v10M3.5 8.5 8 13l4.5-4.5" /></svg>
        ${this.#t("jumpToLatest")}
      </button>
      <div class="visually-hidden" role="status" part="announcer">
${this.#announcer.render()}
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
    return this.#article(
      entry.key,
      message.role,
      author,
      html`<div class="plain" data-light dir="auto">${text}</div>`,
      {
        time: message.timestamp,
      },
    );
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
        return this.#article(entry.key, "user", this.#t("you"), this.#renderUserBlocks(blocks, this.#t("you")), {
          copy: textOf(blocks),
          time: message.timestamp,
        });
      }
      case "assistant":
        return this.#article(
          entry.key,
          "assistant",
          this.#t("assistant"),
          html`${this.#renderAssistantBlocks(message.content, tools, false, entry.thinkingMs)}
          ${this.#renderStop(message)}`,
          { copy: textOf(message.content), time: message.timestamp },
        );
      case "toolResult":
        // Its run shows in the tool call's card; only a result whose call is not in view has an article of its own.
        if (tools.get(message.toolCallId)?.status !== "running" && tools.has(message.toolCallId)) return nothing;
        return this.#article(
          entry.key,
          "toolResult",
          message.toolName,
          this.#renderUserBlocks(message.content, message.toolName),
          { time: message.timestamp },
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
          { time: message.timestamp },
        );
      case "custom": {
        const name = this.#t("customMessage", { type: message.customType });
        const body =
          typeof message.content === "string"
            ? html`<pi-markdown .text=${message.content} .limits=${this.markdownLimits} heading-level=${this.#textHeadingLevel()}></pi-markdown>`
            : this.#renderUserBlocks(message.content, name);
        return this.#article(entry.key, "custom", name, body, { time: message.timestamp });
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
            <pi-markdown .text=${message.summary} .limits=${this.markdownLimits} heading-level=${this.#textHeadingLevel()}></pi-markdown>
          </details>`,
          { time: message.timestamp },
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

  /**
   * One article: named by its author (aria-labelledby its heading), with the time the message was written (pi's
   * `timestamp`) when it has one, and a copy button when it has `copy` text.
   */
  #article(key: string, role: string, author: string, body: unknown, options: ArticleOptions = {}) {
    const { copy, busy = false, notice } = options;
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
        ${this.#time(options.time)}
        ${
          copy
            ? html`<button part="button copy-button copy" type="button" aria-label=${this.#t("copyMessage")} title=${this.#t("copyMessage")}
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
    return HEADINGS[this.#articleHeadingLevel() - 1]!;
  }

  /**
   * When a message was written, in the page's language: the time of day, and the date too when it was not today; the
   * full date and time on hover, the exact instant in `datetime`. Nothing for a time that is not one.
   */
  #time(time: unknown) {
    if (typeof time !== "number" || !Number.isFinite(time)) return nothing;
    const date = new Date(time);
    if (Number.isNaN(date.getTime())) return nothing;
    const lang = nearestLang(this);
    const today = new Date().toDateString() === date.toDateString();
    return html`<time part="time" dir="auto" datetime=${date.toISOString()} title=${timeFormat(lang, "full").format(date)}>${timeFormat(
      lang,
      today ? "time" : "date",
    ).format(date)}</time>`;
  }

  #articleHeadingLevel(): number {
    const level = this.headingLevel;
    return Number.isInteger(level) && level >= 1 && level <= 6 ? level : DEFAULT_HEADING_LEVEL;
  }

  /** A message's Markdown headings nest under its article's: `#` one level below it (pi-markdown caps them at 6). */
  #textHeadingLevel(): number {
    return Math.min(6, this.#articleHeadingLevel() + 1);
  }

  #renderStreaming(message: StreamingMessage, tools: ReadonlyMap<string, ToolExecution>) {
    return this.#article(
      message.key,
      "assistant",
      this.#t("assistant"),
      this.#renderAssistantBlocks(message.blocks, tools, true, undefined),
      { busy: true },
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
          return html`<pi-markdown
            .text=${(block as { text: string }).text}
            .streaming=${streaming}
            .limits=${this.markdownLimits}
            heading-level=${this.#textHeadingLevel()}
          ></pi-markdown>`;
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
            .limits=${this.toolLimits}
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
            .limits=${this.toolLimits}
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
    return this.#article(key, "notice", name, body, { notice: notice.type });
  }

  protected override firstUpdated(): void {
    this.#scroll.observeSizes();
    this.#near.watch();
  }

  /**
   * After the controllers' own steps (a filled-in chunk keeps the reader's place, the next frame and fill step are
   * scheduled): the view follows at once when this render is not a frame's (a frame's is followed by the frame's
   * second callback, without a layout of its own), and the near-view observer watches the articles it added.
   */
  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (!this.#frames.inFrame) this.#scroll.follow();
    this.#near.watchArticles(this.#fill.unrendered);
  }

  #part(name: string): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>(`[part~="${name}"]`);
  }

  #onJump = () => {
    this.scrollToLatest();
    this.#articles().at(-1)?.focus({ preventScroll: true });
  };

  #toggleTools = () => {
    this.toolsExpanded = !this.toolsExpanded;
  };

  #articles(): HTMLElement[] {
    return [...this.renderRoot.querySelectorAll<HTMLElement>('[part~="feed"] > article')];
  }

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

/** What an article may have besides its author and body. */
interface ArticleOptions {
  /** The text its copy button copies; no button without it. */
  copy?: string | undefined;
  /** Still being written (the streaming message). */
  busy?: boolean;
  /** The kind of a notice (a retry, an extension's error). */
  notice?: string | undefined;
  /** pi's `timestamp` of the message (ms since the epoch). */
  time?: unknown;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** A message's time in `lang` ("time": 14:05, "date": with the date, "full": for the title), made once per language. */
function timeFormat(lang: string, style: "time" | "date" | "full"): Intl.DateTimeFormat {
  const key = `${lang} ${style}`;
  let format = timeFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === "time"
        ? { timeStyle: "short" }
        : style === "date"
          ? { dateStyle: "medium", timeStyle: "short" }
          : { dateStyle: "full", timeStyle: "medium" };
    try {
      format = new Intl.DateTimeFormat(lang, options);
    } catch {
      // A lang attribute that is no language tag: the browser's own.
      format = new Intl.DateTimeFormat(undefined, options);
    }
    timeFormats.set(key, format);
  }
  return format;
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

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
