import type { ConfirmRequest } from "@pi-elements/core";
import { html, type TemplateResult } from "lit";
import { ansiStyles } from "../../ansi/ansi.styles.js";
import { renderAnsi } from "../../ansi/render-ansi.js";
import { asText, DialogElement } from "../../base/dialog-element.js";
import { dialogStyles } from "../../base/dialog-element.styles.js";
import { tokens } from "../../theme/tokens.js";
import { confirmStyles } from "./confirm.styles.js";

/**
 * A yes/no question (pi's `ctx.ui.confirm`): an alertdialog with a heading, a message whose line breaks are kept,
 * and localized Yes / No buttons. No, the least destructive choice, has focus when it opens (as WAI-ARIA's
 * alert-dialog pattern asks), so an Enter meant for something else never says Yes; the arrow keys move between the
 * two; Esc cancels. Like every dialog element it arms first (`arming-time`): see DialogElement.
 * Inline by default; `modal` for a top-layer dialog. See DialogElement for the three ways to drive it.
 *
 * @event pi-submit - `{confirmed: boolean}`: Yes or No was chosen.
 * @event pi-cancel - `{source: "keyboard" | "button" | "timeout" | "backdrop"}`: closed without an answer.
 * @event pi-request-close - The user is dismissing the dialog, before it is cancelled; cancelable: `preventDefault()` keeps it open and sends nothing. `detail: { source: "keyboard" | "backdrop" }`.
 * @csspart base - The `<dialog>` box (none when shown by pi-extension-ui, which draws the frame).
 * @csspart dialog - The same as `base`: its earlier name, kept as an alias.
 * @csspart content - The heading, body and actions.
 * @csspart heading - The title line, with the countdown.
 * @csspart countdown - "(5s)" after the title while a timeout runs.
 * @csspart session-ended - The alert shown when the dialog's session has ended: the answer can no longer be sent.
 * @csspart error - The alert shown when the session refused an answer (nothing was sent; the dialog stays open).
 * @csspart message - The message text.
 * @csspart actions - The row of buttons.
 * @csspart button - Each button.
 * @csspart yes-button - The Yes button.
 * @csspart no-button - The No button.
 * @csspart arming - The bar that fills while the dialog arms (present only then).
 * @cssprop --pi-color-accent - Heading and primary button colour.
 */
export class PiConfirm extends DialogElement<ConfirmRequest, boolean> {
  static override styles = [tokens, ansiStyles, dialogStyles, confirmStyles];
  static override properties = { message: { type: String } };

  /** The question's details; line breaks are shown as line breaks. */
  declare message: string;
  protected readonly method = "confirm" as const;

  constructor() {
    super();
    this.message = "";
  }

  /** @internal */
  override readonly dialogRole = "alertdialog";

  protected override get describedBy(): string[] {
    return this.message ? ["message"] : [];
  }

  protected applyRequest(request: ConfirmRequest): void {
    this.message = asText(request.message);
  }

  protected ownRequest(id: string): ConfirmRequest {
    return { type: "extension_ui_request", id, method: "confirm", title: this.heading, message: this.message };
  }

  protected focusTarget(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>("[part~=no-button]");
  }

  /** Answers Yes (true, the default) or No (false), as a click on that button would. */
  submit(confirmed = true): boolean {
    return this.answer({ confirmed });
  }

  /**
   * The same as `submit(confirmed)`.
   * @deprecated Use `submit(confirmed)`, the answer verb every dialog element shares; `confirm` goes in the next
   * release.
   */
  confirm(confirmed: boolean): boolean {
    return this.submit(confirmed);
  }

  #onKeydown(event: KeyboardEvent): void {
    // Any of the four arrow keys.
    if (!event.key.startsWith("Arrow")) return;
    event.preventDefault();
    const buttons = [...this.renderRoot.querySelectorAll<HTMLButtonElement>(".actions button")];
    const other = buttons.find((button) => button !== this.renderRoot.querySelector(":focus"));
    other?.focus();
  }

  protected renderBody(): TemplateResult {
    return html`${this.message ? html`<p id="message" part="message" class="message">${renderAnsi(this.message)}</p>` : ""}
      <div part="actions" class="actions" @keydown=${this.#onKeydown}>
        <button part="button yes-button" class="primary" @click=${() => this.submit(true)}>${this.t("yes")}</button>
        <button part="button no-button" @click=${() => this.submit(false)}>${this.t("no")}</button>
      </div>`;
  }
}
