import { type Clock, realClock } from "@pi-elements/core";
import type { ToolExecution } from "@pi-elements/core/conversation";
import { html, nothing, type PropertyValues, type TemplateResult } from "lit";
import { ifDefined } from "lit/directives/if-defined.js";
import { repeat } from "lit/directives/repeat.js";
import { stripAnsi } from "../../ansi/parse-ansi.js";
import { renderAnsi, renderAnsiChunks } from "../../ansi/render-ansi.js";
import { PiElement } from "../../base/pi-element.js";
import { localizeIn, nearestLang } from "../../i18n/localize.js";
import { emit } from "../../internal/events.js";
import { rowsPending } from "./diff-rows.js";
import { ElapsedController } from "./elapsed.js";
import {
  isRecord,
  type LineWindow,
  lineWindow,
  MAX_EXPANDED_LINES,
  OUTPUT_CHUNK_LINES,
  resultImages,
  resultText,
} from "./output.js";
import {
  type OutputOptions,
  onRenderersChanged,
  pageRenderer,
  TOOL_CARD_LIMITS,
  type ToolCallBlock,
  type ToolCardLimits,
  type ToolCardStatus,
  type ToolRenderContext,
  type ToolRendererEntry,
} from "./registry.js";
import { builtInRenderers, genericRenderer } from "./renderers.js";
import { type ToolCardStringKey, type ToolCardStringTable, toolCardStrings } from "./strings.js";
import { styles } from "./tool-card.styles.js";

/** Detail of `pi-tool-card-toggle`. */
export interface ToolCardToggleDetail {
  /** The tool call's id. */
  id: string | undefined;
  expanded: boolean;
}

/** The longest subject an accessible name carries; the header shows all of it. */
const NAME_SUBJECT_MAX = 120;

const durationFormats = new Map<string, Intl.NumberFormat[]>();
/**
 * A duration in the card's language: `622 ms` under a second, `3.4 sec` under ten, `12 sec` above (`decimals`); whole
 * seconds only for the live count (`0 sec`, `1 sec`…), which moves once a second.
 */
function formatDuration(lang: string, ms: number, decimals: boolean): string {
  let formats = durationFormats.get(lang);
  if (!formats) {
    const make = (unit: string, digits: number) => {
      const options = { style: "unit", unit, maximumFractionDigits: digits, minimumFractionDigits: digits };
      try {
        return new Intl.NumberFormat(lang, options as Intl.NumberFormatOptions);
      } catch {
        return new Intl.NumberFormat("en", options as Intl.NumberFormatOptions);
      }
    };
    formats = [make("second", 0), make("second", 1), make("millisecond", 0)];
    durationFormats.set(lang, formats);
  }
  const [whole, tenths, millis] = formats as [Intl.NumberFormat, Intl.NumberFormat, Intl.NumberFormat];
  if (!decimals) return whole.format(Math.floor(ms / 1000));
  if (ms < 1000) return millis.format(Math.round(ms));
  return ms < 10_000 ? tenths.format(Math.floor(ms / 100) / 10) : whole.format(Math.round(ms / 1000));
}

/**
 * One tool call as a card, the way pi's TUI shows it: a header naming the tool and what it acts on (the command,
 * the path), its state (preparing while the arguments stream, waiting, running with the time elapsed, done with how
 * long it took, failed), and a body drawn by the tool's renderer: pi's built-in ones for bash, read, write, edit,
 * grep, find and ls, a page's own from `registerToolRenderer`, else the generic one (arguments and result).
 *
 * Long output is previewed as pi does (bash its last 5 lines, read and write the first 10, grep 15, find and ls 20)
 * with a button saying how many lines are hidden; it expands the card (`expanded`), which then shows up to 2,000
 * lines and 100,000 characters and says how many it leaves out. Output is text: ANSI styling is rendered, markup
 * never parsed. File content is highlighted by `<pi-code-block>` when the page defines it.
 *
 * An edit's diff shows up to 2,000 rows. One of up to 100 rows is drawn at once. A longer one is drawn in groups of 50
 * rows, each laid out and painted only near the view (`content-visibility: auto`; the rows stay in the DOM, for
 * find-in-page and screen readers), over several tasks with a frame between them: the first 50 rows, then 100 a
 * task, top first, and the groups whose word marks came, two a task, so that no task is long. A row on display stays
 * until its group is drawn again; `updateComplete` waits for every row.
 *
 * The card is a group named "tool: subject" (e.g. "bash: ls -la"), so it reads as one unit inside the assistant's
 * message; it is `aria-busy` while its call runs.
 *
 * Its children (the default slot) show inside that group, below the body: the transcript puts there the cards of
 * the calls this one made (pi 1.6's nested calls, `parentToolCallId`), so each reads as part of its caller.
 *
 * @slot - Shown inside the card, after its body: the cards of the calls this tool made.
 * @event pi-tool-card-toggle - The user expanded or collapsed the card with its button. `detail: { id: string | undefined, expanded: boolean }`.
 * @csspart base - The card (role=group, `data-status` streaming, pending, running, done or error).
 * @csspart header - The first row: status, tool name, subject, time.
 * @csspart status - The status mark (its text is for screen readers; the colour and shape show it).
 * @csspart name - The tool's name.
 * @csspart subject - What the call acts on.
 * @csspart time - Elapsed time while running, duration when done.
 * @csspart body - What the tool's renderer draws.
 * @csspart nested - Around the default slot (the calls this tool made); hidden while nothing is slotted.
 * @csspart output - A tool's output (a `<pre>`).
 * @csspart code - File content (`<pi-code-block>` or a `<pre>`).
 * @csspart button - Each button (the toggles).
 * @csspart toggle-button - The "N earlier lines" / "N more lines" / "Show less" button.
 * @csspart note - How much an expanded card leaves out.
 * @csspart image - An image in the result (pi's read of a png, jpeg, gif, webp or bmp), shown from the result itself.
 * @csspart error - A failed call's error text.
 * @csspart exit-code - A bash run's exit code (`data-code`).
 * @csspart diff - An edit's diff; `diff-line` (with `diff-added`, `diff-removed`, `diff-context`, `diff-other`),
 *   `diff-sign`, `diff-number`, `diff-text`, `diff-mark` (a changed word) inside it.
 * @csspart section - One part of the generic card (arguments, result), with `section-label`.
 * @csspart link - An OSC 8 hyperlink in output.
 * @cssprop --pi-color-surface - Background of the header.
 * @cssprop --pi-color-border - Border of the card.
 * @cssprop --pi-color-accent - A running call's mark.
 * @cssprop --pi-color-error - A failed call's mark, error text, removed diff lines.
 * @cssprop --pi-color-success - A finished call's mark, added diff lines.
 * @cssprop --pi-color-muted - Time, hidden-line counts, line numbers.
 * @cssprop --pi-font-family-mono - Font of the subject, output and code.
 * @cssprop --pi-ansi-red - One of the 16 ANSI colours (`--pi-ansi-black` … `--pi-ansi-bright-white`).
 */
export class PiToolCard extends PiElement {
  static override styles = styles;

  static override properties = {
    call: { attribute: false },
    execution: { attribute: false },
    expanded: { type: Boolean, reflect: true },
    clock: { attribute: false },
    limits: { attribute: false },
  };

  /**
   * The assistant message's `toolCall` block (`{type: "toolCall", id, name, arguments}`), or the core's
   * `StreamingToolCall` while its arguments stream (`complete: false`).
   * @default undefined
   */
  declare call: ToolCallBlock | undefined;
  /**
   * The core's `ToolExecution` for this call (`conversationOf(session).getSnapshot().tools.get(call.id)`); undefined
   * until pi runs it.
   * @default undefined
   */
  declare execution: ToolExecution | undefined;
  /** Show all of the output (up to 2,000 lines) instead of pi's preview. The transcript sets it on every card at once. */
  declare expanded: boolean;
  /**
   * The clock the execution's times are on (its store's `clock`, which `<pi-transcript>` passes); real time by
   * default.
   */
  declare clock: Clock;
  /**
   * Changes to the bounds on an edit's word marks (`ToolCardLimits`: `wordDiffChars`, `wordDiffEdit`, `wordDiffMs`;
   * each may be `Infinity`), over the defaults (`TOOL_CARD_LIMITS`).
   * @default undefined
   */
  declare limits: Partial<ToolCardLimits> | undefined;

  readonly #elapsed = new ElapsedController(this);
  #unsubscribe: (() => void) | undefined;
  /** Ids of the outputs in one render, so each toggle names the output it controls. */
  #outputs = 0;

  constructor() {
    super();
    this.expanded = false;
    this.clock = realClock;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unsubscribe = onRenderersChanged(() => this.requestUpdate());
    if (!customElements.get("pi-code-block")) {
      customElements.whenDefined("pi-code-block").then(() => this.requestUpdate());
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unsubscribe?.();
  }

  /**
   * Where the call is: `"streaming"` while its arguments arrive, `"pending"` once complete until pi runs it, then the
   * execution's `"running"`, `"done"` or `"error"`.
   */
  get status(): ToolCardStatus {
    const status = this.execution?.status;
    if (status === "running" || status === "done" || status === "error") return status;
    return this.call?.complete === false ? "streaming" : "pending";
  }

  get #name(): string {
    const name = this.call?.name ?? this.execution?.toolName;
    return typeof name === "string" ? name : "";
  }

  get #args(): Readonly<Record<string, unknown>> {
    const args = this.call?.arguments;
    if (isRecord(args)) return args;
    return isRecord(this.execution?.args) ? this.execution.args : {};
  }

  get #entry(): ToolRendererEntry {
    const name = this.#name;
    return (
      pageRenderer(name) ??
      (Object.hasOwn(builtInRenderers, name) ? builtInRenderers[name] : undefined) ??
      genericRenderer
    );
  }

  #localize(key: ToolCardStringKey, values?: Record<string, string | number>): string {
    return localizeIn(toolCardStrings, this, key, values, this.strings as ToolCardStringTable | undefined);
  }

  /** Done once a long diff has drawn all of its rows too (diff-rows.ts). */
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    for (let rows = rowsPending(this); rows; rows = rowsPending(this)) {
      await rows;
      complete = await super.getUpdateComplete();
    }
    return complete;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    this.#elapsed.track(this.status === "running", this.clock);
  }

  protected override render(): TemplateResult {
    this.#outputs = 0;
    const status = this.status;
    const name = this.#name;
    const entry = this.#entry;
    const args = this.#args;
    let subject = "";
    try {
      subject = stripAnsi(String(entry.subject?.(args) ?? genericRenderer.subject?.(args) ?? ""));
    } catch {
      subject = "";
    }
    const execution = this.execution;
    const result = execution?.status === "running" ? execution.partialResult : execution?.result;
    const context: ToolRenderContext = {
      element: this,
      status,
      expanded: this.expanded,
      args,
      result,
      text: resultText(result, (type) => this.#localize("image", { type })),
      localize: (key, values) => this.#localize(key, values),
      output: (text, options) => this.#output(text, options),
      requestUpdate: () => this.requestUpdate(),
      limits: this.limits ? { ...TOOL_CARD_LIMITS, ...this.limits } : TOOL_CARD_LIMITS,
    };
    const label = subject
      ? this.#localize("toolCard", { tool: name, subject: shorten(oneLine(subject), NAME_SUBJECT_MAX) })
      : name;
    let body: TemplateResult | typeof nothing = nothing;
    if (this.call || execution) {
      try {
        body = entry.render(this.call ?? {}, execution, context);
      } catch {
        // A page renderer that throws must not take the transcript with it: the generic card stands in.
        body = genericRenderer.render(this.call ?? {}, execution, context);
      }
    }
    return html`<div
      part="base"
      role="group"
      aria-label=${label}
      aria-busy=${status === "running" || status === "streaming" ? "true" : "false"}
      data-status=${status}
    >
      <div part="header">
        <span part="status" data-status=${status}><span class="visually-hidden">${this.#statusText(status)}</span></span>
        <span part="name">${name}</span>
        ${subject ? html`<span part="subject" dir="auto">${subject}</span>` : nothing}
        ${this.#time(status)}
      </div>
      <div part="body">${body}${resultImages(result).map(
        (image) =>
          html`<img part="image" src=${image.src} alt=${this.#localize("imageAlt", { type: image.mimeType })} />`,
      )}</div>
      <div part="nested" hidden><slot @slotchange=${this.#showNested}></slot></div>
    </div>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    // A body with nothing to show (a call still streaming, a write that succeeded silently) takes no room.
    const body = this.renderRoot.querySelector<HTMLElement>('[part~="body"]');
    if (body) body.hidden = body.childElementCount === 0 && (body.textContent ?? "").trim() === "";
    this.#showNested();
  }

  /** The nested calls' area takes room only when something is slotted into it. */
  #showNested = (): void => {
    const slot = this.renderRoot.querySelector<HTMLSlotElement>('[part~="nested"] > slot');
    if (slot?.parentElement) slot.parentElement.hidden = slot.assignedElements().length === 0;
  };

  #statusText(status: ToolCardStatus): string {
    const keys = {
      streaming: "statusStreaming",
      pending: "statusPending",
      running: "statusRunning",
      done: "statusDone",
      error: "statusError",
    } as const;
    return this.#localize(keys[status]);
  }

  /**
   * "Elapsed 3 s" while running, from its first whole second (as the shared ticker moves: "Elapsed 0 s" beside a
   * quick run's "Took 12 ms" read as two measures), "Took 0.6 s" after.
   */
  #time(status: ToolCardStatus): TemplateResult | typeof nothing {
    const lang = nearestLang(this);
    const startedAt = this.execution?.startedAt;
    const endedAt = this.execution?.endedAt;
    if (status === "running" && startedAt !== undefined) {
      const elapsed = this.clock.now() - startedAt;
      if (!(elapsed >= 1000)) return nothing;
      const time = formatDuration(lang, elapsed, false);
      return html`<span part="time" role="timer">${this.#localize("elapsed", { time })}</span>`;
    }
    if (status !== "done" && status !== "error") return nothing;
    const duration = this.execution?.durationMs;
    const ms =
      typeof duration === "number" && Number.isFinite(duration) && duration >= 0
        ? duration
        : startedAt !== undefined && endedAt !== undefined
          ? endedAt - startedAt
          : undefined;
    if (ms === undefined) return nothing;
    return html`<span part="time">${this.#localize("took", { time: formatDuration(lang, ms, true) })}</span>`;
  }

  /** `ToolRenderContext.output`: pi's preview of a long text, its toggle, and the bounded expanded view. */
  #output(text: string, options: OutputOptions): TemplateResult {
    const collapsedLines = Math.max(1, Math.floor(options.lines) || 1);
    const limit = this.expanded ? Math.max(MAX_EXPANDED_LINES, collapsedLines) : collapsedLines;
    const shown = lineWindow(String(text ?? ""), limit, options.from);
    if (shown.total === 0) {
      return options.empty ? html`<p part="note">${options.empty}</p>` : html``;
    }
    const id = `output-${++this.#outputs}`;
    const hiddenWhenCollapsed = shown.total - collapsedLines;
    let toggle: TemplateResult | typeof nothing = nothing;
    if (hiddenWhenCollapsed > 0) {
      const hint =
        options.from === "end"
          ? this.#localize("earlierLines", { count: hiddenWhenCollapsed })
          : options.showTotal
            ? this.#localize("moreLinesTotal", { count: hiddenWhenCollapsed, total: shown.total })
            : this.#localize("moreLines", { count: hiddenWhenCollapsed });
      toggle = html`<button
        type="button"
        part="button toggle-button"
        aria-expanded=${this.expanded ? "true" : "false"}
        aria-controls=${id}
        @click=${this.#toggle}
      >
        ${this.expanded ? this.#localize("showLess") : hint}
      </button>`;
    }
    const notes = [
      shown.hidden > 0 && this.expanded ? this.#localize("notShown", { count: shown.hidden }) : "",
      shown.cutChars > 0 ? this.#localize("charsNotShown", { count: shown.cutChars }) : "",
    ].filter((note) => note !== "");
    const note = notes.length > 0 ? html`<p part="note">${notes.join(" · ")}</p>` : nothing;
    const content =
      options.ansi === false
        ? this.#code(id, stripAnsi(shown.text), options.language)
        : this.#pre(id, shown, options.from === "end" ? shown.hidden : 0);
    return options.from === "end" ? html`${toggle}${note}${content}` : html`${content}${note}${toggle}`;
  }

  /**
   * Output as a terminal shows it. Past 2 × OUTPUT_CHUNK_LINES lines, in chunks each laid out only near the view,
   * numbered by their lines' place in the whole output (`firstLine` is the first shown line's): a growing output's
   * chunks keep their nodes while its window slides.
   */
  #pre(id: string, shown: LineWindow, firstLine: number): TemplateResult {
    if (shown.total - shown.hidden <= OUTPUT_CHUNK_LINES * 2) {
      return html`<pre part="output" id=${id} dir="ltr">${renderAnsi(shown.text)}</pre>`;
    }
    return html`<pre part="output" id=${id} dir="ltr">${repeat(
      renderAnsiChunks(shown.text, OUTPUT_CHUNK_LINES, firstLine),
      (chunk) => chunk.index,
      (chunk) => html`<span class="chunk">${chunk.content}</span>`,
    )}</pre>`;
  }

  /** File content: highlighted by `<pi-code-block>` if the page has it, else plain text. */
  #code(id: string, text: string, language: string | undefined): TemplateResult {
    if (customElements.get("pi-code-block")) {
      return html`<pi-code-block part="code" id=${id} dir="ltr" .code=${text} language=${ifDefined(language)}></pi-code-block>`;
    }
    return html`<pre part="code" id=${id} dir="ltr" data-language=${ifDefined(language)}><code>${text}</code></pre>`;
  }

  #toggle = (): void => {
    this.expanded = !this.expanded;
    emit(this, "pi-tool-card-toggle", { id: this.call?.id ?? this.execution?.toolCallId, expanded: this.expanded });
  };
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
