/**
 * When the conversation store asks pi again. pi announces no model change and no new session, so the store learns
 * from the answers to commands (anyone's: an element's `set_model` counts as much as the store's own `get_state`)
 * and refreshes on these occasions, the refresh rule:
 *
 * | occasion | sent |
 * |---|---|
 * | connect: the store is first read while open, the transport opens (again), a new pi process behind the bridge (`pi-elements/agent_start`, which also resets the conversation) | `get_state`, `get_messages`, `get_available_models`, `get_available_thinking_levels`, `get_session_stats` |
 * | `set_model` answered (the model is taken from the answer) | `get_state`, `get_available_thinking_levels` |
 * | `cycle_model` answered (model and level from the answer) | `get_state`, `get_available_thinking_levels` |
 * | `set_thinking_level` answered (the level asked for, until `get_state` says what pi chose) | `get_state` |
 * | `cycle_thinking_level` answered (the level from the answer) | nothing |
 * | `new_session`, `switch_session`, `fork`, `clone` answered and not cancelled: the conversation is reset | as on connect |
 * | `set_session_name` answered (the name asked for) | nothing |
 * | `bash` answered (its `bashExecution` message has no event) | `get_messages` |
 * | `agent_end` | `get_session_stats` |
 * | `compaction_end` with a result (the history is now the compacted one) | `get_messages`, `get_session_stats` |
 * | `entry_appended` of a `context_edit` (pi 1.6: a message left or changed in pi's context) | `get_messages` |
 * | `thinking_level_changed`, `session_info_changed` | nothing: the event says it |
 * | another client's `new_session`, `switch_session`, `fork`, `clone` answered and not cancelled (behind a bridge every client hears every answer): the conversation is reset | as on connect |
 * | another client's `set_model` or `cycle_model` answered | `get_state`, `get_available_thinking_levels` |
 * | another client's `set_thinking_level`, `cycle_thinking_level`, `set_session_name` answered | `get_state` |
 * | another client's `bash` answered | `get_messages` |
 *
 * A refresh that fails (pi 0.73.1 has no `get_available_thinking_levels`) is not reported to the user.
 *
 * Why a `context_edit` is asked about rather than applied: its `targetId` is a session entry id, and no message over
 * RPC carries one, so the store cannot find the message it edits; pi's `get_messages` is its context with the edit
 * applied. The one pi makes by itself (dropping a failed answer before it retries) is also done at
 * `auto_retry_start`, so the view does not wait for the answer. Other entries (`custom`, an extension's own data;
 * labels; session info) are no message and are not acted on.
 */
import type { ModelInfo, SessionState, ThinkingLevel } from "../protocol/commands.js";
import type { AgentEventBase } from "../protocol/events.js";
import { SESSION_CHANGING_COMMANDS } from "../session/run.js";
import type { ConversationState } from "./conversation-state.js";

/**
 * How the sync sends: a command whose failure is not shown to the user; `probe` is a command pi may not know, sent
 * with a bound on the session's clock so that no pi leaves it pending for ever.
 */
export type SyncSend = (type: string, probe?: boolean) => void;

/** The command whose answer says which protocol pi speaks (see `SessionInfo.protocol`). */
const PROBE = "get_available_thinking_levels";

const CONNECT_COMMANDS = [
  "get_state",
  "get_messages",
  "get_available_models",
  "get_available_thinking_levels",
  "get_session_stats",
] as const;

export class ConversationSync {
  readonly #state: ConversationState;
  readonly #send: SyncSend;

  constructor(state: ConversationState, send: SyncSend) {
    this.#state = state;
    this.#send = send;
  }

  /** A connect. `gap`: the connection was lost since the last one, so the streaming message is dropped. */
  connect(gap: boolean): void {
    if (gap) this.#state.dropStreaming();
    for (const type of CONNECT_COMMANDS) {
      if (type === PROBE) this.#probe();
      else this.#send(type);
    }
  }

  /** Asks for the thinking levels, unless pi has shown it lacks the command (0.73). */
  #probe(): void {
    if (this.#state.getSnapshot().info.protocol !== "0.73") this.#send(PROBE, true);
  }

  /** A command the sync sent failed with `error` (pi's words, or the session's bound or close). */
  onFailed(type: string, error: unknown): void {
    // pi 0.73.1's answer to a command it does not know (PiCommandError's message is pi's error).
    if (type === PROBE && error instanceof Error && /^Unknown command/.test(error.message))
      this.#state.setInfo({ protocol: "0.73" });
  }

  /** An agent event, after the store applied it. */
  onEvent(event: AgentEventBase): void {
    if (event.type === "agent_end") this.#send("get_session_stats");
    else if (event.type === "compaction_end" && typeof event.result === "object" && event.result !== null) {
      this.#send("get_messages");
      this.#send("get_session_stats");
    } else if (event.type === "entry_appended" && isContextEdit(event.entry)) this.#send("get_messages");
  }

  /**
   * A successful answer to `command` (the object sent) with its `data`; `mark` is the store's `mark()` when the
   * command was sent.
   */
  onResult(command: { type: string; [key: string]: unknown }, data: unknown, mark: number): void {
    const state = this.#state;
    const value = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
    switch (command.type) {
      case "get_state":
        state.setState(value as Partial<SessionState>);
        return;
      case "get_messages":
        if (Array.isArray(value.messages)) state.setHistory(value.messages, mark);
        return;
      case "get_available_models":
        if (Array.isArray(value.models)) state.setInfo({ availableModels: value.models as ModelInfo[] });
        return;
      case "get_available_thinking_levels":
        if (Array.isArray(value.levels))
          state.setInfo({ availableThinkingLevels: value.levels as ThinkingLevel[], protocol: "1.x" });
        return;
      case "get_session_stats":
        state.setStats(value);
        return;
      case "set_model":
        if (typeof value.id === "string") state.setInfo({ model: value as ModelInfo });
        this.#send("get_state");
        this.#probe();
        return;
      case "cycle_model":
        if (typeof value.model === "object" && value.model !== null) {
          state.setInfo({
            model: value.model as ModelInfo,
            ...(typeof value.thinkingLevel === "string" ? { thinkingLevel: value.thinkingLevel as ThinkingLevel } : {}),
          });
        }
        this.#send("get_state");
        this.#probe();
        return;
      case "set_thinking_level":
        if (typeof command.level === "string") state.setInfo({ thinkingLevel: command.level as ThinkingLevel });
        this.#send("get_state");
        return;
      case "cycle_thinking_level":
        if (typeof value.level === "string") state.setInfo({ thinkingLevel: value.level as ThinkingLevel });
        return;
      case "set_session_name":
        if (typeof command.name === "string") state.setInfo({ sessionName: command.name || undefined });
        return;
      case "bash":
        this.#send("get_messages");
        return;
    }
    if (SESSION_CHANGING_COMMANDS.has(command.type) && value.cancelled !== true) {
      state.reset();
      this.connect(false);
    }
  }

  /**
   * A successful answer to another client's command (behind a bridge every client hears them): what it changed is
   * asked again, since the command's own fields are not known here.
   */
  onOtherResult(command: string, data: unknown): void {
    const value = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
    if (SESSION_CHANGING_COMMANDS.has(command)) {
      if (value.cancelled === true) return;
      this.#state.reset();
      this.connect(false);
    } else if (command === "set_model" || command === "cycle_model") {
      this.#send("get_state");
      this.#probe();
    } else if (OTHER_STATE_CHANGES.has(command)) this.#send("get_state");
    else if (command === "bash") this.#send("get_messages");
  }
}

/** Another client's commands whose effect `get_state` tells. */
const OTHER_STATE_CHANGES = new Set(["set_thinking_level", "cycle_thinking_level", "set_session_name"]);

function isContextEdit(entry: unknown): boolean {
  return typeof entry === "object" && entry !== null && (entry as { type?: unknown }).type === "context_edit";
}
