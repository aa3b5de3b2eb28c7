/**
 * What the four dialog elements (pi-select, pi-confirm, pi-input, pi-editor) share, written once.
 *
 * Design
 * - A dialog element is a view. The dialog itself (its queue, its deadline timer, its one answer) belongs to a
 *   session (`DialogSession`: `ui`, `clock`, `respond`): pi's `PiSession`, or the element's own `LocalSession` when it
 *   is used on its own. Every way of using one runs the same path: the element shows a `PendingDialog` of its
 *   session's store, counts down towards its `deadline` on the session's clock, answers with `session.respond`, and
 *   closes when the dialog leaves the store (past its deadline: `pi-cancel` with source "timeout"; otherwise, e.g.
 *   the agent exited or another client answered, quietly). It never cancels on its own. When its session ends for
 *   good (`connection` "closed"), it stays open with what was typed and says that the answer can no longer be
 *   sent; a cancel then closes it without an event. An answer `respond` refuses is never reported as given: no
 *   `pi-submit` / `pi-cancel`, the dialog stays open and says why.
 * - Three ways to drive one:
 *   1. Standalone: set `heading` (not `title`, which is HTMLElement's tooltip), the element's own fields and
 *      `timeout` (ms), then `show()` or set the `open` attribute; listen for `pi-submit` / `pi-cancel`. The
 *      element queues the question in its own LocalSession (on `clock`). A page answers it with `submit()` or
 *      `cancel()`, as the user does with the keyboard or the buttons.
 *   2. As a promise: `await el.ask()` opens it and resolves with the answer, or undefined when cancelled;
 *      `await PiSelect.ask({ heading, options })` does the same with a throw-away modal element.
 *   3. From a session: give it `request` (a pending DialogRequest) and `session` (or an ancestor `<pi-session>`);
 *      it fills itself from the request and opens. Without a session, a request is asked locally as in 1.
 *   Whatever the driver, an answer is given at most once per opening, and always also as an event.
 * - The overlay (the `<dialog>`, inline or `modal`, backdrop, focus in and back) is an OverlayController. Inside
 *   `pi-extension-ui`, which owns the overlay for the dialogs it shows, the element is `hosted` and renders only its
 *   heading, body and actions.
 * - One level of inheritance, no mixins: this base class holds the shared properties, the answer path and the
 *   frame (heading, countdown, description); each element adds its own fields, body and keys.
 * - Behaviour lives in controllers: CountdownController ("Title (5s)"; screen readers get the deadline once as
 *   the dialog's description, the ticking number is aria-hidden), PressGuardController (the arming time: a key
 *   press, click or tap that began before the dialog had been on screen for `armingTime` never answers it),
 *   ImeGuardController (Enter that commits an IME composition never submits), OverlayController.
 * - Arming: for `armingTime` ms (default `DialogElement.defaultArmingTime`, 500) after it comes on screen (opens,
 *   or is shown again by pi-extension-ui's queue), the dialog's controls are `aria-disabled` and dimmed, and a bar
 *   (part `arming`) fills under them (without motion under `prefers-reduced-motion`); presses that begin meanwhile
 *   do nothing. Escape works at once: cancelling is never destructive. The time runs on the session's clock.
 * - Esc cancels (source "keyboard") unless an IME composition owns it. pi's Ctrl+C is left to the browser (copy).
 * - The user's cancels (Escape, the backdrop, Cancel) fire a cancelable `pi-request-close` first: a page that
 *   prevents it keeps the dialog open, and nothing is sent. `pi-submit` and `pi-cancel` report what was sent and
 *   cannot be stopped; a deadline cannot be vetoed either (pi has given up on the dialog by then).
 */

import { ContextConsumer } from "@lit/context";
import { type Clock, type DialogAnswer, type DialogRequest, type PendingDialog, realClock } from "@pi-elements/core";
import { type DialogSession, LocalSession } from "@pi-elements/core/dialogs";
import {
  html,
  type LitElement,
  nothing,
  type PropertyDeclarations,
  type PropertyValues,
  type TemplateResult,
} from "lit";
import { stripAnsi } from "../ansi/parse-ansi.js";
import { renderAnsi } from "../ansi/render-ansi.js";
import { sessionContext } from "../context.js";
import { CountdownController } from "../controllers/countdown-controller.js";
import { ImeGuardController } from "../controllers/ime-guard-controller.js";
import { OverlayController } from "../controllers/overlay-controller.js";
import { PressGuardController } from "../controllers/press-guard-controller.js";
import { localizeOwn } from "../i18n/localize.js";
import type { StringKey } from "../i18n/strings.js";
import { type CloseRequestSource, emit, requestClose } from "../internal/events.js";

export type { CloseRequestSource };

import { PiElement } from "./pi-element.js";

/**
 * A request's text field as text: requests from a session are validated, but one built by hand may carry
 * anything; missing becomes "", anything else its string form.
 */
export function asText(value: unknown): string {
  return value == null ? "" : String(value);
}

export type DialogCancelSource = "keyboard" | "button" | "timeout" | "backdrop";
export interface PiCancelDetail {
  source: DialogCancelSource;
}
export type PiSubmitDetail = { value: string } | { confirmed: boolean };
export interface PiRequestCloseDetail {
  source: CloseRequestSource;
}

declare global {
  interface GlobalEventHandlersEventMap {
    /** A dialog was answered: `{value}` (select, input, editor) or `{confirmed}` (confirm). */
    "pi-submit": CustomEvent<PiSubmitDetail>;
    /** A dialog closed without an answer, and why. */
    "pi-cancel": CustomEvent<PiCancelDetail>;
    /**
     * The user is dismissing a dialog (Escape, the backdrop, Cancel); cancelable: `preventDefault()` keeps it open
     * and sends nothing.
     */
    "pi-request-close": CustomEvent<PiRequestCloseDetail>;
  }
}

let localIds = 0;

export abstract class DialogElement<R extends DialogRequest, A> extends PiElement {
  /** Besides PiElement's `theme` and `strings`. Lit gives subclasses these too: each lists only what it adds. */
  static override properties: PropertyDeclarations = {
    heading: { type: String },
    timeout: { type: Number },
    armingTime: { type: Number, attribute: "arming-time" },
    open: { type: Boolean, reflect: true },
    modal: { type: Boolean, reflect: true },
    hosted: { type: Boolean, attribute: false },
    session: { attribute: false },
    request: { attribute: false },
    clock: { attribute: false },
  };

  /** The dialog's title. Named `heading` because `title` is every element's tooltip. */
  declare heading: string;
  /** Standalone: milliseconds before the dialog cancels (source "timeout"); none when undefined. */
  declare timeout: number | undefined;
  /**
   * Milliseconds after the dialog comes on screen during which a key press, click or tap that begins does nothing
   * (its controls show they are not active yet); 0 turns it off. Read each time the dialog comes on screen.
   * Undefined: `DialogElement.defaultArmingTime` (500 ms), which a page may change for every dialog element,
   * including the ones pi-extension-ui makes.
   * @default undefined
   */
  declare armingTime: number | undefined;
  declare open: boolean;
  /** Use a modal `<dialog>` (top layer) instead of rendering inline. */
  declare modal: boolean;
  /**
   * Set by a host that owns the overlay (`pi-extension-ui`): the element renders only its heading, body and
   * actions, and the host names the dialog, opens it and moves focus. Between the element and its host only.
   * @internal
   */
  declare hosted: boolean;
  /**
   * The session `request` is pending in; without it, an ancestor `<pi-session>`'s. A `PiSession`, as on every
   * element, or any other `DialogSession` (`ui`, `clock`, `respond`: the core's `LocalSession`, a test double): a
   * dialog element only shows and answers one dialog, and asks no more of its session.
   * @default undefined
   */
  declare session: DialogSession | undefined;
  /** A dialog request pending in the session: fills the element, opens it, and is answered through the session. */
  declare request: R | undefined;
  /** The clock of the element's own session (standalone, `ask()`); a session's dialog counts on `session.clock`. */
  declare clock: Clock;

  /** The request method this element answers. */
  protected abstract readonly method: R["method"];

  readonly #countdown = new CountdownController(this);
  readonly #pressGuard = new PressGuardController(this);
  protected readonly ime = new ImeGuardController(this);
  readonly #overlay = new OverlayController(this, {
    onCancel: (source) => this.requestCancel(source),
    focusTarget: () => this.focusTarget(),
    // Escape that ends an IME composition (Safari's comes after compositionend) is the input method's.
    ignoreEscape: (event) => this.ime.isComposing(event),
  });
  readonly #context = new ContextConsumer(this, {
    context: sessionContext,
    subscribe: true,
    // A request asked before the provided session arrived (or of another session) moves to the provided one.
    callback: (session) => {
      if (this.request && !this.session && session && this.#driver !== session) this.requestUpdate("request");
    },
  });
  /** The element's own session, for standalone use; made again when `clock` changes. */
  #local: LocalSession | undefined;
  /** The session whose dialog is shown, the dialog's id, and what its store last said about it. */
  #driver: DialogSession | undefined;
  #id: string | undefined;
  #pending: PendingDialog | undefined;
  #unsubscribe: (() => void) | undefined;
  #answered = false;
  /** Why the last answer was not taken, shown in the dialog until it opens again. */
  #refusal: "refused" | "session-ended" | undefined;
  #initialSeconds: number | undefined;
  #waiters: Array<(answer: A | undefined) => void> = [];

  /**
   * The arming time of every dialog element whose own `armingTime` is not set, in ms. 500: the platform
   * double-click interval Chromium's own dialogs ignore clicks for after they show (a second press of a double press
   * comes 100–500 ms after the first), half of Firefox's `security.dialog_enable_delay` (1000 ms, for prompts an
   * attacker may time), and shorter than reading the question takes.
   */
  static defaultArmingTime = 500;

  constructor() {
    super();
    // timeout, armingTime, session, request and strings start undefined.
    this.heading = "";
    this.open = false;
    this.modal = false;
    this.hosted = false;
    this.clock = realClock;
  }

  /**
   * Asks once with a throw-away modal dialog: creates the element (its tag must be defined), sets `init` on it,
   * appends it to `parent` (default `document.body`), and resolves with the answer (undefined when cancelled),
   * removing the element afterwards. `await PiConfirm.ask({ heading: "Delete?", message })`.
   */
  static async ask<T extends HTMLElement & { modal: boolean; ask(): Promise<unknown> }>(
    this: new () => T,
    init: Partial<Omit<T, keyof LitElement>>,
    parent: Node = document.body,
  ): Promise<Awaited<ReturnType<T["ask"]>>> {
    const el = new this();
    el.modal = true;
    Object.assign(el, init);
    parent.appendChild(el);
    try {
      return (await el.ask()) as Awaited<ReturnType<T["ask"]>>;
    } finally {
      el.remove();
    }
  }

  /** Opens the dialog (same as setting `open`). */
  show(): void {
    this.open = true;
  }

  /** Opens the dialog and resolves with the answer, or undefined when it is cancelled or removed. */
  ask(): Promise<A | undefined> {
    this.show();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Focuses the control an open dialog starts on (the list, the field, Yes), as opening it does. */
  override focus(options?: FocusOptions): void {
    const target = this.open ? this.focusTarget() : undefined;
    if (target) target.focus(options);
    else super.focus(options);
  }

  /**
   * Answers the dialog as the user would (with no argument: the current option, the text typed, Yes): the session
   * (if any) gets the answer, `pi-submit` fires, `ask()` resolves. False (and no event fires) when it is not open,
   * already answered, or the session refused the answer (the dialog then says why).
   * Each element says what its argument is: `PiSelect.submit(index)`, `PiConfirm.submit(confirmed)`.
   */
  abstract submit(): boolean;

  /**
   * Cancels the dialog as if the user had: the session (if any) gets `{cancelled: true}`, `pi-cancel` fires with
   * `source`, `ask()` resolves with undefined. False when it is not open, already answered or refused; once the
   * session has ended, it closes the dialog with no event (nothing can be sent) and returns false.
   */
  cancel(source: DialogCancelSource = "button"): boolean {
    // A click on pi-extension-ui's backdrop while the dialog arms is a stray press like any other.
    if (source === "backdrop" && this.arming) return false;
    return this.answer({ cancelled: true }, source);
  }

  /**
   * The user's cancel (Escape, the backdrop, the Cancel button): a press on the backdrop while the dialog arms does
   * nothing; otherwise `pi-request-close` fires first, and a page that prevents it keeps the dialog open with
   * nothing sent. `cancel()` is the page's own and asks no one.
   */
  protected requestCancel(source: CloseRequestSource): boolean {
    if (!this.open || this.#answered) return false;
    // A click on pi-extension-ui's backdrop while the dialog arms is a stray press like any other.
    if (source === "backdrop" && this.arming) return false;
    if (!requestClose(this, source)) return false;
    return this.cancel(source);
  }

  /** True while the dialog arms: presses that begin now do nothing (Escape still cancels). */
  get arming(): boolean {
    return this.open && this.#pressGuard.arming;
  }

  /** The session `request` is answered through: the `session` property, else an ancestor `<pi-session>`'s. */
  get #effectiveSession(): DialogSession | undefined {
    return this.session ?? this.#context.value;
  }

  /**
   * "alertdialog" for a confirmation; otherwise undefined, the `<dialog>` element's own role. For the overlay's host.
   * @internal
   */
  readonly dialogRole: "alertdialog" | undefined;

  /**
   * The dialog's description as plain text (its message, its deadline), for a host that names the dialog.
   * @internal
   */
  get description(): string {
    const parts = this.describedBy.map((id) => this.renderRoot.querySelector(`#${id}`)?.textContent ?? "");
    if (this.#initialSeconds !== undefined) parts.push(this.t("timeoutNotice", { seconds: this.#initialSeconds }));
    return parts
      .map((part) => stripAnsi(part).replace(/\s+/g, " ").trim())
      .filter(Boolean)
      .join(" ");
  }

  /** Fills the element's own fields from a request of its method. */
  protected abstract applyRequest(request: R): void;
  /** The request the element's own fields make, for its own session. */
  protected abstract ownRequest(id: string): R;
  /** The control that takes focus when the dialog opens. */
  protected abstract focusTarget(): HTMLElement | null | undefined;
  /** The body under the heading: message, list, field, buttons. */
  protected abstract renderBody(): TemplateResult;
  /**
   * The value `ask()` resolves with for a non-cancel answer: its `value` (select, input, editor) or its
   * `confirmed` (confirm). `A` is the type of that one field for the element's kind of answer.
   */
  protected askResult(answer: PiSubmitDetail): A {
    return ("value" in answer ? answer.value : answer.confirmed) as A;
  }
  /** Resets per-question state (a list's current option, a filter) each time the dialog opens. */
  protected onOpen(): void {}
  /** Ids of elements that describe the dialog besides its deadline. */
  protected get describedBy(): string[] {
    return [];
  }

  protected t(key: StringKey, values?: Record<string, string | number>): string {
    return localizeOwn(this, key, values);
  }

  /**
   * Answers once: sends it through the session, closes, fires `pi-submit` or `pi-cancel`, and settles `ask()`.
   * Returns false (and does nothing) when the dialog is not open or already answered. An answer that comes after
   * the dialog's deadline (the session's timer had not run yet) is the timeout. An answer the session refuses is
   * never reported as given: no event fires, and the dialog says why (`#refuse`).
   */
  protected answer(answer: DialogAnswer, source: DialogCancelSource = "button"): boolean {
    if (!this.open || this.#answered) return false;
    if (this.#refusal === "session-ended") {
      // Nothing can be sent any more; a cancel (Escape, the backdrop, Cancel) only closes it, without pi-cancel.
      if ("cancelled" in answer) this.#finish(undefined, source);
      return false;
    }
    const driver = this.#driver;
    const id = this.#id;
    const deadline = this.#pending?.deadline;
    // A question of the element's own is what its fields say now (a page may change them while it is open).
    const local = this.#local;
    if (local !== undefined && driver === local && id !== undefined && !this.request) local.update(this.ownRequest(id));
    // Before respond: a store that tells its views at once (LocalSession) must not see its dialog leave unanswered.
    this.#answered = true;
    if (driver !== undefined && id !== undefined && driver.respond(id, answer)) {
      this.#finish(answer, source);
      return true;
    }
    if (deadline !== undefined && driver !== undefined && driver.clock.now() >= deadline) {
      // The session sent the timeout's `cancelled` itself: that is what the page hears.
      this.#finish({ cancelled: true }, "timeout");
      return true;
    }
    this.#answered = false;
    this.#refuse(driver, id);
    return false;
  }

  /**
   * Why `respond` took no answer, shown in the dialog: its session has ended (the dialog stays on screen with what
   * was typed, saying so, and a cancel closes it), or the dialog is still pending and the answer did not fit it (the
   * user may answer again). A dialog that left its open session (answered by another client a moment ago) closes
   * quietly, as it would have a microtask later.
   */
  #refuse(driver: DialogSession | undefined, id: string | undefined): void {
    const snapshot = driver?.ui.getSnapshot();
    if (snapshot?.connection === "closed") {
      this.#end();
    } else if (snapshot && !snapshot.dialogs.some((dialog) => dialog.id === id)) {
      this.#finish(undefined, "button");
    } else {
      this.#refusal = "refused";
      this.requestUpdate();
    }
  }

  /** The session ended for good while the dialog was open: it stays, says so, and sends nothing more. */
  #end(): void {
    this.#detach();
    this.#refusal = "session-ended";
    this.requestUpdate();
  }

  /** Closes after an answer or the end of the dialog, and tells the page (`answer` undefined: quietly). */
  #finish(answer: DialogAnswer | undefined, source: DialogCancelSource): void {
    this.#answered = true;
    this.#detach();
    this.open = false;
    if (answer === undefined) {
      this.#settle(undefined);
    } else if ("cancelled" in answer) {
      emit(this, "pi-cancel", { source });
      this.#settle(undefined);
    } else {
      emit(this, "pi-submit", answer);
      this.#settle(this.askResult(answer));
    }
  }

  #settle(result: A | undefined): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve(result);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A new request is a new question, even if the previous one was never closed.
    let ask = false;
    if (changed.has("request") && this.request) {
      const request = this.request;
      if (request.method === this.method) {
        this.heading = asText(request.title);
        this.applyRequest(request);
        this.open = true;
        ask = true;
      } else {
        // A request for another kind of dialog is not ours to show or answer.
        this.request = undefined;
      }
    }
    // Opened, or closed and opened again before this update (answered, then show()): a new question either way.
    const opened = changed.has("open") && this.open;
    if (changed.has("open") && changed.get("open") === true && !this.open) this.#detach();
    if (this.open && (ask || opened)) this.#opened();
    this.#overlay.set(this.open && !this.hosted, this.modal);
  }

  #opened(): void {
    this.#detach();
    this.#answered = false;
    this.#refusal = undefined;
    this.onOpen();
    const session = this.request ? this.#effectiveSession : undefined;
    if (this.request && session) {
      this.#attach(session, this.request.id);
    } else {
      // Standalone, or a request with no session: asked in the element's own session.
      if (this.#local?.clock !== this.clock) this.#local = new LocalSession({ clock: this.clock });
      const id = this.request?.id ?? `local-${++localIds}`;
      const timeout = this.request ? (this.request as { timeout?: unknown }).timeout : this.timeout;
      this.#local.open(this.request ?? this.ownRequest(id), typeof timeout === "number" ? timeout : undefined);
      this.#attach(this.#local, id);
    }
    this.#arm();
    // A new question in an overlay already open: focus moves to its first control again.
    if (!this.hosted && this.#overlay.open) this.#overlay.enter();
  }

  /** On screen from now: presses from before never answer, nor those in the arming time (on the session's clock). */
  #arm(): void {
    const clock = this.#driver?.clock ?? this.clock;
    this.#pressGuard.arm(clock, this.#armingMs);
  }

  get #armingMs(): number {
    const ms = this.armingTime ?? (this.constructor as typeof DialogElement).defaultArmingTime;
    return Number.isFinite(ms) && ms > 0 ? ms : 0;
  }

  #attach(session: DialogSession, id: string): void {
    this.#driver = session;
    this.#id = id;
    this.#pending = undefined;
    this.#initialSeconds = undefined;
    this.#unsubscribe = session.ui.subscribe(() => this.#sync());
    this.#sync();
  }

  #detach(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (this.#driver instanceof LocalSession && this.#id !== undefined && this.#driver === this.#local) {
      this.#local.close(this.#id);
    }
    this.#driver = undefined;
    this.#id = undefined;
    this.#pending = undefined;
    this.#countdown.stop();
    this.#pressGuard.stop();
  }

  /** Follows the dialog in its session's store: its deadline while it is there, closing when it leaves. */
  #sync(): void {
    const driver = this.#driver;
    if (!driver) return;
    const snapshot = driver.ui.getSnapshot();
    const pending = snapshot.dialogs.find((dialog) => dialog.id === this.#id);
    if (!pending && snapshot.connection === "closed") {
      // The session ended for good (its dialogs left with it): nothing this dialog says can reach the agent now.
      if (this.open && !this.#answered) this.#end();
      else this.#detach();
    } else if (pending) {
      if (pending === this.#pending) return;
      this.#pending = pending;
      this.#countdown.start(pending.deadline, driver.clock);
      this.#initialSeconds = this.#countdown.seconds;
      this.requestUpdate();
    } else if (this.#pending) {
      // It left the store without this element's answer: past its deadline it timed out, else it ended elsewhere.
      const deadline = this.#pending.deadline;
      const timedOut = deadline !== undefined && driver.clock.now() >= deadline;
      if (this.open && !this.#answered) this.#finish(timedOut ? { cancelled: true } : undefined, "timeout");
      else this.#detach();
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the document while open: follow the dialog again.
    const driver = this.#driver;
    if (driver && !this.#unsubscribe) {
      this.#unsubscribe = driver.ui.subscribe(() => this.#sync());
      this.#sync();
      // Back on screen (pi-extension-ui's queue shows it again): it arms again.
      if (this.open && !this.#answered) this.#arm();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Removed while open (e.g. the session closed it remotely): no answer is sent, but ask() must not hang.
    if (this.open && !this.#answered) this.#settle(undefined);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  // Lit calls template event listeners with `this` set to the element, so these need no binding.
  /** Esc from any control in the dialog, after the control's own handler (which may claim it). */
  #onKeydown(event: KeyboardEvent): void {
    if (event.key === "Escape" && this.open && !event.defaultPrevented && !this.ime.isComposing(event)) {
      event.preventDefault();
      this.requestCancel("keyboard");
    }
  }

  /** Rendered only while an answer stands refused, so the alert is announced when it appears. */
  #renderRefusal() {
    if (this.#refusal === undefined) return nothing;
    return this.#refusal === "session-ended"
      ? html`<p part="session-ended" role="alert">${this.t("dialogSessionEnded")}</p>`
      : html`<p part="error" role="alert">${this.t("answerRefused")}</p>`;
  }

  protected override render(): TemplateResult {
    const seconds = this.#countdown.seconds;
    const describedBy = [...this.describedBy];
    if (this.#initialSeconds !== undefined) describedBy.push("deadline");
    const content = html`<div part="content" class="content" @keydown=${this.#onKeydown}>
      <h2 part="heading" class="heading">
        <span id="heading"
          >${
            this.heading
              ? html`<bdi class="heading-text">${renderAnsi(this.heading)}</bdi>`
              : html`<span class="untitled">${this.t("untitledDialog")}</span>`
          }</span
        >${
          seconds !== undefined
            ? html`<span part="countdown" aria-hidden="true"> (${this.t("secondsLeft", { seconds })})</span>`
            : nothing
        }
      </h2>
      ${
        this.#initialSeconds !== undefined
          ? html`<span id="deadline" class="visually-hidden"
              >${this.t("timeoutNotice", { seconds: this.#initialSeconds })}</span
            >`
          : nothing
      }
      ${this.renderBody()}${this.#renderRefusal()}
      ${
        this.arming
          ? html`<div part="arming" class="arming" aria-hidden="true" .style=${`--_arming-time: ${this.#armingMs}ms`}></div>`
          : nothing
      }
    </div>`;
    if (this.hosted) return content;
    return this.#overlay.render(content, {
      role: this.dialogRole,
      labelledby: "heading",
      describedby: describedBy.join(" "),
    });
  }
}
