import type { PiSession } from "@pi-elements/core";
import { css, html, nothing, type TemplateResult } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { PiElement } from "../../base/pi-element.js";
import { ConversationStoreController } from "../../controllers/conversation-store-controller.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localize, localizeIn } from "../../i18n/localize.js";
import { emit } from "../../internal/events.js";
import { agentDown } from "../../internal/session-end.js";
import { tokens } from "../../theme/tokens.js";
import { type SessionActionsStringKey, sessionActionsStrings } from "./strings.js";

/** The actions, by the command each sends. */
export type SessionAction = "new" | "compact" | "name" | "fork" | "export";

/** The actions that replace or rewrite the conversation: pi would stop its run for them, so they wait for it. */
const DISRUPTIVE: ReadonlySet<SessionAction> = new Set(["new", "compact", "fork"]);

/**
 * What pi's TUI does with its built-in session commands, as buttons: `/new` (after a confirmation: it replaces the
 * conversation on screen), `/compact` (with optional instructions for the summary), `/name`, `/fork` (from an
 * earlier user message, chosen from pi's `get_fork_messages`) and `/export` (to HTML, on pi's machine; the path pi
 * wrote is shown).
 *
 * | button | sends |
 * |---|---|
 * | New session | `{type: "new_session"}` |
 * | Compact… | `{type: "compact"}` or `{type: "compact", customInstructions}` |
 * | Name… | `{type: "set_session_name", name}` (trimmed; pi refuses an empty name, so Save waits for one) |
 * | Fork… | `{type: "get_fork_messages"}`, then `{type: "fork", entryId}` |
 * | Export HTML | `{type: "export_html"}` |
 *
 * Each dialog is a native modal `<dialog>`: focus starts in it (on Cancel in New session's confirmation: a stray
 * Enter must not wipe the conversation), Esc cancels, and focus goes back to the button that opened it. A button
 * that cannot act now is `aria-disabled` rather than `disabled`: it keeps its focus while its own action runs (an
 * export, a compaction), so the focus never falls to the page's body; a press then does nothing. While pi streams or
 * compacts, New session, Compact and Fork are disabled that way (pi would abort its run for them) and the reason is
 * shown; Name and Export stay. The session's conversation store resets and reloads itself
 * from pi's answers (the core's refresh rule); an extension that cancels (`cancelled: true`) is reported. pi's
 * refusal shows beside the buttons, in words.
 *
 * @event pi-fork - pi forked: `detail: { text }`, the text of the message forked from (pi's TUI puts it in the
 *   editor; a page can put it in its pi-prompt).
 * @csspart base - The row of buttons (a group named "Session").
 * @csspart button - Each button; also `new-button`, `compact-button`, `name-button`, `fork-button`, `export-button`,
 *   and in a dialog `cancel-button`, `confirm-button` (New session's, Compact's, Name's Save) and `fork-option-button`.
 * @csspart cancel-button - A dialog's Cancel.
 * @csspart confirm-button - A dialog's action: "Start new session", "Compact", "Save".
 * @csspart session-name - The session's name, once it has one ("Session: my work"), before the buttons.
 * @csspart reason - Why some buttons are disabled.
 * @csspart status - What the last action did, or that pi is still answering.
 * @csspart error - pi's refusal, in an alert.
 * @csspart dialog - The `<dialog>` of a confirmation, instructions, a name or a fork choice.
 * @csspart fork-option-button - One message to fork from.
 * @csspart fork-option - The same as `fork-option-button`: its earlier name, kept as an alias.
 * @cssprop --pi-color-error - The error text and the New session confirmation.
 */
export class PiSessionActions extends PiElement {
  static override styles = [
    tokens,
    css`
      :host {
        display: block;
      }
      [part~="base"] {
        display: flex;
        flex-wrap: wrap;
        gap: calc(var(--_space) / 2);
      }
      button {
        font: inherit;
        color: var(--_text);
        background: var(--_surface);
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: 0.2em 0.7em;
        cursor: pointer;
      }
      button:disabled,
      button[aria-disabled="true"] {
        color: var(--_muted);
        cursor: not-allowed;
      }
      [part~="session-name"] {
        align-self: center;
        max-inline-size: 24em;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        color: var(--_muted);
      }
      [part~="reason"],
      [part~="status"] {
        color: var(--_muted);
        margin: 0.3em 0 0;
      }
      [part~="error"] {
        color: var(--_error);
        margin: 0.3em 0 0;
      }
      dialog {
        color: var(--_text);
        background: var(--_bg);
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: calc(var(--_space) * 2);
        max-inline-size: min(36rem, 90vw);
      }
      dialog::backdrop {
        background: rgb(0 0 0 / 0.35);
      }
      dialog h2 {
        font-size: 1.1em;
        margin: 0 0 var(--_space);
      }
      dialog p {
        margin: 0 0 var(--_space);
      }
      label {
        display: block;
        margin-block-end: 0.25em;
      }
      textarea,
      input {
        box-sizing: border-box;
        inline-size: 100%;
        font: inherit;
        color: var(--_text);
        background: var(--_bg);
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: 0.3em 0.5em;
      }
      .actions {
        display: flex;
        justify-content: flex-end;
        gap: var(--_space);
        margin-block-start: var(--_space);
      }
      .danger {
        color: var(--_bg);
        background: var(--_error);
        border-color: var(--_error);
      }
      [part~="fork-list"] {
        list-style: none;
        margin: 0;
        padding: 0;
        max-block-size: 50vh;
        overflow-y: auto;
      }
      [part~="fork-option"] {
        display: block;
        inline-size: 100%;
        text-align: start;
        margin-block-end: 0.25em;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        max-block-size: 6lh;
        overflow: hidden;
      }
    `,
  ];

  static override properties = {
    session: { attribute: false },
    dialogFor: { state: true },
    busy: { state: true },
    status: { state: true },
    error: { state: true },
    forkMessages: { state: true },
    nameText: { state: true },
  };

  /**
   * The session to act on; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /** @internal */
  declare dialogFor: SessionAction | undefined;
  /**
   * The action whose command pi is answering.
   * @internal
   */
  declare busy: SessionAction | undefined;
  /** @internal */
  declare status: string | undefined;
  /** @internal */
  declare error: string | undefined;
  /**
   * pi's answer to `get_fork_messages` while the fork dialog is open; undefined while it loads.
   * @internal
   */
  declare forkMessages: ReadonlyArray<{ entryId: string; text: string }> | undefined;
  /** @internal */
  declare nameText: string;

  readonly #store = new ConversationStoreController(this, (s) => ({ name: s.info.sessionName }));
  /**
   * Whether the agent process is gone (the bridge reported its exit: no action can reach pi then), and whether pi
   * works or compacts (the session's run: the disruptive actions wait).
   */
  readonly #agent = new SessionStoreController(this, (s) => ({
    ...agentDown(s),
    working: s.run.working,
    compacting: s.run.compacting,
  }));
  /** The button that opened the dialog, focused again when it closes. */
  #opener: HTMLElement | undefined;
  /**
   * Which opening of a dialog this is: each is a <dialog> element of its own, so that the close event of the one
   * before (a browser fires it a task or a frame after the dialog closed) cannot close the next.
   */
  #opening = 0;

  constructor() {
    super();
    this.nameText = "";
  }

  #t(key: SessionActionsStringKey, values?: Record<string, string | number>): string {
    return localizeIn(sessionActionsStrings, this, key, values, this.strings as never);
  }

  #actionName(action: SessionAction): string {
    return this.#t(action).replace(/…$/, "");
  }

  /** Why the disruptive actions (every action, while the agent is down) are disabled now; undefined while they are not. */
  get #reason(): SessionActionsStringKey | undefined {
    const value = this.#agent.value;
    if (value?.down) return "agentDown";
    return value?.compacting ? "busyCompacting" : value?.working ? "busyStreaming" : undefined;
  }

  /** The words for `reason`: an ended session's own (a refused token says what to do) over "pi is not running". */
  #why(reason: SessionActionsStringKey): string {
    return reason === "agentDown" && this.#agent.value?.ended ? localize(this, "sessionEndedShort") : this.#t(reason);
  }

  /** Whether the reason holds for `action`. */
  #blocks(action: SessionAction): boolean {
    const reason = this.#reason;
    return reason === "agentDown" || (reason !== undefined && DISRUPTIVE.has(action));
  }

  /** Whether `action` can be started now. */
  canRun(action: SessionAction): boolean {
    return !!this.#store.session && !this.busy && !this.#blocks(action);
  }

  /** Starts `action` as its button does: opens its dialog, or (Export HTML) sends at once. */
  start(action: SessionAction): void {
    if (!this.canRun(action)) return;
    if (action === "export") {
      void this.#run("export", () => this.#store.session!.send("export_html", {}, { report: false }));
      return;
    }
    this.#opener = this.renderRoot.querySelector<HTMLElement>(`[part~="${action}-button"]`) ?? undefined;
    this.error = undefined;
    this.#opening += 1;
    this.dialogFor = action;
    if (action === "name") this.nameText = this.#store.now()?.name ?? "";
    if (action === "fork") {
      this.forkMessages = undefined;
      this.#store
        .session!.send("get_fork_messages", {}, { report: false })
        .then((data) => {
          if (this.dialogFor === "fork") this.forkMessages = Array.isArray(data?.messages) ? data.messages : [];
        })
        .catch((error: unknown) => {
          if (this.dialogFor !== "fork") return;
          this.#closeDialog();
          this.error = this.#t("failed", { action: this.#actionName("fork"), error: message(error) });
        });
    }
    void this.updateComplete.then(() => {
      const dialog = this.renderRoot.querySelector("dialog");
      if (dialog && !dialog.open) dialog.showModal();
    });
  }

  /** Sends one action's command; its answer becomes the status line, its failure the error line. */
  async #run(action: SessionAction, send: () => Promise<unknown>): Promise<void> {
    this.busy = action;
    this.error = undefined;
    this.status = this.#t("working", { action: this.#actionName(action) });
    try {
      const data = (await send()) as { cancelled?: unknown; path?: unknown; text?: unknown } | undefined;
      if (data?.cancelled === true) this.status = this.#t("cancelled", { action: this.#actionName(action) });
      else if (action === "export" && typeof data?.path === "string")
        this.status = this.#t("exported", { path: data.path });
      else {
        this.status = this.#t("done", { action: this.#actionName(action) });
        if (action === "fork") emit(this, "pi-fork", { text: typeof data?.text === "string" ? data.text : "" });
      }
    } catch (error) {
      this.status = undefined;
      this.error = this.#t("failed", { action: this.#actionName(action), error: message(error) });
    } finally {
      this.busy = undefined;
    }
  }

  #closeDialog(): void {
    const dialog = this.renderRoot.querySelector("dialog");
    if (dialog?.open) dialog.close();
    else this.#onDialogClose();
  }

  /**
   * The dialog closed (Esc, Cancel or a confirmed action): focus goes back to its button. A close event from a dialog
   * that is no longer the one shown (another action was started before it came) changes nothing.
   */
  #onDialogClose = (event?: Event) => {
    if (event && event.target !== this.renderRoot.querySelector("dialog")) return;
    if (!this.dialogFor) return;
    this.dialogFor = undefined;
    this.forkMessages = undefined;
    const opener = this.#opener;
    this.#opener = undefined;
    void this.updateComplete.then(() => opener?.focus());
  };

  #confirm(event: Event): void {
    event.preventDefault();
    const action = this.dialogFor;
    const session = this.#store.session;
    if (!action || !session || !this.canRun(action)) return;
    const form = event.target as HTMLFormElement;
    if (action === "new") {
      this.#closeDialog();
      void this.#run("new", () => session.send("new_session", {}, { report: false }));
    } else if (action === "compact") {
      const instructions = (form.elements.namedItem("instructions") as HTMLTextAreaElement).value.trim();
      this.#closeDialog();
      void this.#run("compact", () =>
        session.send("compact", instructions ? { customInstructions: instructions } : {}, { report: false }),
      );
    } else if (action === "name") {
      const name = this.nameText.trim();
      if (!name) return;
      this.#closeDialog();
      void this.#run("name", () => session.send("set_session_name", { name }, { report: false }));
    }
  }

  #fork(entryId: string): void {
    const session = this.#store.session;
    if (!session || !this.canRun("fork")) return;
    this.#closeDialog();
    void this.#run("fork", () => session.send("fork", { entryId }, { report: false }));
  }

  #renderDialogBody(action: SessionAction): TemplateResult {
    const cancel = html`<button type="button" part="button cancel-button" @click=${() => this.#closeDialog()}>${this.#t("cancel")}</button>`;
    // A destructive confirmation opens on its safe choice.
    const cancelFirst = html`<button type="button" part="button cancel-button" autofocus @click=${() => this.#closeDialog()}>${this.#t("cancel")}</button>`;
    // pi began a run or a compaction while the dialog was open: the action waits, and says why.
    const reason = DISRUPTIVE.has(action) ? this.#reason : undefined;
    const blocked = reason ? html`<p id="dialog-reason" part="reason">${this.#why(reason)}</p>` : nothing;
    const describedBy = reason ? "dialog-reason" : nothing;
    switch (action) {
      case "new":
        return html`<form @submit=${this.#confirm}>
          <h2 id="dialog-title">${this.#t("newTitle")}</h2>
          <p id="dialog-body">${this.#t("newBody")}</p>
          ${blocked}
          <div class="actions">
            ${cancelFirst}<button class="danger" part="button confirm-button" type="submit" ?disabled=${!!reason} aria-describedby=${describedBy}>${this.#t("newConfirm")}</button>
          </div>
        </form>`;
      case "compact":
        return html`<form @submit=${this.#confirm}>
          <h2 id="dialog-title">${this.#t("compactTitle")}</h2>
          <p id="dialog-body">${this.#t("compactBody")}</p>
          <label for="instructions">${this.#t("compactInstructions")}</label>
          <textarea id="instructions" name="instructions" rows="3" dir="auto" autofocus></textarea>
          ${blocked}
          <div class="actions">
            ${cancel}<button type="submit" part="button confirm-button" ?disabled=${!!reason} aria-describedby=${describedBy}>${this.#t("compactConfirm")}</button>
          </div>
        </form>`;
      case "name":
        return html`<form @submit=${this.#confirm}>
          <h2 id="dialog-title">${this.#t("nameTitle")}</h2>
          <label for="session-name">${this.#t("nameField")}</label>
          <input
            id="session-name"
            name="name"
            dir="auto"
            autocomplete="off"
            autofocus
            .value=${this.nameText}
            @input=${(event: Event) => {
              this.nameText = (event.target as HTMLInputElement).value;
            }}
          />
          <div class="actions">
            ${cancel}<button type="submit" part="button confirm-button" ?disabled=${this.nameText.trim() === ""}>${this.#t("nameConfirm")}</button>
          </div>
        </form>`;
      default: {
        const messages = this.forkMessages;
        return html`<h2 id="dialog-title">${this.#t("forkTitle")}</h2>
          <p id="dialog-body">${this.#t("forkBody")}</p>
          ${
            messages === undefined
              ? html`<p part="status" role="status">${this.#t("forkLoading")}</p>`
              : messages.length === 0
                ? html`<p part="status" role="status">${this.#t("forkNone")}</p>`
                : html`<ul part="fork-list" aria-labelledby="dialog-title">
                  ${messages.map(
                    (m) => html`<li>
                      <button
                        part="button fork-option-button fork-option"
                        type="button"
                        dir="auto"
                        data-entry-id=${m.entryId}
                        ?disabled=${!!reason}
                        aria-describedby=${describedBy}
                        @click=${() => this.#fork(m.entryId)}
                      >${m.text}</button>
                    </li>`,
                  )}
                </ul>`
          }
          ${blocked}
          <div class="actions">${cancel}</div>`;
      }
    }
  }

  protected override render() {
    const reason = this.#reason;
    const actions: SessionAction[] = ["new", "compact", "name", "fork", "export"];
    const name = this.#store.value?.name;
    return html`<div part="base" role="group" aria-label=${this.#t("label")}>
        ${name ? html`<span part="session-name" dir="auto" title=${name}>${this.#t("named", { name })}</span>` : nothing}
        ${actions.map(
          (action) => html`<button
            part="button ${action}-button"
            type="button"
            aria-haspopup=${action === "export" ? nothing : "dialog"}
            aria-describedby=${this.#blocks(action) ? "reason" : nothing}
            aria-disabled=${this.canRun(action) ? nothing : "true"}
            @click=${() => this.start(action)}
          >
            ${this.#t(action)}
          </button>`,
        )}
      </div>
      ${reason ? html`<p id="reason" part="reason">${this.#why(reason)}</p>` : nothing}
      <p part="status" role="status">${this.status ?? ""}</p>
      ${this.error ? html`<p part="error" role="alert">${this.error}</p>` : nothing}
      ${
        this.dialogFor
          ? keyed(
              this.#opening,
              html`<dialog
                part="dialog"
                aria-labelledby="dialog-title"
                aria-describedby=${this.dialogFor === "name" ? nothing : "dialog-body"}
                @close=${this.#onDialogClose}
              >
                ${this.#renderDialogBody(this.dialogFor)}
              </dialog>`,
            )
          : nothing
      }`;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-fork": CustomEvent<{ text: string }>;
  }
}
