import type {
  AgentExit,
  CommandType,
  PiSession,
  RunState,
  SlashCommand,
  TransportEnd,
  TransportState,
} from "@pi-elements/core";
import { canClearQueue, type Queues, restoredEditorText, stopRun, takeBack } from "@pi-elements/core/conversation";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { PiElement } from "../../base/pi-element.js";
import { ConversationSliceController } from "../../controllers/conversation-slice-controller.js";
import { ImeGuardController } from "../../controllers/ime-guard-controller.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localizeOwn, nearestLang } from "../../i18n/localize.js";
import type { StringKey } from "../../i18n/strings.js";
import { emit } from "../../internal/events.js";
import { loginAdvice } from "../../internal/login-advice.js";
import { sessionEndKey } from "../../internal/session-end.js";
import { type Attachment, attach, formatBytes, type ImageContent, refusal } from "./attachments.js";
import {
  applyCompletion,
  type CompletionItem,
  completionItems,
  completionQuery,
  matchCompletions,
} from "./command-completion.js";
import { styles } from "./prompt.styles.js";

/** How many slash commands the completion list shows at a time (pi's TUI shows a window of its list too). */
const COMPLETIONS_SHOWN = 8;

/** The command a message goes out as: `prompt` when the agent is idle, `steer` or `follow_up` while it streams. */
export type PromptCommand = Extract<CommandType, "prompt" | "steer" | "follow_up">;

/** Detail of `pi-send`. */
export interface PromptSendDetail {
  message: string;
  command: PromptCommand;
  /** The attached images, as pi takes them; absent when none is attached. */
  images?: ImageContent[];
}

export type { ImageContent };

/** Detail of `pi-send-error`. */
export interface PromptSendErrorDetail extends PromptSendDetail {
  error: unknown;
}

interface PromptSlice {
  editorText: { text: string; seq: number } | undefined;
  run: RunState;
  connection: TransportState;
  connectionEnd: TransportEnd | undefined;
  agentExit: AgentExit | undefined;
}

interface QueueSlice {
  queue: Queues;
  clearable: boolean;
}

/**
 * The message box under the agent, as in pi's TUI. `set_editor_text` from the agent replaces its text (every time,
 * even with the same text twice). Keys:
 * - Enter sends: `prompt` while the agent is idle, `steer` while it streams.
 * - Alt+Enter sends `follow_up` while the agent streams (queued until it finishes), `prompt` otherwise.
 * - Shift+Enter inserts a new line; Enter during IME composition never sends.
 * - Escape stops the agent while it streams (or compacts, or waits to retry: Stop is shown then too), as pi's TUI does: on pi 1.x it first sends
 *   `clear_queue` and puts the queued messages back into the box (steering, then follow-ups, then the text already
 *   there, an empty line between each), then `abort`. pi 0.73.1 has no `clear_queue`: only `abort` is sent, and pi
 *   keeps the queued messages through it: the list keeps showing them, and pi delivers them with the next message sent.
 *   pi 1.x is told from 0.73.1 by its answer to `get_available_thinking_levels` (`canClearQueue` in the core).
 * - "/" at the start opens the completion of pi's slash commands (extension commands, prompt templates, skills, as
 *   pi's `get_commands` lists them, asked again each time the list opens so it follows pi's current set): typing
 *   filters, Up/Down move (eight commands show at a time, the window following, "3 of 40" under a longer list), Tab or Enter puts the command in the box, a click too, Escape closes the list. Enter on a
 *   command typed out in full sends it. The text field keeps its textbox role (ARIA allows no combobox role on a
 *   textarea) with the combobox's properties: `aria-haspopup="listbox"`, `aria-autocomplete="list"`, and while the
 *   list is open `aria-controls` and `aria-activedescendant`. An IME composition never opens, moves or accepts.
 * The same actions are buttons. Empty or blank messages are not sent (unless images are attached). From sending until pi answers the command
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
 * While the agent works, the status says what it does: "Working…", "Compacting…", "Retrying (2 of 3)…" (a polite
 * live region). Messages pi has queued (its `queue_update`: steering first, then follow-ups, in pi's order) are a
 * list above the box named "Queued messages"; on pi 1.x each has a "Take back" button (named with the message's
 * text) that puts it back into the box. pi cannot remove one message over RPC, so taking one back clears both queues
 * and queues the others again in their order and kind (`takeBack` in the core); a message pi took meanwhile is not
 * taken (the prompt says so). Only the text comes back: pi's queues hold no images. On pi 0.73.1 the list says that
 * queued messages cannot be taken back, and has no buttons. The run state and the queues come from the session's
 * conversation store (`conversationOf(session)` of `@pi-elements/core/conversation`) when the page keeps one (a
 * `pi-transcript`, the full bundle, or the host's own call); the prompt does not make one itself, so the extension
 * UI's single file stays without the conversation's reducer. Without it the prompt shows "Working…" while the agent
 * streams and no queue.
 *
 * Images pasted into the box or dropped on it (PNG, JPEG, GIF, WebP) are attached: thumbnails above the box, each
 * with a remove button, sent as pi's `images` (`{type: "image", data: base64, mimeType}`) with the next prompt, steer
 * or follow-up, and cleared once it is accepted. A file over `maxImageBytes` (default 5 MB), past `maxImages`
 * (default 8), or not such an image is not attached, and an alert says why. Thumbnails are `blob:` URLs (a page whose
 * CSP sets `img-src` needs `blob:` for them), revoked when the image is removed or sent.
 *
 * @event pi-send - A message is being sent; cancelable (the session is then not used and the text stays). `detail: { message: string, command: "prompt" | "steer" | "follow_up", images?: ImageContent[] }`.
 * @event pi-send-error - The session rejected the command; the text is kept. `detail: { message, command, error }`.
 * @event pi-abort - Escape or the stop button while the agent streams; cancelable.
 * @csspart queue - The list of queued messages.
 * @csspart queued - Each queued message; also `steering` or `follow-up`.
 * @csspart queued-kind - "Steer" or "Follow up" before its text.
 * @csspart queued-text - The message's text.
 * @csspart take-back-button - Takes the message back into the box (pi 1.x).
 * @csspart queue-note - Says that this pi cannot take queued messages back (pi 0.73.1).
 * @csspart images - The list of attached images.
 * @csspart image - Each attached image: its thumbnail (`thumbnail`) and remove button (`remove-image-button`).
 * @csspart thumbnail - The image's thumbnail.
 * @csspart remove-image-button - Removes the image.
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
 * @csspart status - The connection state while connecting or reconnecting, else the agent's run ("Working…",
 *   "Compacting…", "Retrying (2 of 3)…"), else "Running…" while a command runs (a polite live region).
 * @csspart session-ended - The alert shown once the session has ended for good (the agent is gone).
 * @csspart agent-exit - The alert shown while the agent is not running; announced once when it appears.
 * @csspart stderr - The last lines the agent wrote to stderr before it exited (inside `agent-exit`).
 * @csspart restart-button - In `agent-exit`: asks the bridge to start the agent again ("Restarting…" until it has).
 * @csspart restart-never - In `agent-exit`, instead of the button, under a bridge that does not restart on request:
 *   says to restart the bridge.
 * @csspart error - Why the last message could not be sent (pi's error), or why an image was not attached, in an alert.
 * @csspart login-advice - In `error`, after pi's advice to use /login (which only pi's terminal runs): how to sign in
 *   instead.
 * @csspart completions - The list of matching slash commands.
 * @csspart completion - Each command in it (the current one also has `active`).
 * @csspart completion-count - "3 of 40" under a list longer than the eight commands shown.
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
    maxImageBytes: { type: Number, attribute: "max-image-bytes" },
    maxImages: { type: Number, attribute: "max-images" },
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
  /**
   * The largest image that can be attached, in bytes.
   * @default 5242880
   */
  declare maxImageBytes: number;
  /**
   * How many images can be attached to one message.
   * @default 8
   */
  declare maxImages: number;
  /** The attached images, in order. */
  #attachments: Attachment[] = [];
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
    run: s.run,
    connection: s.connection,
    connectionEnd: s.connectionEnd,
    agentExit: s.agentExit,
  }));
  readonly #conversation = new ConversationSliceController<QueueSlice>(this, (s) => ({
    queue: s.queue,
    clearable: canClearQueue(s.info),
  }));
  readonly #ime = new ImeGuardController(this);
  #seenEditorSeq: number | undefined;

  constructor() {
    super();
    this.value = "";
    this.disabled = false;
    this.maxImageBytes = 5 * 1024 * 1024;
    this.maxImages = 8;
  }

  /** The images attached to the next message, as pi takes them. */
  get images(): ImageContent[] {
    return this.#attachments.map((attachment) => attachment.image);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#clearImages();
  }

  /** Whether the agent is streaming (so Enter steers and Escape aborts). */
  get streaming(): boolean {
    return this.#store.value?.run.working ?? false;
  }

  /** How the agent process ended, while the bridge reports it is not running; undefined otherwise. */
  get agentExit(): AgentExit | undefined {
    return this.#store.value?.agentExit;
  }

  /**
   * Whether pi compacts or waits to retry outside a stream (0.73.1 ends the run before it retries; a compaction of
   * its own): Stop and Escape then send `abort`, which cancels the retry (and, on 1.x, the compaction).
   */
  get #stoppable(): boolean {
    const status = this.#store.value?.run.status;
    return status === "retrying" || status === "compacting";
  }

  /** Whether a command sent from the box is running: sent, and not yet answered by pi. */
  get running(): boolean {
    return this.#busy;
  }

  /** Whether a message can go out now: no session, or a session whose transport is open and whose agent runs. */
  get canSend(): boolean {
    return !this.#sendBlocked && !this.#busy;
  }

  /** Whether sending is out of the question now (disabled, not connected, the agent down), its own command aside. */
  get #sendBlocked(): boolean {
    // Without a session there is no connection to wait for.
    const connected = (this.#store.value?.connection ?? "open") === "open";
    return this.disabled || !connected || this.agentExit !== undefined;
  }

  /** The commands that match what is typed after "/", best first; empty while the list is closed. */
  get #matches(): CompletionItem[] {
    if (this.#query === undefined || this.#dismissedFor === this.value) return [];
    const items = this.commands === undefined ? this.#fetched : completionItems(this.commands);
    return matchCompletions(items, this.#query);
  }

  /** After the store controller synced (it runs between willUpdate and update), before rendering. */
  protected override update(changed: PropertyValues<this>): void {
    if (this.#restarting && this.agentExit === undefined) this.#restarting = false;
    // A focused button this render takes away (Send when pi starts, Stop, Steer and Follow-up when it ends, Restart
    // with its alert): its focus goes to the box, where the person goes on, never to the page's body.
    const focused = this.shadowRoot?.activeElement;
    const editorText = this.#store.value?.editorText;
    if (editorText && editorText.seq !== this.#seenEditorSeq) {
      this.#seenEditorSeq = editorText.seq;
      this.value = editorText.text;
    }
    super.update(changed);
    if (focused instanceof HTMLButtonElement && !focused.isConnected) this.#focusBoxAfterUpdate = true;
  }

  protected override render() {
    const label = this.placeholder ?? localizeOwn(this, "prompt");
    // "connecting" and "reconnecting" are shown under their own string keys; "closed" is final, an alert of its own.
    const state = this.#store.value?.connection;
    // While its own command is in flight a button is aria-disabled, not disabled: a disabled one would drop the focus
    // to the page's body (a press then does nothing: #send checks canSend).
    const waiting = this.#busy ? "true" : nothing;
    const button = (part: string, key: StringKey, onClick: () => void, disabled = this.#sendBlocked, aria = waiting) =>
      html`<button type="button" part="button ${part}-button ${part}" ?disabled=${disabled} aria-disabled=${disabled ? nothing : aria} @click=${onClick}>${localizeOwn(this, key)}</button>`;
    const matches = this.#matches;
    const open = matches.length > 0;
    const active = Math.min(this.#active, matches.length - 1);
    const connecting = state !== undefined && state !== "open" && state !== "closed";
    const status = connecting
      ? localizeOwn(this, state)
      : this.#runStatus() || (this.#busy ? localizeOwn(this, "running") : "");
    return html`<div
      part="base"
      aria-busy=${this.#busy ? "true" : nothing}
      @dragover=${this.#onDragOver}
      @drop=${this.#onDrop}
    >
      ${open ? this.#renderCompletions(matches, active) : nothing}
      ${this.#renderQueue()}
      ${this.#renderImages()}
      <textarea
        part="textarea"
        dir="auto"
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
        @paste=${this.#onPaste}
      ></textarea>
      <div part="actions">
        ${
          this.streaming
            ? html`${button("steer", "steer", () => this.#send("steer"))}
              ${button("follow-up", "followUp", () => this.#send("follow_up"))}
              ${button("abort", "abort", () => void this.#abort(), this.disabled, nothing)}`
            : html`${button("send", "send", () => this.#send("prompt"))}${
                this.#stoppable ? button("abort", "abort", () => void this.#abort(), this.disabled, nothing) : nothing
              }`
        }
      </div>
      ${
        this.#sendError === undefined
          ? nothing
          : html`<p part="error" role="alert">${localizeOwn(this, "error")}: ${this.#sendError}${loginAdvice(this, this.#sendError)}</p>`
      }
      <span part="status" role="status" class=${connecting ? "" : "running"}>${status || nothing}</span>
      ${
        state === "closed"
          ? html`<p part="session-ended" role="alert">${localizeOwn(this, sessionEndKey(this.#store.value?.connectionEnd))}</p>`
          : nothing
      }
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
    // Code 0 is pi ending by itself (an extension's ctx.shutdown(), /quit): no crash, said as such.
    const clean = exit.code === 0;
    const text = localizeOwn(this, clean ? "agentStopped" : "agentExited", { code });
    const tail = exit.stderrTail;
    // The bridge restarts it on request (or by itself, "always": asking does it now); under --restart never only a
    // restart of the bridge can, which is said instead of a button that could not work.
    const restart =
      exit.restart === "never"
        ? html`<p part="restart-never">${localizeOwn(this, "restartNever")}</p>`
        : // aria-disabled, not disabled, while it restarts: a disabled button would drop the focus to the page.
          html`<button type="button" part="button restart-button" aria-disabled=${this.#restarting ? "true" : nothing} @click=${this.#restart}>${localizeOwn(
            this,
            this.#restarting ? "restarting" : "restartAgent",
          )}</button>`;
    return html`<div part="agent-exit" class=${clean ? "clean" : ""} role="alert">${
      tail.length > 0
        ? html`<details><summary>${text}</summary><pre part="stderr">${tail.join("\n")}</pre></details>`
        : text
    }${restart}</div>`;
  }

  /** Restart was pressed and the agent has not started again yet. */
  #restarting = false;

  /** A button that had the focus went with this render: the box takes it after the render. */
  #focusBoxAfterUpdate = false;

  readonly #restart = () => {
    if (this.#restarting || !this.#store.session?.restartAgent()) return;
    this.#restarting = true;
    this.requestUpdate();
  };

  /** What the agent's run is doing, for the status; "" while it is idle. */
  #runStatus(): string {
    const run = this.#store.value?.run;
    if (run?.status === "compacting") return localizeOwn(this, "compacting");
    if (run?.status === "retrying") {
      return localizeOwn(this, "retrying", { attempt: run.retry?.attempt ?? 1, max: run.retry?.maxAttempts ?? "?" });
    }
    return run?.working ? localizeOwn(this, "working") : "";
  }

  #renderQueue() {
    const slice = this.#conversation.value;
    if (!slice) return nothing;
    const { queue, clearable } = slice;
    if (queue.steering.length + queue.followUp.length === 0) return nothing;
    const item = (text: string, which: keyof Queues) =>
      html`<li part="queued ${which === "steering" ? "steering" : "follow-up"}">
        <span part="queued-kind">${localizeOwn(this, which === "steering" ? "steer" : "followUp")}</span>
        <span part="queued-text">${text}</span>
        ${
          clearable
            ? html`<button
                type="button"
                part="button take-back-button"
                aria-label=${localizeOwn(this, "takeBackLabel", { text })}
                ?disabled=${this.#busy || this.disabled}
                @click=${() => void this.#takeBack(which, text)}
              >${localizeOwn(this, "takeBack")}</button>`
            : nothing
        }
      </li>`;
    return html`<ul part="queue" aria-label=${localizeOwn(this, "queued")}>
        ${queue.steering.map((text) => item(text, "steering"))}${queue.followUp.map((text) => item(text, "followUp"))}
      </ul>
      ${clearable ? nothing : html`<p part="queue-note">${localizeOwn(this, "queueKept")}</p>`}`;
  }

  #renderImages() {
    if (this.#attachments.length === 0) return nothing;
    return html`<ul part="images" aria-label=${localizeOwn(this, "images")}>
      ${this.#attachments.map(
        (attachment) => html`<li part="image">
          <img part="thumbnail" src=${attachment.url} alt=${attachment.name} />
          <button
            type="button"
            part="button remove-image-button"
            aria-label=${localizeOwn(this, "removeImage", { name: attachment.name })}
            @click=${() => this.#removeImage(attachment)}
          >×</button>
        </li>`,
      )}
    </ul>`;
  }

  /**
   * At most COMPLETIONS_SHOWN commands at a time, the window moving with the current one, as pi's TUI lists them: the
   * list never scrolls (a scrolling popup would be a region the keyboard cannot reach; Up/Down move the window), each
   * option says its place in the whole list (`aria-posinset` / `aria-setsize`), and "3 of 40" shows under a cut list.
   */
  #renderCompletions(matches: readonly CompletionItem[], active: number) {
    const total = matches.length;
    const start = Math.max(0, Math.min(active - Math.floor(COMPLETIONS_SHOWN / 2), total - COMPLETIONS_SHOWN));
    const shown = matches.slice(start, start + COMPLETIONS_SHOWN);
    return html`<ul
      id="completions"
      part="completions"
      role="listbox"
      aria-label=${localizeOwn(this, "commands")}
      @mousedown=${(event: MouseEvent) => event.preventDefault()}
      @click=${this.#onCompletionClick}
    >
      ${shown.map((item, offset) => {
        const index = start + offset;
        return html`<li
          id="completion-${index}"
          part=${index === active ? "completion active" : "completion"}
          role="option"
          aria-selected=${index === active ? "true" : "false"}
          aria-posinset=${index + 1}
          aria-setsize=${total}
          data-index=${index}
        >
          <bdi part="completion-name">/${item.name}</bdi>${
            item.argumentHint ? html` <bdi part="completion-hint">${item.argumentHint}</bdi>` : nothing
          }${item.description ? html` <bdi part="completion-description">${item.description}</bdi>` : nothing}
        </li>`;
      })}
      ${
        total > COMPLETIONS_SHOWN
          ? html`<li part="completion-count" role="presentation" aria-hidden="true">${localizeOwn(
              this,
              "queuePosition",
              {
                index: active + 1,
                total,
              },
            )}</li>`
          : nothing
      }
    </ul>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (this.#focusBoxAfterUpdate) {
      this.#focusBoxAfterUpdate = false;
      this.shadowRoot?.querySelector<HTMLTextAreaElement>('[part~="textarea"]')?.focus();
    }
    super.updated(changed);
    const list = this.renderRoot.querySelector<HTMLElement>('[part~="completions"]');
    if (!list) return;
    // Above the box, unless there is no room there (a prompt at the top of the page): then below it.
    const base = this.renderRoot.querySelector<HTMLElement>('[part~="base"]');
    const room = base ? base.getBoundingClientRect().top : 0;
    list.classList.toggle("below", room < list.offsetHeight + 2);
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
    if (event.key === "Escape" && (this.streaming || this.#stoppable)) {
      event.preventDefault();
      void this.#abort();
      return;
    }
    if (event.key !== "Enter" || event.shiftKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    this.#send(!this.streaming ? "prompt" : event.altKey ? "follow_up" : "steer");
  }

  async #send(command: PromptCommand): Promise<void> {
    const message = this.value;
    const attachments = this.#attachments;
    if (!this.canSend || (message.trim() === "" && attachments.length === 0)) return;
    const images = attachments.map((attachment) => attachment.image);
    const detail: PromptSendDetail = images.length > 0 ? { message, command, images } : { message, command };
    if (!emit(this, "pi-send", detail, true)) return;
    // The command is on its way: its completion list closes, even while the text stays until pi answers.
    this.#query = undefined;
    const session = this.#store.session;
    this.#sendError = undefined;
    if (session) {
      this.#setBusy(true);
      try {
        // The error is shown here, beside the text kept for a retry, rather than as a second notification.
        await session.send(command, images.length > 0 ? { message, images } : { message }, { report: false });
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
    // The images went with it; any attached meanwhile stay for the next one.
    for (const attachment of attachments) this.#removeImage(attachment);
  }

  #setBusy(busy: boolean): void {
    this.#busy = busy;
    this.requestUpdate();
  }

  async #abort(): Promise<void> {
    const session = this.#store.session;
    if (!emit(this, "pi-abort", undefined, true) || !session) return;
    const cleared = await stopRun(session, this.#conversation.value?.clearable ?? false);
    if (cleared) this.#putBack(restoredEditorText(cleared, this.value));
  }

  /** Takes a queued message back into the box (pi 1.x). */
  async #takeBack(queue: keyof Queues, text: string): Promise<void> {
    const session = this.#store.session;
    if (!session || this.#busy) return;
    this.#setBusy(true);
    this.#sendError = undefined;
    try {
      const { taken, unsent } = await takeBack(session, queue, text);
      if (taken === undefined) this.#sendError = localizeOwn(this, "alreadySent");
      this.#putBack(
        restoredEditorText(
          { steering: [...(taken === undefined ? [] : [taken]), ...unsent], followUp: [] },
          this.value,
        ),
      );
    } catch (error) {
      this.#sendError = error instanceof Error ? error.message : String(error);
    } finally {
      this.#setBusy(false);
    }
  }

  /** Puts text into the box, caret at its end, focused. */
  #putBack(text: string): void {
    this.value = text;
    const field = this.renderRoot.querySelector("textarea");
    if (!field) return;
    field.value = text;
    field.setSelectionRange(text.length, text.length);
    field.focus();
  }

  #onPaste(event: ClipboardEvent): void {
    const files = [...(event.clipboardData?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    void this.#addFiles(files);
  }

  #onDragOver(event: DragEvent): void {
    if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
  }

  #onDrop(event: DragEvent): void {
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    void this.#addFiles(files);
  }

  /** Attaches the files that pass; the last refusal is shown in the alert. */
  async #addFiles(files: readonly File[]): Promise<void> {
    if (this.disabled) return;
    let refused: string | undefined;
    let count = this.#attachments.length;
    const reading: Promise<Attachment>[] = [];
    for (const file of files) {
      const why = refusal(file, count, this.maxImageBytes, this.maxImages);
      if (why) {
        const limit = formatBytes(this.maxImageBytes, nearestLang(this));
        refused = localizeOwn(this, why.key, { name: why.name, limit, count: this.maxImages });
      } else {
        count += 1;
        reading.push(attach(file));
      }
    }
    this.#sendError = refused;
    this.requestUpdate();
    const read = await Promise.allSettled(reading);
    for (const result of read)
      if (result.status === "fulfilled") this.#attachments = [...this.#attachments, result.value];
    this.requestUpdate();
  }

  #removeImage(attachment: Attachment): void {
    URL.revokeObjectURL(attachment.url);
    this.#attachments = this.#attachments.filter((item) => item !== attachment);
    this.requestUpdate();
  }

  #clearImages(): void {
    for (const attachment of this.#attachments) URL.revokeObjectURL(attachment.url);
    this.#attachments = [];
  }
}
