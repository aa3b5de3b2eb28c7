import type { AgentExit, CommandType, PiSession, TransportState } from "@pi-elements/core";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { emit } from "../../controllers/events.js";
import { ImeGuardController } from "../../controllers/ime-guard-controller.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localizeOwn } from "../../i18n/localize.js";
import type { StringKey, StringTable } from "../../i18n/strings.js";
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
 * The same actions are buttons. Empty or blank messages are not sent. The text clears once the agent accepted it;
 * if the command fails, the text stays and `pi-send-error` fires. While the session is not connected, sending is
 * disabled and the connection state is shown. When the bridge reports that the agent process ended, an alert says
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
 * @csspart button - Every button; each also has its own part: `send`, `steer`, `follow-up`, `abort`.
 * @csspart status - The connection state while not connected (a polite live region).
 * @csspart agent-exit - The alert shown while the agent is not running; announced once when it appears.
 * @csspart stderr - The last lines the agent wrote to stderr before it exited (inside `agent-exit`).
 * @cssprop --pi-color-accent - Border of the send button.
 * @cssprop --pi-color-error - The stop button and the mark beside the agent-exit alert.
 * @cssprop --pi-font-family-mono - The text field's font.
 */
export class PiPrompt extends LitElement {
  static override styles = styles;
  static override shadowRootOptions: ShadowRootInit = { ...LitElement.shadowRootOptions, delegatesFocus: true };

  static override properties = {
    session: { attribute: false },
    value: { type: String },
    disabled: { type: Boolean, reflect: true },
    placeholder: { type: String },
    strings: { attribute: false },
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
   * Per-element string overrides.
   * @default undefined
   */
  declare strings: StringTable | undefined;
  /** A command is in flight. */
  #busy = false;

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

  /** Whether a message can go out now: no session, or a session whose transport is open and whose agent runs. */
  get canSend(): boolean {
    // Without a session there is no connection to wait for.
    const connected = (this.#store.value?.connection ?? "open") === "open";
    return !this.disabled && !this.#busy && connected && this.agentExit === undefined;
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
    // Each state but "open" is shown, under its own string key.
    const state = this.#store.value?.connection;
    const blocked = !this.canSend;
    const button = (part: string, key: StringKey, onClick: () => void, disabled = blocked) =>
      html`<button type="button" part="button ${part}" ?disabled=${disabled} @click=${onClick}>${localizeOwn(this, key)}</button>`;
    return html`<div part="base">
      <textarea
        part="textarea"
        rows="1"
        aria-label=${label}
        placeholder=${label}
        ?disabled=${this.disabled}
        .value=${this.value}
        @input=${this.#onInput}
        @keydown=${this.#onKeyDown}
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
      <span part="status" role="status">${state && state !== "open" ? localizeOwn(this, state) : nothing}</span>
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

  #onInput(event: InputEvent): void {
    this.value = (event.target as HTMLTextAreaElement).value;
  }

  #onKeyDown(event: KeyboardEvent): void {
    if (this.#ime.isComposing(event)) return;
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
    const session = this.#store.session;
    if (session) {
      this.#setBusy(true);
      try {
        await session.send(command, { message });
      } catch (error) {
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
