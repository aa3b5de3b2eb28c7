import type { AgentExit, CommandType, PiSession, SlashCommand, TransportState } from "@pi-elements/core";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { PiElement } from "../../base/pi-element.js";
import { ImeGuardController } from "../../controllers/ime-guard-controller.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localizeOwn } from "../../i18n/localize.js";
import type { StringKey } from "../../i18n/strings.js";
import { emit } from "../../internal/events.js";
import {
  applyCompletion,
  type CompletionItem,
  completionItems,
  completionQuery,
  matchCompletions,
} from "./command-completion.js";
import { styles } from "./prompt.styles.js";

/** The command a message goes out as: `prompt` when the agent is idle, `steer` or `follow_up` while it streams. */
export type PromptCommand = Extract<CommandType, "prompt" | "steer" | "follow_up">;

/** Detail of `pi-send`. */
export interface PromptSendDetail {
  message: string;
  command: PromptCommand;
}

/** Detail of `pi-send-error`. */
export interface PromptSendErrorDetail extends PromptSendDetail {
  error: unknown;
}

interface PromptSlice {
  editorText: { text: string; seq: number } | undefined;
  streaming: boolean;
  connection: TransportState;
  agentExit: AgentExit | undefined;
}

/**
 * The message box under the agent, as in pi's TUI. `set_editor_text` from the agent replaces its text (every time,
 * even with the same text twice). Keys:
 * - Enter sends: `prompt` while the agent is idle, `steer` while it streams.
 * - Alt+Enter sends `follow_up` while the agent streams (queued until it finishes), `prompt` otherwise.
 * - Shift+Enter inserts a new line; Enter during IME composition never sends.
 * - Escape sends `abort` while the agent streams.
 * - "/" at the start opens the completion of pi's slash commands (extension commands, prompt templates, skills, as
 *   pi's `get_commands` lists them, asked again each time the list opens so it follows pi's current set): typing
 *   filters, Up/Down move, Tab or Enter puts the command in the box, a click too, Escape closes the list. Enter on a
 *   command typed out in full sends it. The text field keeps its textbox role (ARIA allows no combobox role on a
 *   textarea) with the combobox's properties: `aria-haspopup="listbox"`, `aria-autocomplete="list"`, and while the
 *   list is open `aria-controls` and `aria-activedescendant`. An IME composition never opens, moves or accepts.
 * The same actions are buttons. Empty or blank messages are not sent. From sending until pi answers the command
 * (for a slash command, pi answers once the command has run, dialogs and all), the prompt shows it is running:
 * "Running…" in its status, `aria-busy` on its base, the send buttons disabled; Enter sends nothing meanwhile, so a
 * double press never sends the same text twice. The text clears once the agent accepted it;
 * if the command fails, the text stays for a retry, pi's error shows under the box as an alert (until the text
 * changes or is sent again), and `pi-send-error` fires. While the session is not connected, sending is
 * disabled and the connection state is shown; once the session has ended for good (closed, its stream ended, its
 * reconnects ran out) an alert says that the agent is gone, and the text stays in the box. When the bridge reports that the agent process ended, an alert says
 * so ("The agent exited (code 1)", the signal's name when it was killed) with the last lines of its stderr behind a
 * disclosure, and sending stays disabled until the agent starts again. Without a session the element only fires
 * events (and clears).
 *
 * @event pi-send - A message is being sent; cancelable (the session is then not used and the text stays). `detail: { message: string, command: "prompt" | "steer" | "follow_up" }`.
 * @event pi-send-error - The session rejected the command; the text is kept. `detail: { message, command, error }`.
 * @event pi-abort - Escape or the stop button while the agent streams; cancelable.
 * @csspart base - The frame around the text and the buttons.
 * @csspart textarea - The text field.
 * @csspart actions - The buttons.
 * @csspart button - Every button; each also has its own part: `send-button`, `steer-button`, `follow-up-button`,
 *   `abort-button`.
 * @csspart send-button - Sends the message (idle).
 * @csspart steer-button - Sends it as a steering message (while the agent streams).
 * @csspart follow-up-button - Queues it as a follow-up (while the agent streams).
 * @csspart abort-button - Stops the agent (while it streams).
 * @csspart send - The same as `send-button`: its earlier name, kept as an alias.
 * @csspart steer - The same as `steer-button`: its earlier name, kept as an alias.
 * @csspart follow-up - The same as `follow-up-button`: its earlier name, kept as an alias.
 * @csspart abort - The same as `abort-button`: its earlier name, kept as an alias.
 * @csspart status - The connection state while connecting or reconnecting, else "Running…" while a command runs
 *   (a polite live region).
 * @csspart session-ended - The alert shown once the session has ended for good (the agent is gone).
 * @csspart agent-exit - The alert shown while the agent is not running; announced once when it appears.
 * @csspart stderr - The last lines the agent wrote to stderr before it exited (inside `agent-exit`).
 * @csspart error - Why the last message could not be sent: pi's error, in an alert.
 * @csspart completions - The list of matching slash commands.
 * @csspart completion - Each command in it (the current one also has `active`).
 * @csspart completion-name - "/name".
 * @csspart completion-hint - The command's argument hint.
 * @csspart completion-description - The command's description.
 * @cssprop --pi-color-accent - Border of the send button.
 * @cssprop --pi-color-error - The stop button and the mark beside the agent-exit alert.
 * @cssprop --pi-font-family-mono - The text field's font.
 */
export class PiPrompt extends PiElement {
  static override styles = styles;
  static override shadowRootOptions: ShadowRootInit = { ...LitElement.shadowRootOptions, delegatesFocus: true };

  static override properties = {
    session: { attribute: false },
    value: { type: String },
    disabled: { type: Boolean, reflect: true },
    placeholder: { type: String },
    commands: { attribute: false },
  };

  /**
   * The session to send through; without it, an ancestor `<pi-session>`'s; without either, events only.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /** The text in the box. */
  declare value: string;
  /** Nothing can be typed or sent. */
  declare disabled: boolean;
  /**
   * Overrides the localized placeholder (and accessible name) "Message pi".
   * @default undefined
   */
  declare placeholder: string | undefined;
  /**
   * The slash commands to complete. Default: pi's, asked of the session (`get_commands`) each time the list opens.
   * @default undefined
   */
  declare commands: readonly SlashCommand[] | undefined;
  /** A command is in flight. */
  #busy = false;
  /** Why the last message was not sent (pi's error), shown until the text changes or is sent again. */
  #sendError: string | undefined;
  /** The command name being typed after "/", while the caret is in it; undefined when nothing is completed. */
  #query: string | undefined;
  /** The current item of the completion list. */
  #active = 0;
  /** Escape closed the list for this text; it opens again when the text changes. */
  #dismissedFor: string | undefined;
  /** pi's commands as last received, and the number of the latest request for them. */
  #fetched: CompletionItem[] = [];
  #fetchSeq = 0;

  readonly #store = new SessionStoreController<PromptSlice>(this, (s) => ({
    editorText: s.editorText,
    streaming: s.streaming,
    connection: s.connection,
    agentExit: s.agentExit,
  }));
  readonly #ime = new ImeGuardController(this);
  #seenEditorSeq: number | undefined;

  constructor() {
    super();
    this.value = "";
    this.disabled = false;
  }

  /** Whether the agent is streaming (so Enter steers and Escape aborts). */
  get streaming(): boolean {
    return this.#store.value?.streaming ?? false;
  }

  /** How the agent process ended, while the bridge reports it is not running; undefined otherwise. */
  get agentExit(): AgentExit | undefined {
    return this.#store.value?.agentExit;
  }

  /** Whether a command sent from the box is running: sent, and not yet answered by pi. */
  get running(): boolean {
    return this.#busy;
  }

  /** Whether a message can go out now: no session, or a session whose transport is open and whose agent runs. */
  get canSend(): boolean {
    // Without a session there is no connection to wait for.
    const connected = (this.#store.value?.connection ?? "open") === "open";
    return !this.disabled && !this.#busy && connected && this.agentExit === undefined;
  }

  /** The commands that match what is typed after "/", best first; empty while the list is closed. */
  get #matches(): CompletionItem[] {
    if (this.#query === undefined || this.#dismissedFor === this.value) return [];
    const items = this.commands === undefined ? this.#fetched : completionItems(this.commands);
    return matchCompletions(items, this.#query);
  }

  /** After the store controller synced (it runs between willUpdate and update), before rendering. */
  protected override update(changed: PropertyValues<this>): void {
    const editorText = this.#store.value?.editorText;
    if (editorText && editorText.seq !== this.#seenEditorSeq) {
      this.#seenEditorSeq = editorText.seq;
      this.value = editorText.text;
    }
    super.update(changed);
  }

  protected override render() {
    const label = this.placeholder ?? localizeOwn(this, "prompt");
    // "connecting" and "reconnecting" are shown under their own string keys; "closed" is final, an alert of its own.
    const state = this.#store.value?.connection;
    const blocked = !this.canSend;
    const button = (part: string, key: StringKey, onClick: () => void, disabled = blocked) =>
      html`<button type="button" part="button ${part}-button ${part}" ?disabled=${disabled} @click=${onClick}>${localizeOwn(this, key)}</button>`;
    const matches = this.#matches;
    const open = matches.length > 0;
    const active = Math.min(this.#active, matches.length - 1);
    const connecting = state !== undefined && state !== "open" && state !== "closed";
    const status = connecting ? localizeOwn(this, state) : this.#busy ? localizeOwn(this, "running") : "";
    return html`<div part="base" aria-busy=${this.#busy ? "true" : nothing}>
      ${open ? this.#renderCompletions(matches, active) : nothing}
      <textarea
        part="textarea"
        rows="1"
        aria-label=${label}
        aria-haspopup="listbox"
        aria-autocomplete="list"
        aria-controls=${open ? "completions" : nothing}
        aria-activedescendant=${open ? `completion-${active}` : nothing}
        placeholder=${label}
        ?disabled=${this.disabled}
        .value=${this.value}
        @input=${this.#onInput}
        @keydown=${this.#onKeyDown}
        @click=${() => this.#syncQuery()}
        @compositionend=${() => this.#syncQuery(false)}
        @keyup=${this.#onKeyUp}
        @blur=${this.#onBlur}
      ></textarea>
      <div part="actions">
        ${
          this.streaming
            ? html`${button("steer", "steer", () => this.#send("steer"))}
              ${button("follow-up", "followUp", () => this.#send("follow_up"))}
              ${button("abort", "abort", () => this.#abort(), this.disabled)}`
            : button("send", "send", () => this.#send("prompt"))
        }
      </div>
      ${
        this.#sendError === undefined
          ? nothing
          : html`<p part="error" role="alert">${localizeOwn(this, "error")}: ${this.#sendError}</p>`
      }
      <span part="status" role="status" class=${connecting ? "" : "running"}>${status || nothing}</span>
      ${state === "closed" ? html`<p part="session-ended" role="alert">${localizeOwn(this, "sessionEnded")}</p>` : nothing}
      ${this.#renderAgentExit()}
    </div>`;
  }

  /**
   * Rendered only while the agent is down, so the alert is announced when it appears. The same exit reported again
   * (the bridge replays it on every reconnect) renders the same text into the same nodes: no second announcement.
   */
  #renderAgentExit() {
    const exit = this.agentExit;
    if (!exit) return nothing;
    const code = exit.code ?? exit.signal ?? "?";
    const text = localizeOwn(this, "agentExited", { code });
    const tail = exit.stderrTail;
    return html`<div part="agent-exit" role="alert">${
      tail.length > 0
        ? html`<details><summary>${text}</summary><pre part="stderr">${tail.join("\n")}</pre></details>`
        : text
    }</div>`;
  }

  #renderCompletions(matches: readonly CompletionItem[], active: number) {
    return html`<ul
      id="completions"
      part="completions"
      role="listbox"
      aria-label=${localizeOwn(this, "commands")}
      @mousedown=${(event: MouseEvent) => event.preventDefault()}
      @click=${this.#onCompletionClick}
    >
      ${matches.map(
        (item, index) => html`<li
          id="completion-${index}"
          part=${index === active ? "completion active" : "completion"}
          role="option"
          aria-selected=${index === active ? "true" : "false"}
          data-index=${index}
        >
          <span part="completion-name">/${item.name}</span>${
            item.argumentHint ? html` <span part="completion-hint">${item.argumentHint}</span>` : nothing
          }${item.description ? html` <span part="completion-description">${item.description}</span>` : nothing}
        </li>`,
      )}
    </ul>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const list = this.renderRoot.querySelector<HTMLElement>('[part~="completions"]');
    if (!list) return;
    // Above the box, unless there is no room there (a prompt at the top of the page): then below it.
    const base = this.renderRoot.querySelector<HTMLElement>('[part~="base"]');
    const room = base ? base.getBoundingClientRect().top : 0;
    list.classList.toggle("below", room < list.offsetHeight + 2);
    list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
  }

  #onInput(event: InputEvent): void {
    this.value = (event.target as HTMLTextAreaElement).value;
    this.#sendError = undefined;
    this.#syncQuery();
  }

  /** Reads the command being typed from the field (text and caret); asks pi for its commands when the list opens. */
  #syncQuery(composing = this.#ime.composing): void {
    const field = this.renderRoot.querySelector("textarea");
    if (!field) return;
    // While an IME composes, the list stays closed; the composed text is read when the composition ends.
    const query = composing ? undefined : completionQuery(field.value, field.selectionStart ?? 0);
    if (query !== undefined && this.#query === undefined) {
      this.#active = 0;
      void this.#fetchCommands();
    }
    if (query !== this.#query) this.#active = 0;
    this.#query = query;
    this.requestUpdate();
  }

  async #fetchCommands(): Promise<void> {
    const session = this.#store.session;
    if (this.commands !== undefined || !session) return;
    const seq = ++this.#fetchSeq;
    try {
      const data = await session.send("get_commands", {}, { report: false });
      if (seq !== this.#fetchSeq) return;
      this.#fetched = completionItems((data as { commands?: unknown } | undefined)?.commands);
      this.requestUpdate();
    } catch {
      // No list from pi (an older agent, a failed request): the box works without completion.
    }
  }

  #onKeyUp(event: KeyboardEvent): void {
    // The caret moved out of (or back into) the command's word.
    if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) this.#syncQuery();
  }

  #onBlur(): void {
    if (this.#query === undefined) return;
    this.#query = undefined;
    this.requestUpdate();
  }

  #onCompletionClick(event: MouseEvent): void {
    const option = (event.target as Element).closest<HTMLElement>("[role=option]");
    const item = option ? this.#matches[Number(option.dataset["index"])] : undefined;
    if (item) this.#accept(item);
  }

  /** Puts "/name " in the box, caret after it, and closes the list. */
  #accept(item: CompletionItem): void {
    const { value, caret } = applyCompletion(this.value, item.name);
    this.value = value;
    this.#query = undefined;
    const field = this.renderRoot.querySelector("textarea");
    if (field) {
      field.value = value;
      field.setSelectionRange(caret, caret);
      field.focus();
    }
    this.requestUpdate();
  }

  /** The list's keys; true when the key was the list's. */
  #completionKey(event: KeyboardEvent): boolean {
    const matches = this.#matches;
    if (matches.length === 0 || event.altKey || event.ctrlKey || event.metaKey) return false;
    const active = Math.min(this.#active, matches.length - 1);
    const item = matches[active] as CompletionItem;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp":
        this.#active = Math.max(0, Math.min(matches.length - 1, active + (event.key === "ArrowDown" ? 1 : -1)));
        break;
      case "Tab":
        if (event.shiftKey) return false;
        this.#accept(item);
        break;
      case "Enter":
        // A command typed out in full is sent as it is; anything else is completed first.
        if (event.shiftKey || item.name === this.#query) return false;
        this.#accept(item);
        break;
      case "Escape":
        this.#dismissedFor = this.value;
        break;
      default:
        return false;
    }
    event.preventDefault();
    this.requestUpdate();
    return true;
  }

  #onKeyDown(event: KeyboardEvent): void {
    if (this.#ime.isComposing(event)) return;
    if (this.#completionKey(event)) return;
    if (event.key === "Escape" && this.streaming) {
      event.preventDefault();
      this.#abort();
      return;
    }
    if (event.key !== "Enter" || event.shiftKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    this.#send(!this.streaming ? "prompt" : event.altKey ? "follow_up" : "steer");
  }

  async #send(command: PromptCommand): Promise<void> {
    const message = this.value;
    if (!this.canSend || message.trim() === "") return;
    const detail: PromptSendDetail = { message, command };
    if (!emit(this, "pi-send", detail, true)) return;
    // The command is on its way: its completion list closes, even while the text stays until pi answers.
    this.#query = undefined;
    const session = this.#store.session;
    this.#sendError = undefined;
    if (session) {
      this.#setBusy(true);
      try {
        // The error is shown here, beside the text kept for a retry, rather than as a second notification.
        await session.send(command, { message }, { report: false });
      } catch (error) {
        this.#sendError = error instanceof Error ? error.message : String(error);
        emit(this, "pi-send-error", { ...detail, error });
        return;
      } finally {
        this.#setBusy(false);
      }
    }
    // Text typed while the command was in flight is the user's next message: keep it.
    if (this.value === message) this.value = "";
  }

  #setBusy(busy: boolean): void {
    this.#busy = busy;
    this.requestUpdate();
  }

  #abort(): void {
    if (!emit(this, "pi-abort", undefined, true)) return;
    this.#store.session?.send("abort", {}).catch(() => {
      // The agent may already have finished; nothing to tell the user.
    });
  }
}
