import type { SelectRequest } from "@pi-elements/core";
import { html, nothing, type PropertyValues, type TemplateResult } from "lit";
import { ansiStyles } from "../../ansi/ansi.styles.js";
import { stripAnsi } from "../../ansi/parse-ansi.js";
import { renderAnsi } from "../../ansi/render-ansi.js";
import { asText, DialogElement } from "../../base/dialog-element.js";
import { dialogStyles } from "../../base/dialog-element.styles.js";
import { isPrintableKey, normalizeForMatch, TypeaheadController } from "../../controllers/typeahead-controller.js";
import { tokens } from "../../theme/tokens.js";
import { selectStyles } from "./select.styles.js";

/**
 * A choice among options (pi's `ctx.ui.select`), with APG listbox semantics.
 *
 * Keys: Up/Down or k/j move (no wrap, as in pi), Home/End go to the first/last, PageUp/PageDown move a page,
 * Enter chooses, Esc cancels; other printable keys are type-ahead (a 1 s search buffer, matched by code point so
 * non-Latin labels work; while a search is being typed, k and j are part of it). A click or tap chooses.
 *
 * Long lists (more options than `filter-threshold`, default 10) get a filter field that keeps focus (an APG
 * combobox): typing filters by substring, an IME can compose in it (the way to reach 日本語 options by reading),
 * and the arrow, Page and Home/End keys still move in the list; k and j type into the filter there. The current
 * option is always scrolled into view.
 *
 * An empty option list shows "No options to choose from": Enter does nothing, Esc and the Cancel button cancel.
 * Duplicate labels are separate options; the answer is the label string.
 *
 * @event pi-submit - `{value: string}`: the chosen option.
 * @event pi-cancel - `{source: "keyboard" | "button" | "timeout" | "backdrop"}`: closed without an answer.
 * @event pi-request-close - The user is dismissing the dialog, before it is cancelled; cancelable: `preventDefault()` keeps it open and sends nothing. `detail: { source: "keyboard" | "backdrop" | "button" }`.
 * @csspart base - The `<dialog>` box (none when shown by pi-extension-ui, which draws the frame).
 * @csspart dialog - The same as `base`: its earlier name, kept as an alias.
 * @csspart content - The heading, body and actions.
 * @csspart heading - The title line, with the countdown.
 * @csspart countdown - "(5s)" after the title while a timeout runs.
 * @csspart session-ended - The alert shown when the dialog's session has ended: the answer can no longer be sent.
 * @csspart error - The alert shown when the session refused an answer (nothing was sent; the dialog stays open).
 * @csspart arming - The bar that fills while the dialog arms (present only then): see DialogElement.
 * @csspart filter - The filter field of a long list.
 * @csspart count - Under the filter field: "500 options", "12 of 500 options" while filtered (a polite status).
 * @csspart listbox - The scrolling list.
 * @csspart option - Each option.
 * @csspart active - The current option (also `option`).
 * @csspart empty - The message shown when there is nothing to choose.
 * @csspart actions - The row of buttons.
 * @csspart button - Each button.
 * @csspart cancel-button - Cancels.
 * @cssprop --pi-color-selected-bg - Background of the current option.
 */
export class PiSelect extends DialogElement<SelectRequest, string> {
  static override styles = [tokens, ansiStyles, dialogStyles, selectStyles];
  static override properties = {
    options: { attribute: false },
    filterThreshold: { type: Number, attribute: "filter-threshold" },
    activeIndex: { state: true },
    filterText: { state: true },
  };

  /** The labels to choose from. */
  declare options: readonly string[];
  /** A filter field appears when there are more options than this. */
  declare filterThreshold: number;
  /**
   * Index (into `options`) of the current option; -1 when none.
   * @internal
   */
  declare activeIndex: number;
  /**
   * The filter field's text.
   * @internal
   */
  declare filterText: string;
  protected readonly method = "select" as const;
  readonly #typeahead = new TypeaheadController(this);
  /** `options` as given: anything that is not an array of strings is made one (missing -> [], 42 -> "42"). */
  #labels: readonly string[] = [];
  /** The labels as read and matched: ANSI sequences removed, line breaks as spaces (an option is one line). */
  #plain: readonly string[] = [];
  #scrollPending = false;

  constructor() {
    super();
    this.options = [];
    this.filterThreshold = 10;
    this.activeIndex = -1;
    this.filterText = "";
  }

  protected applyRequest(request: SelectRequest): void {
    this.options = request.options;
  }

  protected ownRequest(id: string): SelectRequest {
    return { type: "extension_ui_request", id, method: "select", title: this.heading, options: [...this.#labels] };
  }

  get #filtering(): boolean {
    return this.#labels.length > this.filterThreshold;
  }

  /** Indexes of the options that pass the filter, in order. */
  get #visible(): number[] {
    const all = this.#labels.map((_, index) => index);
    if (!this.#filtering || this.filterText === "") return all;
    const needle = normalizeForMatch(this.filterText);
    return all.filter((index) => normalizeForMatch(this.#plain[index] ?? "").includes(needle));
  }

  #syncLabels(): void {
    this.#labels = Array.isArray(this.options) ? this.options.map(asText) : [];
    this.#plain = this.#labels.map((label) => oneLine(stripAnsi(label)));
  }

  protected override onOpen(): void {
    this.#syncLabels();
    this.filterText = "";
    this.activeIndex = this.#labels.length > 0 ? 0 : -1;
    this.#typeahead.reset();
    this.#scrollPending = true;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    this.#typeahead.clock = this.clock;
    if (changed.has("options")) this.#syncLabels();
    if (changed.has("options") || changed.has("filterText")) {
      const visible = this.#visible;
      if (!visible.includes(this.activeIndex)) this.activeIndex = visible[0] ?? -1;
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (changed.has("activeIndex") || this.#scrollPending) {
      this.#scrollPending = false;
      this.renderRoot.querySelector(`#option-${this.activeIndex}`)?.scrollIntoView({ block: "nearest" });
    }
  }

  protected focusTarget(): HTMLElement | null {
    // With nothing to choose, Cancel is the one thing to do.
    const selector = this.#filtering ? "[part~=filter]" : "[part~=listbox], [part~=cancel-button]";
    return this.renderRoot.querySelector<HTMLElement>(selector);
  }

  /**
   * Answers with the option at `index` (into `options`; by default the current one, as Enter does); false when
   * there is none or the dialog is not open.
   */
  submit(index = this.activeIndex): boolean {
    const value = this.#labels[index];
    return value === undefined ? false : this.answer({ value });
  }

  /**
   * The same as `submit(index)`.
   * @deprecated Use `submit(index)`, the answer verb every dialog element shares; `choose` goes in the next release.
   */
  choose(index = this.activeIndex): boolean {
    return this.submit(index);
  }

  #moveBy(delta: number): void {
    const visible = this.#visible;
    if (visible.length === 0) return;
    const at = Math.max(visible.indexOf(this.activeIndex), 0);
    const to = Math.min(Math.max(at + delta, 0), visible.length - 1);
    this.activeIndex = visible[to] ?? -1;
  }

  #pageSize(): number {
    const listbox = this.renderRoot.querySelector<HTMLElement>("[part~=listbox]");
    const option = listbox?.querySelector<HTMLElement>("[role=option]");
    if (!listbox || !option || option.offsetHeight === 0) return 10;
    return Math.max(1, Math.floor(listbox.clientHeight / option.offsetHeight) - 1);
  }

  #onKeydown(event: KeyboardEvent): void {
    const inFilter = event.target instanceof HTMLInputElement;
    if (inFilter && this.ime.isComposing(event)) return;
    const moves: Record<string, () => void> = {
      ArrowDown: () => this.#moveBy(1),
      ArrowUp: () => this.#moveBy(-1),
      PageDown: () => this.#moveBy(this.#pageSize()),
      PageUp: () => this.#moveBy(-this.#pageSize()),
      Home: () => this.#moveBy(-Infinity),
      End: () => this.#moveBy(Infinity),
    };
    const move = moves[event.key];
    if (move && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      move();
    } else if (event.key === "Enter") {
      event.preventDefault();
      this.submit();
    } else if (!inFilter && isPrintableKey(event)) {
      event.preventDefault();
      if ((event.key === "j" || event.key === "k") && !this.#typeahead.active) {
        this.#moveBy(event.key === "j" ? 1 : -1);
        return;
      }
      const found = this.#typeahead.type(event.key, this.#plain, this.activeIndex);
      if (found >= 0) this.activeIndex = found;
    }
  }

  #onClick(event: MouseEvent): void {
    const option = (event.target as Element).closest<HTMLElement>("[role=option]");
    if (!option) return;
    const index = Number(option.dataset["index"]);
    this.activeIndex = index;
    this.submit(index);
  }

  protected renderBody(): TemplateResult {
    const visible = this.#visible;
    const filtering = this.#filtering;
    const activeId = this.activeIndex >= 0 && visible.length > 0 ? `option-${this.activeIndex}` : undefined;
    const filter = filtering
      ? html`<input
          dir="auto"
          part="filter"
          type="text"
          role="combobox"
          autocomplete="off"
          spellcheck="false"
          aria-label=${this.t("filter")}
          placeholder=${this.t("filter")}
          aria-autocomplete="list"
          aria-expanded=${visible.length > 0 ? "true" : "false"}
          aria-controls=${visible.length > 0 ? "listbox" : nothing}
          aria-activedescendant=${activeId ?? nothing}
          .value=${this.filterText}
          @input=${(event: Event) => {
            this.filterText = (event.target as HTMLInputElement).value;
          }}
          @keydown=${this.#onKeydown}
        />`
      : nothing;
    const list =
      visible.length > 0
        ? html`<ul
            id="listbox"
            part="listbox"
            role="listbox"
            aria-labelledby="heading"
            tabindex=${filtering ? nothing : "0"}
            aria-activedescendant=${!filtering && activeId ? activeId : nothing}
            @keydown=${this.#onKeydown}
            @click=${this.#onClick}
            @mousedown=${(event: MouseEvent) => filtering && event.preventDefault()}
          >
            ${visible.map((index) => {
              const active = index === this.activeIndex;
              return html`<li
                id="option-${index}"
                part=${active ? "option active" : "option"}
                role="option"
                aria-selected=${active ? "true" : "false"}
                data-index=${index}
              ><bdi>${renderAnsi(oneLine(this.#labels[index] ?? ""))}</bdi></li>`;
            })}
          </ul>`
        : html`<p part="empty" class="empty">${this.t(this.#labels.length === 0 ? "noOptions" : "noMatches")}</p>`;
    // A long list says how long it is (a scrolled list alone does not), and how many options the filter leaves.
    const count = filtering
      ? html`<p part="count" class="count" role="status">${
          this.filterText === ""
            ? this.t("optionCount", { count: this.#labels.length })
            : this.t("optionMatches", { shown: visible.length, count: this.#labels.length })
        }</p>`
      : nothing;
    return html`${filter}${count}${list}
      <div part="actions" class="actions">
        <button part="button cancel-button" @click=${() => this.requestCancel("button")}>${this.t("cancel")}</button>
      </div>`;
  }
}

/** An option is one line: its line breaks (CR, LF, CRLF) read as spaces. */
function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n]/g, " ");
}
