import { html, nothing, type PropertyValues, type TemplateResult } from "lit";
import { guard } from "lit/directives/guard.js";
import { repeat } from "lit/directives/repeat.js";
import { PiElement } from "../../base/pi-element.js";
import { localizeIn } from "../../i18n/localize.js";
import { afterNextFrame } from "../../internal/after-frame.js";
import { chunkLines, nodeCount } from "./chunks.js";
import { styles } from "./code-block.styles.js";
import { HIGHLIGHT_TIMEOUT_MS, type Highlighted, highlightOffThread, type Root } from "./highlighter.js";
import { type LineRun, longLineRuns } from "./long-lines.js";
import { type CodeBlockStringKey, codeBlockStrings } from "./strings.js";

/** What pi-code-block highlights (its `limits`). Each can be `Infinity`. */
export interface CodeBlockLimits {
  /**
   * Code longer than this many characters is not highlighted (a megabyte would keep the worker busy for seconds):
   * given whole, it shows plain; grown past it while streaming, the colours it had stay and the rest shows plain.
   */
  readonly highlightChars: number;
  /** How long (ms) one highlight may take in the worker before it is stopped and the code stays plain. */
  readonly highlightMs: number;
  /**
   * While streaming, code longer than this is not highlighted again on every change: the part highlighted last
   * stays as it is, what arrived since shows plain after it, and the whole is highlighted again at most every
   * STREAMING_HIGHLIGHT_MS (or ten times as long as the last highlight took, up to a second). Highlighting is a pass
   * over the whole code, so at 100 updates a second a long block would otherwise cost more with every line.
   */
  readonly streamingHighlightChars: number;
}

/** The defaults: 100 KB of ordinary code highlights in well under a second; the 2 s are for a slow machine. */
export const CODE_BLOCK_LIMITS: CodeBlockLimits = Object.freeze({
  highlightChars: 100_000,
  highlightMs: HIGHLIGHT_TIMEOUT_MS,
  streamingHighlightChars: 2_000,
});

const STREAMING_HIGHLIGHT_MS = 150;

/**
 * How many nodes of highlighted tree one task renders: a long code's colours come a few chunks a frame (about 2 µs a
 * node in Chromium here, so some 4 ms), its plain text showing until then.
 */
const TREE_NODES_PER_TASK = 2_000;

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
 * than 100,000 characters (one that grew past it keeps the colours it had), or whose highlighting took longer than 2
 * seconds (the worker is then stopped: a page never waits on it) stays plain; `limits` changes those three bounds
 * (`CodeBlockLimits`). `updateComplete` waits for the highlight
 * in flight and its rendering. Colours are classes in the element's stylesheet (no style attributes), so it works
 * under a strict CSP.
 *
 * A code of more than 100 lines shows in chunks of 100 lines (chunks.ts), each a box the engine lays out and paints
 * only near the view (`content-visibility: auto`), so a megabyte of output or a block that grows with every update
 * costs the page what is on screen and what changed, not the whole. The colours of a long code come over a few
 * frames, some 2,000 nodes of highlighted tree a task from the top down, the plain text showing until then; chunks
 * whose text and all before them are unchanged keep their colours, so a growing block renders only its end again.
 *
 * The copy button writes `code` with `navigator.clipboard.writeText`; it then says "Copied" (or "Copy failed") for
 * two seconds, and a polite live region announces the same.
 *
 * @csspart base - The box around the header and the code.
 * @csspart header - The line with the language and the copy button.
 * @csspart language - The language's name.
 * @csspart button - The copy button (`copy-button`).
 * @csspart copy-button - The copy button; `data-state` is `copied` or `failed` for a moment after a copy.
 * @csspart copy - The same as `copy-button`: its earlier name, kept as an alias.
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
    limits: { attribute: false },
    _copyState: { state: true },
  };

  /** The code, as text. */
  declare code: string;
  /** Its language (`ts`, `python`, …; any highlight.js name or alias); empty for none. */
  declare language: string;
  /** The code is still growing (a message streaming): the code region is marked busy. */
  declare streaming: boolean;
  /**
   * Changes to what is highlighted (`CodeBlockLimits`: `highlightChars`, `highlightMs`, `streamingHighlightChars`;
   * each may be `Infinity`), over the defaults (`CODE_BLOCK_LIMITS`).
   * @default undefined
   */
  declare limits: Partial<CodeBlockLimits> | undefined;
  declare _copyState: "idle" | "copied" | "failed";

  /** The code cut into chunks of lines (chunks.ts), cut again only from where it changed. */
  #chunks: string[] = [];
  /** Each chunk's long lines in pieces (long-lines.ts), by the chunk's text: cut again only where a chunk changed. */
  #runs: { text: string; runs: LineRun[] | undefined }[] = [];
  /** The code as last highlighted, its chunks' texts and trees, kept until a newer highlight replaces it. */
  #highlighted: { code: string; language: string; texts: readonly string[]; trees: Root[] } | undefined;
  /** How many of the highlighted chunks show their tree; the others follow in later tasks (#showTrees). */
  #treesShown = 0;
  /** The next task that shows more trees, while some are waiting. */
  #showing: Promise<void> | undefined;
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

  /** Whether the code on display is highlighted, all of it (for tests and for pages that wait on it). */
  get highlighted(): boolean {
    const last = this.#highlighted;
    return last !== undefined && last.code === String(this.code ?? "") && this.#treesShown >= last.trees.length;
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

  /** Done once the highlight in flight (if any) has arrived and all of it has rendered. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    while (this.#inFlight || this.#showing) {
      await (this.#inFlight ?? this.#showing);
      complete = await super.getUpdateComplete();
    }
    return complete;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("code")) this.#chunks = chunkLines(String(this.code ?? ""), this.#chunks);
    if (changed.has("limits")) {
      // Other limits may allow what was stopped or left plain: ask again. A code now past them is plain (keeping the
      // colours of a code that grew past the length is for a stream, not for a page that lowered it).
      this.#stopped = undefined;
      this.#answered = undefined;
      if (String(this.code ?? "").length > this.#limitsNow().highlightChars) this.#highlighted = undefined;
    }
    if (changed.has("code") || changed.has("language") || changed.has("streaming") || changed.has("limits"))
      this.#highlight();
  }

  /** Chunk `k`'s runs, cut once per text (a chunk kept from an earlier code is the same string: compared at once). */
  #runsOf(text: string, k: number): LineRun[] | undefined {
    const kept = this.#runs[k];
    if (kept?.text === text) return kept.runs;
    const runs = longLineRuns(text);
    this.#runs[k] = { text, runs };
    if (this.#runs.length > this.#chunks.length) this.#runs.length = this.#chunks.length;
    return runs;
  }

  #limitsNow(): CodeBlockLimits {
    return this.limits ? { ...CODE_BLOCK_LIMITS, ...this.limits } : CODE_BLOCK_LIMITS;
  }

  /** Whether `code` in `language` is not highlighted at all: no language, or longer than `highlightChars`. */
  #plainOnly(code: string, language: string): boolean {
    return language === "" || code.length > this.#limitsNow().highlightChars;
  }

  /** Asks for the code on display to be highlighted, now or (a long block streaming) a little later. */
  #highlight(): void {
    const code = String(this.code ?? "");
    const language = String(this.language ?? "").trim();
    const limits = this.#limitsNow();
    if (this.#plainOnly(code, language)) {
      // The colours of a block that grew past the length stay (taking them away would render it all again).
      const last = this.#highlighted;
      if (language === "" || last?.language !== language || !code.startsWith(last.code)) this.#highlighted = undefined;
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
      code.length > limits.streamingHighlightChars &&
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
    // A streaming block's later highlight fires after its code grew: past the length now, it keeps the colours it has
    // (as #highlight decided when the code changed) and is not highlighted past the limit.
    if (this.#plainOnly(code, language)) return;
    const limits = this.#limitsNow();
    const texts = this.#chunks;
    const start = performance.now();
    this.#inFlight = highlightOffThread(code, language, limits.highlightMs).then((result: Highlighted) => {
      this.#highlightMs = performance.now() - start;
      this.#inFlight = undefined;
      this.#answered = { code, language };
      if ("timedOut" in result) this.#stopped = { code, language };
      // The page lowered the length while it was highlighted: plain.
      else if (code.length > this.#limitsNow().highlightChars) this.#highlighted = undefined;
      else if (result.chunks?.length === texts.length)
        this.#showHighlight({ code, language, texts, trees: result.chunks });
      else if (this.#highlighted?.language !== language) this.#highlighted = undefined;
      // The code may have changed meanwhile: ask again for what is on display now.
      this.#highlight();
      this.requestUpdate();
    });
  }

  /**
   * Puts a new highlight on display: the trees of leading chunks whose texts it shares with the one on display are
   * kept (the same objects, so they do not render again), the others shown a task's worth at a time.
   */
  #showHighlight(next: { code: string; language: string; texts: readonly string[]; trees: Root[] }): void {
    const last = this.#highlighted;
    let kept = 0;
    if (last?.language === next.language) {
      while (kept < Math.min(this.#treesShown, next.trees.length) && last.texts[kept] === next.texts[kept]) {
        next.trees[kept] = last.trees[kept]!;
        kept++;
      }
    }
    this.#highlighted = next;
    this.#treesShown = kept;
    this.#showTrees();
  }

  /** Shows the next trees, about TREE_NODES_PER_TASK nodes (at least one chunk), and the rest in a later task. */
  #showTrees(): void {
    const trees = this.#highlighted?.trees ?? [];
    let budget = TREE_NODES_PER_TASK;
    while (this.#treesShown < trees.length) {
      const cost = nodeCount(trees[this.#treesShown]!.children);
      if (cost > budget && budget < TREE_NODES_PER_TASK) break;
      budget -= cost;
      this.#treesShown++;
    }
    this.requestUpdate();
    if (this.#treesShown >= trees.length || this.#showing) return;
    // A task after the next frame, so the page paints and answers input between two.
    this.#showing = new Promise((resolve) =>
      afterNextFrame(() => {
        this.#showing = undefined;
        this.#showTrees();
        resolve();
      }),
    );
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
    const language = String(this.language ?? "").trim();
    const state = this._copyState;
    const label = state === "copied" ? "codeCopied" : state === "failed" ? "codeCopyFailed" : "codeCopy";
    const chunks = this.#chunks;
    const last = this.#highlighted;
    const shown = Math.min(this.#treesShown, chunks.length);
    // The leading chunks whose text, and all text before them, is as highlighted: their trees are right.
    let same = 0;
    while (last && same < shown && last.texts[same] === chunks[same]) same++;
    // A chunk as highlighted last (not diffed again while only a plain tail grows), then what arrived since; two
    // bindings rather than an array of two (Lit marks each array item with two comment nodes).
    const content = (text: string, k: number): [unknown, unknown] => {
      // A chunk with a line too long to lay out at once shows plain, that line in pieces.
      const runs = this.#runsOf(text, k);
      if (runs) {
        return [
          runs.map((run) =>
            typeof run === "string" ? run : run.map((piece) => html`<span class="piece">${piece}</span>`),
          ),
          nothing,
        ];
      }
      const tree = last && (k < same || (k === same && k < shown && text.startsWith(last.texts[k]!))) && last.trees[k];
      if (!tree) return [text, nothing];
      const before = last.texts[k]!;
      return [
        guard([tree], () => renderTree(tree.children)),
        before.length < text.length ? text.slice(before.length) : nothing,
      ];
    };
    const [single, since] = chunks.length > 1 ? [nothing, nothing] : content(chunks[0] ?? "", 0);
    const body =
      chunks.length > 1
        ? repeat(
            chunks,
            (_, k) => k,
            (text, k) => {
              const [tree, tail] = content(text, k);
              return html`<span class="chunk">${tree}${tail}</span>`;
            },
          )
        : single;
    // Left to right as a whole, header too, also inside a right-to-left page: code reads left to right.
    return html`<div part="base" dir="ltr">
      <div part="header">
        <span part="language" dir="ltr">${language || nothing}</span>
        <button
          part="button copy-button copy"
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
      ><code>${body}${since}</code></pre>
      <span class="visually-hidden" role="status">${state === "idle" ? "" : this.#t(label)}</span>
    </div>`;
  }
}
