import type { InputRequest } from "@pi-elements/core";
import { html, type TemplateResult } from "lit";
import { ansiStyles } from "../../ansi/ansi.styles.js";
import { stripAnsi } from "../../ansi/parse-ansi.js";
import { asText, DialogElement } from "../../base/dialog-element.js";
import { dialogStyles } from "../../base/dialog-element.styles.js";
import { tokens } from "../../theme/tokens.js";

/**
 * A one-line text question (pi's `ctx.ui.input`). The placeholder is shown (pi's terminal drops it). Enter
 * submits, even when the field is empty, except while an IME composition is open; Esc cancels.
 * Inline by default; `modal` for a top-layer dialog. See DialogElement for the three ways to drive it.
 *
 * @event pi-submit - `{value: string}`: the text as typed.
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
 * @csspart input - The text field.
 * @csspart actions - The row of buttons.
 * @csspart button - Each button.
 * @csspart submit-button - Submits the text.
 * @csspart cancel-button - Cancels.
 * @cssprop --pi-color-surface - Field background.
 */
export class PiInput extends DialogElement<InputRequest, string> {
  static override styles = [tokens, ansiStyles, dialogStyles];
  static override properties = {
    placeholder: { type: String },
    value: { type: String },
  };

  declare placeholder: string;
  /** The field's text; starts the field when opening and follows typing. */
  declare value: string;
  protected readonly method = "input" as const;

  constructor() {
    super();
    this.placeholder = "";
    this.value = "";
  }

  protected applyRequest(request: InputRequest): void {
    this.placeholder = asText(request.placeholder);
    this.value = "";
  }

  protected ownRequest(id: string): InputRequest {
    return { type: "extension_ui_request", id, method: "input", title: this.heading, placeholder: this.placeholder };
  }

  protected focusTarget(): HTMLInputElement | null {
    return this.renderRoot.querySelector("input");
  }

  /** Answers with the current text, as Enter (or the Submit button) does. */
  submit(): boolean {
    return this.answer({ value: this.focusTarget()?.value ?? this.value });
  }

  #onKeydown(event: KeyboardEvent): void {
    if (event.key !== "Enter" || this.ime.isComposing(event)) return;
    event.preventDefault();
    this.submit();
  }

  protected renderBody(): TemplateResult {
    return html`<input
        dir="auto"
        part="input"
        type="text"
        aria-labelledby="heading"
        autocomplete="off"
        enterkeyhint="send"
        placeholder=${stripAnsi(this.placeholder)}
        .value=${this.value}
        @input=${(event: Event) => {
          this.value = (event.target as HTMLInputElement).value;
        }}
        @keydown=${this.#onKeydown}
      />
      <div part="actions" class="actions">
        <button part="button cancel-button" @click=${() => this.requestCancel("button")}>${this.t("cancel")}</button>
        <button part="button submit-button" class="primary" @click=${() => this.submit()}>${this.t("submit")}</button>
      </div>`;
  }
}
