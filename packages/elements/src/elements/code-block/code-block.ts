import { html, nothing, type PropertyValues, type TemplateResult } from "lit";
import { guard } from "lit/directives/guard.js";
import { PiElement } from "../../base/pi-element.js";
import { localizeIn } from "../../i18n/localize.js";
import { styles } from "./code-block.styles.js";
import { type Highlighted, highlightOffThread, type Root } from "./highlighter.js";
import { type CodeBlockStringKey, codeBlockStrings } from "./strings.js";

/** Code longer than this is shown unhighlighted: highlighting a megabyte would block the page for seconds. */
export const MAX_HIGHLIGHT_LENGTH = 100_000;

/**
 * While streaming, code longer than this is not highlighted again on every change: the part highlighted last stays
 * as it is, what arrived since shows plain after it, and the whole is highlighted again at most every
 * STREAMING_HIGHLIGHT_MS (or ten times as long as the last highlight took, up to a second). Highlighting is a pass
 * over the whole code, so at 100 updates a second a long block would otherwise cost more with every line.
 */
export const STREAMING_HIGHLIGHT_LENGTH = 2_000;
const STREAMING_HIGHLIGHT_MS = 150;

/** How long the copy button says "Copied" (or "Copy failed"). */
const COPIED_MS = 2000;

type Node = Root["children"][number];

/** hast as Lit templates: a span with highlight.js's classes per element, text as text (never parsed as HTML). */
function renderTree(nodes: readonly Node[]): unknown[] {
  return nodes.map((node) => {
    if (node.type === "text") return node.value;
    if (node.type !== "element") return nothing;
    const className = node.properties?.className;
    const classes = Array.isArray(className) ? className.join(" ") : typeof className === "string" ? className : "";
    return html`<span class=${classes}>${renderTree(node.children)}</span>`;
  });
}

/**
 * A block of code: its language, a copy button, and the code, highlighted once the highlighter has done it.
 *
 * The highlighter (lowlight over highlight.js's `common` languages) runs in a worker (highlighter.ts) that the first
 * code block with a `language` starts; until its answer arrives the code shows plain, and a code that changes keeps
 * the colours of the last answer with what arrived since plain after them, so a block that grows while streaming
 * never shows unhighlighted text again once coloured. Only while `streaming`, a block longer than 2,000 characters is
 * highlighted again at most every 150 ms. Code without a language, in a language the highlighter does not know, longer
 * than 100,000 characters, or whose highlighting took longer than 2 seconds (the worker is then stopped: a page never
 * waits on it) stays plain. `updateComplete` waits for the highlight in flight. Colours are classes in the element's
 * stylesheet (no style attributes), so it works under a strict CSP.
 *
 * The copy button writes `code` with `navigator.clipboard.writeText`; it then says "Copied" (or "Copy failed") for
 * two seconds, and a polite live region announces the same.
 *
 * @csspart base - The box around the header and the code.
 * @csspart header - The line with the language and the copy button.
 * @csspart language - The language's name.
 * @csspart copy - The copy button; `data-state` is `copied` or `failed` for a moment after a copy.
 * @csspart code - The scrollable `<pre>` (focusable, so the keyboard can scroll it): a group named "Code (language)",
 *   not a region, since a conversation holds many and landmarks must be few and unique.
 * @cssprop --pi-color-syntax-keyword - Keywords; also `-comment`, `-function`, `-variable`, `-string`, `-number`,
 * `-type`.
 * @cssprop --pi-code-block-max-height - Caps the code's height (it scrolls); none by default.
 */
export class PiCodeBlock extends PiElement {
  static override styles = styles;

  static override properties = {
    code: { attribute: false },
    language: { type: String, reflect: true },
    streaming: { type: Boolean, reflect: true },
    _copyState: { state: true },
  };

  /** The code, as text. */
  declare code: string;
  /** Its language (`ts`, `python`, …; any highlight.js name or alias); empty for none. */
  declare language: string;
  /** The code is still growing (a message streaming): the code region is marked busy. */
  declare streaming: boolean;
  declare _copyState: "idle" | "copied" | "failed";

  /** The code as last highlighted, kept until a newer highlight replaces it. */
  #highlighted: { code: string; language: string; tree: Root } | undefined;
  #copyTimer: ReturnType<typeof setTimeout> | undefined;
  /** The next highlight of a long block that is streaming, and how long the last highlight took. */
  #highlightTimer: ReturnType<typeof setTimeout> | undefined;
  #highlightMs = 0;
  #putOff = false;
  /** The highlight in flight (one at a time), and a code whose highlighting was stopped (its growth is not tried). */
  #inFlight: Promise<void> | undefined;
  #stopped: { code: string; language: string } | undefined;
  /** The code and language of the last answer (a tree or none: a language the highlighter does not know). */
  #answered: { code: string; language: string } | undefined;

  constructor() {
    super();
    this.code = "";
    this.language = "";
    this.streaming = false;
    this._copyState = "idle";
  }

  /** Whether the code on display is highlighted (for tests and for pages that wait on it). */
  get highlighted(): boolean {
    return this.#highlighted !== undefined && this.#highlighted.code === String(this.code ?? "");
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#copyTimer);
    this._copyState = "idle";
    if (this.#highlightTimer !== undefined) this.#putOff = true;
    clearTimeout(this.#highlightTimer);
    this.#highlightTimer = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A highlight put off when it left is done now.
    if (this.#putOff) this.requestUpdate("code");
    this.#putOff = false;
  }

  /** Done once the highlight in flight (if any) has arrived and rendered. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    while (this.#inFlight) {
      await this.#inFlight;
      complete = await super.getUpdateComplete();
    }
    return complete;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("code") || changed.has("language") || changed.has("streaming")) this.#highlight();
  }

  /** Asks for the code on display to be highlighted, now or (a long block streaming) a little later. */
  #highlight(): void {
    const code = String(this.code ?? "");
    const language = String(this.language ?? "").trim();
    if (language === "" || code.length > MAX_HIGHLIGHT_LENGTH) {
      this.#highlighted = undefined;
      return;
    }
    const last = this.#highlighted;
    if (last?.code === code && last.language === language) return;
    const answered = this.#answered;
    if (answered?.code === code && answered.language === language) return;
    const stopped = this.#stopped;
    if (stopped?.language === language && code.startsWith(stopped.code)) return;
    this.#stopped = undefined;
    if (this.#inFlight) return; // Asked again for the code then on display when the answer arrives.
    if (
      this.streaming &&
      last?.language === language &&
      code.length > STREAMING_HIGHLIGHT_LENGTH &&
      code.startsWith(last.code)
    ) {
      this.#highlightTimer ??= setTimeout(
        () => {
          this.#highlightTimer = undefined;
          this.#highlightNow();
        },
        Math.min(1000, Math.max(STREAMING_HIGHLIGHT_MS, this.#highlightMs * 10)),
      );
      return;
    }
    this.#highlightNow();
  }

  #highlightNow(): void {
    clearTimeout(this.#highlightTimer);
    this.#highlightTimer = undefined;
    const code = String(this.code ?? "");
    const language = String(this.language ?? "").trim();
    const start = performance.now();
    this.#inFlight = highlightOffThread(code, language).then((result: Highlighted) => {
      this.#highlightMs = performance.now() - start;
      this.#inFlight = undefined;
      this.#answered = { code, language };
      if ("timedOut" in result) this.#stopped = { code, language };
      else if (result.tree) this.#highlighted = { code, language, tree: result.tree };
      else if (this.#highlighted?.language !== language) this.#highlighted = undefined;
      // The code may have changed meanwhile: ask again for what is on display now.
      this.#highlight();
      this.requestUpdate();
    });
  }

  #t(key: CodeBlockStringKey, values?: Record<string, string>): string {
    return localizeIn(codeBlockStrings, this, key, values);
  }

  async #copy(): Promise<void> {
    clearTimeout(this.#copyTimer);
    try {
      await navigator.clipboard.writeText(String(this.code ?? ""));
      this._copyState = "copied";
    } catch {
      this._copyState = "failed";
    }
    this.#copyTimer = setTimeout(() => {
      this._copyState = "idle";
    }, COPIED_MS);
  }

  protected override render(): TemplateResult {
    const code = String(this.code ?? "");
    const language = String(this.language ?? "").trim();
    const state = this._copyState;
    const label = state === "copied" ? "codeCopied" : state === "failed" ? "codeCopyFailed" : "codeCopy";
    const tree = this.#highlighted;
    // The tree as highlighted last (not diffed again while only a plain tail grows), then what arrived since; two
    // bindings rather than an array of two (Lit marks each array item with two comment nodes).
    const current = tree && code.startsWith(tree.code) ? tree : undefined;
    const shown = current ? guard([current.tree], () => renderTree(current.tree.children)) : code;
    const since = current && current.code.length < code.length ? code.slice(current.code.length) : nothing;
    // Left to right as a whole, header too, also inside a right-to-left page: code reads left to right.
    return html`<div part="base" dir="ltr">
      <div part="header">
        <span part="language" dir="ltr">${language || nothing}</span>
        <button
          part="copy"
          type="button"
          aria-label=${state === "idle" ? this.#t("codeCopyLabel") : this.#t(label)}
          data-state=${state === "idle" ? nothing : state}
          @click=${this.#copy}
        >
          ${this.#t(label)}
        </button>
      </div>
      <pre
        part="code"
        dir="ltr"
        tabindex="0"
        role="group"
        aria-label=${language ? this.#t("codeRegionLanguage", { language }) : this.#t("codeRegion")}
        aria-busy=${this.streaming ? "true" : nothing}
      ><code>${shown}${since}</code></pre>
      <span class="visually-hidden" role="status">${state === "idle" ? "" : this.#t(label)}</span>
    </div>`;
  }
}
