/**
 * What the four dialog elements (pi-select, pi-confirm, pi-input, pi-editor) share, written once.
 *
 * Design
 * - A dialog renders inline by default, in place of the prompt as pi's TUI does: a non-modal `<dialog>` in
 *   the flow of the page. With the `modal` attribute it uses `showModal()` instead (top layer, inert page,
 *   backdrop click cancels with source "backdrop"). The host element `pi-extension-ui` embeds these inline.
 * - Three ways to drive one:
 *   1. Standalone: set `heading` (not `title`, which is HTMLElement's tooltip), the element's own fields and
 *      `timeout` (ms), then `show()` or set the `open` attribute; listen for `pi-submit` / `pi-cancel`.
 *   2. As a promise: `await el.ask()` opens it and resolves with the answer, or undefined when cancelled;
 *      `await PiSelect.ask({ heading, options })` does the same with a throw-away modal element.
 *   3. From a session: give it `request` (a DialogRequest from the core) and `session` (or an ancestor
 *      `<pi-session>`); it fills itself from the request, opens, and answers with `session.respond(id, answer)`,
 *      the one answer path. `deadline` (a time on `clock`, e.g. PendingDialog.deadline) overrides `timeout` so a
 *      dialog that waited in a queue shows the time really left.
 *   Whatever the driver, an answer is given at most once per opening, and always also as an event. A
 *   session-driven dialog also closes when the session drops its request (the session's deadline: `pi-cancel`
 *   with source "timeout"; the agent exiting or another client answering: closed quietly, `ask()` gives undefined).
 * - One level of inheritance, no mixins: this base class holds the shared properties, the answer path and the
 *   frame (heading, countdown, description); each element adds its own fields, body and keys.
 * - Behaviour lives in controllers: CountdownController ("Title (5s)"; screen readers get the deadline once as
 *   the dialog's description, the ticking number is aria-hidden), KeyGuardController (a key press that started
 *   before the dialog opened never answers it), ImeGuardController (Enter that commits an IME composition never
 *   submits), FocusReturnController (focus in on open, back on close).
 * - Esc cancels (source "keyboard") unless an IME composition owns it. pi's Ctrl+C is left to the browser (copy).
 */

import { ContextConsumer } from "@lit/context";
import type { DialogAnswer, DialogRequest } from "@pi-elements/core";
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from "lit";
import { renderAnsi } from "../ansi/render-ansi.js";
import { sessionContext } from "../context.js";
import { localizeOwn } from "../i18n/localize.js";
import type { StringKey, StringTable } from "../i18n/strings.js";
import { isBackdropClick } from "./backdrop-click.js";
import { type Clock, CountdownController, realClock } from "./countdown-controller.js";
import { emit } from "./events.js";
import { FocusReturnController } from "./focus-return-controller.js";
import { ImeGuardController } from "./ime-guard-controller.js";
import { KeyGuardController } from "./key-guard-controller.js";

export type { Clock } from "./countdown-controller.js";

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

declare global {
  interface GlobalEventHandlersEventMap {
    /** A dialog was answered: `{value}` (select, input, editor) or `{confirmed}` (confirm). */
    "pi-submit": CustomEvent<PiSubmitDetail>;
    /** A dialog closed without an answer, and why. */
    "pi-cancel": CustomEvent<PiCancelDetail>;
  }
}

/** What a dialog needs from a session: the one answer path. A PiSession is one. */
export interface DialogResponder {
  respond(id: string, answer: DialogAnswer): boolean;
}

export abstract class DialogElement<R extends DialogRequest, A> extends LitElement {
  /** Lit gives subclasses these too: an element's own `properties` lists only what it adds. */
  static override properties: PropertyDeclarations = {
    heading: { type: String },
    timeout: { type: Number },
    deadline: { type: Number, attribute: false },
    open: { type: Boolean, reflect: true },
    modal: { type: Boolean, reflect: true },
    session: { attribute: false },
    request: { attribute: false },
    clock: { attribute: false },
    strings: { attribute: false },
  };

  /** The dialog's title. Named `heading` because `title` is every element's tooltip. */
  declare heading: string;
  /** Milliseconds before the dialog cancels itself (source "timeout"); none when undefined. */
  declare timeout: number | undefined;
  /** Absolute deadline on `clock`; wins over `timeout`. */
  declare deadline: number | undefined;
  declare open: boolean;
  /** Use a modal `<dialog>` (top layer) instead of rendering inline. */
  declare modal: boolean;
  /** Where answers go when `request` is set; otherwise the ancestor `<pi-session>`'s session. */
  declare session: DialogResponder | undefined;
  /** A dialog request from the core: fills the element, opens it, and is answered through the session. */
  declare request: R | undefined;
  /** Time source for the countdown; the session's clock when counting towards a session deadline. */
  declare clock: Clock;
  /** Per-element string overrides (see setStrings for page-wide ones). */
  declare strings: StringTable | undefined;

  /** The request method this element answers. */
  protected abstract readonly method: R["method"];

  readonly #countdown = new CountdownController(this, () => this.cancel("timeout"));
  readonly #keyGuard = new KeyGuardController(this);
  protected readonly ime = new ImeGuardController(this);
  readonly #focusReturn = new FocusReturnController(this);
  readonly #context = new ContextConsumer(this, {
    context: sessionContext,
    subscribe: true,
    callback: () => this.#watchSession(),
  });
  /** The session whose "dialog-closed" events this element follows. */
  #watched: EventTarget | undefined;
  #answered = false;
  #initialSeconds: number | undefined;
  #focusPending = false;
  #waiters: Array<(answer: A | undefined) => void> = [];

  constructor() {
    super();
    // timeout, deadline, session, request and strings start undefined.
    this.heading = "";
    this.open = false;
    this.modal = false;
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

  /** Cancels the dialog as if the user had; the session (if any) gets `{cancelled: true}`. */
  cancel(source: DialogCancelSource = "button"): boolean {
    return this.answer({ cancelled: true }, source);
  }

  /** The session answers go to: the `session` property, else the provided one. */
  get effectiveSession(): DialogResponder | undefined {
    return this.session ?? this.#context.value;
  }

  /** Fills the element's own fields from a request of its method. */
  protected abstract applyRequest(request: R): void;
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
  /** "alertdialog" for a confirmation; otherwise undefined, the `<dialog>` element's own role. */
  protected readonly dialogRole: "alertdialog" | undefined;
  /** Ids of elements that describe the dialog besides its deadline. */
  protected get describedBy(): string[] {
    return [];
  }

  protected t(key: StringKey, values?: Record<string, string | number>): string {
    return localizeOwn(this, key, values);
  }

  /**
   * Answers once: closes, sends to the session when session-driven, fires `pi-submit` or `pi-cancel`, and
   * settles `ask()`. Returns false (and does nothing) when the dialog is not open or already answered.
   */
  protected answer(answer: DialogAnswer, source: DialogCancelSource = "button"): boolean {
    if (!this.#close()) return false;
    const request = this.request;
    if (request) this.effectiveSession?.respond(request.id, answer);
    if ("cancelled" in answer) {
      emit(this, "pi-cancel", { source });
      this.#settle(undefined);
    } else {
      emit(this, "pi-submit", answer);
      this.#settle(this.askResult(answer));
    }
    return true;
  }

  /**
   * Closes the dialog as answered, once per opening: false (and nothing done) when it is not open or already
   * answered. Marked answered first, so a session reporting the request closed meanwhile is ignored.
   */
  #close(): boolean {
    if (!this.open || this.#answered) return false;
    this.#answered = true;
    this.open = false;
    this.#countdown.stop();
    return true;
  }

  #settle(result: A | undefined): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve(result);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("request") && this.request) {
      const request = this.request;
      if (request.method === this.method) {
        this.heading = asText(request.title);
        const timeout = (request as { timeout?: unknown }).timeout;
        this.timeout = typeof timeout === "number" ? timeout : undefined;
        // A deadline belongs to one request: a new request without one counts from its own timeout.
        if (!changed.has("deadline")) this.deadline = undefined;
        this.applyRequest(request);
        // A new request is a new question, even if the previous one was never closed.
        if (this.open) this.#opened();
        this.open = true;
      } else {
        // A request for another kind of dialog is not ours to show or answer.
        this.request = undefined;
      }
    }
    if (changed.has("open")) {
      if (this.open) this.#opened();
      else if (changed.get("open") === true) this.#closed();
    }
  }

  #opened(): void {
    this.#answered = false;
    this.#keyGuard.arm();
    this.#focusReturn.remember();
    this.#focusPending = true;
    this.onOpen();
    // As in pi, a timeout of 0 (or less) means none; so does one that is not a finite number (NaN, Infinity):
    // the countdown ignores a deadline that is not finite. A deadline already past cancels at once.
    const timeout = this.timeout ?? 0;
    const deadline = Number.isFinite(this.deadline)
      ? this.deadline
      : timeout > 0
        ? this.clock.now() + timeout
        : undefined;
    this.#countdown.start(deadline, this.clock);
    this.#initialSeconds = this.#countdown.seconds;
    if (!this.open) this.#closed();
  }

  #closed(): void {
    this.#countdown.stop();
    this.#focusReturn.restore();
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (changed.has("session")) this.#watchSession();
    const dialog = this.renderRoot.querySelector("dialog");
    if (!dialog) return;
    if (this.open && !dialog.open) {
      if (this.modal) dialog.showModal();
      else dialog.show();
    } else if (!this.open && dialog.open) {
      dialog.close();
    }
    if (this.open && this.#focusPending) {
      this.#focusPending = false;
      this.focusTarget()?.focus();
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#watchSession();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#watchSession();
    // Removed while open (e.g. the session closed it remotely): no answer is sent, but ask() must not hang.
    if (this.open && !this.#answered) this.#settle(undefined);
  }

  /**
   * Follows the session's "dialog-closed" events while connected, so a session-driven dialog closes when its
   * request leaves the queue for a reason other than this element's answer: the session's own deadline, the
   * agent exiting, another client answering (bridge), or another element answering through the same session.
   */
  #watchSession(): void {
    const session = this.isConnected ? this.effectiveSession : undefined;
    const target = session instanceof EventTarget ? session : undefined;
    if (target === this.#watched) return;
    this.#watched?.removeEventListener("dialog-closed", this.#onDialogClosed);
    this.#watched = target;
    target?.addEventListener("dialog-closed", this.#onDialogClosed);
  }

  readonly #onDialogClosed = (event: Event): void => {
    const closed = (event as Event & { value?: { id?: unknown; reason?: unknown } }).value;
    if (closed?.id !== this.request?.id || !this.#close()) return;
    // Its deadline is a timeout like our own; otherwise nobody waits for an answer any more: close quietly.
    if (closed?.reason === "timeout") emit(this, "pi-cancel", { source: "timeout" });
    this.#settle(undefined);
  };

  // Lit calls template event listeners with `this` set to the element, so these need no binding.
  /** Esc from any control in the dialog, after the control's own handler (which may claim it). */
  #onKeydown(event: KeyboardEvent): void {
    if (event.key === "Escape" && this.open && !event.defaultPrevented && !this.ime.isComposing(event)) {
      event.preventDefault();
      this.cancel("keyboard");
    }
  }

  #onNativeCancel(event: Event): void {
    // A modal <dialog>'s own close request (Esc); the keydown handler normally gets there first.
    event.preventDefault();
    this.cancel("keyboard");
  }

  #onDialogClick(event: MouseEvent): void {
    if (this.modal && isBackdropClick(event)) this.cancel("backdrop");
  }

  protected override render(): TemplateResult {
    const seconds = this.#countdown.seconds;
    const describedBy = [...this.describedBy];
    if (this.#initialSeconds !== undefined) describedBy.push("deadline");
    return html`<dialog
      part="dialog"
      role=${this.dialogRole ?? nothing}
      aria-labelledby="heading"
      aria-describedby=${describedBy.length ? describedBy.join(" ") : nothing}
      @keydown=${this.#onKeydown}
      @cancel=${this.#onNativeCancel}
      @click=${this.#onDialogClick}
    >
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
      ${this.renderBody()}
    </dialog>`;
  }
}
