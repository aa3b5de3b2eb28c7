import type { PiSession, UiSnapshot, WidgetPlacement } from "@pi-elements/core";
import { UiState } from "@pi-elements/core/ui-state";
import { html, nothing, type PropertyValues } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { renderAnsi } from "../../ansi/render-ansi.js";
import { PiElement } from "../../base/pi-element.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localizeOwn } from "../../i18n/localize.js";
import { emit } from "../../internal/events.js";
import { RemovalsFirst } from "../../internal/removals-first.js";
import { styles } from "./widget-slot.styles.js";

/** A widget as the element takes it standalone. */
export interface WidgetInput {
  readonly key: string;
  readonly lines: readonly string[];
}

/** Detail of `pi-widget-toggle`. */
export interface WidgetToggleDetail {
  key: string;
  expanded: boolean;
}

/**
 * The widgets extensions place above or below the editor with `setWidget`, in the order pi shows them, each line
 * with its ANSI styling (at most 1,000 styled runs per line; the rest of the line shows unstyled). As in pi, a
 * widget shows at most `max-lines` lines (10) and then a "… (widget truncated)" row; here a "Show all N lines" button
 * follows it that unfolds the rest (and "Show less" folds it again). Blank lines keep their height and long lines wrap. The widget key is
 * `data-key` on the widget, not a visible heading.
 *
 * The widgets come from the `session` property, else from an ancestor `<pi-session>`, else from `widgets` (kept in
 * the element's own store, in this slot's placement, as a session keeps what `setWidget` sends). The
 * slot is one labelled group and not a live region: widgets often redraw (progress, spinners), and announcing each
 * redraw would drown a screen reader; the text is read when visited.
 *
 * @event pi-widget-toggle - A widget was unfolded or folded by its toggle. `detail: { key: string, expanded: boolean }`.
 * @csspart base - The group holding the widgets (absent while there are none).
 * @csspart widget - One widget; carries `data-key`.
 * @csspart lines - The lines of one widget.
 * @csspart line - One line.
 * @csspart button - Each button (the toggles).
 * @csspart truncated - The "… (widget truncated)" row of a folded widget.
 * @csspart toggle-button - The "Show all N lines" / "Show less" button.
 * @csspart toggle - The same as `toggle-button`: its earlier name, kept as an alias.
 * @csspart link - An OSC 8 hyperlink inside a line.
 * @cssprop --pi-color-surface - Background of a widget.
 * @cssprop --pi-color-border - Border of a widget.
 * @cssprop --pi-color-muted - The truncated row's text.
 * @cssprop --pi-font-family-mono - Font of the lines.
 * @cssprop --pi-ansi-red - One of the 16 ANSI colours (`--pi-ansi-black` … `--pi-ansi-bright-white`).
 */
export class PiWidgetSlot extends PiElement {
  static override styles = styles;

  static override properties = {
    session: { attribute: false },
    placement: { type: String, reflect: true },
    widgets: { attribute: false },
    maxLines: { type: Number, attribute: "max-lines" },
  };

  /**
   * The session whose widgets to show; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /** Which of pi's two widget places this slot shows. Anything else counts as `"aboveEditor"`. */
  declare placement: WidgetPlacement;
  /** Widgets for standalone use (ignored while a session is in use), in display order; a repeated key moves. */
  declare widgets: readonly WidgetInput[];
  /** Lines shown before the "truncated" row; pi's is 10. Values below 1 count as 1, NaN as 10. */
  declare maxLines: number;

  /** Where `widgets` go: shown while no session is in use. */
  readonly #own = new UiState();
  // Both placements: a slot whose placement changes then needs no re-subscription.
  readonly #store = new SessionStoreController<UiSnapshot["widgets"]>(this, (s) => s.widgets, { fallback: this.#own });
  readonly #removalsFirst = new RemovalsFirst<WidgetInput>(this, "base", "key", (widget) => widget.key);
  /** Keys of the widgets the user unfolded: view state, kept while the widget is redrawn. */
  readonly #expanded = new Set<string>();

  constructor() {
    super();
    this.placement = "aboveEditor";
    this.widgets = [];
    this.maxLines = 10;
  }

  /** The widgets on display, in order. */
  get entries(): readonly WidgetInput[] {
    return this.#store.value?.[this.#placement] ?? [];
  }

  get #placement(): WidgetPlacement {
    return this.placement === "belowEditor" ? "belowEditor" : "aboveEditor";
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("widgets") || changed.has("placement")) this.#writeWidgets();
  }

  /**
   * Makes the own store hold exactly `widgets`, in this slot's placement, as a run of setWidget calls would: a key
   * given twice shows once, where it was last given; lines that are not an array are none; anything but an array
   * holds nothing.
   */
  #writeWidgets(): void {
    const given = new Map<string, string[]>();
    for (const widget of Array.isArray(this.widgets) ? this.widgets : []) {
      if (widget == null) continue;
      const key = String(widget.key);
      given.delete(key);
      given.set(key, Array.isArray(widget.lines) ? widget.lines.map(String) : []);
    }
    const { aboveEditor, belowEditor } = this.#own.getSnapshot().widgets;
    for (const { key, placement } of [...aboveEditor, ...belowEditor]) this.#own.setWidget(key, undefined, placement);
    for (const [key, lines] of given) this.#own.setWidget(key, lines, this.#placement);
    this.#store.refresh();
  }

  protected override update(changed: PropertyValues<this>): void {
    this.#removalsFirst.run(
      () => this.entries,
      () => super.update(changed),
    );
  }

  /** A widget keeps its element while its key stays (`repeat`), so a focused toggle stays put. */
  protected override render() {
    const widgets = this.#removalsFirst.items(this.entries);
    if (widgets.length === 0) return nothing;
    return html`<div part="base" role="group" aria-label=${localizeOwn(this, "widgets")}>
      ${repeat(
        widgets,
        (widget) => widget.key,
        (widget, index) => html`<div part="widget" data-key=${widget.key}>${this.#renderWidget(widget, index)}</div>`,
      )}
    </div>`;
  }

  #renderWidget(widget: WidgetInput, index: number) {
    const maxLines = Math.floor(Number(this.maxLines));
    const limit = Number.isNaN(maxLines) ? 10 : Math.max(1, maxLines);
    const lines = widget.lines;
    const truncatable = lines.length > limit;
    const expanded = truncatable && this.#expanded.has(widget.key);
    const shown = expanded ? lines : lines.slice(0, limit);
    const id = `lines-${index}`;
    return html`<div part="lines" id=${id}>
        ${shown.map((line) => html`<div part="line" dir="auto">${renderAnsi(line)}</div>`)}
      </div>
      ${truncatable && !expanded ? html`<div part="truncated" dir="auto">${localizeOwn(this, "widgetTruncated")}</div>` : nothing}
      ${
        truncatable
          ? html`<button
            type="button"
            part="button toggle-button toggle"
            aria-expanded=${expanded ? "true" : "false"}
            aria-controls=${id}
            @click=${() => this.#toggle(widget.key)}
          >
            ${expanded ? localizeOwn(this, "showLess") : localizeOwn(this, "showAll", { count: lines.length })}
          </button>`
          : nothing
      }`;
  }

  #toggle(key: string): void {
    const expanded = !this.#expanded.has(key);
    if (expanded) this.#expanded.add(key);
    else this.#expanded.delete(key);
    this.requestUpdate();
    emit(this, "pi-widget-toggle", { key, expanded });
  }
}
