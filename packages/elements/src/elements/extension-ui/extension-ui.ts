import type { PendingDialog, PiSession } from "@pi-elements/core";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { stripAnsi } from "../../ansi/parse-ansi.js";
import { isBackdropClick } from "../../controllers/backdrop-click.js";
import { type Clock, CountdownController, realClock } from "../../controllers/countdown-controller.js";
import type { DialogCancelSource } from "../../controllers/dialog-element.js";
import { deepActiveElement } from "../../controllers/focus-return-controller.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localizeOwn } from "../../i18n/localize.js";
import type { StringKey, StringTable } from "../../i18n/strings.js";
import { styles } from "./extension-ui.styles.js";

/** How a dialog is presented: above the slotted content, or as a modal over the page. */
export type ExtensionUiMode = "inline" | "modal";

interface HostSlice {
  dialogs: readonly PendingDialog[];
  title: string | undefined;
}

type DialogHandle = HTMLElement & { cancel(source: DialogCancelSource): boolean };

/**
 * The dialog to show when the one shown leaves the queue (or none was shown): the waiting dialog with the earliest
 * deadline, so that a timed question is never left to expire behind one that waits forever; else the oldest.
 */
export function nextDialog(dialogs: readonly PendingDialog[]): PendingDialog | undefined {
  let soonest: PendingDialog | undefined;
  for (const dialog of dialogs) {
    if (dialog.deadline !== undefined && (soonest === undefined || dialog.deadline < (soonest.deadline as number))) {
      soonest = dialog;
    }
  }
  return soonest ?? dialogs[0];
}

/** A title as one line of plain text, for names and the queue bar. */
function plainTitle(dialog: PendingDialog): string {
  return stripAnsi(dialog.request.title).replace(/\s+/g, " ").trim();
}

/**
 * The all-in-one extension-UI host. It shows one of the session's pending dialogs with the element for its method
 * (`pi-select`, `pi-confirm`, `pi-input`, `pi-editor`) and, when more are waiting, a queue bar: "1 of 3" with
 * Previous and Next buttons, so every pending dialog can be reached, answered or dismissed (Esc or Cancel sends
 * `cancelled`, which pi accepts even for a dialog it already gave up on).
 *
 * Which dialog shows (the rule):
 * - The dialog shown stays until it is answered, expires or is closed by the agent, or the user moves to another:
 *   a dialog that arrives never takes the place of the one being answered.
 * - When the shown dialog leaves, the next is the waiting dialog with the earliest deadline, else the oldest.
 * - While a dialog with a deadline waits behind the shown one, the queue bar shows a button with its countdown
 *   ("⏱ 4s · Quick! Pick a colour") that brings it up, and a screen reader hears once that it is waiting.
 * So a timed dialog never expires unseen. When the queue empties, focus returns to where it was before the first
 * dialog opened. Each dialog keeps its element (and what was typed in it) while it is pending.
 *
 * - `mode="inline"` (default): the dialog shows above the slotted content, which stays usable (put a `<pi-prompt>`
 *   in the slot: the user can still write to pi while a dialog waits).
 * - `mode="modal"`: a native `<dialog>` opened with `showModal()` (top layer, the page behind is inert). Escape
 *   cancels the dialog (`source: "keyboard"`), and so does a click on the backdrop (`source: "backdrop"`).
 *
 * With `sync-title`, the session's title (pi's `setTitle`) is mirrored into `document.title`; the page's own title
 * comes back when the attribute is removed or the element leaves the document.
 *
 * @slot - The page's own controls, usually a `<pi-prompt>`: shown below an inline dialog, behind a modal one.
 * Answers go out through the dialog elements, so their `pi-submit` / `pi-cancel` events bubble out of this one.
 *
 * @csspart dialog - The container of the shown dialog (the native `<dialog>` in modal mode).
 * @csspart queue - The queue bar, present while more than one dialog is pending.
 * @csspart queue-position - "1 of 3".
 * @csspart queue-button - The Previous and Next buttons (also `queue-previous` / `queue-next`).
 * @csspart queue-timed - The button that brings up a timed dialog waiting behind the shown one.
 * @csspart dialog-element - The pi-select / pi-confirm / pi-input / pi-editor element.
 * @cssprop --pi-color-bg - The modal's background.
 * @cssprop --pi-color-border - The modal's border.
 */
export class PiExtensionUi extends LitElement {
  static override styles = styles;

  static override properties = {
    session: { attribute: false },
    mode: { type: String, reflect: true },
    syncTitle: { type: Boolean, attribute: "sync-title" },
    clock: { attribute: false },
    strings: { attribute: false },
  };

  /**
   * The session whose dialogs are shown; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /** `"inline"` (default) or `"modal"`. Any other value is treated as inline. */
  declare mode: ExtensionUiMode;
  /** Mirror the session's title into `document.title`. */
  declare syncTitle: boolean;
  /** The clock the session was made with (its dialogs' deadlines are on it); default real time. */
  declare clock: Clock;
  /**
   * Per-element string overrides.
   * @default undefined
   */
  declare strings: StringTable | undefined;

  readonly #store = new SessionStoreController<HostSlice>(this, (s) => ({ dialogs: s.dialogs, title: s.title }));
  /** The countdown of the timed dialog waiting behind the shown one, for the queue bar. */
  readonly #waitingCountdown = new CountdownController(this, () => {});
  /** Where focus was when the first dialog of a run opened. */
  #returnFocus: HTMLElement | null = null;
  /** The dialog chosen to show (kept while it is pending). */
  #currentId: string | undefined;
  /** The dialog that last got focus. */
  #focusedId: string | undefined;
  /** The timed dialog the queue bar counts down for. */
  #waitingTimedId: string | undefined;
  /** Ids already announced as waiting. */
  #announced = new Set<string>();
  #announcement = "";
  #pageTitle: string | undefined;
  /** One element per pending dialog, made for its id: a new request never inherits another's state. */
  #elements = new Map<string, HTMLElement>();
  /** The session those elements were made for: in another session, the same id names another dialog. */
  #elementsSession: PiSession | undefined;

  constructor() {
    super();
    this.mode = "inline";
    this.syncTitle = false;
    this.clock = realClock;
  }

  get #dialogs(): readonly PendingDialog[] {
    return this.#store.value?.dialogs ?? [];
  }

  /** The dialog being shown, if any. */
  get current(): PendingDialog | undefined {
    const dialogs = this.#dialogs;
    return dialogs.find((dialog) => dialog.id === this.#currentId) ?? nextDialog(dialogs);
  }

  /** Shows the pending dialog with this id (focus moves into it); false when no such dialog is pending. */
  showDialog(id: string): boolean {
    if (!this.#dialogs.some((dialog) => dialog.id === id)) return false;
    this.#currentId = id;
    this.requestUpdate();
    return true;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#restoreTitle();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const session = this.#store.session;
    if (session !== this.#elementsSession) {
      this.#elementsSession = session;
      this.#elements.clear();
      this.#currentId = undefined;
    }
    const dialogs = this.#dialogs;
    const current = this.current;
    // Remember focus before the first dialog of a run covers the page (modal) or takes it (inline).
    if (current && this.#focusedId === undefined) {
      const active = deepActiveElement();
      this.#returnFocus = active instanceof HTMLElement ? active : null;
    }
    this.#currentId = current?.id;
    const pending = new Set(dialogs.map((dialog) => dialog.id));
    for (const id of this.#elements.keys()) if (!pending.has(id)) this.#elements.delete(id);
    for (const id of this.#announced) if (!pending.has(id)) this.#announced.delete(id);
    this.#trackWaiting(dialogs, current);
  }

  /** The countdown for the soonest timed dialog behind the shown one, and a one-time announcement of arrivals. */
  #trackWaiting(dialogs: readonly PendingDialog[], current: PendingDialog | undefined): void {
    const behind = dialogs.filter((dialog) => dialog !== current);
    const timed = nextDialog(behind.filter((dialog) => dialog.deadline !== undefined));
    if (timed?.id !== this.#waitingTimedId) {
      this.#waitingTimedId = timed?.id;
      this.#waitingCountdown.start(timed?.deadline, this.clock);
    }
    if (current) this.#announced.add(current.id);
    const arrived = behind.filter((dialog) => !this.#announced.has(dialog.id));
    if (arrived.length === 0) return;
    for (const dialog of arrived) this.#announced.add(dialog.id);
    const now = this.clock.now();
    this.#announcement = arrived
      .map((dialog) =>
        dialog.deadline === undefined
          ? this.#t("queueWaiting", { title: plainTitle(dialog) })
          : this.#t("queueWaitingTimed", {
              title: plainTitle(dialog),
              seconds: Math.max(1, Math.ceil((dialog.deadline - now) / 1000)),
            }),
      )
      .join(" ");
  }

  #t(key: StringKey, values?: Record<string, string | number>): string {
    return localizeOwn(this, key, values);
  }

  protected override render() {
    const dialogs = this.#dialogs;
    const current = this.current;
    const session = this.#store.session;
    const content =
      current && session ? html`${this.#queueBar(dialogs, current)}${this.#dialogElement(current, session)}` : nothing;
    const status = html`<span class="visually-hidden" role="status">${this.#announcement}</span>`;
    if (this.mode === "modal") {
      return html`${status}<slot></slot><dialog part="dialog" aria-label=${current ? plainTitle(current) : nothing}
        @cancel=${this.#onDialogCancel} @click=${this.#onDialogClick}>${content}</dialog>`;
    }
    return html`${status}${
      current ? html`<div part="dialog" role="group" aria-label=${plainTitle(current)}>${content}</div>` : nothing
    }<slot></slot>`;
  }

  #queueBar(dialogs: readonly PendingDialog[], current: PendingDialog) {
    if (dialogs.length < 2) return nothing;
    const index = dialogs.indexOf(current);
    const previous = dialogs[index - 1];
    const next = dialogs[index + 1];
    const timed = dialogs.find((dialog) => dialog.id === this.#waitingTimedId);
    const seconds = this.#waitingCountdown.seconds;
    return html`<nav part="queue" aria-label=${this.#t("queueLabel")}>
      <button
        part="queue-button queue-previous"
        aria-label=${this.#t("queuePrevious")}
        ?disabled=${previous === undefined}
        @click=${() => previous && this.showDialog(previous.id)}
      ><span aria-hidden="true" class="arrow">‹</span></button>
      <span part="queue-position">${this.#t("queuePosition", { index: index + 1, total: dialogs.length })}</span>
      <button
        part="queue-button queue-next"
        aria-label=${this.#t("queueNext")}
        ?disabled=${next === undefined}
        @click=${() => next && this.showDialog(next.id)}
      ><span aria-hidden="true" class="arrow">›</span></button>
      ${
        timed && seconds !== undefined
          ? html`<button part="queue-timed" @click=${() => this.showDialog(timed.id)}>
              ⏱ ${this.#t("secondsLeft", { seconds })} · <bdi>${plainTitle(timed)}</bdi>
            </button>`
          : nothing
      }
    </nav>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    const current = this.current;
    const dialog = this.renderRoot.querySelector("dialog");
    if (dialog) {
      if (current && !dialog.open) dialog.showModal();
      else if (!current && dialog.open) dialog.close();
    }
    if (current && current.id !== this.#focusedId) {
      this.#focusedId = current.id;
      this.#focusDialog(current.id);
    } else if (!current && this.#focusedId !== undefined) {
      this.#focusedId = undefined;
      const target = this.#returnFocus;
      this.#returnFocus = null;
      if (target?.isConnected) target.focus();
    }
    if (changed.has("syncTitle") || this.syncTitle) this.#syncTitle();
  }

  /**
   * The element for the dialog's method (`pi-select`, `pi-confirm`, `pi-input`, `pi-editor`), rendered as a node.
   * The deadline is the session's, so a dialog that waited in the queue counts down only the time it really has
   * left; `clock` must be the session's clock.
   */
  #dialogElement(dialog: PendingDialog, session: PiSession): HTMLElement {
    let element = this.#elements.get(dialog.id);
    if (element === undefined) {
      element = document.createElement(`pi-${dialog.request.method}`);
      element.setAttribute("part", "dialog-element");
      this.#elements.set(dialog.id, element);
    }
    const { request, deadline } = dialog;
    return Object.assign(element, { session, clock: this.clock, deadline, request });
  }

  /** Moves focus into the dialog's element unless it already has it. */
  #focusDialog(id: string): void {
    const element = this.#elements.get(id);
    if (!element) return;
    void (element as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete?.then(() => {
      if (element.isConnected && !element.matches(":focus-within")) element.focus();
    });
  }

  #syncTitle(): void {
    if (!this.syncTitle) {
      this.#restoreTitle();
      return;
    }
    const title = this.#store.value?.title;
    if (title === undefined) return;
    this.#pageTitle ??= document.title;
    if (document.title !== title) document.title = title;
  }

  #restoreTitle(): void {
    if (this.#pageTitle === undefined) return;
    document.title = this.#pageTitle;
    this.#pageTitle = undefined;
  }

  /** Escape on the modal (the platform's cancel): answer the shown dialog as cancelled instead of just hiding it. */
  #onDialogCancel(event: Event): void {
    event.preventDefault();
    this.#cancelCurrent("keyboard");
  }

  /** A click whose target is the `<dialog>` itself and lies outside its box landed on the backdrop. */
  #onDialogClick(event: MouseEvent): void {
    if (isBackdropClick(event)) this.#cancelCurrent("backdrop");
  }

  /** Cancels through the dialog element, so it fires its own `pi-cancel` with this source. */
  #cancelCurrent(source: DialogCancelSource): void {
    const id = this.current?.id;
    (id === undefined ? undefined : (this.#elements.get(id) as DialogHandle | undefined))?.cancel(source);
  }
}
