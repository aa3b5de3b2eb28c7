import type { EditorRequest } from "@pi-elements/core";
import { html, type PropertyValues, type TemplateResult } from "lit";
import { ansiStyles } from "../../ansi/ansi.styles.js";
import { asText, DialogElement } from "../../base/dialog-element.js";
import { dialogStyles } from "../../base/dialog-element.styles.js";
import { tokens } from "../../theme/tokens.js";
import { editorStyles } from "./editor.styles.js";

export type EditorSubmitKey = "enter" | "mod-enter";

/**
 * A multi-line text question (pi's `ctx.ui.editor`), filled with the request's prefill. As in pi, Enter submits and
 * Shift+Enter inserts a newline; `submit-on="mod-enter"` makes Ctrl+Enter (Cmd+Enter on macOS) submit and Enter
 * insert a newline instead. The field grows with its content (`field-sizing: content`, measured where that is not
 * supported). The answer is the text exactly as edited: tabs, U+2028, emoji, CJK, trailing newlines kept (the
 * platform turns a CR LF in a prefill into LF, as every textarea does). Enter that commits an IME composition
 * never submits. Tab moves focus out, so the dialog stays keyboard-navigable.
 *
 * @event pi-submit - `{value: string}`: the edited text.
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
 * @csspart textarea - The text area.
 * @csspart hint - Which key submits.
 * @csspart actions - The row of buttons.
 * @csspart button - Each button.
 * @csspart submit-button - Submits the text.
 * @csspart cancel-button - Cancels.
 * @cssprop --pi-font-family-mono - The text area's font.
 */
export class PiEditor extends DialogElement<EditorRequest, string> {
  static override styles = [tokens, ansiStyles, dialogStyles, editorStyles];
  static override properties = {
    value: { type: String },
    submitOn: { type: String, attribute: "submit-on", reflect: true },
  };

  /** The text; the prefill when opening, then follows editing. */
  declare value: string;
  /** Which key submits: "enter" (pi's convention, the default) or "mod-enter" (Ctrl/Cmd+Enter). */
  declare submitOn: EditorSubmitKey;
  protected readonly method = "editor" as const;

  constructor() {
    super();
    this.value = "";
    this.submitOn = "enter";
  }

  protected applyRequest(request: EditorRequest): void {
    this.value = asText(request.prefill);
  }

  protected ownRequest(id: string): EditorRequest {
    return { type: "extension_ui_request", id, method: "editor", title: this.heading, prefill: this.value };
  }

  protected focusTarget(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector("textarea");
  }

  /** Answers with the current text, as Enter (or the Submit button) does. */
  submit(): boolean {
    return this.answer({ value: this.focusTarget()?.value ?? this.value });
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.#fitHeight();
  }

  /** Where `field-sizing: content` is not in effect (an older browser, or a page overriding it), measure instead. */
  #fitHeight(): void {
    const area = this.focusTarget();
    if (!area?.isConnected) return;
    const sizing = getComputedStyle(area).getPropertyValue("field-sizing");
    if (sizing === "content") {
      area.style.removeProperty("height");
      return;
    }
    area.style.height = "auto";
    area.style.height = `${area.scrollHeight + area.offsetHeight - area.clientHeight}px`;
  }

  #onKeydown(event: KeyboardEvent): void {
    if (event.key !== "Enter" || this.ime.isComposing(event)) return;
    const mod = event.ctrlKey || event.metaKey;
    const submits = this.submitOn === "mod-enter" ? mod : !event.shiftKey && !event.altKey;
    if (!submits) return;
    event.preventDefault();
    this.submit();
  }

  protected renderBody(): TemplateResult {
    const hintKey = this.submitOn === "mod-enter" ? "editorHintModEnter" : "editorHint";
    return html`<textarea
        dir="auto"
        part="textarea"
        aria-labelledby="heading"
        aria-describedby="hint"
        rows="3"
        spellcheck="false"
        .value=${this.value}
        @input=${(event: Event) => {
          this.value = (event.target as HTMLTextAreaElement).value;
          this.#fitHeight();
        }}
        @keydown=${this.#onKeydown}
      ></textarea>
      <p id="hint" part="hint" class="hint">${this.t(hintKey)}</p>
      <div part="actions" class="actions">
        <button part="button cancel-button" @click=${() => this.requestCancel("button")}>${this.t("cancel")}</button>
        <button part="button submit-button" class="primary" @click=${() => this.submit()}>${this.t("submit")}</button>
      </div>`;
  }
}
