import type { PiSession, StatusEntry } from "@pi-elements/core";
import { UiState } from "@pi-elements/core/ui-state";
import { html, type PropertyValues } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { stripAnsi } from "../../ansi/parse-ansi.js";
import { renderAnsi } from "../../ansi/render-ansi.js";
import { PiElement } from "../../base/pi-element.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localizeOwn } from "../../i18n/localize.js";
import { RemovalsFirst } from "../../internal/removals-first.js";
import { styles } from "./status-bar.styles.js";

/** A status as the element takes it standalone; `text` may be raw (the core's `sanitizeStatusText` cleans it, as pi does). */
export interface StatusInput {
  readonly key: string;
  readonly text: string;
}

/**
 * pi's status line: every status set with `setStatus`, sorted by key, ANSI styling rendered (at most 1,000 styled
 * runs per status; the rest of its text shows unstyled). One line by default, cut with an ellipsis where it no
 * longer fits; each entry shows its full text as a tooltip on hover, and the entries cut short become focusable:
 * while one has keyboard focus the line unfolds to show everything. With `wrap`, the entries always wrap instead.
 *
 * The statuses come from the `session` property, else from an ancestor `<pi-session>`, else from `statuses`
 * (kept in the element's own store, as a session keeps what `setStatus` sends).
 * Not a live region: statuses change often (a burst can be thousands), and announcing each would drown a screen
 * reader; the list is read when visited.
 *
 * @csspart base - The line of entries (a list named "Status").
 * @csspart list - The same as `base`: its earlier name, kept as an alias.
 * @csspart entry - One status; carries `data-key` with the status key.
 * @csspart link - An OSC 8 hyperlink inside a status.
 * @cssprop --pi-color-surface - Background of the bar.
 * @cssprop --pi-color-text - Text colour.
 * @cssprop --pi-color-focus - Focus ring of a truncated entry.
 * @cssprop --pi-font-family-mono - Font of the entries.
 * @cssprop --pi-ansi-red - One of the 16 ANSI colours (`--pi-ansi-black` … `--pi-ansi-bright-white`).
 */
export class PiStatusBar extends PiElement {
  static override styles = styles;

  static override properties = {
    session: { attribute: false },
    statuses: { attribute: false },
    wrap: { type: Boolean, reflect: true },
  };

  /**
   * The session whose statuses to show; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /** Statuses for standalone use (ignored while a session is in use); any order, raw text allowed, last of a key wins. */
  declare statuses: readonly StatusInput[];
  /** Wrap long statuses onto more lines instead of truncating them to one line. */
  declare wrap: boolean;

  /** Where `statuses` go: shown while no session is in use. */
  readonly #own = new UiState();
  readonly #store = new SessionStoreController<readonly StatusEntry[]>(this, (s) => s.statuses, {
    fallback: this.#own,
  });
  readonly #removalsFirst = new RemovalsFirst<StatusInput>(this, "base", "key", (entry) => entry.key);
  #resizeObserver: ResizeObserver | undefined;

  constructor() {
    super();
    this.statuses = [];
    this.wrap = false;
  }

  /** The statuses on display, sorted by key, with sanitized text. */
  get entries(): readonly StatusInput[] {
    return this.#store.value ?? [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#resizeObserver ??= new ResizeObserver(() => this.#markTruncated());
    this.#resizeObserver.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resizeObserver?.disconnect();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("statuses")) this.#writeStatuses();
  }

  /**
   * Makes the own store hold exactly `statuses`, as a run of setStatus calls would: a key given twice keeps its last
   * text; anything but an array holds nothing.
   */
  #writeStatuses(): void {
    const given = new Map<string, string>();
    for (const s of Array.isArray(this.statuses) ? this.statuses : []) {
      if (s != null) given.set(String(s.key), String(s.text ?? ""));
    }
    for (const { key } of this.#own.getSnapshot().statuses) if (!given.has(key)) this.#own.setStatus(key, undefined);
    for (const [key, text] of given) this.#own.setStatus(key, text);
    this.#store.refresh();
  }

  protected override update(changed: PropertyValues<this>): void {
    this.#removalsFirst.run(
      () => this.entries,
      () => super.update(changed),
    );
  }

  /**
   * An entry keeps its `<li>` while its key stays (`repeat`), so a focused, unfolded entry stays put. No whitespace
   * around the entries: with none, the list is `:empty` (Lit's markers are comments) and the bar takes no room.
   */
  protected override render() {
    const entries = repeat(
      this.#removalsFirst.items(this.entries),
      (entry) => entry.key,
      (entry) =>
        html`<li part="entry" dir="auto" data-key=${entry.key} title=${stripAnsi(entry.text)}>${renderAnsi(entry.text)}</li>`,
    );
    return html`<ul part="base list" @focusout=${this.#onFocusOut} aria-label=${localizeOwn(this, "status")}>${entries}</ul>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.#markTruncated();
  }

  #onFocusOut = (event: FocusEvent) => {
    const list = event.currentTarget as HTMLElement;
    if (!list.contains(event.relatedTarget as Node | null)) requestAnimationFrame(() => this.#markTruncated());
  };

  /**
   * Only entries the ellipsis cuts short (or hides) get a tab stop: the others have nothing more to show. While one
   * has focus the line is unfolded, so the tab stops are left as they are until focus leaves.
   */
  #markTruncated(): void {
    const list = this.renderRoot.querySelector('[part~="base"]');
    if (!list || list.matches(":focus-within")) return;
    const box = list.getBoundingClientRect();
    const style = getComputedStyle(list);
    const start = box.left + Number.parseFloat(style.paddingLeft);
    const end = box.right - Number.parseFloat(style.paddingRight);
    for (const item of list.querySelectorAll<HTMLElement>('[part~="entry"]')) {
      const rect = item.getBoundingClientRect();
      const cut = !this.wrap && (rect.right > end + 0.5 || rect.left < start - 0.5);
      if (cut) item.tabIndex = 0;
      else item.removeAttribute("tabindex");
    }
  }
}
