import type { PendingDialog, PiSession } from "@pi-elements/core";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { stripAnsi } from "../../ansi/parse-ansi.js";
import { isBackdropClick } from "../../controllers/backdrop-click.js";
import { type Clock, realClock } from "../../controllers/countdown-controller.js";
import type { DialogCancelSource } from "../../controllers/dialog-element.js";
import { deepActiveElement } from "../../controllers/focus-return-controller.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localizeOwn } from "../../i18n/localize.js";
import type { StringTable } from "../../i18n/strings.js";
import { styles } from "./extension-ui.styles.js";

/** How a dialog is presented: in place of the slotted content (pi's TUI), or as a modal over the page. */
export type ExtensionUiMode = "inline" | "modal";

interface HostSlice {
  dialogs: readonly PendingDialog[];
  title: string | undefined;
}

type DialogHandle = HTMLElement & { cancel(source: DialogCancelSource): boolean };

/**
 * The all-in-one extension-UI host. It shows the head of the session's dialog queue with the element for its
 * method (`pi-select`, `pi-confirm`, `pi-input`, `pi-editor`) and, when more are waiting, "1 of 3". When the head
 * is answered, expires or is closed by the agent, the next one shows; when the queue empties, focus returns to
 * where it was before the first dialog opened.
 *
 * - `mode="inline"` (default): the dialog takes the place of the slotted content, as pi's TUI puts dialogs in
 *   place of its editor. Put a `<pi-prompt>` in the slot.
 * - `mode="modal"`: a native `<dialog>` opened with `showModal()` (top layer, the page behind is inert). Escape
 *   cancels the dialog (`source: "keyboard"`), and so does a click on the backdrop (`source: "backdrop"`).
 *
 * With `sync-title`, the session's title (pi's `setTitle`) is mirrored into `document.title`; the page's own title
 * comes back when the attribute is removed or the element leaves the document.
 *
 * @slot - What the host shows while no dialog is pending (in inline mode), or always (in modal mode): usually a `<pi-prompt>`.
 * Answers go out through the dialog elements, so their `pi-submit` / `pi-cancel` events bubble out of this one.
 *
 * @csspart dialog - The container of the shown dialog (the native `<dialog>` in modal mode).
 * @csspart queue - The "1 of 3" indicator.
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
  /** Where focus was when the first dialog of a run opened. */
  #returnFocus: HTMLElement | null = null;
  #shownId: string | undefined;
  #pageTitle: string | undefined;
  /** The element asking the head dialog, made for its id: a new request never inherits the last one's state. */
  #asking: { id: string; element: HTMLElement } | undefined;

  constructor() {
    super();
    this.mode = "inline";
    this.syncTitle = false;
    this.clock = realClock;
  }

  /** The dialog being shown, if any. */
  get current(): PendingDialog | undefined {
    return this.#store.value?.dialogs[0];
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#restoreTitle();
  }

  protected override update(changed: PropertyValues<this>): void {
    // Remember focus before the first dialog of a run replaces (inline) or covers (modal) the page.
    const head = this.current;
    if (head && this.#shownId === undefined) {
      const active = deepActiveElement();
      this.#returnFocus = active instanceof HTMLElement ? active : null;
    }
    super.update(changed);
  }

  protected override render() {
    const dialogs = this.#store.value?.dialogs ?? [];
    const head = dialogs[0];
    const session = this.#store.session;
    if (!head) this.#asking = undefined;
    const content =
      head && session
        ? html`${
            dialogs.length > 1
              ? html`<span part="queue">${localizeOwn(this, "queuePosition", { index: 1, total: dialogs.length })}</span>`
              : nothing
          }${this.#dialogElement(head, session)}`
        : nothing;
    if (this.mode === "modal") {
      return html`<slot></slot><dialog part="dialog" aria-label=${head ? stripAnsi(head.request.title) : nothing}
        @cancel=${this.#onDialogCancel} @click=${this.#onDialogClick}>${content}</dialog>`;
    }
    return html`<slot ?hidden=${head !== undefined}></slot>${
      head
        ? html`<div part="dialog" role="group" aria-label=${stripAnsi(head.request.title)}>${content}</div>`
        : nothing
    }`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    const head = this.current;
    const dialog = this.renderRoot.querySelector("dialog");
    if (dialog) {
      if (head && !dialog.open) dialog.showModal();
      else if (!head && dialog.open) dialog.close();
    }
    if (head && head.id !== this.#shownId) {
      this.#shownId = head.id;
      this.#focusDialog();
    } else if (!head && this.#shownId !== undefined) {
      this.#shownId = undefined;
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
    if (this.#asking?.id !== dialog.id) {
      const element = document.createElement(`pi-${dialog.request.method}`);
      element.setAttribute("part", "dialog-element");
      this.#asking = { id: dialog.id, element };
    }
    const { request, deadline } = dialog;
    return Object.assign(this.#asking.element, { session, clock: this.clock, deadline, request });
  }

  /** Moves focus into the new dialog element unless it already took it. */
  #focusDialog(): void {
    const element = this.#asking?.element;
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

  /** Escape on the modal (the platform's cancel): answer the head as cancelled instead of just hiding it. */
  #onDialogCancel(event: Event): void {
    event.preventDefault();
    this.#cancelHead("keyboard");
  }

  /** A click whose target is the `<dialog>` itself and lies outside its box landed on the backdrop. */
  #onDialogClick(event: MouseEvent): void {
    if (isBackdropClick(event)) this.#cancelHead("backdrop");
  }

  /** Cancels through the dialog element, so it fires its own `pi-cancel` with this source. */
  #cancelHead(source: DialogCancelSource): void {
    (this.#asking?.element as DialogHandle | undefined)?.cancel(source);
  }
}
