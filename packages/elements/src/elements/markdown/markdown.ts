import { html, type PropertyValues, type TemplateResult } from "lit";
import { guard } from "lit/directives/guard.js";
import { PiElement } from "../../base/pi-element.js";
import { localizeIn } from "../../i18n/localize.js";
import { type Block, BlockLexer } from "./block-lexer.js";
import { styles } from "./markdown.styles.js";
import { block, type RenderContext } from "./render.js";
import { type MarkdownStringKey, markdownStrings } from "./strings.js";

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
 * - Tables scroll inside a focusable region named "Table"; task-list checkboxes are disabled and named "Task".
 * - Every top-level block, list item, quote and table cell has `dir="auto"`: a paragraph in Arabic or Hebrew reads
 *   right to left, whatever the page's direction (blocks inside a quote or an item follow their container).
 * - Code blocks are `<pi-code-block>` elements (highlighting loads lazily, on the first code block with a language).
 * - Nesting deeper than 16 quotes and lists shows the rest as its text; text too deeply nested for the lexer shows as
 *   written.
 *
 * Streaming: set `streaming` while `text` grows. Only the tail from the last block that can still change is lexed
 * again (see block-lexer.ts), the other blocks keep their DOM untouched, and the last block is repaired while it is
 * open (an unterminated `**bold` shows bold, an unterminated fence as a code block).
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
  };

  /** The Markdown. */
  declare text: string;
  /** The text is still growing: the last block is repaired and re-lexed on every change. */
  declare streaming: boolean;
  /** `"allow"` loads `http(s)` images; anything else (the default) shows images as links. */
  declare images: "allow" | "link" | undefined;

  readonly #lexer = new BlockLexer();
  #blocks: readonly Block[] = [];

  constructor() {
    super();
    this.text = "";
    this.streaming = false;
    this.images = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("text") || changed.has("streaming")) {
      this.#blocks = this.#lexer.update(String(this.text ?? ""), this.streaming === true);
    }
  }

  #t = (key: MarkdownStringKey, values?: Record<string, string>): string =>
    localizeIn(markdownStrings, this, key, values);

  protected override render(): TemplateResult {
    const loadImages = this.images === "allow";
    const lang = this.closest("[lang]")?.getAttribute("lang") ?? document.documentElement.lang;
    const closed: RenderContext = { t: this.#t, loadImages, open: false };
    const open: RenderContext = { ...closed, open: true };
    // A block is drawn again only when its text (or what it depends on) changed: a final block never is.
    return html`<div part="base">
      ${this.#blocks.map((entry) =>
        guard([entry.token, entry.open, loadImages, lang], () => block(entry.token, entry.open ? open : closed)),
      )}
    </div>`;
  }
}
