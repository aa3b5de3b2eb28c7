/**
 * One session with one pi over one transport: parses and routes records, correlates commands with responses,
 * keeps the extension-UI state (with its own clock for dialog deadlines) and answers dialogs exactly once.
 *
 * Validation is split by volume: extension-UI requests, responses and bridge messages get full schema checks; agent
 * events (a `message_update` per token) only an envelope check. A bad record never stops the session: it becomes a
 * `diagnostic`, and a dialog nobody can present is answered `cancelled` at once so the agent never waits on it.
 */
import { parseRecord } from "../codec/jsonl.js";
import { type Diagnostic, errorMessage, excerpt } from "../diagnostics.js";
import { TypedEventTarget, ValueEvent } from "../events.js";
import { BridgeMessage, isBridgeType } from "../protocol/bridge.js";
import {
  AnyCommand,
  COMMAND_TYPES,
  type CommandParams,
  type CommandResults,
  type CommandType,
  RpcCommand,
} from "../protocol/commands.js";
import {
  type AgentEvent,
  type AgentEventBase,
  isAgentEventEnvelope,
  type KnownAgentEvents,
  type KnownAgentEventType,
} from "../protocol/events.js";
import {
  type DialogAnswer,
  ExtensionUiRequest,
  FIRE_AND_FORGET_METHODS,
  isDialogMethod,
} from "../protocol/extension-ui.js";
import { RpcResponse } from "../protocol/responses.js";
import type { Transport, TransportState } from "../transports/transport.js";
import { type Clock, DeadlineTimer, realClock } from "./clock.js";
import { type DialogClosed, type DialogSession, Dialogs } from "./dialogs.js";

export type { DialogClosed, DialogClosedReason } from "./dialogs.js";

import { PiCommandError, PiSessionClosedError } from "./errors.js";
import { type RunRecord, type RunState, reduceRun } from "./run.js";
import { RunLog } from "./run-log.js";
import type { AgentExit, UiStore } from "./ui-snapshot.js";
import { toNotifyType, UiState } from "./ui-state.js";

export interface PiSessionOptions {
  /** Default: real time. Tests pass a controlled clock. */
  clock?: Clock;
  /** Ring buffer size for notifications. Default 100. */
  maxNotifications?: number;
  /** How store notifications are batched. Default `queueMicrotask`. */
  schedule?: (flush: () => void) => void;
  /**
   * Most characters of the run under way kept for a store that attaches in its middle (see `attach`). Default
   * `DEFAULT_RUN_LOG_CHARS`, 2 Mi.
   */
  maxRunLogChars?: number;
}

/** A command as sent: its type, its id and its params. */
export type SentCommand = { readonly type: string; readonly id: string; readonly [key: string]: unknown };

/**
 * What a store attached to a session (`PiSession.attach`) is told, by plain calls on the session's own path: no
 * Event objects, nothing done per record when nothing is attached. Each call comes after the session's own state
 * (the UI store) took the record and before the session's events and the command's promise. Every member is optional.
 */
export interface SessionObserver {
  /** Every agent event, known or not (only its envelope is checked): a `message_update` per token. */
  agentEvent?(event: AgentEventBase): void;
  /** Every valid bridge message (`pi-elements/…`). */
  bridgeMessage?(message: BridgeMessage): void;
  /** A valid command is about to be written to the transport; the same object comes back in `commandResult`. */
  commandSent?(command: SentCommand): void;
  /** pi answered `success: true` to `command` with `data`. */
  commandResult?(command: SentCommand, data: unknown): void;
  /**
   * pi answered `success: false` to `command` (its `error`). A caller's timeout or abort is not told: pi may still be
   * running the command, and its answer then matches no command in flight.
   */
  commandFailed?(command: SentCommand, error: string): void;
  /**
   * pi answered `success: true` to a command this session did not send (its id matches none in flight): behind a
   * bridge, every client hears the answers to the others' commands. Only the command's name and the data are known.
   */
  otherResult?(command: string, data: unknown): void;
  /** The transport's state changed (the UI store's `connection` already says it). */
  connection?(state: TransportState): void;
  /**
   * The run changed (the UI store's `run` already says it): told before the record that changed it reaches
   * `agentEvent`, `bridgeMessage` or `commandResult`.
   */
  run?(run: RunState): void;
}

/** What `attach` gives back to the observer. */
export interface SessionAttachment {
  /** Reports a problem on the session's `diagnostic` event, as the session reports its own. */
  diagnose(diagnostic: Diagnostic): void;
  /** Stops the calls. Idempotent. */
  detach(): void;
}

export interface SendOptions {
  /** Milliseconds (on the session's clock) before the promise rejects with a `TimeoutError` DOMException. */
  timeout?: number;
  /** Stops waiting: the promise rejects with `signal.reason`. pi is not told (send "abort" for that). */
  signal?: AbortSignal;
  /**
   * Whether pi's `success: false` answer is also shown to the user as an error notification (the snapshot's
   * `notifications`, which `pi-notifications` renders). Default true; pass false when the caller shows the error
   * itself (as pi-prompt does, beside the text it keeps) or expects failures (probing a command).
   */
  report?: boolean;
}

export type SessionEventMap = {
  /** Every agent event, known or not. */
  "agent-event": ValueEvent<AgentEvent>;
  diagnostic: ValueEvent<Diagnostic>;
  /** Every valid extension-UI request, dispatched after the state changed. */
  "ui-request": ValueEvent<ExtensionUiRequest>;
  /** A pending dialog left the queue. */
  "dialog-closed": ValueEvent<DialogClosed>;
} & { [K in KnownAgentEventType]: ValueEvent<KnownAgentEvents[K]> };

/** Known agent events are also dispatched under their own name; unknown ones only as "agent-event". */
const KNOWN_AGENT_EVENTS = new Set<string>(
  Object.keys({
    agent_start: true,
    agent_end: true,
    turn_start: true,
    turn_end: true,
    message_start: true,
    message_update: true,
    message_end: true,
    tool_execution_start: true,
    tool_execution_update: true,
    tool_execution_end: true,
    queue_update: true,
    compaction_start: true,
    compaction_end: true,
    auto_retry_start: true,
    auto_retry_end: true,
    extension_error: true,
    agent_settled: true,
    entry_appended: true,
    bash_execution_update: true,
    summarization_retry_scheduled: true,
    summarization_retry_attempt_start: true,
    summarization_retry_finished: true,
    thinking_level_changed: true,
    session_info_changed: true,
  } satisfies Record<KnownAgentEventType, true>),
);

interface PendingCommand {
  type: string;
  /** The command as sent, for the observers' `commandResult`. */
  command: SentCommand;
  report: boolean;
  /** Settle the command once: a second call (an answer after its timeout) does nothing. */
  resolve: (data: unknown) => void;
  reject: (error: unknown) => void;
  /** Only with `timeout`. */
  timer: DeadlineTimer | undefined;
  /** Only with `signal`. */
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class PiSession extends TypedEventTarget<SessionEventMap> implements DialogSession {
  readonly transport: Transport;
  readonly #state: UiState;
  readonly #clock: Clock;
  readonly #idPrefix = randomPrefix();
  #nextCommand = 0;
  readonly #commands = new Map<string, PendingCommand>();
  #diagnosticCount = 0;
  #closed = false;
  /** The pending dialogs' life: one timer for their deadlines, one answer path. */
  readonly #dialogs: Dialogs;
  /**
   * Event types anyone ever listened to. Others are not dispatched at all: building an Event per `message_update`
   * token that nobody hears is most of the cost of a busy stream.
   */
  readonly #listened = new Set<string>();
  /** What `attach` added, in order. A new array on every change, so a call that attaches or detaches is safe. */
  #observers: readonly SessionObserver[] = [];
  /** The run so far, while no store is attached (see `attach`). */
  readonly #runLog: RunLog;

  override addEventListener: TypedEventTarget<SessionEventMap>["addEventListener"] = (type, listener, options) => {
    this.#listened.add(type);
    EventTarget.prototype.addEventListener.call(this, type, listener as EventListenerOrEventListenerObject, options);
  };

  constructor(transport: Transport, options: PiSessionOptions = {}) {
    super();
    this.transport = transport;
    this.#clock = options.clock ?? realClock;
    this.#runLog = new RunLog(options.maxRunLogChars);
    this.#state = new UiState({ ...options, connection: transport.state, connectionEnd: transport.end });
    this.#dialogs = new Dialogs(this.#state, this.#clock, (dialog, reason, fields) => {
      if (fields) this.#sendUiResponse({ id: dialog.id, ...fields });
      this.#emit("dialog-closed", { id: dialog.id, reason });
    });
    transport.addEventListener("record", this.#onRecord);
    transport.addEventListener("state", this.#onState);
    transport.addEventListener("diagnostic", this.#onTransportDiagnostic);
  }

  /** The extension-UI store: `getSnapshot()` and `subscribe(listener)`, both usable unbound. */
  get ui(): UiStore {
    return this.#state;
  }

  /**
   * Attaches a store to the session's path (`@pi-elements/core/conversation` attaches the conversation store so): the
   * observer hears every agent event, bridge message, command sent and successful answer, and transport state from
   * now on, by plain calls (see `SessionObserver`). The first observer, when it attaches in the middle of a run, first
   * hears that run's agent events so far (kept while nothing was attached, from agent_start, up to
   * `maxRunLogChars`): pi 1.x streams only deltas, and without them the answer so far would not show until its end.
   * It hears the run as it is now (`run`) before those. Nothing else that came before is replayed.
   */
  attach(observer: SessionObserver): SessionAttachment {
    const run = this.#runLog.take();
    this.#observers = [...this.#observers, observer];
    observer.run?.(this.#state.run);
    for (const event of run) observer.agentEvent?.(event);
    return {
      diagnose: (diagnostic) => this.#diagnose(diagnostic),
      detach: () => {
        this.#observers = this.#observers.filter((attached) => attached !== observer);
      },
    };
  }

  /** The session's time: its dialogs' deadlines (`PendingDialog.deadline`) and command timeouts are on it. */
  get clock(): Clock {
    return this.#clock;
  }

  /** How many diagnostics this session has dispatched. */
  get diagnosticCount(): number {
    return this.#diagnosticCount;
  }

  /**
   * Sends a command with a generated id; resolves with the response's data, rejects with PiCommandError on
   * success:false, with PiSessionClosedError on close, with a TimeoutError only if options.timeout was given, with
   * `signal.reason` on abort, and with a TypeError (nothing sent) when the params do not match the command.
   *
   * A command of pi 0.73 or 1.6 is checked against its schema and typed; any field the schema does not name is sent
   * too. A command type this core does not know (a newer pi's) is sent as given, as long as its params are JSON; its
   * result is `unknown`. Answers to dialogs go through `respond`, not here.
   */
  send<T extends CommandType>(type: T, params: CommandParams<T>, options?: SendOptions): Promise<CommandResults[T]>;
  send<const T extends string>(
    type: T & (T extends CommandType ? never : unknown),
    params?: Record<string, unknown>,
    options?: SendOptions,
  ): Promise<unknown>;
  send(type: string, params: Record<string, unknown> = {}, options: SendOptions = {}): Promise<unknown> {
    if (this.#closed) return Promise.reject(new PiSessionClosedError());
    const { timeout, signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#nextCommand += 1;
    const id = `${this.#idPrefix}-${this.#nextCommand}`;
    const command = Object.assign({ type, id }, params, { type, id });
    const problem = commandProblem(command);
    if (problem !== undefined) return Promise.reject(new TypeError(`Invalid "${type}" command: ${problem}`));
    const line = JSON.stringify(command);
    return new Promise<unknown>((resolve, reject) => {
      const pending: PendingCommand = {
        type,
        command,
        report: options.report ?? true,
        resolve: (data) => {
          if (this.#settle(id, pending)) resolve(data);
        },
        reject: (error) => {
          if (this.#settle(id, pending)) reject(error);
        },
        timer: undefined,
        signal: undefined,
        onAbort: undefined,
      };
      this.#commands.set(id, pending);
      // A timer and an abort listener only for a command that asked for them: the store's own refreshes (one
      // `get_session_stats` per run) ask for neither.
      if (signal) {
        pending.signal = signal;
        pending.onAbort = () => pending.reject(signal.reason);
        signal.addEventListener("abort", pending.onAbort, { once: true });
      }
      if (timeout !== undefined) {
        pending.timer = new DeadlineTimer(this.#clock, () =>
          pending.reject(new DOMException(`"${type}" got no response within ${timeout} ms.`, "TimeoutError")),
        );
        pending.timer.set(this.#clock.now() + timeout);
      }
      for (const observer of this.#observers) observer.commandSent?.(command);
      try {
        this.transport.send(line);
      } catch (error) {
        pending.reject(error);
      }
    });
  }

  /** Takes `pending` out of the commands in flight; false if it was already settled. */
  #settle(id: string, pending: PendingCommand): boolean {
    if (this.#commands.get(id) !== pending) return false;
    this.#commands.delete(id);
    pending.timer?.clear();
    if (pending.onAbort) pending.signal?.removeEventListener("abort", pending.onAbort);
    return true;
  }

  /**
   * The one way to answer a dialog. Sends exactly one extension_ui_response; returns false and sends nothing for a
   * second answer, an unknown or expired id, or an answer of the wrong shape for the request (see `answerFields`:
   * confirm takes {confirmed}, select a {value} among its options, input and editor a {value}; all {cancelled:true}).
   */
  respond(id: string, answer: DialogAnswer): boolean {
    return this.#dialogs.respond(id, answer);
  }

  /**
   * Shows the pending dialog with this id instead of the one shown (`UiSnapshot.shownDialogId`): for a queue bar's
   * Previous and Next, so every host of the session shows what the user picked. Nothing is sent to pi. False when
   * no such dialog is pending.
   */
  showDialog(id: string): boolean {
    return this.#state.showDialog(id);
  }

  /**
   * Asks the bridge to start the agent again (`pi-elements/restart`; the bridge stops it first if it still runs):
   * what a Restart button does once `agentExit` is set. The new agent's start clears `agentExit`. False, and nothing
   * sent, when the session has ended or the bridge said it restarts only when itself restarted ("never").
   */
  restartAgent(): boolean {
    if (this.#closed || this.#state.getSnapshot().agentExit?.restart === "never") return false;
    this.transport.send(JSON.stringify({ type: "pi-elements/restart" }));
    return true;
  }

  /** Clears statuses and widgets (pi never sends a reset). */
  reset(): void {
    this.#state.reset();
  }

  /**
   * Ends the session for good: rejects pending commands, closes the transport, sets `connection` to "closed" and
   * removes every pending dialog (a `dialog-closed` event each, reason "closed"; nothing is sent, and `respond`
   * takes no answer from now on). It also runs when the transport closes by itself (a stream's readable ended, a
   * WebSocket ran out of reconnect attempts). Idempotent.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#dialogs.stop();
    // "closed" first: a view that hears of both at once, or of the connection first, knows why its dialog left.
    this.#state.setConnection("closed", this.transport.end);
    this.#dialogs.clear("closed");
    const error = new PiSessionClosedError();
    // Each reject deletes its own entry, which a Map's iteration allows.
    for (const command of this.#commands.values()) command.reject(error);
    this.transport.removeEventListener("record", this.#onRecord);
    this.transport.removeEventListener("state", this.#onState);
    this.transport.removeEventListener("diagnostic", this.#onTransportDiagnostic);
    this.transport.close();
  }

  #onRecord = (event: ValueEvent<string>): void => {
    const line = event.value;
    const parsed = parseRecord(line);
    if (!parsed.ok) {
      this.#diagnose(parsed.diagnostic);
      return;
    }
    const message = parsed.value;
    if (!isAgentEventEnvelope(message)) {
      this.#diagnose({
        code: "invalid-message",
        message: "Not a message: expected a JSON object with a string `type`.",
        excerpt: excerpt(line),
      });
    } else if (message.type === "response") {
      this.#onResponse(message, line);
    } else if (message.type === "extension_ui_request") {
      this.#onUiRequest(message, line);
    } else if (isBridgeType(message.type)) {
      this.#onBridgeMessage(message, line);
    } else {
      this.#onAgentEvent(message, line.length);
    }
  };

  #onState = (event: ValueEvent<TransportState>): void => {
    this.#state.setConnection(event.value, this.transport.end);
    for (const observer of this.#observers) observer.connection?.(event.value);
    // "closed" is final for a transport (reconnecting is its own state): nothing in flight can be answered now.
    if (event.value === "closed") this.close();
  };

  #onTransportDiagnostic = (event: ValueEvent<Diagnostic>): void => {
    this.#diagnose(event.value);
  };

  #onResponse(message: AgentEventBase, line: string): void {
    const id = typeof message.id === "string" ? message.id : undefined;
    const command = id === undefined ? undefined : this.#commands.get(id);
    const checked = RpcResponse.safeParse(message);
    if (!checked.success) {
      const problem = `Malformed response: ${describeIssues(checked.error.issues)}`;
      // A caller waiting on this id would otherwise wait forever.
      command?.reject(new PiCommandError(command.type, problem, message));
      this.#diagnose({ code: "invalid-message", message: problem, excerpt: excerpt(line), id });
      return;
    }
    const response = checked.data;
    this.#hearRun(message as RunRecord);
    // pi 0.73 answers a command it does not know without the command's id ("Unknown command: …"): such a failure
    // settles the oldest command of that name in flight, so none waits for ever (pi answers an unknown command at
    // once and in order; the next such failure settles the next).
    if (!command && id === undefined && !response.success) {
      const named = [...this.#commands.values()].find((pending) => pending.type === response.command);
      if (named) {
        this.#failed(named, response.error, response);
        return;
      }
    }
    if (!command) {
      const what = response.success ? "a response" : `an error ("${response.error}")`;
      this.#diagnose({
        code: "unknown-response-id",
        message: `pi sent ${what} for "${response.command}" matching no command in flight.`,
        excerpt: excerpt(line),
        id,
      });
      if (response.success)
        for (const observer of this.#observers) observer.otherResult?.(response.command, response.data);
      return;
    }
    if (response.success) {
      for (const observer of this.#observers) observer.commandResult?.(command.command, response.data);
      command.resolve(response.data);
      return;
    }
    this.#failed(command, response.error, response);
  }

  /** pi refused `command`: reported where the caller asked, told to the observers, and its promise rejected. */
  #failed(command: PendingCommand, error: string, response: unknown): void {
    if (command.report) {
      this.#state.reportError(error, { kind: "command", command: command.type }, this.#clock.now());
    }
    for (const observer of this.#observers) observer.commandFailed?.(command.command, error);
    command.reject(new PiCommandError(command.type, error, response));
  }

  #onUiRequest(message: AgentEventBase, line: string): void {
    const checked = ExtensionUiRequest.safeParse(message);
    const id = typeof message.id === "string" && message.id.length > 0 ? message.id : undefined;
    if (checked.success) {
      const request = checked.data;
      if (!this.#state.apply(request, this.#clock.now())) {
        this.#diagnose({
          code: "duplicate-request-id",
          message: `A ${request.method} dialog with this id is already pending; the duplicate is ignored.`,
          excerpt: excerpt(line),
          id,
        });
        return;
      }
      this.#dialogs.changed();
      this.#emit("ui-request", request);
      return;
    }
    const method = message.method;
    const dialog = isDialogMethod(method);
    const presentable = dialog || (FIRE_AND_FORGET_METHODS as readonly unknown[]).includes(method);
    // A dialog, or a method this client cannot present, may block the agent: it is answered cancelled when its id is
    // usable and belongs to no pending dialog. An invalid fire-and-forget request is only dropped.
    const blocking = dialog || !presentable;
    const outcome = !blocking
      ? "dropped"
      : id === undefined
        ? "not answered (no usable id)"
        : this.#state.hasDialog(id)
          ? "not answered (its id belongs to a pending dialog)"
          : "answered cancelled";
    this.#diagnose({
      code: presentable ? "invalid-ui-request" : "unsupported-ui-method",
      message: presentable
        ? `Invalid ${String(method)} request, ${outcome}: ${describeIssues(checked.error.issues)}`
        : `Unsupported extension-UI method ${JSON.stringify(method) ?? "(none)"}, ${outcome}.`,
      excerpt: excerpt(line),
      id,
    });
    if (id !== undefined && outcome === "answered cancelled") this.#sendUiResponse({ id, cancelled: true });
  }

  #onBridgeMessage(message: AgentEventBase, line: string): void {
    const checked = BridgeMessage.safeParse(message);
    if (!checked.success) {
      this.#diagnose({
        code: "invalid-message",
        message: `Invalid or unknown bridge message: ${describeIssues(checked.error.issues)}`,
        excerpt: excerpt(line),
      });
      return;
    }
    const bridge = checked.data;
    this.#hearRun(bridge);
    switch (bridge.type) {
      case "pi-elements/hello":
        // The bridge's replay follows and re-sends what is still pending, so this is silent: a dialog that comes
        // back keeps its id, and a renderer keyed by id keeps what the user typed.
        this.#dialogs.clear();
        this.#state.reset();
        this.#runLog.clear();
        break;
      case "pi-elements/dialog_closed": {
        this.#dialogs.close(bridge.id, "remote");
        break;
      }
      case "pi-elements/agent_exit": {
        this.#state.setAgentExit({
          code: bridge.code,
          signal: bridge.signal,
          stderrTail: bridge.stderrTail ?? [],
          restart: restartPolicy(bridge.restart),
        });
        // What the dead process's extensions showed (statuses such as "● ready", widgets) no longer holds.
        this.#state.reset();
        this.#runLog.clear();
        this.#dialogs.clear("agent_exit");
        break;
      }
      case "pi-elements/agent_start":
        this.#state.setAgentExit(undefined);
        break;
      case "pi-elements/agent_diagnostic":
        this.#state.report(
          bridge.level === "error" ? "error" : "warning",
          bridge.message,
          { kind: "agent" },
          this.#clock.now(),
        );
        break;
      case "pi-elements/earlier_notifications":
        this.#state.addEarlier(
          bridge.notifications.map(({ id, notifyType, message, ageMs }) => ({
            id,
            type: toNotifyType(notifyType),
            message,
            ageMs,
          })),
          this.#clock.now(),
        );
        break;
    }
    for (const observer of this.#observers) observer.bridgeMessage?.(bridge);
  }

  #onAgentEvent(event: AgentEventBase, chars: number): void {
    const working = this.#state.run.working;
    this.#hearRun(event);
    if (event.type === "extension_error") this.#reportExtensionError(event);
    if (this.#observers.length === 0) this.#runLog.hear(event, chars, working && !this.#state.run.working);
    for (const observer of this.#observers) observer.agentEvent?.(event);
    this.#emit("agent-event", event);
    if (this.#listened.has(event.type) && KNOWN_AGENT_EVENTS.has(event.type)) {
      this.dispatchEvent(new ValueEvent(event.type, event));
    }
  }

  /** One record for the run (run.ts): a change is published in the snapshot and told to the observers. */
  #hearRun(record: RunRecord): void {
    const run = reduceRun(this.#state.run, record);
    if (run === this.#state.run) return;
    this.#state.setRun(run);
    for (const observer of this.#observers) observer.run?.(run);
  }

  /** An extension threw (pi's `extension_error`): the user sees its error, and which extension and event. */
  #reportExtensionError(event: AgentEventBase): void {
    const {
      error,
      extensionPath,
      event: during,
    } = event as { error?: unknown; extensionPath?: unknown; event?: unknown };
    const message = typeof error === "string" && error !== "" ? error : "An extension failed.";
    this.#state.reportError(
      message,
      {
        kind: "extension",
        ...(typeof extensionPath === "string" ? { extensionPath } : {}),
        ...(typeof during === "string" ? { event: during } : {}),
      },
      this.#clock.now(),
    );
  }

  #sendUiResponse(fields: { id: string; [key: string]: unknown }): void {
    try {
      this.transport.send(JSON.stringify({ type: "extension_ui_response", ...fields }));
    } catch (error) {
      this.#diagnose({
        code: "transport",
        message: `Could not send the answer: ${errorMessage(error)}`,
        id: fields.id,
      });
    }
  }

  #diagnose(diagnostic: Diagnostic): void {
    this.#diagnosticCount += 1;
    this.#emit("diagnostic", diagnostic);
  }

  #emit<K extends "agent-event" | "diagnostic" | "ui-request" | "dialog-closed">(
    type: K,
    value: SessionEventMap[K]["value"],
  ): void {
    if (this.#listened.has(type)) this.dispatchEvent(new ValueEvent(type, value));
  }
}

/** A bridge's restart policy as the session keeps it: a policy it does not know is "unknown". */
function restartPolicy(policy: string | undefined): AgentExit["restart"] {
  return policy === "on-request" || policy === "always" || policy === "never" ? policy : "unknown";
}

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Per-session command ids: a random prefix keeps two sessions on one bridge (or one page) from colliding. */
function randomPrefix(): string {
  // 32 random bits as 8 hex digits.
  return crypto.getRandomValues(new Uint32Array(1))[0]!.toString(16).padStart(8, "0");
}

/** Types that are not commands: answers, pi's own messages and the bridge's, each with its own path. */
const NOT_COMMANDS = new Set(["extension_ui_response", "extension_ui_request", "response"]);

/**
 * Why a command object cannot be sent, or undefined: a known type must match its schema; any type must be a
 * command type (not an answer, not one of pi's or the bridge's own messages) and its fields JSON values.
 */
function commandProblem(command: Record<string, unknown> & { type: string }): string | undefined {
  if (NOT_COMMANDS.has(command.type) || isBridgeType(command.type)) {
    return `"${command.type}" is not a command (dialogs are answered with respond()).`;
  }
  const checked = COMMAND_TYPES.has(command.type) ? RpcCommand.safeParse(command) : AnyCommand.safeParse(command);
  if (!checked.success) return describeIssues(checked.error.issues);
  if (!isJsonValue(command)) return "its params must be JSON values (no functions, undefined in arrays, NaN, cycles).";
  return undefined;
}

/** Whether `value` survives JSON as it is: plain objects, arrays, strings, finite numbers, booleans, null. */
function isJsonValue(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || seen.has(value)) return false;
  seen.add(value);
  const items = Array.isArray(value) ? value : Object.values(value).filter((item) => item !== undefined);
  const ok = items.every((item) => isJsonValue(item, seen));
  seen.delete(value);
  return ok;
}
