import {
  type DialogMethod,
  nextDialog,
  type PendingDialog,
  type PiSession,
  realClock,
  shownDialog,
  type TransportEnd,
  type TransportState,
} from "@pi-elements/core";
import { html, nothing, type PropertyValues } from "lit";
import { stripAnsi } from "../../ansi/parse-ansi.js";
import type { DialogCancelSource } from "../../base/dialog-element.js";
import { PiElement } from "../../base/pi-element.js";
import { CountdownController } from "../../controllers/countdown-controller.js";
import { type OverlayCancelSource, OverlayController } from "../../controllers/overlay-controller.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localizeOwn } from "../../i18n/localize.js";
import type { StringKey } from "../../i18n/strings.js";
import { requestClose } from "../../internal/events.js";
import { sessionEndKey } from "../../internal/session-end.js";
import { styles } from "./extension-ui.styles.js";

interface HostSlice {
  dialogs: readonly PendingDialog[];
  shown: PendingDialog | undefined;
  title: string | undefined;
  connection: TransportState;
  connectionEnd: TransportEnd | undefined;
}

/**
 * What `pi-extension-ui` needs of the element it shows a dialog with (the four dialog elements are such): it is
 * given the session and the request, renders only its heading, body and actions (`hosted`), and can be cancelled.
 * Escape and backdrop clicks on the overlay fire `pi-request-close` from it before `cancel(source)`; an element of
 * a page's own fires it for its own Cancel button (the four dialog elements do).
 */
export type HostedDialog = HTMLElement & {
  session: unknown;
  request: unknown;
  hosted: boolean;
  cancel(source: DialogCancelSource): boolean;
  /** The dialog's description as plain text; the host describes its overlay with it. */
  readonly description?: string;
  /** "alertdialog" for a confirmation. */
  readonly dialogRole?: "alertdialog" | undefined;
  /** True while the dialog arms: a click on the backdrop then does nothing. */
  readonly arming?: boolean;
};

/** The element tag for each dialog method, as `pi-extension-ui` uses by default. */
export const DEFAULT_DIALOG_TAGS: Readonly<Record<DialogMethod, string>> = Object.freeze({
  select: "pi-select",
  confirm: "pi-confirm",
  input: "pi-input",
  editor: "pi-editor",
});

/** The core's rule for the dialog that comes next (earliest deadline, else oldest), exported here as before. */
export { nextDialog };

/** A title as one line of plain text, for names and the queue bar. */
function plainTitle(dialog: PendingDialog): string {
  return stripAnsi(dialog.request.title).replace(/\s+/g, " ").trim();
}

/**
 * The all-in-one extension-UI host. It shows one of the session's pending dialogs with the element registered for
 * its method in `dialogTags` (by default `pi-select`, `pi-confirm`, `pi-input`, `pi-editor`) inside the one overlay
 * it owns (a `<dialog>`: inline, or modal) and, when more are waiting, a queue bar: "1 of 3" with
 * Previous and Next buttons, so every pending dialog can be reached, answered or dismissed (Esc or Cancel sends
 * `cancelled`, which pi accepts even for a dialog it already gave up on).
 *
 * Which dialog shows is the session's store's choice (`UiSnapshot.shownDialogId`, the core's rule), so a host built
 * on the store alone shows the same one:
 * - The dialog shown stays until it is answered, expires or is closed by the agent, or the user moves to another
 *   (Previous / Next go through `session.showDialog`): a dialog that arrives never takes the place of the one being
 *   answered.
 * - When the shown dialog leaves, the next is the waiting dialog with the earliest deadline, else the oldest.
 * - While a dialog with a deadline waits behind the shown one, the queue bar shows a button with its countdown
 *   ("⏱ 4s · Quick! Pick a colour") that brings it up, and a screen reader hears once that it is waiting.
 * So a timed dialog never expires unseen. When the queue empties, focus returns to where it was before the first
 * dialog opened; if that control is gone or disabled by then (or nothing had focus), to the slotted content (the
 * pi-prompt). Each dialog keeps its element (and what was typed in it) while it is pending.
 *
 * - Inline (default): the dialog shows above the slotted content, which stays usable (put a `<pi-prompt>` in the
 *   slot: the user can still write to pi while a dialog waits).
 * - `modal`: the `<dialog>` is opened with `showModal()` (top layer, the page behind is inert). Escape cancels the
 *   dialog (`source: "keyboard"`), and so does a click on the backdrop (`source: "backdrop"`).
 *
 * When the session ends for good (`close()`, a stream transport whose readable ended, a WebSocket past its reconnect
 * attempts), its dialogs leave with it: the overlay closes and an alert says that the agent is gone, naming the
 * questions that were left unanswered. Nothing is sent, and no `pi-submit` / `pi-cancel` fires for them.
 *
 * With `sync-title`, the session's title (pi's `setTitle`) is mirrored into `document.title`; the page's own title
 * comes back when the attribute is removed or the element leaves the document.
 *
 * @slot - The page's own controls, usually a `<pi-prompt>`: shown below an inline dialog, behind a modal one.
 * Answers go out through the dialog elements, so their `pi-submit` / `pi-cancel` events bubble out of this one.
 *
 * @event pi-submit - From the shown dialog element: it was answered (`{value}` or `{confirmed}`).
 * @event pi-cancel - From the shown dialog element: it closed without an answer. `detail: { source: "keyboard" | "button" | "timeout" | "backdrop" }`.
 * @event pi-request-close - From the shown dialog element, before Escape, a backdrop click or its Cancel button cancels it; cancelable: `preventDefault()` keeps it shown and sends nothing to pi. `detail: { source: "keyboard" | "backdrop" | "button" }`.
 *
 * @csspart base - The `<dialog>` that holds the queue bar and the shown dialog, inline or modal.
 * @csspart dialog - The same as `base`: its earlier name, kept as an alias.
 * @csspart queue - The queue bar, present while more than one dialog is pending.
 * @csspart queue-position - "1 of 3".
 * @csspart button - Each button of the queue bar.
 * @csspart queue-previous-button - The Previous button.
 * @csspart queue-next-button - The Next button.
 * @csspart queue-timed-button - The button that brings up a timed dialog waiting behind the shown one.
 * @csspart queue-button - The same as `button` on the Previous and Next buttons: their earlier shared name, kept as an
 *   alias.
 * @csspart queue-previous - The same as `queue-previous-button`: its earlier name, kept as an alias.
 * @csspart queue-next - The same as `queue-next-button`: its earlier name, kept as an alias.
 * @csspart queue-timed - The same as `queue-timed-button`: its earlier name, kept as an alias.
 * @csspart dialog-element - The pi-select / pi-confirm / pi-input / pi-editor element.
 * @csspart session-ended - The alert shown once the session has ended for good (the agent is gone).
 * @cssprop --pi-color-bg - The modal's background.
 * @cssprop --pi-color-border - The modal's border.
 */
export class PiExtensionUi extends PiElement {
  static override styles = styles;

  static override properties = {
    session: { attribute: false },
    modal: { type: Boolean, reflect: true },
    syncTitle: { type: Boolean, attribute: "sync-title" },
    dialogTags: { attribute: false },
  };

  /**
   * The session whose dialogs are shown; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /** Show dialogs in a modal `<dialog>` (top layer) instead of inline. */
  declare modal: boolean;
  /** Mirror the session's title into `document.title`. */
  declare syncTitle: boolean;
  /**
   * The element tag each dialog method is shown with; replace an entry to use an element of your own (one with
   * `session`, `request`, `hosted` and `cancel(source)`, as the four dialog elements have) or one registered under
   * another name.
   */
  declare dialogTags: Readonly<Record<DialogMethod, string>>;

  readonly #store = new SessionStoreController<HostSlice>(this, (s) => ({
    dialogs: s.dialogs,
    shown: shownDialog(s),
    title: s.title,
    connection: s.connection,
    connectionEnd: s.connectionEnd,
  }));
  /** The countdown of the timed dialog waiting behind the shown one, for the queue bar. */
  readonly #waitingCountdown = new CountdownController(this);
  /** The `<dialog>`: open while any dialog is pending, focus back to where it was when the queue empties. */
  readonly #overlay = new OverlayController(this, {
    onCancel: (source) => this.#cancelCurrent(source),
    focusTarget: () => {
      const id = this.current?.id;
      return id === undefined ? undefined : this.#elements.get(id);
    },
    // The shown dialog element answers Escape in its own content (and leaves the one that ends a composition).
    ignoreEscape: (event) => {
      const id = this.current?.id;
      const element = id === undefined ? undefined : this.#elements.get(id);
      return element !== undefined && event.composedPath().includes(element);
    },
    // The control that opened the dialog is gone or disabled (a suggestion button while pi works): the slotted
    // content whose place the dialog took, usually the pi-prompt, is where the user goes on.
    returnFallback: () => this.shadowRoot?.querySelector("slot")?.assignedElements()[0] as HTMLElement | undefined,
  });
  /** The titles of the dialogs pending while the session was open, for the alert once it has ended. */
  #pendingTitles: readonly string[] = [];
  /** Set once the session has ended: the titles of the dialogs it left unanswered. */
  #unansweredAtEnd: readonly string[] | undefined;
  /** The dialog that last got focus. */
  #focusedId: string | undefined;
  /** The timed dialog the queue bar counts down for. */
  #waitingTimedId: string | undefined;
  /** Ids already announced as waiting. */
  #announced = new Set<string>();
  #announcement = "";
  #pageTitle: string | undefined;
  /** One element per pending dialog, made for its id: a new request never inherits another's state. */
  #elements = new Map<string, HostedDialog>();
  /** The session those elements were made for: in another session, the same id names another dialog. */
  #elementsSession: PiSession | undefined;

  constructor() {
    super();
    this.modal = false;
    this.syncTitle = false;
    this.dialogTags = DEFAULT_DIALOG_TAGS;
  }

  get #dialogs(): readonly PendingDialog[] {
    return this.#store.value?.dialogs ?? [];
  }

  /** The dialog being shown, if any: the one the session's store names (`UiSnapshot.shownDialogId`). */
  get current(): PendingDialog | undefined {
    return this.#store.value?.shown;
  }

  /**
   * Shows the pending dialog with this id (focus moves into it), through the session (`session.showDialog`), so
   * every host of the session shows it; false when no such dialog is pending.
   */
  showDialog(id: string): boolean {
    const session = this.#store.session;
    if (!session?.showDialog(id)) return false;
    // The store tells its subscribers a microtask later; take its choice now, for the update this requests.
    this.#store.refresh();
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
      this.#focusedId = undefined;
      this.#pendingTitles = [];
      this.#unansweredAtEnd = undefined;
    }
    const dialogs = this.#dialogs;
    const current = this.current;
    if (this.#store.value?.connection === "closed") this.#unansweredAtEnd ??= this.#pendingTitles;
    else this.#pendingTitles = dialogs.map((dialog) => plainTitle(dialog) || this.#t("untitledDialog"));
    // Opening remembers focus before the first dialog of a run covers the page (modal) or takes it (inline).
    this.#overlay.set(current !== undefined && session !== undefined, this.modal);
    if (current && current.id !== this.#focusedId) {
      this.#focusedId = current.id;
      this.#overlay.enter();
    } else if (!current) this.#focusedId = undefined;
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
      this.#waitingCountdown.start(timed?.deadline, this.#clock);
    }
    if (current) this.#announced.add(current.id);
    const arrived = behind.filter((dialog) => !this.#announced.has(dialog.id));
    if (arrived.length === 0) return;
    for (const dialog of arrived) this.#announced.add(dialog.id);
    const now = this.#clock.now();
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

  /** The session's clock: its dialogs' deadlines are on it. */
  get #clock() {
    return this.#store.session?.clock ?? realClock;
  }

  #t(key: StringKey, values?: Record<string, string | number>): string {
    return localizeOwn(this, key, values);
  }

  protected override render() {
    const dialogs = this.#dialogs;
    const current = this.current;
    const session = this.#store.session;
    const element = current && session ? this.#dialogElement(current, session) : undefined;
    const content = current && element ? html`${this.#queueBar(dialogs, current)}${element}` : nothing;
    // The one name and description of the dialog, as text: the shown element's heading and message are in its own
    // shadow root, which no id reference from here reaches.
    const overlay = this.#overlay.render(content, {
      role: element?.dialogRole,
      label: current && element ? plainTitle(current) : undefined,
      description: element?.description,
    });
    const status = html`<span class="visually-hidden" role="status">${this.#announcement}</span>${this.#sessionEnded()}`;
    return this.modal ? html`${status}<slot></slot>${overlay}` : html`${status}${overlay}<slot></slot>`;
  }

  /** Rendered only once the session has ended, so the alert is announced when it appears. */
  #sessionEnded() {
    const unanswered = this.#unansweredAtEnd;
    if (unanswered === undefined || !this.#store.session) return nothing;
    return html`<p part="session-ended" role="alert">${this.#t(sessionEndKey(this.#store.value?.connectionEnd))}${
      unanswered.length > 0
        ? html` ${this.#t("unansweredAtEnd", {
            titles: unanswered.join(this.#t("listSeparator")),
          })}`
        : nothing
    }</p>`;
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
        part="button queue-previous-button queue-button queue-previous"
        aria-label=${this.#t("queuePrevious")}
        ?disabled=${previous === undefined}
        @click=${() => previous && this.showDialog(previous.id)}
      ><span aria-hidden="true" class="arrow">‹</span></button>
      <span part="queue-position" dir="auto">${this.#t("queuePosition", { index: index + 1, total: dialogs.length })}</span>
      <button
        part="button queue-next-button queue-button queue-next"
        aria-label=${this.#t("queueNext")}
        ?disabled=${next === undefined}
        @click=${() => next && this.showDialog(next.id)}
      ><span aria-hidden="true" class="arrow">›</span></button>
      ${
        timed && seconds !== undefined
          ? html`<button part="button queue-timed-button queue-timed" @click=${() => this.showDialog(timed.id)}>
              ⏱ ${this.#t("secondsLeft", { seconds })} · <bdi>${plainTitle(timed)}</bdi>
            </button>`
          : nothing
      }
    </nav>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has("syncTitle") || this.syncTitle) this.#syncTitle();
  }

  /**
   * The element registered for the dialog's method in `dialogTags`, made once per dialog (so what was typed in it
   * stays while it is pending) and given the session and the request: it reads the dialog's deadline from the
   * session's store, on the session's clock, and answers through the session.
   */
  #dialogElement(dialog: PendingDialog, session: PiSession): HostedDialog {
    let element = this.#elements.get(dialog.id);
    if (element === undefined) {
      element = document.createElement(this.dialogTags[dialog.request.method]) as HostedDialog;
      element.setAttribute("part", "dialog-element");
      element.hosted = true;
      element.session = session;
      element.request = dialog.request;
      this.#elements.set(dialog.id, element);
      // Its description (message, deadline) is known once it has rendered: name the overlay with it then.
      void (element as HostedDialog & { updateComplete?: Promise<unknown> }).updateComplete?.then(() =>
        this.requestUpdate(),
      );
    }
    return element;
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

  /**
   * Escape or a backdrop click on the overlay: `pi-request-close` from the dialog element first (a page may keep it
   * open), then the cancel through it, so it fires its own `pi-cancel` with this source.
   */
  #cancelCurrent(source: OverlayCancelSource): void {
    const id = this.current?.id;
    const element = id === undefined ? undefined : this.#elements.get(id);
    if (!element || (source === "backdrop" && element.arming)) return;
    if (requestClose(element, source)) element.cancel(source);
  }
}
