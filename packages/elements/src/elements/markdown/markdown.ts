import { html, nothing, type PropertyValues, type TemplateResult } from "lit";
import { guard } from "lit/directives/guard.js";
import type { Token, Tokens } from "marked";
import { PiElement } from "../../base/pi-element.js";
import { localizeIn, nearestLang } from "../../i18n/localize.js";
import { afterNextFrame } from "../../internal/after-frame.js";
import type { CodeBlockLimits } from "../code-block/code-block.js";
import { type Block, BlockLexer, type Blocks, MARKDOWN_LIMITS, type MarkdownLimits, NO_LIMITS } from "./block-lexer.js";
import { styles } from "./markdown.styles.js";
import { block, type RenderContext } from "./render.js";
import { type MarkdownStringKey, markdownStrings } from "./strings.js";

/** The depth of the shallowest heading in `token` (in quotes and list items too), 7 when it has none. */
function shallowestHeading(token: Token): number {
  switch (token.type) {
    case "heading":
      return (token as Tokens.Heading).depth;
    case "blockquote":
      return Math.min(7, ...(token as Tokens.Blockquote).tokens.map(shallowestHeading));
    case "list":
      return Math.min(7, ...(token as Tokens.List).items.flatMap((item) => item.tokens.map(shallowestHeading)));
    default:
      return 7;
  }
}

/** The keys of `limits` that are its code blocks' (pi-code-block's `CodeBlockLimits`). */
const CODE_KEYS = [
  "highlightChars",
  "highlightMs",
  "streamingHighlightChars",
] as const satisfies readonly (keyof CodeBlockLimits)[];

/** How many blocks share one guard (see render). */
const GROUP = 32;

/**
 * Whether a block draws anything: blank lines and link reference definitions do not, and are left out rather than
 * drawn as `nothing` (each item of an array costs Lit two comment nodes).
 */
const shown = (entry: Block) => entry.token.type !== "space" && entry.token.type !== "def";

/**
 * A Markdown message from the model (GitHub-flavoured: tables, task lists, strikethrough, autolinks), rendered safe
 * by construction: marked lexes it, and every token becomes a Lit template, so no text is ever parsed as HTML.
 *
 * - Raw HTML in the text shows as the text it is, as in pi's TUI and HTML export.
 * - Links: only absolute `http:`, `https:` and `mailto:` URLs, after decoding character references and stripping
 *   control characters (`tel:` and `ftp:` show as text; see safe-url.ts). They open in a new tab (following one must
 *   not leave a running session) with `rel="noopener noreferrer"`.
 * - No request leaves the page because of the text: an image (`![alt](url)`) shows as a link to its URL unless
 *   `images="allow"`, since a model can be led to put data into an image URL. With `images="allow"` only `http(s)`
 *   images load, lazily and without a referrer.
 * - Tables scroll inside a focusable group named "Table" (a group, not a region: a page with many tables must not
 *   fill its landmarks with them); task-list checkboxes are disabled and named "Task".
 * - Every top-level block, list item, quote and table cell has `dir="auto"`: a paragraph in Arabic or Hebrew reads
 *   right to left, whatever the page's direction (blocks inside a quote or an item follow their container).
 * - Headings nest under the page's: the text's shallowest heading (`#`, or `##` in an answer that starts there) becomes
 *   `<h{heading-level}>`, each deeper one a level below, capped at `<h6>`; no level is skipped that the text does not
 *   skip.
 * - Code blocks are `<pi-code-block>` elements (highlighting loads lazily, on the first code block with a language).
 * - Nesting deeper than 16 quotes and lists shows the rest as its text; text too deeply nested for the lexer shows as
 *   written.
 * - No text keeps the page busy (`limits`, see block-lexer.ts): an inline run longer than 20,000 characters or with more
 *   than 1,000 emphasis and link delimiters, and the text from a line nested 64 columns deep, show as written, with a
 *   note and a "Format it" button that formats the message without limits when the person asks; inline formatting
 *   takes at most 8 ms per update, the rest following in later tasks (shown as written until then).
 *
 * Streaming: set `streaming` while `text` grows. Only the tail from the last block that can still change is lexed
 * again (see block-lexer.ts), the other blocks keep their DOM untouched, and the last block is repaired while it is
 * open (an unterminated `**bold` shows bold, an unterminated fence as a code block). A text shown as written that is
 * longer than 8,192 characters is drawn in blocks of about 4,096 that do not change once complete (long-text.ts): a
 * growing one lays out only its end, and a selection in it stays.
 *
 * @csspart base - The container of the blocks.
 * @csspart link - A link (also an image shown as a link: `image-link`).
 * @csspart image - An image, when `images="allow"`.
 * @csspart code-span - Inline code.
 * @csspart code-block - A `<pi-code-block>`.
 * @csspart table-region - The scroll container of a table.
 * @csspart table - A table.
 * @csspart task - A task list checkbox.
 * @csspart raw - Raw HTML, or nesting too deep, shown as text.
 * @csspart limit-note - The note beside a block shown as written because of a limit.
 * @csspart button - The "Format it" button (`format-anyway-button`).
 * @csspart format-anyway-button - The "Format it" button of a note.
 * @csspart format-anyway - The same as `format-anyway-button`: its earlier name, kept as an alias.
 * @cssprop --pi-markdown-background - The element's background (default: `--pi-color-bg`); `transparent` inside a
 * container that paints its own.
 * @cssprop --pi-color-accent - Links.
 * @cssprop --pi-color-border - Rules, quote bars and table borders.
 */
export class PiMarkdown extends PiElement {
  static override styles = styles;

  static override properties = {
    text: { attribute: false },
    streaming: { type: Boolean, reflect: true },
    images: { type: String, reflect: true },
    limits: { attribute: false },
    headingLevel: { type: Number, attribute: "heading-level" },
  };

  /** The Markdown. */
  declare text: string;
  /** The text is still growing: the last block is repaired and re-lexed on every change. */
  declare streaming: boolean;
  /** `"allow"` loads `http(s)` images; anything else (the default) shows images as links. */
  declare images: "allow" | "link" | undefined;
  /**
   * Changes to the limits on what is formatted (`MarkdownLimits`: `inlineChars`, `inlineDelimiters`,
   * `nestingColumns`, `tableRows`, `sliceMs`), over the defaults (`MARKDOWN_LIMITS`), and on what its code blocks
   * highlight (pi-code-block's `CodeBlockLimits`: `highlightChars`, `highlightMs`, `streamingHighlightChars`); each may
   * be `Infinity`. "Format it" lifts the Markdown limits, not the code blocks'.
   * @default undefined
   */
  declare limits: Partial<MarkdownLimits & CodeBlockLimits> | undefined;
  /**
   * The heading element the text's shallowest heading becomes, 1 to 6, to nest its headings under the page's: with
   * `#` and `##`, `#` is this level and `##` one below; an answer that starts at `##` has its `##` at this level. Capped
   * at 6 (pi-transcript sets it one below its articles' headings). Any other value is 1.
   */
  declare headingLevel: number;

  readonly #lexer = new BlockLexer();
  /** The code blocks' part of `limits` (one object until `limits` changes, so a render does not highlight again). */
  #codeLimits: Partial<CodeBlockLimits> | undefined;
  /** The person asked to format everything ("Format it"). */
  #unlimited = false;
  /** Cancels the next slice of inline formatting, when one is scheduled; and who waits for it. */
  #cancelSlice: (() => void) | undefined;
  #sliceWaiters: (() => void)[] = [];
  #blocks: Blocks = { final: [], rest: [] };
  /**
   * The final blocks in groups of GROUP, kept from update to update: a full group never changes, so rendering a long
   * message checks one guard per group. `of` is the lexer's array of final blocks they were made from.
   */
  #groups: { of: readonly Block[]; groups: (readonly Block[])[]; scanned: number; shallowest: number } = {
    of: [],
    groups: [],
    scanned: 0,
    shallowest: 7,
  };

  constructor() {
    super();
    this.text = "";
    this.streaming = false;
    this.images = undefined;
    this.headingLevel = 1;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("limits")) {
      this.#lexer.limits = this.#limitsNow();
      const limits = this.limits ?? {};
      const code = Object.fromEntries(
        CODE_KEYS.filter((key) => limits[key] !== undefined).map((key) => [key, limits[key]]),
      ) as Partial<CodeBlockLimits>;
      this.#codeLimits = Object.keys(code).length > 0 ? code : undefined;
    }
    if (changed.has("text") || changed.has("streaming") || changed.has("limits")) {
      this.#blocks = this.#lexer.update(String(this.text ?? ""), this.streaming === true);
      this.#group(this.#blocks.final);
    }
  }

  protected override updated(): void {
    if (this.#lexer.pending) this.#scheduleSlice();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#cancelSlice?.();
    this.#cancelSlice = undefined;
    this.#releaseSliceWaiters();
  }

  /** Done once the text is formatted as far as the limits allow: the slices that follow an update have run too. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    while (this.#lexer.pending && this.isConnected) {
      await new Promise<void>((resolve) => this.#sliceWaiters.push(resolve));
      complete = await super.getUpdateComplete();
    }
    return complete;
  }

  #releaseSliceWaiters(): void {
    const waiters = this.#sliceWaiters;
    this.#sliceWaiters = [];
    for (const resolve of waiters) resolve();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated && this.#lexer.pending) this.#scheduleSlice();
  }

  #limitsNow(): MarkdownLimits {
    if (this.#unlimited) return NO_LIMITS;
    return this.limits ? { ...MARKDOWN_LIMITS, ...this.limits } : MARKDOWN_LIMITS;
  }

  /** The next slice of inline formatting, in a task after the next frame (so a frame is painted between slices). */
  #scheduleSlice(): void {
    if (this.#cancelSlice) return;
    this.#cancelSlice = afterNextFrame(() => {
      this.#cancelSlice = undefined;
      const blocks = this.#lexer.resume();
      if (blocks) {
        this.#blocks = blocks;
        this.#group(blocks.final);
        this.requestUpdate();
      } else if (this.#lexer.pending) this.#scheduleSlice();
      this.#releaseSliceWaiters();
    });
  }

  /** "Format it": the person chose to format the whole message without limits. */
  #formatAnyway = () => {
    this.#unlimited = true;
    this.#lexer.limits = NO_LIMITS;
    this.#blocks = this.#lexer.update(String(this.text ?? ""), this.streaming === true);
    this.#group(this.#blocks.final);
    this.requestUpdate();
    // The button goes with the note: focus stays in the message.
    this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>('[part~="base"]')?.focus({ preventScroll: true }),
    );
  };

  /** Groups the final blocks not yet in a full group; starts over when the lexer did. */
  #group(final: readonly Block[]): void {
    if (this.#groups.of !== final) this.#groups = { of: final, groups: [], scanned: 0, shallowest: 7 };
    const grouped = this.#groups;
    for (let start = grouped.groups.length * GROUP; start + GROUP <= final.length; start += GROUP) {
      grouped.groups.push(final.slice(start, start + GROUP));
    }
    // The shallowest heading of the final blocks, found once per block.
    for (; grouped.scanned < final.length; grouped.scanned++) {
      grouped.shallowest = Math.min(grouped.shallowest, shallowestHeading(final[grouped.scanned]!.token));
    }
  }

  #t = (key: MarkdownStringKey, values?: Record<string, string>): string =>
    localizeIn(markdownStrings, this, key, values);

  protected override render(): TemplateResult {
    const loadImages = this.images === "allow";
    // The language the strings were looked up in (a change of it draws every block again).
    const lang = nearestLang(this);
    const level = this.headingLevel;
    // The text's shallowest heading becomes `heading-level` (a model's answer often starts at ##): its headings nest
    // under the page's without skipping a level.
    let shallowest = this.#groups.shallowest;
    for (const entry of this.#blocks.final.slice(this.#groups.scanned).concat(this.#blocks.rest)) {
      shallowest = Math.min(shallowest, shallowestHeading(entry.token));
    }
    const headingLevel =
      (Number.isInteger(level) && level >= 1 && level <= 6 ? level : 1) - (Math.min(shallowest, 6) - 1);
    const closed: RenderContext = { t: this.#t, loadImages, open: false, codeLimits: this.#codeLimits, headingLevel };
    const open: RenderContext = { ...closed, open: true };
    // A block is drawn again only when its token changed: a final block never is. Blocks are drawn in groups of
    // GROUP by their index in the text, so a block keeps its place (and its DOM) when it becomes final, and a group
    // of final blocks is checked with one guard instead of one per block.
    const draw = (entry: Block) =>
      guard([entry, headingLevel], () =>
        entry.limited
          ? html`${block(entry.token, entry.open ? open : closed)}${this.#limitNote()}`
          : block(entry.token, entry.open ? open : closed),
      );
    const { groups } = this.#groups;
    const { final, rest } = this.#blocks;
    const tail = final.slice(groups.length * GROUP).concat(rest);
    const tailGroups: (readonly Block[])[] = [];
    for (let start = 0; start < tail.length; start += GROUP) tailGroups.push(tail.slice(start, start + GROUP));
    // One array of one template, so that a group keeps its element (and its part) when its blocks become final. A
    // full group of final blocks is a layout boundary (`final` in the styles): a block growing below it lays out its
    // group and the groups' container, not every block of the message.
    const wrap = (group: readonly Block[], final: boolean) =>
      html`<div class=${final ? "group final" : "group"}>${guard(
        final ? [group, loadImages, lang, headingLevel] : [...group, loadImages, lang, headingLevel],
        () => group.filter(shown).map(draw),
      )}</div>`;
    const drawn = groups.map((group) => wrap(group, true));
    for (const group of tailGroups) drawn.push(wrap(group, false));
    // Focusable by script once "Format it" was pressed: the button goes with its note, and focus stays in the message.
    return html`<div part="base" tabindex=${this.#unlimited ? "-1" : nothing}>${drawn}</div>`;
  }

  #limitNote(): TemplateResult {
    return html`<p part="limit-note">
      ${this.#t("markdownLimited")}
      <button part="button format-anyway-button format-anyway" type="button" @click=${this.#formatAnyway}>${this.#t("markdownFormatAnyway")}</button>
    </p>`;
  }
}
